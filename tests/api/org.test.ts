/**
 * Organisations (issue 45, decision 033): every role against every brand route (from the server's
 * own route table), invitations (single use, expiry, revocation, resending, one organisation per
 * login), a removed member's sessions, a role change on the next request, what the members of one
 * organisation share and another never sees, the audit log, and the migration of existing brands.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { configSchema } from '../../src/server/config';
import type { DbHandle } from '../../src/server/db/client';
import { createPglite } from '../../src/server/db/pglite';
import { auditEntries, mailOutbox, organisations, orgInvitations, sessions, users } from '../../src/server/db/schema';
import { migrationsDir } from '../../src/server/paths';
import { diskFileStore } from '../../src/server/storage/file-store';
import { CAPABILITY_REFUSALS, ORG_ROLES, roleCan, type Capability, type OrgRole } from '../../src/shared/org';
import { Agent, type Res } from '../support/app';
import { purchase } from '../support/content';
import { createTestDb } from '../support/db';
import { kinds, PASSWORD, signedIn, uniqueEmail } from '../support/factories';
import { testChecker } from '../support/outlets';
import { createOpportunity, sessionIdOf } from '../support/payments';

const NOBODY = '00000000-0000-4000-8000-000000000000';

let t: { app: FastifyInstance; handle: DbHandle; close(): Promise<void> };
const table: { method: string; url: string; access?: string; can?: Capability }[] = [];

beforeAll(async () => {
  const handle = await createTestDb();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-org-'));
  const config = configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDir });
  const onRoute = (r: RouteOptions) => {
    const cfg = r.config as { access?: string; can?: Capability } | undefined;
    for (const m of [r.method].flat()) if (m !== 'HEAD') table.push({ method: m, url: r.url, access: cfg?.access, can: cfg?.can });
  };
  const app = await buildApp({ db: handle.db, config, files: diskFileStore(path.join(dataDir, 'uploads')), onRoute, checker: testChecker(config) });
  await app.ready();
  t = {
    app,
    handle,
    async close() {
      await app.close();
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}, 60_000);
afterAll(() => t?.close());

const db = () => t.handle.db;
const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

/** An owner's organisation with one member of every other role, each signed in. */
async function team() {
  const owner = await signedIn(t.app, db(), kinds.approvedBrand);
  const orgId = owner.user.organisationId!;
  const members = { owner } as Record<OrgRole, { user: typeof owner.user; agent: Agent }>;
  for (const role of ORG_ROLES.filter((r) => r !== 'owner')) {
    members[role] = await signedIn(t.app, db(), { ...kinds.approvedBrand, name: `The ${role}`, organisationId: orgId, orgRole: role });
  }
  return { orgId, members };
}

/** The token of the last invitation mailed to `email` (the outbox keeps what was sent). */
async function mailedToken(email: string): Promise<string> {
  const [row] = await db()
    .select({ data: mailOutbox.data })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'org_invitation')))
    .orderBy(sql`${mailOutbox.createdAt} DESC, ${mailOutbox.id} DESC`)
    .limit(1);
  return (row.data as { token: string }).token;
}

/** A fresh account that signed up with `email` and has not completed its profile. */
async function signUp(email: string) {
  const agent = new Agent(t.app);
  ok(await agent.post('/api/register', { email, password: PASSWORD }), 'register');
  return agent;
}

describe('roles: every brand route, every role', () => {
  it('a role without the route’s capability gets 403 with the reason; a role with it is never refused for its role', async () => {
    const { members } = await team();
    const placement = await purchase(db(), members.owner.user.id);
    const brandRoutes = table.filter((r) => r.access === 'brand' || r.access === 'any-brand');
    expect(brandRoutes.length).toBeGreaterThan(30);
    // every brand route's contract names a capability (declared or by its method)
    expect(brandRoutes.filter((r) => !r.can).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    const failures: string[] = [];
    for (const r of brandRoutes) {
      const url = r.url.replace(':paymentId', placement.id).replace(/:[A-Za-z]+/g, NOBODY);
      for (const role of ORG_ROLES) {
        const res = await members[role].agent.request(r.method, url, r.method === 'GET' || r.method === 'DELETE' ? undefined : {});
        const refused = res.status === 403 && res.body?.message === CAPABILITY_REFUSALS[r.can!];
        if (refused === roleCan(role, r.can!)) failures.push(`${r.method} ${r.url} as ${role}: ${res.status} ${res.text.slice(0, 80)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('buyers buy and viewers do not; reviewers review but cannot buy; a role change applies on the next request', async () => {
    const { members } = await team();
    const opp = await createOpportunity(db(), { maxSlots: 5 });
    const bought = await members.buyer.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(bought.status).toBe(200);
    const paid = ok(await members.buyer.agent.post(`/api/payments/checkout/${sessionIdOf(bought.body.url)}/pay`), 'pay');
    for (const role of ['reviewer', 'viewer'] as const) {
      const res = await members[role].agent.post('/api/payments/checkout', { opportunityId: opp.id });
      expect(res.status, role).toBe(403);
      expect(res.body.message).toBe('Your role in this organisation cannot buy');
    }
    // the reviewer writes the brief of the buyer's placement; the viewer may only read it
    const brief = { part1Json: { personOrBrandName: 'Team brief' } };
    expect((await members.reviewer.agent.post(`/api/brand/brief/${paid.paymentId}`, brief)).status).toBe(200);
    expect((await members.viewer.agent.post(`/api/brand/brief/${paid.paymentId}`, brief)).status).toBe(403);
    expect((await members.viewer.agent.get(`/api/brand/brief/${paid.paymentId}`)).body.part1Json).toEqual({ personOrBrandName: 'Team brief' });

    // the owner makes the buyer a viewer: the buyer's very next checkout is refused
    ok(await members.owner.agent.patch(`/api/org/members/${members.buyer.user.id}`, { role: 'viewer' }), 'demote');
    expect((await members.buyer.agent.post('/api/payments/checkout', { opportunityId: opp.id })).status).toBe(403);
    // an admin manages members but cannot touch the owner, nor transfer ownership
    expect((await members.admin.agent.patch(`/api/org/members/${members.owner.user.id}`, { role: 'viewer' })).status).toBe(403);
    expect((await members.admin.agent.request('DELETE', `/api/org/members/${members.owner.user.id}`)).status).toBe(403);
    expect((await members.admin.agent.post('/api/org/transfer-ownership', { userId: members.admin.user.id })).status).toBe(403);
  });
});

describe('one organisation: what its members share, and what another never sees', () => {
  it('every member sees the organisation’s placements and payments; another organisation gets 404 and empty lists', async () => {
    const { members } = await team();
    const stranger = await signedIn(t.app, db(), kinds.approvedBrand);
    const placement = await purchase(db(), members.buyer.user.id);
    for (const role of ORG_ROLES) {
      const list = await members[role].agent.get('/api/brand/my-articles');
      expect(list.status, role).toBe(200);
      expect(list.text, role).toContain(placement.id);
      expect((await members[role].agent.get('/api/brand/payments')).text, role).toContain(placement.id);
      expect((await members[role].agent.get(`/api/brand/projects/${placement.id}/timeline`)).status, role).toBe(200);
    }
    expect((await stranger.agent.get('/api/brand/my-articles')).text).not.toContain(placement.id);
    expect((await stranger.agent.get(`/api/brand/my-articles/${placement.id}`)).status).toBe(404);
    expect((await stranger.agent.get(`/api/brand/brief/${placement.id}`)).status).toBe(404);
    expect((await stranger.agent.get('/api/org/members')).text).not.toContain(members.buyer.user.email);
    // the shortlist is the organisation's
    const opp = await createOpportunity(db());
    expect((await members.buyer.agent.put(`/api/brand/saved/${opp.id}`)).status).toBe(204);
    expect((await members.owner.agent.get('/api/brand/saved')).text).toContain(opp.id);
    expect((await stranger.agent.get('/api/brand/saved')).text).not.toContain(opp.id);
  });

  it('an owner or admin naming another organisation’s member: PATCH, DELETE and PUT …/limits answer 404 and change nothing', async () => {
    const mine = await team();
    const theirs = await team();
    const client = ok(await mine.members.owner.agent.post('/api/org/clients', { name: 'Our client' }), 'client') as { id: string };
    const target = theirs.members.buyer;
    const snapshot = async () => {
      const [row] = await db()
        .select({
          organisationId: users.organisationId,
          orgRole: users.orgRole,
          clientIds: users.clientIds,
          name: users.name,
          approved: users.approved,
          monthlyCapUsd: users.monthlyCapUsd,
          approvalThresholdUsd: users.approvalThresholdUsd,
        })
        .from(users)
        .where(eq(users.id, target.user.id));
      return { ...row, sessions: await db().$count(sessions, eq(sessions.userId, target.user.id)) };
    };
    const before = await snapshot();
    expect(before).toMatchObject({ organisationId: theirs.orgId, orgRole: 'buyer', clientIds: null });
    expect(before.sessions).toBeGreaterThan(0);
    const url = `/api/org/members/${target.user.id}`;
    for (const who of [mine.members.owner, mine.members.admin]) {
      for (const res of [
        await who.agent.patch(url, { role: 'viewer' }),
        await who.agent.patch(url, { clientIds: [client.id] }),
        await who.agent.put(`${url}/limits`, { monthlyCapUsd: '1', approvalThresholdUsd: '1' }),
        await who.agent.request('DELETE', url),
      ]) {
        expect(res.status, res.text).toBe(404);
        expect(res.body.message).toBe('Member not found');
      }
    }
    expect(await snapshot()).toEqual(before);
    // still signed in, still theirs; neither organisation's audit log recorded anything about it
    expect((await target.agent.get('/api/org')).body).toMatchObject({ id: theirs.orgId, role: 'buyer' });
    expect(await db().$count(auditEntries, eq(auditEntries.subject, target.user.email))).toBe(0);
  });

  it('the owner’s company name is the organisation’s name; a member’s own changes nothing', async () => {
    const { members } = await team();
    const ownerProfile = (await members.owner.agent.get('/api/user')).body;
    ok(await members.owner.agent.patch('/api/user/profile', { name: ownerProfile.name, brandName: 'Renamed Co', website: ownerProfile.website, baseVersion: ownerProfile.version }), 'rename');
    expect((await members.buyer.agent.get('/api/org')).body.name).toBe('Renamed Co');
    const buyerProfile = (await members.buyer.agent.get('/api/user')).body;
    ok(await members.buyer.agent.patch('/api/user/profile', { name: buyerProfile.name, brandName: 'My Own Co', website: buyerProfile.website }), 'member edit');
    expect((await members.owner.agent.get('/api/org')).body.name).toBe('Renamed Co');
  });

  it('GET /api/org answers the member’s organisation and role', async () => {
    const { orgId, members } = await team();
    const res = await members.reviewer.agent.get('/api/org');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: orgId, name: 'Test Brand', approved: true, role: 'reviewer', clientIds: null, memberCount: 5 });
  });
});

describe('invitations', () => {
  it('a new account accepts once with its name, joins with the role, approved with the organisation; the link then answers 410', async () => {
    const { orgId, members } = await team();
    const email = uniqueEmail('invitee');
    const created = await members.admin.agent.post('/api/org/invitations', { email: email.toUpperCase(), role: 'buyer' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email, role: 'buyer', expired: false });
    const token = await mailedToken(email);
    expect((await new Agent(t.app).get(`/api/invitations/${token}`)).body).toEqual({ organisationName: 'Test Brand', role: 'buyer', email });

    const invitee = await signUp(email);
    // the account has no name yet: accepting asks for it
    expect((await invitee.post(`/api/invitations/${token}/accept`, {})).status).toBe(400);
    const accepted = await invitee.post(`/api/invitations/${token}/accept`, { name: 'Ivy Invitee' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ organisationId: orgId, role: 'buyer' });
    const me = (await invitee.get('/api/user')).body;
    expect(me).toMatchObject({ name: 'Ivy Invitee', approved: true, brandName: 'Test Brand' });
    expect((await invitee.get('/api/org')).body).toMatchObject({ id: orgId, role: 'buyer' });

    // used: the preview and a second accept answer 410, and nothing changes
    const again = await invitee.post(`/api/invitations/${token}/accept`, { name: 'Other' });
    expect(again.status).toBe(410);
    expect(again.body.message).toMatch(/expired, was already used or was revoked/);
    expect((await new Agent(t.app).get(`/api/invitations/${token}`)).status).toBe(410);
    expect((await members.owner.agent.get('/api/org/invitations')).body).toEqual([]);
  });

  it('expired, revoked and resent links answer 410; resending sends a working one', async () => {
    const { members } = await team();
    const email = uniqueEmail('late');
    const inv = ok(await members.owner.agent.post('/api/org/invitations', { email, role: 'viewer' }), 'invite');
    const first = await mailedToken(email);
    await db().update(orgInvitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(orgInvitations.id, inv.id));
    expect((await new Agent(t.app).get(`/api/invitations/${first}`)).status).toBe(410);
    expect((await members.owner.agent.get('/api/org/invitations')).body[0]).toMatchObject({ id: inv.id, expired: true });

    const resent = ok(await members.owner.agent.post(`/api/org/invitations/${inv.id}/resend`), 'resend');
    expect(resent.expired).toBe(false);
    const second = await mailedToken(email);
    expect(second).not.toBe(first);
    expect((await new Agent(t.app).get(`/api/invitations/${first}`)).status).toBe(410);
    expect((await new Agent(t.app).get(`/api/invitations/${second}`)).status).toBe(200);

    expect((await members.owner.agent.request('DELETE', `/api/org/invitations/${inv.id}`)).status).toBe(204);
    const invitee = await signUp(email);
    expect((await invitee.post(`/api/invitations/${second}/accept`, { name: 'Too Late' })).status).toBe(410);
    expect((await invitee.get('/api/user')).body.name).toBeNull();
  });

  it('one organisation per login: members elsewhere are refused at the invitation and at the accept; the invited e-mail only', async () => {
    const { members } = await team();
    const other = await signedIn(t.app, db(), kinds.approvedBrand);
    const refused = await members.owner.agent.post('/api/org/invitations', { email: other.user.email, role: 'buyer' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This e-mail address already belongs to another organisation (one organisation per login)');
    const here = await members.owner.agent.post('/api/org/invitations', { email: members.viewer.user.email, role: 'buyer' });
    expect(here.status).toBe(409);
    expect((await members.owner.agent.post('/api/org/invitations', { email: 'not-an-email', role: 'buyer' })).body.errors).toHaveProperty('email');
    expect((await members.owner.agent.post('/api/org/invitations', { email: uniqueEmail(), role: 'owner' })).body.errors).toHaveProperty('role');

    const email = uniqueEmail('meant');
    ok(await members.owner.agent.post('/api/org/invitations', { email, role: 'buyer' }), 'invite');
    const token = await mailedToken(email);
    const wrong = await signUp(uniqueEmail('wrong'));
    const res = await wrong.post(`/api/invitations/${token}/accept`, { name: 'Wrong' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(`This invitation is for ${email}; sign in with that address to accept it`);
    // still usable by the right person
    expect((await new Agent(t.app).get(`/api/invitations/${token}`)).status).toBe(200);
  });
});

describe('an invited address joins by its invitation, never as a second organisation (issue 57)', () => {
  const COMPANY = { name: 'Ivy Second', brandName: 'Second Co', website: 'https://second.example.com' };

  it('profile completion is refused while an invitation is open: 409 naming it, nothing made; accepting still works', async () => {
    const { orgId, members } = await team();
    const email = uniqueEmail('invited');
    ok(await members.owner.agent.post('/api/org/invitations', { email, role: 'buyer' }), 'invite');
    const token = await mailedToken(email);
    const invitee = await signUp(email);
    expect(ok(await invitee.get('/api/user/onboarding'), 'onboarding')).toEqual({ invitation: { organisationName: 'Test Brand', role: 'buyer' }, removedFrom: null });

    const refused = await invitee.patch('/api/user/profile', COMPANY);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.message).toBe(
      'Test Brand invited you to join as buyer. Open the link in the invitation e-mail to join: it asks only for your name. To set up a company of your own instead, ask Test Brand to revoke the invitation.',
    );
    // with an invite code too: nothing saved, no organisation made
    expect((await invitee.patch('/api/user/profile', { ...COMPANY, inviteCode: 'BYLINE-DEMO' })).status).toBe(409);
    const [row] = await db().select().from(users).where(eq(users.email, email));
    expect(row).toMatchObject({ name: null, organisationId: null, orgRole: null, approved: false });
    expect(await db().$count(organisations, eq(organisations.name, 'Second Co'))).toBe(0);

    // the invitation is still the way in
    expect(ok(await invitee.post(`/api/invitations/${token}/accept`, { name: 'Ivy Invitee' }), 'accept')).toEqual({ organisationId: orgId, role: 'buyer' });
    expect(ok(await invitee.get('/api/user/onboarding'), 'after')).toEqual({ invitation: null, removedFrom: null });
  });

  it('a revoked or expired invitation no longer holds the address: the company form works', async () => {
    const { members } = await team();
    for (const end of ['revoked', 'expired'] as const) {
      const email = uniqueEmail(end);
      const inv = ok(await members.owner.agent.post('/api/org/invitations', { email, role: 'viewer' }), 'invite');
      if (end === 'revoked') expect((await members.owner.agent.request('DELETE', `/api/org/invitations/${inv.id}`)).status).toBe(204);
      else await db().update(orgInvitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(orgInvitations.id, inv.id));
      const account = await signUp(email);
      expect(ok(await account.get('/api/user/onboarding'), end).invitation).toBeNull();
      const done = await account.patch('/api/user/profile', COMPANY);
      expect(done.status, `${end}: ${done.text}`).toBe(200);
      const [made] = await db().select({ orgRole: users.orgRole, organisationId: users.organisationId }).from(users).where(eq(users.email, email));
      expect(made.orgRole).toBe('owner');
      expect(made.organisationId).not.toBeNull();
    }
  });

  it('a removed member signing in is told which organisation removed them and when; leaving oneself or joining again says nothing', async () => {
    const { members } = await team();
    const before = Date.now();
    expect((await members.admin.agent.request('DELETE', `/api/org/members/${members.buyer.user.id}`)).status).toBe(204);
    const back = new Agent(t.app);
    ok(await back.post('/api/login', { email: members.buyer.user.email, password: PASSWORD }), 'login');
    const told = ok(await back.get('/api/user/onboarding'), 'onboarding');
    expect(told).toMatchObject({ invitation: null, removedFrom: { organisationName: 'Test Brand' } });
    expect(Date.parse(told.removedFrom.at)).toBeGreaterThanOrEqual(before - 1000);
    // a company of its own puts it behind them
    ok(await back.patch('/api/user/profile', { name: 'Buyer Again', brandName: 'Own Co', website: 'https://own.example.com' }), 'own company');
    expect(ok(await back.get('/api/user/onboarding'), 'own')).toEqual({ invitation: null, removedFrom: null });
    const [row] = await db().select({ removedFrom: users.removedFrom, removedAt: users.removedAt }).from(users).where(eq(users.id, members.buyer.user.id));
    expect(row).toEqual({ removedFrom: null, removedAt: null });

    // re-invited and joined: nothing to tell either
    expect((await members.owner.agent.request('DELETE', `/api/org/members/${members.reviewer.user.id}`)).status).toBe(204);
    ok(await members.owner.agent.post('/api/org/invitations', { email: members.reviewer.user.email, role: 'reviewer' }), 're-invite');
    const reviewer = new Agent(t.app);
    ok(await reviewer.post('/api/login', { email: members.reviewer.user.email, password: PASSWORD }), 'login');
    expect(ok(await reviewer.get('/api/user/onboarding'), 'invited again')).toMatchObject({
      invitation: { organisationName: 'Test Brand', role: 'reviewer' },
      removedFrom: { organisationName: 'Test Brand' },
    });
    ok(await reviewer.post(`/api/invitations/${await mailedToken(members.reviewer.user.email)}/accept`, { name: 'Back Again' }), 'accept');
    expect(ok(await reviewer.get('/api/user/onboarding'), 'joined')).toEqual({ invitation: null, removedFrom: null });
    const [joined] = await db().select({ removedFrom: users.removedFrom, removedAt: users.removedAt }).from(users).where(eq(users.id, members.reviewer.user.id));
    expect(joined).toEqual({ removedFrom: null, removedAt: null });

    // a member who leaves by themselves is not told they were removed
    expect((await members.admin.agent.request('DELETE', `/api/org/members/${members.admin.user.id}`)).status).toBe(204);
    const left = new Agent(t.app);
    ok(await left.post('/api/login', { email: members.admin.user.email, password: PASSWORD }), 'login');
    expect(ok(await left.get('/api/user/onboarding'), 'left')).toEqual({ invitation: null, removedFrom: null });
  });

  it('the approval queue names the other organisations at a pending brand’s e-mail domain (public mail domains aside)', async () => {
    const admin = await signedIn(t.app, db(), kinds.admin);
    const domain = `acme-${Date.now().toString(36)}.example`;
    const first = await signedIn(t.app, db(), { ...kinds.approvedBrand, email: `owner@${domain}`, brandName: 'Acme First' });
    const pending = async (email: string) => {
      const agent = await signUp(email);
      ok(await agent.patch('/api/user/profile', { name: 'Second Person', brandName: 'Acme Second', website: 'https://acme.example.com' }), 'complete');
      const list = ok(await admin.agent.get(`/api/admin/pending-brands?q=${encodeURIComponent(email)}`), 'queue') as { email: string; sameDomain: unknown }[];
      return list.find((b) => b.email === email)!.sameDomain;
    };
    expect(await pending(`second@${domain}`)).toEqual([{ id: first.user.organisationId, name: 'Acme First' }]);
    // the same domain, but a public mail provider's: no warning
    await signedIn(t.app, db(), { ...kinds.approvedBrand, email: `${uniqueEmail('first').split('@')[0]}@gmail.com` });
    expect(await pending(`${uniqueEmail('second').split('@')[0]}@gmail.com`)).toEqual([]);
    // a domain nobody else has: none; and a pending organisation's own members are not "another"
    expect(await pending(`solo@only-${Date.now().toString(36)}.example`)).toEqual([]);
  });
});

describe('removing a member and transferring ownership', () => {
  it('a removed member is signed out at once; what they bought stays with the organisation', async () => {
    const { members } = await team();
    const placement = await purchase(db(), members.buyer.user.id);
    expect((await members.admin.agent.request('DELETE', `/api/org/members/${members.buyer.user.id}`)).status).toBe(204);
    expect(await db().$count(sessions, eq(sessions.userId, members.buyer.user.id))).toBe(0);
    expect((await members.buyer.agent.get('/api/brand/my-articles')).status).toBe(401);
    expect((await members.owner.agent.get('/api/brand/my-articles')).text).toContain(placement.id);
    const [row] = await db().select().from(users).where(eq(users.id, members.buyer.user.id));
    expect(row).toMatchObject({ organisationId: null, orgRole: null, name: null, approved: false });
    // signing in again reaches no organisation: the account completes a profile or accepts an invitation
    const back = new Agent(t.app);
    ok(await back.post('/api/login', { email: members.buyer.user.email, password: PASSWORD }), 'login');
    const refused = await back.get('/api/brand/my-articles');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Please complete your profile first');
  });

  it('there is always exactly one owner: the owner cannot leave, and a transfer swaps owner and admin at once', async () => {
    const { orgId, members } = await team();
    const self = await members.owner.agent.request('DELETE', `/api/org/members/${members.owner.user.id}`);
    expect(self.status).toBe(403);
    expect(self.body.message).toBe('The owner cannot be removed; transfer ownership first');
    const list = ok(await members.owner.agent.post('/api/org/transfer-ownership', { userId: members.viewer.user.id }), 'transfer');
    const roleOf = (id: string) => list.find((m: { id: string }) => m.id === id).role;
    expect(roleOf(members.viewer.user.id)).toBe('owner');
    expect(roleOf(members.owner.user.id)).toBe('admin');
    expect(await db().$count(users, and(eq(users.organisationId, orgId), eq(users.orgRole, 'owner')))).toBe(1);
    // the old owner lost billing at once; the new one has it
    const billing = { legalName: 'Acme GmbH', addressLine1: 'Hauptstraße 5', city: 'Berlin', country: 'DE' };
    expect((await members.owner.agent.put('/api/brand/billing', billing)).status).toBe(403);
    expect((await members.viewer.agent.put('/api/brand/billing', billing)).status).toBe(200);
    expect((await members.buyer.agent.get('/api/brand/billing')).body.legalName).toBe('Acme GmbH');
  });
});

describe('the audit log', () => {
  it('records who did what from where in the change’s transaction, filters, exports CSV, and refuses edits', async () => {
    const { orgId, members } = await team();
    const email = uniqueEmail('audited');
    ok(await members.owner.agent.post('/api/org/invitations', { email, role: 'reviewer' }), 'invite');
    ok(await members.owner.agent.patch(`/api/org/members/${members.viewer.user.id}`, { role: 'buyer' }), 'role');
    const placement = await purchase(db(), members.buyer.user.id);
    ok(
      await members.reviewer.agent.post(`/api/brand/brief/${placement.id}/submit`, {
        part1Json: { personOrBrandName: 'Acme', backgroundExperience: 'Ten years' },
        part2Json: { mainGoal: 'Reach', targetAudience: 'Founders', mainMessage: 'Hello', socialMediaLinks: 'https://x.example' },
      }),
      'brief',
    );
    // a refused change leaves no entry
    await members.owner.agent.post('/api/org/invitations', { email: 'not-an-email', role: 'viewer' });

    const all = ok(await members.admin.agent.get('/api/org/audit'), 'audit');
    expect(all.map((e: { action: string }) => e.action)).toEqual(['brief_submitted', 'role_changed', 'member_invited']);
    expect(all[1]).toMatchObject({
      actor: { id: members.owner.user.id, email: members.owner.user.email },
      subject: members.viewer.user.email,
      details: { from: 'viewer', to: 'buyer' },
    });
    expect(all[0].actor.id).toBe(members.reviewer.user.id);
    expect(typeof all[0].address).toBe('string');

    const filtered = ok(await members.admin.agent.get(`/api/org/audit?action=member_invited&actor=${members.owner.user.id}`), 'filter');
    expect(filtered.map((e: { subject: string }) => e.subject)).toEqual([email]);
    const paged = await members.admin.agent.get('/api/org/audit?limit=2');
    expect(paged.body).toHaveLength(2);
    const next = /<([^>]+)>; rel="next"/.exec(String(paged.headers.link))![1];
    expect(ok(await members.admin.agent.get(next), 'next page').map((e: { action: string }) => e.action)).toEqual(['member_invited']);

    const csv = await members.owner.agent.get('/api/org/audit.csv?action=role_changed');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.text.trim().split('\r\n')).toHaveLength(2);
    // in words, as on the screen (issue 57), not the code
    expect(csv.text).toContain('Changed The viewer’s role to Buyer');
    expect(csv.text).not.toContain('role_changed');

    expect((await members.buyer.agent.get('/api/org/audit')).status).toBe(403);
    await expect(db().update(auditEntries).set({ subject: 'rewritten' }).where(eq(auditEntries.organisationId, orgId))).rejects.toThrow();
    await expect(db().delete(auditEntries).where(eq(auditEntries.organisationId, orgId))).rejects.toThrow();
  });
});

describe('the audit log’s days', () => {
  it('`to` is inclusive like `from`: the whole last day, to its last millisecond, on the screen’s API and in the CSV', async () => {
    const { orgId, members } = await team();
    const at = {
      'day before, late': '2026-03-09T23:59:59.999Z',
      'first instant': '2026-03-10T00:00:00.000Z',
      'midday': '2026-03-10T12:00:00.000Z',
      'last instant': '2026-03-10T23:59:59.999Z',
      'day after, first instant': '2026-03-11T00:00:00.000Z',
    };
    await db()
      .insert(auditEntries)
      .values(Object.entries(at).map(([subject, iso]) => ({ organisationId: orgId, actorEmail: members.owner.user.email, action: 'role_changed' as const, subject, at: new Date(iso) })));
    const subjects = async (query: string) => ok(await members.owner.agent.get(`/api/org/audit?${query}`), query).map((e: { subject: string }) => e.subject);
    const csvRows = async (query: string) => {
      const res = await members.owner.agent.get(`/api/org/audit.csv?${query}`);
      expect(res.status).toBe(200);
      return res.text.trim().split('\r\n').slice(1);
    };
    const theDay = ['last instant', 'midday', 'first instant'];
    expect(await subjects('from=2026-03-10&to=2026-03-10')).toEqual(theDay);
    expect(await subjects('to=2026-03-10')).toEqual([...theDay, 'day before, late']);
    expect(await subjects('from=2026-03-11')).toEqual(['day after, first instant']);
    const rows = await csvRows('from=2026-03-10&to=2026-03-10');
    expect(rows).toHaveLength(3);
    theDay.forEach((s, i) => expect(rows[i]).toContain(s));
    expect(await csvRows('to=2026-03-09')).toHaveLength(1);
  });
});

describe('migration 0025 makes each existing brand the owner of its organisation', () => {
  it('named brands own one-person organisations with their ids; every owned row follows; unnamed brands get none', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'byline-0025-'));
    const before = path.join(dir, 'before');
    cpSync(migrationsDir, before, { recursive: true });
    const journalPath = path.join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag === '0025_organisations');
    expect(at).toBeGreaterThan(0);
    writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    const pglite = await createPglite();
    try {
      const pdb = drizzle(pglite);
      await migrate(pdb, { migrationsFolder: before });
      const B = '00000000-0000-4000-8000-0000000000b1';
      const P = '00000000-0000-4000-8000-0000000000b2';
      const U = '00000000-0000-4000-8000-0000000000b3';
      const O = '00000000-0000-4000-8000-000000000001';
      const PAY = '00000000-0000-4000-8000-00000000aa01';
      await pglite.exec(`
        INSERT INTO users (id, email, password, role, name, brand_name, approved) VALUES
          ('${B}', 'b@example.com', 'x', 'brand', 'Bea', 'Acme', true),
          ('${P}', 'p@example.com', 'x', 'brand', 'Pat', NULL, false),
          ('${U}', 'u@example.com', 'x', 'brand', NULL, NULL, false),
          ('00000000-0000-4000-8000-0000000000a1', 'a@example.com', 'x', 'admin', 'Ada', NULL, true);
        INSERT INTO opportunities (id, outlet_name, title, description, type, price_usd) VALUES ('${O}', 'Outlet', 'Story', 'About', ARRAY['listicle'], 100);
        INSERT INTO payments (id, brand_id, opportunity_id, stripe_payment_id, provider_session_id, amount) VALUES ('${PAY}', '${B}', '${O}', 'pi_1', 'cs_1', 100);
        INSERT INTO placements (id, payment_id, brand_id, opportunity_id, created_at) VALUES ('${PAY}', '${PAY}', '${B}', '${O}', now());
        INSERT INTO checkouts (id, brand_id, opportunity_id, amount, status, expires_at) VALUES ('${PAY}', '${B}', '${O}', 100, 'completed', now());
        INSERT INTO briefs (brand_id, opportunity_id, placement_id, part1_json, part2_json) VALUES ('${B}', '${O}', '${PAY}', '{}', '{}');
        INSERT INTO saved_opportunities (brand_id, opportunity_id) VALUES ('${B}', '${O}');
        INSERT INTO billing_details (brand_id, legal_name, address_line1, city, country) VALUES ('${B}', 'Acme GmbH', 'Street 1', 'Berlin', 'DE');
      `);
      await migrate(pdb, { migrationsFolder: migrationsDir });
      const rows = async (text: string) => (await pglite.query<Record<string, unknown>>(text)).rows;
      expect(await rows('SELECT id, name, approved FROM organisations ORDER BY name')).toEqual([
        { id: B, name: 'Acme', approved: true },
        { id: P, name: 'Pat', approved: false },
      ]);
      expect(await rows('SELECT id, organisation_id, org_role FROM users ORDER BY email')).toEqual([
        { id: '00000000-0000-4000-8000-0000000000a1', organisation_id: null, org_role: null },
        { id: B, organisation_id: B, org_role: 'owner' },
        { id: P, organisation_id: P, org_role: 'owner' },
        { id: U, organisation_id: null, org_role: null },
      ]);
      for (const tableName of ['payments', 'placements', 'checkouts', 'briefs', 'saved_opportunities', 'billing_details']) {
        expect(await rows(`SELECT organisation_id FROM ${tableName}`), tableName).toEqual([{ organisation_id: B }]);
      }
    } finally {
      await pglite.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
