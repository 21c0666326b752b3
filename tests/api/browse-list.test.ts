/**
 * The brands' browse list (GET /api/opportunities without parameters), read from the database on
 * every request: every committed change to an opportunity, whoever makes it (this app, another app
 * server on the same database, plain SQL), shows in the very next answer; an opportunity whose
 * deadline passed leaves it at midnight UTC without any change; a browser revalidating its copy
 * gets a 304 while the list is the same.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app';
import { opportunities } from '../../src/server/db/schema';
import { diskFileStore } from '../../src/server/storage/file-store';
import { Agent } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, sessionIdOf, type PaymentsTestApp } from '../support/payments';

let t: PaymentsTestApp;
let brand: Agent;
let admin: Agent;
/** a second app server on the same database */
let other: FastifyInstance;
let brandOnOther: Agent;

beforeAll(async () => {
  t = await createPaymentsTestApp();
  brand = (await signedIn(t.app, t.db, kinds.approvedBrand)).agent;
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  other = await buildApp({ db: t.db, config: t.config, files: diskFileStore(`${t.config.DATA_DIR}/uploads-other`) });
  await other.ready();
  brandOnOther = new Agent(other);
  brandOnOther.cookie = brand.cookie;
});
afterAll(async () => {
  await other.close();
  await t.close();
});
beforeEach(async () => {
  await t.db.delete(opportunities);
});
afterEach(() => {
  vi.useRealTimers();
});

type Listed = { id: string; title: string; filledSlots: number; maxSlots: number };
const list = async (agent: Agent = brand) => {
  const res = await agent.get<Listed[]>('/api/opportunities');
  expect(res.status).toBe(200);
  return res.body;
};
describe('the browse list', () => {
  it('shows each change on the next request: new, edited, claimed, cancelled, sold out, deleted', async () => {
    expect(await list()).toEqual([]);
    const created = await admin.post('/api/admin/opportunities', {
      title: 'Launch story',
      outletName: 'The Ledger',
      description: 'A feature',
      type: ['editorial_feature'],
      priceUsd: '900.00',
      maxSlots: 2,
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await list()).map((o) => [o.id, o.title, o.filledSlots])).toEqual([[id, 'Launch story', 0]]);

    expect(
      (await admin.patch(`/api/admin/opportunities/${id}`, { ...created.body, title: 'Launch story, revised' })).status,
    ).toBe(200);
    expect((await list()).map((o) => o.title)).toEqual(['Launch story, revised']);

    // a checkout holds a slot: the bar moves at once
    const checkout = await brand.post('/api/payments/checkout', { opportunityId: id });
    expect(checkout.status).toBe(200);
    expect((await list()).map((o) => o.filledSlots)).toEqual([1]);
    // cancelled on the checkout page: the slot is given back
    expect((await brand.post(`/api/payments/checkout/${sessionIdOf(checkout.body.url)}/cancel`)).status).toBe(200);
    expect((await list()).map((o) => o.filledSlots)).toEqual([0]);

    // two brands take both slots: sold out, no longer listed
    const [b1, b2] = await Promise.all([
      signedIn(t.app, t.db, kinds.approvedBrand),
      signedIn(t.app, t.db, kinds.approvedBrand),
    ]);
    for (const b of [b1, b2])
      expect((await b.agent.post('/api/payments/checkout', { opportunityId: id })).status).toBe(200);
    expect(await list()).toEqual([]);

    const kept = await createOpportunity(t.db, { title: 'Kept' });
    expect((await list()).map((o) => o.id)).toEqual([kept.id]);
    await t.db.delete(opportunities).where(eq(opportunities.id, kept.id));
    expect(await list()).toEqual([]);
  });

  it('another app server on the same database never answers an older list', async () => {
    const opp = await createOpportunity(t.db, { title: 'Shared', maxSlots: 3 });
    expect((await list(brandOnOther)).map((o) => o.filledSlots)).toEqual([0]);
    expect((await list(brand)).map((o) => o.filledSlots)).toEqual([0]);
    // claimed through the first server: the second one answers it too
    expect((await brand.post('/api/payments/checkout', { opportunityId: opp.id })).status).toBe(200);
    expect((await list(brandOnOther)).map((o) => o.filledSlots)).toEqual([1]);
    // and the other way round
    const b = await signedIn(other, t.db, kinds.approvedBrand);
    expect((await b.agent.post('/api/payments/checkout', { opportunityId: opp.id })).status).toBe(200);
    expect((await list(brand)).map((o) => o.filledSlots)).toEqual([2]);
  });

  it('a change made with plain SQL, outside the app, shows too; a rolled-back one does not', async () => {
    const opp = await createOpportunity(t.db, { title: 'Before' });
    expect((await list()).map((o) => o.title)).toEqual(['Before']);
    await t.db.execute(sql`UPDATE opportunities SET title = 'After' WHERE id = ${opp.id}`);
    expect((await list()).map((o) => o.title)).toEqual(['After']);

    await expect(
      t.db.transaction(async (tx) => {
        await tx.update(opportunities).set({ title: 'Never' }).where(eq(opportunities.id, opp.id));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await list()).map((o) => o.title)).toEqual(['After']);
  });

  it('an opportunity leaves the list when its deadline day is over, with nothing changed in the database', async () => {
    // two days ahead: the brand's sign-in session is still valid then
    const day = Date.parse(new Date().toISOString().slice(0, 10)) + 2 * 86_400_000;
    const opp = await createOpportunity(t.db, { deadlineDate: new Date(day) });
    const ids = async (now: number) => {
      vi.setSystemTime(new Date(now));
      return (await list()).map((o) => o.id);
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    expect(await ids(day + 12 * 3_600_000)).toEqual([opp.id]);
    expect(await ids(day + 86_400_000 - 1000)).toEqual([opp.id]);
    expect(await ids(day + 86_400_000)).toEqual([]);
  });

  it('compressed forms decode to the same JSON; a browser revalidating gets 304 until the catalogue changes', async () => {
    await createOpportunity(t.db, { title: 'Compressed', description: 'A long description. '.repeat(200) });
    const plain = await brand.request('GET', '/api/opportunities');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('private, no-cache');
    const br = await t.app.inject({
      method: 'GET',
      url: '/api/opportunities',
      headers: { cookie: brand.cookie!, 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.text);
    const gz = await t.app.inject({
      method: 'GET',
      url: '/api/opportunities',
      headers: { cookie: brand.cookie!, 'accept-encoding': 'gzip' },
    });
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.text);

    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]{43}"$/);
    const revalidated = await brand.request('GET', '/api/opportunities', undefined, { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.text).toBe('');

    await createOpportunity(t.db, { title: 'New arrival' });
    const changed = await brand.request('GET', '/api/opportunities', undefined, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((changed.body as Listed[]).map((o) => o.title).sort()).toEqual(['Compressed', 'New arrival']);
    // the same list again, by any request: the same tag
    expect((await brand.request('GET', '/api/opportunities')).headers.etag).toBe(changed.headers.etag);
    expect(
      (
        await brand.request('GET', '/api/opportunities', undefined, {
          'if-none-match': `"x", ${String(changed.headers.etag)}`,
        })
      ).status,
    ).toBe(304);
  });

  it('the list stays for approved brands only, revalidated or not', async () => {
    await createOpportunity(t.db);
    await list();
    const visitor = new Agent(t.app);
    expect((await visitor.get('/api/opportunities')).status).toBe(401);
    expect((await admin.get('/api/opportunities')).status).toBe(403);
    const pending = await signedIn(t.app, t.db, kinds.pendingBrand);
    expect((await pending.agent.get('/api/opportunities')).status).toBe(403);
    // a stale tag from someone else does not let anyone past the guard
    expect((await visitor.request('GET', '/api/opportunities', undefined, { 'if-none-match': '*' })).status).toBe(401);
  });
});
