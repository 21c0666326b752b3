import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteCodes, users } from '../../src/server/db/schema';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';

let t: TestApp;
let admin: Agent;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
});
afterAll(() => t.close());

const codeRow = async (id: string) => (await t.db.select().from(inviteCodes).where(eq(inviteCodes.id, id)))[0];
const makeCode = async (code: string) => {
  const res = await admin.post('/api/admin/invite-codes', { code });
  expect(res.status).toBe(201);
  return res.body as { id: string; code: string };
};

describe('POST /api/admin/invite-codes/:id/activate', () => {
  it('[ADMIN] reactivates a deactivated code, which then approves a brand at profile completion again', async () => {
    const made = await makeCode('comeback');
    await admin.post(`/api/admin/invite-codes/${made.id}/deactivate`);
    expect((await codeRow(made.id)).active).toBe(false);

    const res = await admin.post(`/api/admin/invite-codes/${made.id}/activate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: made.id, code: 'COMEBACK', active: true });
    expect(Object.keys(res.body).sort()).toEqual(['active', 'code', 'createdAt', 'createdBy', 'id']);
    expect((await codeRow(made.id)).active).toBe(true);
    const listed = (await admin.get('/api/admin/invite-codes')).body.find((c: { id: string }) => c.id === made.id);
    expect(listed.active).toBe(true);

    const { user, agent } = await signedIn(t.app, t.db, kinds.unnamedBrand);
    const profile = await agent.patch('/api/user/profile', {
      name: 'Back Brand',
      brandName: 'Back Co',
      website: 'https://back.example.com',
      inviteCode: 'comeback',
    });
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ approved: true, autoApproved: true });
    expect((await t.db.select().from(users).where(eq(users.id, user.id)))[0].approved).toBe(true);
  });

  it('[ADMIN] activating an active code changes nothing and answers the code', async () => {
    const made = await makeCode('already-on');
    const before = await codeRow(made.id);
    const res = await admin.post(`/api/admin/invite-codes/${made.id}/activate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: made.id,
      code: 'ALREADY-ON',
      active: true,
      createdAt: before.createdAt.toISOString(),
    });
    expect(await codeRow(made.id)).toEqual(before);
  });

  it('answers 404 for an unknown id and for a malformed one, and changes no code', async () => {
    const made = await makeCode('untouched');
    await admin.post(`/api/admin/invite-codes/${made.id}/deactivate`);
    for (const id of [randomUUID(), 'not-a-uuid', '1']) {
      const res = await admin.post(`/api/admin/invite-codes/${id}/activate`);
      expect(res.status, id).toBe(404);
      expect(res.body.message, id).toBe('Invite code not found');
    }
    expect((await codeRow(made.id)).active).toBe(false);
  });

  it('[BRAND][VISITOR] is refused to everyone but admins, and the code stays off', async () => {
    const made = await makeCode('admins-only');
    await admin.post(`/api/admin/invite-codes/${made.id}/deactivate`);
    const brand = (await signedIn(t.app, t.db, kinds.approvedBrand)).agent;
    expect((await brand.post(`/api/admin/invite-codes/${made.id}/activate`)).status).toBe(403);
    expect((await new Agent(t.app).post(`/api/admin/invite-codes/${made.id}/activate`)).status).toBe(401);
    expect((await codeRow(made.id)).active).toBe(false);
  });
});
