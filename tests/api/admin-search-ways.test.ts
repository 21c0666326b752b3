/**
 * [ADMIN][SEARCH] Projects' and Placements' searches pick their page one of two ways
 * (db/brand-search.ts `brandSearchPick`, issue 61): from the rows of the brands the search finds
 * when they are fewer than 200, else by walking the list's order. Both must answer the same list:
 * here one search finds 3 brands and another the same 3 among 200, each paged through its Link
 * headers, with a tab or a health filter too; a search that finds no brand answers an empty list.
 * (Admin Payments has its own: admin-payment-search-ways.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publications, users } from '../../src/server/db/schema';
import { createTestApp, type Agent, type Res, type TestApp } from '../support/app';
import { createUser, kinds, signedIn } from '../support/factories';
import { createOpportunity, createPayment } from '../support/content';

let t: TestApp;
let admin: Agent;
/** the found brands' placements, newest first: all, and the published ones */
const projects: string[] = [];
const live: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  const opportunity = await createOpportunity(t.db, { maxSlots: 1000 });
  const found = await Promise.all([1, 2, 3].map((n) => createUser(t.db, { name: `Wide Brand ${n}`, brandName: `Wide ${n}`, email: `owner${n}@wide-net.test` })));
  const other = await createUser(t.db, { name: 'Narrow', brandName: 'Narrow Co', email: 'owner@narrow.test' });
  // 197 more brands the wide search finds, without placements
  await t.db.insert(users).values(
    Array.from({ length: 197 }, (_, i) => ({ email: `idle${i}@wide-net.test`, password: 'x', role: 'brand' as const, name: `Idle ${i}`, approved: true })),
  );
  let second = 0;
  for (let round = 0; round < 3; round++) {
    for (const brand of [...found, other]) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, second++));
      const released = round === 1;
      const row = await createPayment(t.db, {
        brandId: brand.id,
        opportunityId: opportunity.id,
        status: released ? 'released' : 'paid',
        ...(released ? { releasedAt: at } : {}),
        amount: '10.00',
        createdAt: at,
      });
      if (released) {
        await t.db.insert(publications).values({
          placementId: row.id,
          url: `https://outlet.example.com/story-${second}`,
          health: 'ok',
          publishedAt: at,
          guaranteeEndsAt: new Date(at.getTime() + 90 * 86_400_000),
        });
      }
      if (brand === other) continue;
      projects.unshift(row.id);
      if (released) live.unshift(row.id);
    }
  }
});
afterAll(() => t?.close());

/** Every placement id of a list (a Placements row's `paymentId`, a Projects row's `payment.id`), page by page through its Link headers. */
async function walk(url: string, key: 'paymentId' | 'payment.id'): Promise<string[]> {
  const ids: string[] = [];
  for (let next: string | null = url, n = 0; next; n++) {
    if (n > 50) throw new Error('paging does not end');
    const res: Res = await admin.get(next);
    expect(res.status, res.text).toBe(200);
    ids.push(...(res.body as { paymentId?: string; payment?: { id: string } }[]).map((r) => (key === 'paymentId' ? r.paymentId : r.payment?.id)!));
    const link: unknown = res.headers.link;
    next = typeof link === 'string' ? /<([^>]+)>/.exec(link)![1] : null;
  }
  return ids;
}

describe('[ADMIN][SEARCH] Projects and Placements: few brands found, or many', () => {
  it('Projects: 3 brands found, or the same 3 among 200, list the same placements newest first, page by page and in a tab', async () => {
    expect(await walk('/api/admin/projects?q=wide%20brand&limit=2', 'payment.id')).toEqual(projects);
    expect(await walk('/api/admin/projects?q=wide-net&limit=2', 'payment.id')).toEqual(projects);
    expect(await walk('/api/admin/projects?q=wide-net', 'payment.id')).toEqual(projects);
    expect(await walk('/api/admin/projects?tab=published&q=wide%20brand&limit=1', 'payment.id')).toEqual(live);
    expect(await walk('/api/admin/projects?tab=published&q=wide-net&limit=1', 'payment.id')).toEqual(live);
    expect(await walk('/api/admin/projects?q=nobody-at-all', 'payment.id')).toEqual([]);
  });

  it('Placements: the same published placements both ways, with a health filter, and none for a brand not found', async () => {
    expect(await walk('/api/admin/placements?q=wide%20brand&limit=1', 'paymentId')).toEqual(live);
    expect(await walk('/api/admin/placements?q=wide-net&limit=1', 'paymentId')).toEqual(live);
    expect(await walk('/api/admin/placements?health=ok&q=wide-net&limit=2', 'paymentId')).toEqual(live);
    expect(await walk('/api/admin/placements?health=issue&q=wide%20brand', 'paymentId')).toEqual([]);
    expect(await walk('/api/admin/placements?q=nobody-at-all', 'paymentId')).toEqual([]);
  });
});
