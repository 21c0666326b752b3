/**
 * [ADMIN][SEARCH] Admin Payments' search picks its page one of two ways (payments/service.ts
 * `searchPick`): from the payments of the brands it finds when they are fewer than 200, else by
 * walking the list newest first. Both answer the same list: here one search finds 3 brands and
 * another the same 3 among 200, and each is paged through its Link headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import { createTestApp, type Agent, type Res, type TestApp } from '../support/app';
import { createUser, kinds, signedIn } from '../support/factories';
import { createOpportunity, createPayment } from '../support/content';

let t: TestApp;
let admin: Agent;
const expected: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  const opportunity = await createOpportunity(t.db, { maxSlots: 1000 });
  const found = await Promise.all([1, 2, 3].map((n) => createUser(t.db, { name: `Wide Brand ${n}`, brandName: `Wide ${n}`, email: `owner${n}@wide-net.test` })));
  const other = await createUser(t.db, { name: 'Narrow', brandName: 'Narrow Co', email: 'owner@narrow.test' });
  // 197 more brands the wide search finds, without payments (no organisation needed for that)
  await t.db.insert(users).values(
    Array.from({ length: 197 }, (_, i) => ({ email: `idle${i}@wide-net.test`, password: 'x', role: 'brand' as const, name: `Idle ${i}`, approved: true })),
  );
  let second = 0;
  for (let round = 0; round < 3; round++) {
    for (const brand of [...found, other]) {
      const row = await createPayment(t.db, {
        brandId: brand.id,
        opportunityId: opportunity.id,
        status: round === 1 ? 'released' : 'paid',
        amount: '10.00',
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second++)),
      });
      if (brand !== other) expected.unshift(row.id);
    }
  }
});
afterAll(() => t?.close());

async function walk(url: string): Promise<string[]> {
  const ids: string[] = [];
  for (let next: string | null = url, n = 0; next; n++) {
    if (n > 50) throw new Error('paging does not end');
    const res: Res = await admin.get(next);
    expect(res.status, res.text).toBe(200);
    ids.push(...(res.body as { id: string }[]).map((r) => r.id));
    const link: unknown = res.headers.link;
    next = typeof link === 'string' ? /<([^>]+)>/.exec(link)![1] : null;
  }
  return ids;
}

describe('[ADMIN][SEARCH] Payments: few brands found, or many', () => {
  it('a search that finds 3 brands and one that finds them among 200 list the same payments, newest first, page by page', async () => {
    // fewer than 200 brands: 3
    expect(await walk('/api/admin/payments?q=wide%20brand&limit=2')).toEqual(expected);
    // 200 brands (the 3 and 197 without payments)
    expect(await walk('/api/admin/payments?q=wide-net&limit=2')).toEqual(expected);
    expect(await walk('/api/admin/payments?q=wide-net')).toEqual(expected);
  });

  it('with a status filter and its next pages, both ways', async () => {
    const released = (await walk('/api/admin/payments?status=released&limit=200')).filter((id) => expected.includes(id));
    expect(released).toHaveLength(3);
    expect(await walk('/api/admin/payments?status=released&q=wide%20brand&limit=1')).toEqual(released);
    expect(await walk('/api/admin/payments?status=released&q=wide-net&limit=1')).toEqual(released);
    expect(await walk('/api/admin/payments?status=paid&q=wide-net&limit=4')).toEqual(expected.filter((id) => !released.includes(id)));
  });
});
