/**
 * The brands' browse list is kept ready per catalogue version (modules/opportunities/browse-cache.ts).
 * A cached list must never be stale: every committed change to an opportunity, whoever makes it (this
 * app, another app server on the same database, plain SQL), shows in the very next answer; an
 * opportunity whose deadline passed leaves it at midnight UTC without any change; and while nothing
 * changes, the database is not asked to build the list again.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { catalogueVersions, opportunities } from '../../src/server/db/schema';
import { browseListCache } from '../../src/server/modules/opportunities/browse-cache';
import { diskFileStore } from '../../src/server/storage/file-store';
import { Agent } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, sessionIdOf, type PaymentsTestApp } from '../support/payments';

let t: PaymentsTestApp;
let brand: Agent;
let admin: Agent;
/** a second app server on the same database, with its own cache */
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

type Listed = { id: string; title: string; filledSlots: number; maxSlots: number };
const list = async (agent: Agent = brand) => {
  const res = await agent.get<Listed[]>('/api/opportunities');
  expect(res.status).toBe(200);
  return res.body;
};
const version = async () => {
  const [row] = await t.db.select({ v: sql<string>`sum(${catalogueVersions.version})::text` }).from(catalogueVersions);
  return BigInt(row.v);
};

describe('browse list cache', () => {
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

    expect((await admin.patch(`/api/admin/opportunities/${id}`, { ...created.body, title: 'Launch story, revised' })).status).toBe(200);
    expect((await list()).map((o) => o.title)).toEqual(['Launch story, revised']);

    // a checkout holds a slot: the bar moves at once
    const checkout = await brand.post('/api/payments/checkout', { opportunityId: id });
    expect(checkout.status).toBe(200);
    expect((await list()).map((o) => o.filledSlots)).toEqual([1]);
    // cancelled on the checkout page: the slot is given back
    expect((await brand.post(`/api/payments/checkout/${sessionIdOf(checkout.body.url)}/cancel`)).status).toBe(200);
    expect((await list()).map((o) => o.filledSlots)).toEqual([0]);

    // two brands take both slots: sold out, no longer listed
    const [b1, b2] = await Promise.all([signedIn(t.app, t.db, kinds.approvedBrand), signedIn(t.app, t.db, kinds.approvedBrand)]);
    for (const b of [b1, b2]) expect((await b.agent.post('/api/payments/checkout', { opportunityId: id })).status).toBe(200);
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
    // claimed through the first server; the second one's cached list is outdated by it
    expect((await brand.post('/api/payments/checkout', { opportunityId: opp.id })).status).toBe(200);
    expect((await list(brandOnOther)).map((o) => o.filledSlots)).toEqual([1]);
    // and the other way round
    const b = await signedIn(other, t.db, kinds.approvedBrand);
    expect((await b.agent.post('/api/payments/checkout', { opportunityId: opp.id })).status).toBe(200);
    expect((await list(brand)).map((o) => o.filledSlots)).toEqual([2]);
  });

  it('a change made with plain SQL, outside the app, shows too; a rolled-back one moves nothing', async () => {
    const opp = await createOpportunity(t.db, { title: 'Before' });
    expect((await list()).map((o) => o.title)).toEqual(['Before']);
    await t.db.execute(sql`UPDATE opportunities SET title = 'After' WHERE id = ${opp.id}`);
    expect((await list()).map((o) => o.title)).toEqual(['After']);

    const before = await version();
    await expect(
      t.db.transaction(async (tx) => {
        await tx.update(opportunities).set({ title: 'Never' }).where(eq(opportunities.id, opp.id));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await version()).toBe(before);
    expect((await list()).map((o) => o.title)).toEqual(['After']);
  });

  it('the version moves once per committed transaction, however many rows it changed', async () => {
    await Promise.all([1, 2, 3].map((i) => createOpportunity(t.db, { title: `Row ${i}` })));
    const before = await version();
    await t.db.transaction(async (tx) => {
      await tx.update(opportunities).set({ tat: '5 days' });
      await tx.update(opportunities).set({ tat: '6 days' });
    });
    expect(await version()).toBe(before + 1n);
    // a statement that matches no row changes nothing and moves nothing
    await t.db.update(opportunities).set({ tat: 'x' }).where(sql`false`);
    expect(await version()).toBe(before + 1n);
  });

  it('builds the list once per version and day: unchanged, the same bytes come back without a rebuild', async () => {
    const claimable = browseListCache(t.db);
    await createOpportunity(t.db, { title: 'One' });
    const first = await claimable();
    const again = await claimable();
    expect(again).toBe(first); // the very same object: nothing was built
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => claimable()));
    expect(new Set(concurrent).size).toBe(1);

    await createOpportunity(t.db, { title: 'Two' });
    const changed = await claimable();
    expect(changed).not.toBe(first);
    expect(JSON.parse(changed.json.toString()).map((o: Listed) => o.title).sort()).toEqual(['One', 'Two']);
    // ten requests arriving together after a change share one build
    await createOpportunity(t.db, { title: 'Three' });
    const together = await Promise.all(Array.from({ length: 10 }, () => claimable()));
    expect(new Set(together).size).toBe(1);
    expect(JSON.parse(together[0].json.toString())).toHaveLength(3);
  });

  it('an opportunity leaves the list when its deadline day is over, with nothing changed in the database', async () => {
    const claimable = browseListCache(t.db);
    const day = new Date('2030-03-10T12:00:00Z');
    const opp = await createOpportunity(t.db, { deadlineDate: new Date('2030-03-10T00:00:00Z') });
    const titles = async (now: Date) => JSON.parse((await claimable(now)).json.toString()).map((o: Listed) => o.id);
    expect(await titles(day)).toEqual([opp.id]);
    expect(await titles(new Date('2030-03-10T23:59:59Z'))).toEqual([opp.id]);
    expect(await titles(new Date('2030-03-11T00:00:00Z'))).toEqual([]);
  });

  it('compressed forms decode to the same JSON; a browser revalidating gets 304 until the catalogue changes', async () => {
    await createOpportunity(t.db, { title: 'Compressed', description: 'A long description. '.repeat(200) });
    const plain = await brand.request('GET', '/api/opportunities');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('private, no-cache');
    const br = await t.app.inject({ method: 'GET', url: '/api/opportunities', headers: { cookie: brand.cookie!, 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.text);
    const gz = await t.app.inject({ method: 'GET', url: '/api/opportunities', headers: { cookie: brand.cookie!, 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.text);

    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^W\/"\d+\.\d{4}-\d{2}-\d{2}"$/);
    const revalidated = await brand.request('GET', '/api/opportunities', undefined, { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.text).toBe('');

    await createOpportunity(t.db, { title: 'New arrival' });
    const changed = await brand.request('GET', '/api/opportunities', undefined, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((changed.body as Listed[]).map((o) => o.title).sort()).toEqual(['Compressed', 'New arrival']);
  });

  it('the list stays for approved brands only, cached or not', async () => {
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
