import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { createUser, kinds, signedIn } from '../support/factories';

let t: TestApp;
let admin: Agent;
beforeAll(async () => {
  t = await createTestApp();
  ({ agent: admin } = await signedIn(t.app, t.db, kinds.admin));
});
afterAll(() => t.close());

const row = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0];

describe('GET /api/admin/pending-brands', () => {
  it('lists only named, unapproved brands, oldest first, with exactly the public fields', async () => {
    const older = await createUser(t.db, { ...kinds.pendingBrand, name: 'Older Pending', createdAt: new Date(Date.now() - 60_000) });
    const pending = await createUser(t.db, { ...kinds.pendingBrand, name: 'Pat Pending', brandName: 'Pending Co', website: 'https://pending.example.com' });
    const unnamed = await createUser(t.db, kinds.unnamedBrand);
    const approved = await createUser(t.db, kinds.approvedBrand);
    const otherAdmin = await createUser(t.db, { ...kinds.admin, approved: false });

    const res = await admin.get('/api/admin/pending-brands');
    expect(res.status).toBe(200);
    const ids = res.body.map((b: { id: string }) => b.id);
    expect(ids).toContain(pending.id);
    expect(ids).toContain(older.id);
    expect(ids.indexOf(older.id)).toBeLessThan(ids.indexOf(pending.id));
    for (const absent of [unnamed, approved, otherAdmin]) expect(ids).not.toContain(absent.id);

    const item = res.body.find((b: { id: string }) => b.id === pending.id);
    expect(Object.keys(item).sort()).toEqual(['brandName', 'createdAt', 'email', 'id', 'name', 'sameDomain', 'website']);
    expect(item).toEqual({
      id: pending.id,
      name: 'Pat Pending',
      email: pending.email,
      brandName: 'Pending Co',
      website: 'https://pending.example.com',
      createdAt: pending.createdAt.toISOString(),
      // every test account is at example.com: the warning names the others' organisations
      sameDomain: expect.any(Array),
    });
    expect(res.text).not.toMatch(/password|argon2/i);
  });

  it('a brand appears once it has completed its profile', async () => {
    const { user, agent } = await signedIn(t.app, t.db, kinds.unnamedBrand);
    const ids = async () => (await admin.get('/api/admin/pending-brands')).body.map((b: { id: string }) => b.id);
    expect(await ids()).not.toContain(user.id);
    const done = await agent.patch('/api/user/profile', { name: 'New Brand', brandName: 'New Co', website: 'https://new.example.com' });
    expect(done.status).toBe(200);
    expect(await ids()).toContain(user.id);
  });
});

describe('POST /api/admin/approve-brand/:id', () => {
  it('approves the brand: the row changes, the brand leaves the list and reaches brand endpoints', async () => {
    const { user, agent: brand } = await signedIn(t.app, t.db, kinds.pendingBrand);
    const before = await brand.get('/api/brand/wallet');
    expect(before.status).toBe(403);
    expect(before.body.message).toBe('Your account is awaiting approval');

    const res = await admin.post(`/api/admin/approve-brand/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, approved: true, role: 'brand' });
    expect(res.body).not.toHaveProperty('password');
    expect((await row(user.id)).approved).toBe(true);

    const list = await admin.get('/api/admin/pending-brands');
    expect(list.body.map((b: { id: string }) => b.id)).not.toContain(user.id);

    // the brand's existing session sees the approval at once
    const wallet = await brand.get('/api/brand/wallet');
    expect(wallet.status).toBe(200);
    expect(wallet.body).toEqual({ balance: '0.00' });
    expect((await brand.get('/api/user')).body.approved).toBe(true);
  });

  it('approving twice is harmless', async () => {
    const user = await createUser(t.db, kinds.pendingBrand);
    expect((await admin.post(`/api/admin/approve-brand/${user.id}`)).status).toBe(200);
    expect((await admin.post(`/api/admin/approve-brand/${user.id}`)).status).toBe(200);
    expect((await row(user.id)).approved).toBe(true);
  });

  it('answers 404 for an unknown id and for an admin id, changing nothing', async () => {
    const unknown = await admin.post(`/api/admin/approve-brand/${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Brand not found');

    const other = await createUser(t.db, { ...kinds.admin, approved: false });
    expect((await admin.post(`/api/admin/approve-brand/${other.id}`)).status).toBe(404);
    expect((await row(other.id)).approved).toBe(false);
  });

  it.each(['not-a-uuid', '1', "1' OR '1'='1", '%00', 'x'.repeat(300)])('answers 4xx, not 5xx, for the id %j', async (id) => {
    const res = await admin.post(`/api/admin/approve-brand/${encodeURIComponent(id)}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.message).toBeTruthy();
  });

  it('a brand cannot approve itself or another brand', async () => {
    const { user, agent } = await signedIn(t.app, t.db, kinds.pendingBrand);
    const other = await createUser(t.db, kinds.pendingBrand);
    for (const id of [user.id, other.id]) {
      const res = await agent.post(`/api/admin/approve-brand/${id}`);
      expect(res.status).toBe(403);
      expect((await row(id)).approved).toBe(false);
    }
    expect((await new Agent(t.app).post(`/api/admin/approve-brand/${other.id}`)).status).toBe(401);
    expect((await row(other.id)).approved).toBe(false);
  });
});

describe('GET /api/brand/wallet', () => {
  it('answers 403 with a reason to a brand that has not completed its profile', async () => {
    const { agent } = await signedIn(t.app, t.db, kinds.unnamedBrand);
    const res = await agent.get('/api/brand/wallet');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Please complete your profile first');
  });

  it('gives an approved brand a zero balance as a decimal string', async () => {
    const { agent } = await signedIn(t.app, t.db, kinds.approvedBrand);
    const res = await agent.get('/api/brand/wallet');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ balance: '0.00' });
  });
});
