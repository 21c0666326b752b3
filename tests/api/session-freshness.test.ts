/**
 * Every request reads its session as it is now (auth/session.ts `signIn`): each test changes the
 * session or the user the way another server or an operator would (plain SQL, nothing told to this
 * server) and expects the very next answer to be the one the change calls for.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPayment } from '../support/content';

let t: TestApp;
let opportunityId: string;

beforeAll(async () => {
  t = await createTestApp();
  opportunityId = (await createOpportunity(t.db, { title: 'Checked in the statement' })).id;
});
afterAll(() => t.close());

async function brandWithPurchase(overrides: Partial<typeof kinds.approvedBrand> = {}) {
  const brand = await signedIn(t.app, t.db, { ...kinds.approvedBrand, ...overrides });
  await createPayment(t.db, { brandId: brand.user.id, opportunityId });
  return brand;
}

describe('lists read the session as it is now', () => {
  it('the same page asked again answers the same bytes', async () => {
    const brand = await brandWithPurchase();
    const first = await brand.agent.get('/api/brand/my-articles');
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(1);
    for (let i = 0; i < 2; i++) {
      const res = await brand.agent.get('/api/brand/my-articles');
      expect(res.status).toBe(200);
      expect(res.text).toBe(first.text);
    }
  });

  it('a session signed out elsewhere: the next page is a 401', async () => {
    const brand = await brandWithPurchase();
    expect((await brand.agent.get('/api/brand/my-articles')).status).toBe(200);
    await t.db.execute(sql`DELETE FROM sessions WHERE user_id = ${brand.user.id}`);
    const res = await brand.agent.get('/api/brand/my-articles');
    expect(res.status).toBe(401);
  });

  it('a session expired since: 401', async () => {
    const brand = await brandWithPurchase();
    expect((await brand.agent.get('/api/brand/payments')).status).toBe(200);
    await t.db.execute(sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = ${brand.user.id}`);
    expect((await brand.agent.get('/api/brand/payments')).status).toBe(401);
  });

  it('a session that expires with nothing committed since: 401 from its expiry on', async () => {
    const brand = await brandWithPurchase();
    await t.db.execute(sql`UPDATE sessions SET expires_at = now() + interval '1500 milliseconds' WHERE user_id = ${brand.user.id}`);
    const [{ expires }] = ((await t.db.execute(sql`SELECT expires_at::text AS expires FROM sessions WHERE user_id = ${brand.user.id}`)) as unknown as { rows: { expires: string }[] }).rows;
    expect((await brand.agent.get('/api/brand/my-articles')).status).toBe(200);
    expect((await brand.agent.get('/api/brand/my-articles')).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, new Date(expires).getTime() - Date.now()) + 100));
    expect((await brand.agent.get('/api/brand/my-articles')).status).toBe(401);
  });

  it('approval withdrawn since the user was read: 403, as a fresh lookup says', async () => {
    const brand = await brandWithPurchase();
    expect((await brand.agent.get('/api/brand/my-articles')).status).toBe(200);
    await t.db.execute(sql`UPDATE users SET approved = false WHERE id = ${brand.user.id}`);
    const res = await brand.agent.get('/api/brand/my-articles');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Your account is awaiting approval');
  });

  it('approval granted since the user was read as pending: the page, not a stale 403', async () => {
    const brand = await brandWithPurchase({ approved: false });
    const refused = await brand.agent.get('/api/brand/my-articles');
    expect(refused.status).toBe(403);
    await t.db.execute(sql`UPDATE users SET approved = true WHERE id = ${brand.user.id}`);
    const res = await brand.agent.get('/api/brand/my-articles');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
  });

  it('an admin made a brand since: 403 on every admin list', async () => {
    const admin = await signedIn(t.app, t.db, kinds.admin);
    await createPayment(t.db, { brandId: (await brandWithPurchase()).user.id, opportunityId });
    for (const url of ['/api/admin/projects', '/api/admin/payments', '/api/admin/opportunities']) expect((await admin.agent.get(url)).status).toBe(200);
    await t.db.execute(sql`UPDATE users SET role = 'brand', approved = true, name = 'Former Admin' WHERE id = ${admin.user.id}`);
    for (const url of ['/api/admin/projects', '/api/admin/payments', '/api/admin/opportunities', '/api/admin/placements']) {
      const res = await admin.agent.get(url);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Only admins can do this');
    }
  });

  it('an empty page and a bad query answer as before', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const empty = await brand.agent.get('/api/brand/my-articles');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
    const again = await brand.agent.get('/api/brand/my-articles');
    expect(again.status).toBe(200);
    expect(again.body).toEqual([]);
    const bad = await brand.agent.get('/api/brand/my-articles?limit=1000');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('limit');
  });

  it('a placement\'s messages and timeline: the same rules, and another brand\'s placement stays a 404', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const mine = await createPayment(t.db, { brandId: brand.user.id, opportunityId });
    const other = await brandWithPurchase();
    const theirs = await createPayment(t.db, { brandId: other.user.id, opportunityId });
    const urls = (id: string) => [`/api/brand/projects/${id}/messages`, `/api/brand/projects/${id}/timeline`];
    expect((await brand.agent.get('/api/user')).status).toBe(200);
    for (const url of urls(mine.id)) expect((await brand.agent.get(url)).status).toBe(200);
    for (const url of urls(theirs.id)) {
      const res = await brand.agent.get(url);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Payment not found');
    }
    await t.db.execute(sql`DELETE FROM sessions WHERE user_id = ${brand.user.id}`);
    for (const url of urls(mine.id)) expect((await brand.agent.get(url)).status).toBe(401);
  });

  it('a visitor and a made-up token get 401, and another brand never gets a page that is not its own', async () => {
    const a = await brandWithPurchase();
    const b = await brandWithPurchase();
    await a.agent.get('/api/brand/my-articles');
    await b.agent.get('/api/brand/my-articles');
    const mine = (await a.agent.get('/api/brand/my-articles')).body as { payment: { id: string } }[];
    const theirs = (await b.agent.get('/api/brand/my-articles')).body as { payment: { id: string } }[];
    expect(mine.map((i) => i.payment.id)).not.toEqual(theirs.map((i) => i.payment.id));
    const visitor = await t.app.inject({ method: 'GET', url: '/api/brand/my-articles', cookies: { byline_session: 'made-up' } });
    expect(visitor.statusCode).toBe(401);
  });
});
