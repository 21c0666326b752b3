import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteCodes, users } from '../../src/server/db/schema';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';

let t: TestApp;
let admin: Agent;
let adminId: string;
beforeAll(async () => {
  t = await createTestApp();
  const a = await signedIn(t.app, t.db, kinds.admin);
  admin = a.agent;
  adminId = a.user.id;
});
afterAll(() => t.close());

const codeRow = async (code: string) => (await t.db.select().from(inviteCodes).where(eq(inviteCodes.code, code)))[0];

describe('POST /api/admin/invite-codes', () => {
  it('trims and uppercases the code and records the admin who created it', async () => {
    const res = await admin.post('/api/admin/invite-codes', { code: '  spring-24 ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ code: 'SPRING-24', active: true, createdBy: adminId });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    expect(await codeRow('SPRING-24')).toMatchObject({ id: res.body.id, active: true, createdBy: adminId });
    expect(await codeRow('spring-24')).toBeUndefined();
  });

  it.each(['SUMMER-24', 'summer-24', ' Summer-24  '])('refuses the duplicate %j with 409 naming the code', async (code) => {
    // made once, by whichever of these runs first
    await t.db.insert(inviteCodes).values({ code: 'SUMMER-24', createdBy: adminId }).onConflictDoNothing();
    const before = await t.db.$count(inviteCodes);
    const res = await admin.post('/api/admin/invite-codes', { code });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('SUMMER-24');
    expect(await t.db.$count(inviteCodes)).toBe(before);
  });

  it('refuses a duplicate of a deactivated code too (codes are never reused)', async () => {
    const made = await admin.post('/api/admin/invite-codes', { code: 'retired' });
    await admin.post(`/api/admin/invite-codes/${made.body.id}/deactivate`);
    const res = await admin.post('/api/admin/invite-codes', { code: 'RETIRED' });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('RETIRED');
  });

  it.each([
    [{ code: '' }, 'Code is required'],
    [{ code: '    ' }, 'Code is required'],
    [{ code: '\t\n' }, 'Code is required'],
    [{}, 'Code is required'],
    [{ code: null }, 'Code is required'],
    [{ code: 123 }, 'Code is required'],
  ])('refuses %j with 400 and creates nothing', async (body, message) => {
    const before = await t.db.$count(inviteCodes);
    const res = await admin.post('/api/admin/invite-codes', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.errors).toEqual({ code: message });
    expect(await t.db.$count(inviteCodes)).toBe(before);
  });

  it('refuses codes that are too long or contain odd characters', async () => {
    const before = await t.db.$count(inviteCodes);
    for (const code of ['x'.repeat(65), 'has space', '<script>', 'semi;colon']) {
      const res = await admin.post('/api/admin/invite-codes', { code });
      expect(res.status, code).toBe(400);
      expect(res.body.errors.code).toBeTruthy();
    }
    expect(await t.db.$count(inviteCodes)).toBe(before);
  });
});

describe('GET /api/admin/invite-codes', () => {
  it('lists every code, newest first', async () => {
    const made: string[] = [];
    for (const code of ['first-one', 'second-one', 'third-one']) {
      const res = await admin.post('/api/admin/invite-codes', { code });
      expect(res.status).toBe(201);
      made.push(res.body.code);
      // PGlite's clock ticks in milliseconds: two codes made in one tick would tie on created_at
      await new Promise((r) => setTimeout(r, 2));
    }
    const res = await admin.get('/api/admin/invite-codes');
    expect(res.status).toBe(200);
    const codes = res.body.map((c: { code: string }) => c.code);
    expect(codes.slice(0, 3)).toEqual(['THIRD-ONE', 'SECOND-ONE', 'FIRST-ONE']);
    expect(codes).toHaveLength(await t.db.$count(inviteCodes));
    const times = res.body.map((c: { createdAt: string }) => Date.parse(c.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(Object.keys(res.body[0]).sort()).toEqual(['active', 'code', 'createdAt', 'createdBy', 'id']);
  });
});

describe('POST /api/admin/invite-codes/:id/deactivate', () => {
  it('deactivates the code, which is then refused at profile completion', async () => {
    const made = await admin.post('/api/admin/invite-codes', { code: 'spring-25' });
    const res = await admin.post(`/api/admin/invite-codes/${made.body.id}/deactivate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: made.body.id, code: 'SPRING-25', active: false });
    expect((await codeRow('SPRING-25')).active).toBe(false);
    const listed = (await admin.get('/api/admin/invite-codes')).body.find((c: { id: string }) => c.id === made.body.id);
    expect(listed.active).toBe(false);

    const { user, agent } = await signedIn(t.app, t.db, kinds.unnamedBrand);
    const profile = await agent.patch('/api/user/profile', {
      name: 'Late Brand',
      brandName: 'Late Co',
      website: 'https://late.example.com',
      inviteCode: 'spring-25',
    });
    expect(profile.status).toBe(400);
    expect(profile.body.errors.inviteCode).toBe('This invite code is not valid or is no longer active');
    const [u] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(u).toMatchObject({ name: null, approved: false });
  });

  it('an active code created here approves a brand at profile completion', async () => {
    await admin.post('/api/admin/invite-codes', { code: 'fast-track' });
    const { user, agent } = await signedIn(t.app, t.db, kinds.unnamedBrand);
    const res = await agent.patch('/api/user/profile', {
      name: 'Quick Brand',
      brandName: 'Quick Co',
      website: 'https://quick.example.com',
      inviteCode: 'Fast-Track',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ approved: true, autoApproved: true });
    const [u] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(u.approved).toBe(true);
  });

  it('deactivating twice leaves it deactivated (there is no reactivation)', async () => {
    const made = await admin.post('/api/admin/invite-codes', { code: 'twice' });
    await admin.post(`/api/admin/invite-codes/${made.body.id}/deactivate`);
    const again = await admin.post(`/api/admin/invite-codes/${made.body.id}/deactivate`);
    expect(again.status).toBeLessThan(500);
    expect((await codeRow('TWICE')).active).toBe(false);
  });

  it('answers 404 for an unknown id and 4xx for a malformed one', async () => {
    const unknown = await admin.post(`/api/admin/invite-codes/${randomUUID()}/deactivate`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Invite code not found');
    const bad = await admin.post('/api/admin/invite-codes/not-a-uuid/deactivate');
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
  });

  it('a brand can neither create, list nor deactivate codes', async () => {
    const made = await admin.post('/api/admin/invite-codes', { code: 'brand-proof' });
    const { agent } = await signedIn(t.app, t.db, kinds.approvedBrand);
    const before = await t.db.$count(inviteCodes);
    expect((await agent.post('/api/admin/invite-codes', { code: 'mine' })).status).toBe(403);
    expect((await agent.get('/api/admin/invite-codes')).status).toBe(403);
    expect((await agent.post(`/api/admin/invite-codes/${made.body.id}/deactivate`)).status).toBe(403);
    expect(await t.db.$count(inviteCodes)).toBe(before);
    expect((await codeRow('BRAND-PROOF')).active).toBe(true);
  });
});
