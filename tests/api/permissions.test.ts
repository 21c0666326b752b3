/**
 * The permission matrix: every endpoint × every kind of user. Add a row when an endpoint is added.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteCodes } from '../../src/server/db/schema';
import { createTestApp, type Agent, type Res, type TestApp } from '../support/app';
import { createUser, everyKind, kinds } from '../support/factories';

type Kind = 'visitor' | 'unnamedBrand' | 'pendingBrand' | 'approvedBrand' | 'admin';
const KINDS: Kind[] = ['visitor', 'unnamedBrand', 'pendingBrand', 'approvedBrand', 'admin'];

/** Ids of existing things the rows refer to, made in beforeAll. */
interface Fixtures {
  pendingBrandId: string;
  inviteCodeId: string;
}

interface Row {
  name: string;
  /** Sends the request as `agent`. */
  send(agent: Agent, f: Fixtures): Promise<Res>;
  expect: Record<Kind, number>;
  /** Uses fresh sessions (the request ends or changes the signed-in user). */
  fresh?: boolean;
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

// shorthands for the common shapes
const anyUser = (ok: number) => ({ visitor: 401, unnamedBrand: ok, pendingBrand: ok, approvedBrand: ok, admin: ok });
const adminOnly = (ok: number) => ({ visitor: 401, unnamedBrand: 403, pendingBrand: 403, approvedBrand: 403, admin: ok });
const approvedBrandOnly = (ok: number) => ({ visitor: 401, unnamedBrand: 403, pendingBrand: 403, approvedBrand: ok, admin: 403 });

const ROWS: Row[] = [
  // account
  { name: 'GET /api/user', send: (a) => a.get('/api/user'), expect: anyUser(200) },
  {
    name: 'PATCH /api/user/profile {avatarUrl}',
    send: (a) => a.patch('/api/user/profile', { avatarUrl: '/uploads/0123456789abcdef0123456789abcdef.png' }),
    expect: anyUser(200),
  },
  {
    name: 'POST /api/upload/avatar',
    send: (a) => a.upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png'),
    expect: anyUser(200),
  },
  // signing out needs no user: a visitor's sign-out is a harmless no-op
  {
    name: 'POST /api/logout',
    send: (a) => a.post('/api/logout'),
    expect: { visitor: 200, unnamedBrand: 200, pendingBrand: 200, approvedBrand: 200, admin: 200 },
    fresh: true,
  },

  // brand
  { name: 'GET /api/brand/wallet', send: (a) => a.get('/api/brand/wallet'), expect: approvedBrandOnly(200) },

  // admin
  { name: 'GET /api/admin/pending-brands', send: (a) => a.get('/api/admin/pending-brands'), expect: adminOnly(200) },
  {
    name: 'POST /api/admin/approve-brand/:id',
    send: (a, f) => a.post(`/api/admin/approve-brand/${f.pendingBrandId}`),
    expect: adminOnly(200),
  },
  { name: 'GET /api/admin/invite-codes', send: (a) => a.get('/api/admin/invite-codes'), expect: adminOnly(200) },
  {
    name: 'POST /api/admin/invite-codes',
    send: (a) => a.post('/api/admin/invite-codes', { code: `perm-${randomBytes(4).toString('hex')}` }),
    expect: adminOnly(201),
  },
  {
    name: 'POST /api/admin/invite-codes/:id/deactivate',
    send: (a, f) => a.post(`/api/admin/invite-codes/${f.inviteCodeId}/deactivate`),
    expect: adminOnly(200),
  },
];

let t: TestApp;
let agents: Awaited<ReturnType<typeof everyKind>>;
let fixtures: Fixtures;
beforeAll(async () => {
  t = await createTestApp();
  agents = await everyKind(t.app, t.db);
  const [pending, admin] = await Promise.all([createUser(t.db, kinds.pendingBrand), createUser(t.db, kinds.admin)]);
  const [code] = await t.db.insert(inviteCodes).values({ code: 'PERMISSIONS', createdBy: admin.id }).returning();
  fixtures = { pendingBrandId: pending.id, inviteCodeId: code.id };
});
afterAll(() => t.close());

describe('permission matrix', () => {
  for (const row of ROWS) {
    it(`${row.name}: ${KINDS.map((k) => `${k} ${row.expect[k]}`).join(', ')}`, async () => {
      const who = row.fresh ? await everyKind(t.app, t.db) : agents;
      const got: Record<string, number> = {};
      const bodies: Record<string, unknown> = {};
      for (const kind of KINDS) {
        const res = await row.send(who[kind].agent, fixtures);
        got[kind] = res.status;
        bodies[kind] = res.body;
        // every refusal says why, in the shared error shape
        if (res.status >= 400) expect(typeof res.body?.message, `${kind}: ${res.text}`).toBe('string');
      }
      expect(got, JSON.stringify(bodies)).toEqual(row.expect);
    });
  }

  it('the shared sessions are still signed in as their kind after the matrix', async () => {
    for (const kind of KINDS.filter((k) => k !== 'visitor')) {
      const res = await agents[kind].agent.get('/api/user');
      expect(res.status, kind).toBe(200);
      expect(res.body.id).toBe(agents[kind].user!.id);
    }
  });

  it('signing out really ends the session', async () => {
    const fresh = await everyKind(t.app, t.db);
    for (const kind of KINDS.filter((k) => k !== 'visitor')) {
      const { agent } = fresh[kind];
      const cookie = agent.cookie;
      expect((await agent.post('/api/logout')).status).toBe(200);
      agent.cookie = cookie;
      expect((await agent.get('/api/user')).status, kind).toBe(401);
    }
  });
});
