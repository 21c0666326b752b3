/**
 * The permission matrix, checked against the server's own route table: every route the app
 * registers (collected with Fastify's onRoute hook) must have a row here, and every row must name a
 * registered route. Each row is sent as six kinds of caller, on real ids made through the API:
 * a visitor, a brand without a name, an unapproved brand, approved brand A (the owner), approved
 * brand B (a stranger, using A's ids) and an admin.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { testChecker } from '../support/outlets';
import { configSchema } from '../../src/server/config';
import type { DbHandle } from '../../src/server/db/client';
import { inviteCodes } from '../../src/server/db/schema';
import { Agent, viaNewPaths, type Res } from '../support/app';
import { API_ALIASES } from '../../src/shared/api-paths';
import { createTestDb } from '../support/db';
import { PASSWORD, createUser, kinds, signedIn, uniqueEmail } from '../support/factories';
import { PART1, PART2 } from '../support/content';
import { createOpportunity } from '../support/payments';

type Kind = 'visitor' | 'unnamedBrand' | 'pendingBrand' | 'brandB' | 'brandA' | 'admin';
/** B goes before A: a stranger must be refused while the owner's resource is still in its first state. */
const KINDS: Kind[] = ['visitor', 'unnamedBrand', 'pendingBrand', 'brandB', 'brandA', 'admin'];

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

interface Ctx {
  /** a payment of A: paid through the built-in checkout, brief submitted, draft file attached */
  paymentId: string;
  opportunityId: string;
  draftFile: string;
  uploadName: string;
  pendingBrandId: string;
  inviteCodeId: string;
  loginEmail: string;
  /** per-row extras from `setup` */
  sessionId?: string;
  rowPaymentId?: string;
}

interface Row {
  route: string;
  send(agent: Agent, c: Ctx): Promise<Res>;
  expect: Record<Kind, number>;
  /** makes a fresh resource of A for this row (the action succeeds only once) */
  setup?: (c: Ctx) => Promise<Partial<Ctx>>;
  /** uses fresh sessions (the request ends or changes the signed-in user) */
  fresh?: boolean;
  /** a load balancer's probe: its 503 is `{status, reason}` (src/server/ops/health.ts), not a refusal */
  probe?: boolean;
  /** a page for a person (a share link, an unsubscribe link): its refusal is a page saying why, not JSON */
  page?: boolean;
}

/** an id no row has */
const NOBODY = '00000000-0000-4000-8000-000000000000';

const all = (s: number): Record<Kind, number> => ({
  visitor: s,
  unnamedBrand: s,
  pendingBrand: s,
  brandB: s,
  brandA: s,
  admin: s,
});
const anyUser = (ok: number) => ({ ...all(ok), visitor: 401 });
const adminOnly = (ok: number) => ({ ...all(403), visitor: 401, admin: ok });
/** a brand list or a brand action on no one's id: both approved brands succeed */
const approvedBrands = (ok: number) => ({ ...all(403), visitor: 401, brandA: ok, brandB: ok });
/** A's own resource: B sees a 404, exactly like a missing one */
const ownerOnly = (ok: number) => ({ ...approvedBrands(ok), brandB: 404 });

let t: { app: FastifyInstance; handle: DbHandle; close(): Promise<void> };
const registered = new Set<string>();
let who: Record<Kind, Agent>;
let admin: Agent;
let brandA: Agent;
let ctx: Ctx;

async function buildMatrixApp() {
  const handle = await createTestDb();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-matrix-'));
  // (the rows of a placement's new paths buy their own placements too: more checkouts than a person starts)
  const config = configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDir, LIMIT_CHECKOUTS: '200/1m' });
  const onRoute = (r: RouteOptions) => {
    for (const m of [r.method].flat()) if (m !== 'HEAD') registered.add(`${m} ${r.url}`);
  };
  const { diskFileStore } = await import('../../src/server/storage/file-store');
  const app = await buildApp({ db: handle.db, config, files: diskFileStore(path.join(dataDir, 'uploads')), onRoute, checker: testChecker(config) });
  await app.ready();
  return {
    app,
    handle,
    async close() {
      await app.close();
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

/** An opportunity with room, and a checkout of A for it (not paid yet). */
async function openCheckoutOfA() {
  const opp = await createOpportunity(t.handle.db, { maxSlots: 10 });
  const { url } = ok(await brandA.post('/api/payments/checkout', { opportunityId: opp.id }), 'checkout');
  return { opportunityId: opp.id, sessionId: String(url).split('/').pop()! };
}

/** A payment of A made through the built-in checkout: pay the session A opened. */
async function paymentOfA() {
  const { opportunityId, sessionId } = await openCheckoutOfA();
  const { paymentId } = ok(await brandA.post(`/api/payments/checkout/${sessionId}/pay`), 'pay');
  return { opportunityId, paymentId: paymentId as string };
}

async function submitBriefOfA(paymentId: string) {
  ok(await brandA.post(`/api/brand/brief/${paymentId}/submit`, { part1Json: PART1, part2Json: PART2 }), 'submit brief');
}

async function attachDraft(paymentId: string) {
  const { path: file } = ok(
    await admin.upload('/api/upload/document', 'file', PDF, 'draft.pdf', 'application/pdf'),
    'upload draft',
  );
  ok(await admin.patch(`/api/admin/payments/${paymentId}/status`, { draftDocumentFile: file }), 'attach draft');
  return file as string;
}

/** A payment of A with its brief submitted and a draft attached (pending the brand's review). */
async function reviewableOfA() {
  const p = await paymentOfA();
  await submitBriefOfA(p.paymentId);
  await attachDraft(p.paymentId);
  return { rowPaymentId: p.paymentId };
}

const OLDER_PART1 = { nameForArticles: 'Jane Founder', background: 'Agronomist for 20 years' };
const OLDER_PART2 = { goal: 'Raise awareness', audience: 'Policy makers', mainMessage: 'Soil is climate' };
const utcDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const opportunityBody = () => ({
  outletName: 'The Daily Planet',
  outletUrl: 'https://dailyplanet.example.com',
  title: 'Founder profile',
  description: 'An in-depth profile.',
  type: ['profile_article'],
  tat: '2-3 weeks',
  priceUsd: '2500.00',
  maxSlots: 3,
  domainAuthority: 88,
  deadlineDate: utcDay(30),
});

const ROWS: Row[] = [
  // account and sessions
  { route: 'GET /api/user', send: (a) => a.get('/api/user'), expect: anyUser(200) },
  // an account in no organisation hears of its open invitation or its removal (issue 57); any account may ask
  { route: 'GET /api/user/onboarding', send: (a) => a.get('/api/user/onboarding'), expect: anyUser(200) },
  {
    route: 'POST /api/login',
    send: (a, c) => a.post('/api/login', { email: c.loginEmail, password: PASSWORD }),
    expect: all(200),
    fresh: true,
  },
  {
    route: 'POST /api/register',
    send: (a) => a.post('/api/register', { email: uniqueEmail('matrix'), password: 'a-long-enough-password-1' }),
    expect: all(201),
    fresh: true,
  },
  // a visitor's sign-out is a harmless no-op
  { route: 'POST /api/logout', send: (a) => a.post('/api/logout'), expect: all(200), fresh: true },
  {
    route: 'POST /api/password/forgot',
    send: (a, c) => a.post('/api/password/forgot', { email: c.loginEmail }),
    expect: all(200),
  },
  // a made-up token is refused for everyone, signed in or not
  {
    route: 'POST /api/password/reset',
    send: (a) => a.post('/api/password/reset', { token: 'x'.repeat(43), password: 'a-long-enough-password-1' }),
    expect: all(400),
  },
  {
    route: 'PATCH /api/user/profile',
    send: (a) => a.patch('/api/user/profile', { avatarUrl: '/uploads/0123456789abcdef0123456789abcdef.png' }),
    expect: anyUser(200),
  },

  // files
  {
    route: 'POST /api/upload/avatar',
    send: (a) => a.upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png'),
    expect: anyUser(200),
  },
  {
    route: 'POST /api/upload/logo',
    send: (a) => a.upload('/api/upload/logo', 'logo', PNG, 'logo.png', 'image/png'),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/upload/document',
    send: (a) => a.upload('/api/upload/document', 'file', PDF, 'draft.pdf', 'application/pdf'),
    expect: adminOnly(200),
  },
  // the terms: read before signing up
  { route: 'GET /api/terms', send: (a) => a.get('/api/terms'), expect: all(200) },
  // the API documentation: public (it describes what Byline's own pages call)
  { route: 'GET /api/openapi.json', send: (a) => a.get('/api/openapi.json'), expect: all(200) },
  { route: 'GET /api/docs', send: (a) => a.get('/api/docs'), expect: all(200) },
  // the operator's probes (ops/): open to anyone, saying nothing about a caller; this app runs no
  // job worker, so it is not ready; /metrics is off without METRICS_TOKEN (tests/api/ops-*.test.ts)
  { route: 'GET /healthz', send: (a) => a.get('/healthz'), expect: all(200) },
  { route: 'GET /readyz', send: (a) => a.get('/readyz'), expect: all(503), probe: true },
  { route: 'GET /metrics', send: (a) => a.get('/metrics'), expect: all(404) },
  // public images: anyone may fetch one
  { route: 'GET /uploads/:name', send: (a, c) => a.get(`/uploads/${c.uploadName}`), expect: all(200) },
  // private drafts: the owning brand and admins; everyone else sees "not found"
  {
    route: 'GET /api/files/:name',
    send: (a, c) => a.get(c.draftFile),
    expect: { visitor: 401, unnamedBrand: 404, pendingBrand: 404, brandB: 404, brandA: 200, admin: 200 },
  },

  // admin: brands and invite codes
  { route: 'GET /api/admin/pending-brands', send: (a) => a.get('/api/admin/pending-brands'), expect: adminOnly(200) },
  {
    route: 'POST /api/admin/approve-brand/:id',
    send: (a, c) => a.post(`/api/admin/approve-brand/${c.pendingBrandId}`),
    expect: adminOnly(200),
  },
  { route: 'GET /api/admin/invite-codes', send: (a) => a.get('/api/admin/invite-codes'), expect: adminOnly(200) },
  {
    route: 'POST /api/admin/invite-codes',
    send: (a) => a.post('/api/admin/invite-codes', { code: `matrix-${Math.random().toString(36).slice(2, 10)}` }),
    expect: adminOnly(201),
  },
  {
    route: 'POST /api/admin/invite-codes/:id/deactivate',
    send: (a, c) => a.post(`/api/admin/invite-codes/${c.inviteCodeId}/deactivate`),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/admin/invite-codes/:id/activate',
    send: (a, c) => a.post(`/api/admin/invite-codes/${c.inviteCodeId}/activate`),
    expect: adminOnly(200),
  },

  // catalogue
  { route: 'GET /api/opportunities', send: (a) => a.get('/api/opportunities'), expect: approvedBrands(200) },
  // the shortlist: each brand its own (another brand's saves are never read or changed: catalogue-search.test.ts)
  { route: 'GET /api/brand/saved', send: (a) => a.get('/api/brand/saved'), expect: approvedBrands(200) },
  { route: 'PUT /api/brand/saved/:id', send: (a, c) => a.put(`/api/brand/saved/${c.opportunityId}`), expect: approvedBrands(204) },
  { route: 'DELETE /api/brand/saved/:id', send: (a, c) => a.request('DELETE', `/api/brand/saved/${c.opportunityId}`), expect: approvedBrands(204) },
  { route: 'GET /api/admin/opportunities', send: (a) => a.get('/api/admin/opportunities'), expect: adminOnly(200) },
  {
    route: 'GET /api/admin/opportunities/:id',
    send: (a, c) => a.get(`/api/admin/opportunities/${c.opportunityId}`),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/admin/opportunities',
    send: (a) => a.post('/api/admin/opportunities', opportunityBody()),
    expect: adminOnly(201),
  },
  {
    route: 'PATCH /api/admin/opportunities/:id',
    send: (a, c) => a.patch(`/api/admin/opportunities/${c.opportunityId}`, { ...opportunityBody(), maxSlots: 10 }),
    expect: adminOnly(200),
  },

  // payments: brand
  { route: 'GET /api/brand/wallet', send: (a) => a.get('/api/brand/wallet'), expect: approvedBrands(200) },
  { route: 'GET /api/brand/payments', send: (a) => a.get('/api/brand/payments'), expect: approvedBrands(200) },
  {
    route: 'POST /api/payments/checkout',
    setup: async () => ({ opportunityId: (await createOpportunity(t.handle.db, { maxSlots: 10 })).id }),
    send: (a, c) => a.post('/api/payments/checkout', { opportunityId: c.opportunityId }),
    expect: approvedBrands(200),
  },
  {
    route: 'GET /api/payments/checkout/:sessionId',
    setup: openCheckoutOfA,
    send: (a, c) => a.get(`/api/payments/checkout/${c.sessionId}`),
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/payments/checkout/:sessionId/pay',
    setup: openCheckoutOfA,
    send: (a, c) => a.post(`/api/payments/checkout/${c.sessionId}/pay`),
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/payments/checkout/:sessionId/cancel',
    setup: openCheckoutOfA,
    send: (a, c) => a.post(`/api/payments/checkout/${c.sessionId}/cancel`),
    expect: ownerOnly(200),
  },
  // signatures are the only check here: a caller's session changes nothing
  {
    route: 'POST /api/webhooks/stripe',
    send: (a) =>
      a.request('POST', '/api/webhooks/stripe', Buffer.from('{"id":"evt_1"}'), {
        'content-type': 'application/json',
        'stripe-signature': 't=1,v1=00',
      }),
    expect: all(400),
  },

  // payments: admin
  { route: 'GET /api/admin/payments', send: (a) => a.get('/api/admin/payments'), expect: adminOnly(200) },
  // invoices (issue 21): billing details are any brand's own; documents follow Payment History
  { route: 'GET /api/brand/billing', send: (a) => a.get('/api/brand/billing'), expect: { ...all(200), visitor: 401, admin: 403 } },
  {
    route: 'PUT /api/brand/billing',
    send: (a) => a.put('/api/brand/billing', { legalName: 'Acme GmbH', addressLine1: 'Hauptstraße 5', city: 'Berlin', country: 'DE' }),
    // the details are the organisation's: an account that has not completed its profile has none yet
    expect: { ...all(200), visitor: 401, admin: 403, unnamedBrand: 403 },
  },
  // the organisation (decision 033): each approved brand its own; another's member or invitation is a 404
  // a brand awaiting approval reads where its organisation stands (issue 57)
  { route: 'GET /api/org', send: (a) => a.get('/api/org'), expect: { ...approvedBrands(200), pendingBrand: 200 } },
  { route: 'GET /api/org/members', send: (a) => a.get('/api/org/members'), expect: approvedBrands(200) },
  { route: 'PATCH /api/org/members/:userId', send: (a) => a.patch(`/api/org/members/${NOBODY}`, { role: 'viewer' }), expect: approvedBrands(404) },
  { route: 'DELETE /api/org/members/:userId', send: (a) => a.delete(`/api/org/members/${NOBODY}`), expect: approvedBrands(404) },
  { route: 'POST /api/org/transfer-ownership', send: (a) => a.post('/api/org/transfer-ownership', { userId: NOBODY }), expect: approvedBrands(404) },
  { route: 'GET /api/org/invitations', send: (a) => a.get('/api/org/invitations'), expect: approvedBrands(200) },
  { route: 'POST /api/org/invitations', send: (a) => a.post('/api/org/invitations', { email: 'matrix-invitee@example.com', role: 'viewer' }), expect: approvedBrands(201) },
  { route: 'DELETE /api/org/invitations/:id', send: (a) => a.delete(`/api/org/invitations/${NOBODY}`), expect: approvedBrands(404) },
  { route: 'POST /api/org/invitations/:id/resend', send: (a) => a.post(`/api/org/invitations/${NOBODY}/resend`), expect: approvedBrands(404) },
  { route: 'GET /api/invitations/:token', send: (a) => a.get('/api/invitations/not-a-token'), expect: all(410) },
  { route: 'POST /api/invitations/:token/accept', send: (a) => a.post('/api/invitations/not-a-token/accept', {}), expect: anyUser(410) },
  { route: 'GET /api/org/audit', send: (a) => a.get('/api/org/audit'), expect: approvedBrands(200) },
  { route: 'GET /api/org/spend', send: (a) => a.get('/api/org/spend'), expect: approvedBrands(200) },
  { route: 'PUT /api/org/budget', send: (a) => a.put('/api/org/budget', { monthlyCapUsd: null }), expect: approvedBrands(200) },
  { route: 'PUT /api/org/members/:userId/limits', send: (a) => a.put(`/api/org/members/${NOBODY}/limits`, { monthlyCapUsd: null, approvalThresholdUsd: null }), expect: approvedBrands(404) },
  { route: 'GET /api/org/purchase-requests', send: (a) => a.get('/api/org/purchase-requests'), expect: approvedBrands(200) },
  { route: 'POST /api/org/purchase-requests/:id/approve', send: (a) => a.post(`/api/org/purchase-requests/${NOBODY}/approve`), expect: approvedBrands(404) },
  { route: 'POST /api/org/purchase-requests/:id/decline', send: (a) => a.post(`/api/org/purchase-requests/${NOBODY}/decline`, { reason: 'No' }), expect: approvedBrands(404) },
  { route: 'GET /api/org/audit.csv', send: (a) => a.get('/api/org/audit.csv'), expect: approvedBrands(200) },
  { route: 'GET /api/org/audit/actors', send: (a) => a.get('/api/org/audit/actors'), expect: approvedBrands(200) },
  // the cart and its orders (issue 46)
  { route: 'GET /api/cart', send: (a) => a.get('/api/cart'), expect: approvedBrands(200) },
  { route: 'PUT /api/cart/lines/:opportunityId', send: (a) => a.put(`/api/cart/lines/${NOBODY}`), expect: approvedBrands(404) },
  { route: 'DELETE /api/cart/lines/:opportunityId', send: (a) => a.delete(`/api/cart/lines/${NOBODY}`), expect: approvedBrands(200) },
  { route: 'DELETE /api/cart', send: (a) => a.delete('/api/cart'), expect: approvedBrands(200) },
  { route: 'POST /api/cart/checkout', send: (a) => a.post('/api/cart/checkout', {}), expect: approvedBrands(409) },
  { route: 'GET /api/brand/orders', send: (a) => a.get('/api/brand/orders'), expect: approvedBrands(200) },
  { route: 'GET /api/brand/orders/:id', send: (a) => a.get(`/api/brand/orders/${NOBODY}`), expect: approvedBrands(404) },
  { route: 'POST /api/brand/orders/:id/reorder', send: (a) => a.post(`/api/brand/orders/${NOBODY}/reorder`), expect: approvedBrands(404) },
  { route: 'GET /api/org/clients', send: (a) => a.get('/api/org/clients'), expect: approvedBrands(200) },
  { route: 'GET /api/org/clients/names', send: (a) => a.get('/api/org/clients/names'), expect: approvedBrands(200) },
  { route: 'POST /api/org/clients', send: (a) => a.post('/api/org/clients', { name: `Matrix client ${Math.random()}` }), expect: approvedBrands(201) },
  { route: 'PATCH /api/org/clients/:id', send: (a) => a.patch(`/api/org/clients/${NOBODY}`, { name: 'Renamed' }), expect: approvedBrands(404) },
  { route: 'GET /api/org/clients/:id/billing', send: (a) => a.get(`/api/org/clients/${NOBODY}/billing`), expect: approvedBrands(404) },
  { route: 'PUT /api/org/clients/:id/billing', send: (a) => a.put(`/api/org/clients/${NOBODY}/billing`, { legalName: 'Client Ltd', addressLine1: '1 Road', city: 'Paris', country: 'FR' }), expect: approvedBrands(404) },
  { route: 'GET /api/admin/organisations', send: (a) => a.get('/api/admin/organisations'), expect: adminOnly(200) },
  { route: 'GET /api/admin/organisations/:id', send: (a) => a.get(`/api/admin/organisations/${NOBODY}`), expect: adminOnly(404) },
  { route: 'GET /api/brand/payments/:paymentId/invoice', send: (a, c) => a.get(`/api/brand/payments/${c.paymentId}/invoice`), expect: ownerOnly(200) },
  { route: 'GET /api/admin/payments/:paymentId/invoice', send: (a, c) => a.get(`/api/admin/payments/${c.paymentId}/invoice`), expect: adminOnly(200) },
  {
    route: 'GET /api/brand/payments/:paymentId/credit-note',
    // not refunded: the owner learns there is no credit note, exactly as a stranger learns nothing
    send: (a, c) => a.get(`/api/brand/payments/${c.paymentId}/credit-note`),
    expect: ownerOnly(404),
  },
  { route: 'GET /api/admin/payments/:paymentId/credit-note', send: (a, c) => a.get(`/api/admin/payments/${c.paymentId}/credit-note`), expect: adminOnly(404) },
  // issue 47: credit notes of part refunds, revision rounds, writing started, cancellation
  { route: 'GET /api/brand/payments/:paymentId/credit-notes', send: (a, c) => a.get(`/api/brand/payments/${c.paymentId}/credit-notes`), expect: ownerOnly(200) },
  { route: 'GET /api/admin/payments/:paymentId/credit-notes', send: (a, c) => a.get(`/api/admin/payments/${c.paymentId}/credit-notes`), expect: adminOnly(200) },
  {
    route: 'GET /api/brand/payments/:paymentId/credit-notes/:noteId',
    send: (a, c) => a.get(`/api/brand/payments/${c.paymentId}/credit-notes/${NOBODY}`),
    expect: ownerOnly(404),
  },
  {
    route: 'GET /api/admin/payments/:paymentId/credit-notes/:noteId',
    send: (a, c) => a.get(`/api/admin/payments/${c.paymentId}/credit-notes/${NOBODY}`),
    expect: adminOnly(404),
  },
  {
    route: 'POST /api/admin/payments/:id/revision-request/accept',
    send: (a, c) => a.post(`/api/admin/payments/${c.paymentId}/revision-request/accept`),
    // none pending
    expect: adminOnly(409),
  },
  {
    route: 'POST /api/admin/payments/:id/revision-request/decline',
    send: (a, c) => a.post(`/api/admin/payments/${c.paymentId}/revision-request/decline`, { reason: 'Not in the brief' }),
    expect: adminOnly(409),
  },
  {
    route: 'POST /api/admin/payments/:id/writing-started',
    setup: async () => ({ rowPaymentId: (await paymentOfA()).paymentId }),
    send: (a, c) => a.post(`/api/admin/payments/${c.rowPaymentId}/writing-started`),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/brand/projects/:paymentId/cancel',
    setup: async () => ({ rowPaymentId: (await paymentOfA()).paymentId }),
    send: (a, c) => a.post(`/api/brand/projects/${c.rowPaymentId}/cancel`, {}),
    // before writing: refunded in full at once
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/brand/placements/:placementId/cancel-late',
    setup: async () => ({ rowPaymentId: (await paymentOfA()).paymentId }),
    send: (a, c) => a.post(`/api/brand/placements/${c.rowPaymentId}/cancel-late`, {}),
    // not late: refused, nothing changed (issue 59: from LATE_CANCEL_DAYS business days late)
    expect: ownerOnly(409),
  },
  { route: 'GET /api/admin/cancellations', send: (a) => a.get('/api/admin/cancellations'), expect: adminOnly(200) },
  {
    route: 'POST /api/brand/projects/:paymentId/disputes',
    setup: reviewableOfA,
    send: (a, c) => a.post(`/api/brand/projects/${c.rowPaymentId}/disputes`, { reason: 'not_as_briefed', outcome: 'correction', text: 'Not as briefed' }),
    expect: ownerOnly(201),
  },
  { route: 'GET /api/brand/disputes/:id', send: (a) => a.get(`/api/brand/disputes/${NOBODY}`), expect: approvedBrands(404) },
  { route: 'POST /api/brand/disputes/:id/accept-offer', send: (a) => a.post(`/api/brand/disputes/${NOBODY}/accept-offer`), expect: approvedBrands(404) },
  { route: 'POST /api/brand/disputes/:id/escalate', send: (a) => a.post(`/api/brand/disputes/${NOBODY}/escalate`), expect: approvedBrands(404) },
  { route: 'GET /api/admin/disputes', send: (a) => a.get('/api/admin/disputes'), expect: adminOnly(200) },
  { route: 'GET /api/admin/disputes/:id', send: (a) => a.get(`/api/admin/disputes/${NOBODY}`), expect: adminOnly(404) },
  { route: 'POST /api/admin/disputes/:id/answer', send: (a) => a.post(`/api/admin/disputes/${NOBODY}/answer`, { action: 'accept' }), expect: adminOnly(404) },
  {
    route: 'POST /api/admin/disputes/:id/decide',
    send: (a) => a.post(`/api/admin/disputes/${NOBODY}/decide`, { outcome: 'reject', reason: 'No' }),
    expect: adminOnly(404),
  },
  {
    route: 'POST /api/admin/cancellations/:id/answer',
    send: (a) => a.post(`/api/admin/cancellations/${NOBODY}/answer`, { outcome: 'refund_full' }),
    expect: adminOnly(404),
  },
  // outlets (issue 48): any approved brand reads an outlet page; only admins import metrics
  { route: 'GET /api/outlets/:id', send: (a) => a.get(`/api/outlets/${NOBODY}`), expect: approvedBrands(404) },
  { route: 'GET /api/admin/outlets/:id', send: (a) => a.get(`/api/admin/outlets/${NOBODY}`), expect: adminOnly(404) },
  {
    route: 'POST /api/admin/outlets/metrics/import',
    send: (a) =>
      a.upload('/api/admin/outlets/metrics/import?source=moz&dryRun=1', 'file', Buffer.from('URL,Domain Authority\nexample.com,40\n'), 'moz.csv', 'text/csv'),
    expect: adminOnly(200),
  },
  // reports and share links (issue 48): each organisation its own; the share and unsubscribe pages open signed out
  {
    route: 'POST /api/org/reports/logo',
    send: (a) => a.upload('/api/org/reports/logo', 'logo', PNG, 'logo.png', 'image/png'),
    expect: approvedBrands(200),
  },
  { route: 'POST /api/org/reports', send: (a) => a.post('/api/org/reports', { name: 'Matrix', columns: ['title'] }), expect: approvedBrands(201) },
  { route: 'GET /api/org/reports', send: (a) => a.get('/api/org/reports'), expect: approvedBrands(200) },
  { route: 'GET /api/org/reports/:id/pdf', send: (a) => a.get(`/api/org/reports/${NOBODY}/pdf`), expect: approvedBrands(404) },
  { route: 'GET /api/org/reports/:id/csv', send: (a) => a.get(`/api/org/reports/${NOBODY}/csv`), expect: approvedBrands(404) },
  {
    route: 'PUT /api/org/reports/:id/schedule',
    send: (a) => a.put(`/api/org/reports/${NOBODY}/schedule`, { cadence: 'weekly', recipients: [] }),
    expect: approvedBrands(404),
  },
  { route: 'POST /api/org/reports/:id/shares', send: (a) => a.post(`/api/org/reports/${NOBODY}/shares`, {}), expect: approvedBrands(404) },
  {
    route: 'POST /api/brand/projects/:paymentId/shares',
    setup: async () => ({ rowPaymentId: (await paymentOfA()).paymentId }),
    send: (a, c) => a.post(`/api/brand/projects/${c.rowPaymentId}/shares`, {}),
    expect: ownerOnly(201),
  },
  { route: 'GET /api/org/shares', send: (a) => a.get('/api/org/shares'), expect: approvedBrands(200) },
  { route: 'DELETE /api/org/shares/:id', send: (a) => a.delete(`/api/org/shares/${NOBODY}`), expect: approvedBrands(404) },
  { route: 'GET /share/:token', send: (a) => a.get('/share/no-such-link-token-at-all-0000'), expect: all(404), page: true },
  { route: 'GET /unsubscribe/report/:id', send: (a) => a.get(`/unsubscribe/report/${NOBODY}?email=a%40b.example&token=x`), expect: all(200) },
  {
    route: 'POST /unsubscribe/report/:id',
    send: (a) => a.post(`/unsubscribe/report/${NOBODY}?email=a%40b.example&token=x`),
    expect: all(404),
    page: true,
  },
  { route: 'GET /api/admin/payments/export.csv', send: (a) => a.get('/api/admin/payments/export.csv'), expect: adminOnly(200) },
  { route: 'GET /api/admin/payments/totals', send: (a) => a.get('/api/admin/payments/totals'), expect: adminOnly(200) },
  { route: 'GET /api/admin/payments/attention', send: (a) => a.get('/api/admin/payments/attention'), expect: adminOnly(200) },
  { route: 'GET /api/admin/attention', send: (a) => a.get('/api/admin/attention'), expect: adminOnly(200) },
  {
    route: 'POST /api/admin/payments/:id/release',
    setup: async () => ({ rowPaymentId: (await paymentOfA()).paymentId }),
    send: (a, c) => a.post(`/api/admin/payments/${c.rowPaymentId}/release`),
    expect: adminOnly(200),
  },
  {
    route: 'PATCH /api/admin/payments/:id/status',
    setup: async () => ({ rowPaymentId: (await paymentOfA()).paymentId }),
    send: (a, c) => a.patch(`/api/admin/payments/${c.rowPaymentId}/status`, { status: 'released' }),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/admin/payments/:id/refund',
    setup: async () => ({ rowPaymentId: (await paymentOfA()).paymentId }),
    send: (a, c) => a.post(`/api/admin/payments/${c.rowPaymentId}/refund`),
    expect: adminOnly(200),
  },

  // publication (issue 17): no LINK_CHECK_ALLOW here, so a loopback URL is refused before any
  // connection; the written reason accepts the problem, so the admin's call succeeds
  {
    route: 'PUT /api/admin/payments/:id/publication',
    setup: async () => {
      const { paymentId } = await paymentOfA();
      ok(await admin.post(`/api/admin/payments/${paymentId}/release`), 'release');
      return { rowPaymentId: paymentId };
    },
    send: (a, c) => a.put(`/api/admin/payments/${c.rowPaymentId}/publication`, { liveUrl: 'http://127.0.0.1:9/story', overrideReason: 'matrix' }),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/admin/payments/:id/publication/check',
    send: (a, c) => a.post(`/api/admin/payments/${c.paymentId}/publication/check`, { liveUrl: 'http://127.0.0.1:9/story' }),
    expect: adminOnly(200),
  },
  { route: 'GET /api/admin/placements', send: (a) => a.get('/api/admin/placements'), expect: adminOnly(200) },
  { route: 'GET /api/admin/placements/counts', send: (a) => a.get('/api/admin/placements/counts'), expect: adminOnly(200) },

  // briefs
  { route: 'GET /api/brand/my-articles', send: (a) => a.get('/api/brand/my-articles'), expect: approvedBrands(200) },
  { route: 'GET /api/brand/my-articles/counts', send: (a) => a.get('/api/brand/my-articles/counts'), expect: approvedBrands(200) },
  // one placement's page: the brand its own, admins every one
  { route: 'GET /api/brand/my-articles/:paymentId', send: (a, c) => a.get(`/api/brand/my-articles/${c.paymentId}`), expect: ownerOnly(200) },
  { route: 'GET /api/admin/projects/:paymentId', send: (a, c) => a.get(`/api/admin/projects/${c.paymentId}`), expect: adminOnly(200) },
  // the timeline: the brand its own placement, admins every one
  { route: 'GET /api/brand/projects/:paymentId/timeline', send: (a, c) => a.get(`/api/brand/projects/${c.paymentId}/timeline`), expect: ownerOnly(200) },
  { route: 'GET /api/admin/projects/:paymentId/timeline', send: (a, c) => a.get(`/api/admin/projects/${c.paymentId}/timeline`), expect: adminOnly(200) },
  {
    route: 'GET /api/brand/brief/:paymentId',
    send: (a, c) => a.get(`/api/brand/brief/${c.paymentId}`),
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/brand/brief/:paymentId',
    setup: async () => ({ rowPaymentId: (await paymentOfA()).paymentId }),
    send: (a, c) => a.post(`/api/brand/brief/${c.rowPaymentId}`, { part1Json: { personOrBrandName: 'Autosaved' } }),
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/brand/brief/:paymentId/submit',
    setup: async () => ({ rowPaymentId: (await paymentOfA()).paymentId }),
    send: (a, c) => a.post(`/api/brand/brief/${c.rowPaymentId}/submit`, { part1Json: PART1, part2Json: PART2 }),
    expect: ownerOnly(200),
  },
  // a bare boolean: B asking about A's opportunity gets 200 and false (checked below)
  {
    route: 'GET /api/brand/brief-access',
    send: (a, c) => a.get(`/api/brand/brief-access?opportunityId=${c.opportunityId}`),
    expect: approvedBrands(200),
  },
  {
    route: 'POST /api/briefs',
    setup: paymentOfA,
    send: (a, c) => a.post('/api/briefs', { opportunityId: c.opportunityId, part1: OLDER_PART1, part2: OLDER_PART2 }),
    expect: ownerOnly(200),
  },

  // many at once, decline and swap (issue 46)
  {
    route: 'POST /api/brand/projects/approve',
    setup: reviewableOfA,
    send: (a, c) => a.post('/api/brand/projects/approve', { paymentIds: [c.rowPaymentId] }),
    // another brand's placement is skipped as not found, not refused
    expect: approvedBrands(200),
  },
  {
    route: 'POST /api/brand/brief/:paymentId/copy',
    setup: async () => ({ rowPaymentId: (await paymentOfA()).paymentId }),
    send: (a, c) => a.post(`/api/brand/brief/${c.rowPaymentId}/copy`, {}),
    // the owner's brief is not submitted: 409; the other brand's is not found
    expect: { ...ownerOnly(409) },
  },
  { route: 'GET /api/brand/brief-templates', send: (a) => a.get('/api/brand/brief-templates'), expect: approvedBrands(200) },
  {
    route: 'POST /api/brand/brief-templates',
    send: (a) => a.post('/api/brand/brief-templates', { name: `Matrix ${Math.random()}` }),
    expect: approvedBrands(201),
  },
  {
    route: 'GET /api/brand/brief-templates/:id',
    // a template of A's (the `sessionId` slot carries its id): B's organisation does not see it
    setup: async () => ({ sessionId: ok(await brandA.post('/api/brand/brief-templates', { name: `Matrix ${Math.random()}` }), 'template').id }),
    send: (a, c) => a.get(`/api/brand/brief-templates/${c.sessionId}`),
    expect: ownerOnly(200),
  },
  { route: 'DELETE /api/brand/brief-templates/:id', send: (a) => a.delete(`/api/brand/brief-templates/${NOBODY}`), expect: approvedBrands(404) },
  {
    route: 'POST /api/admin/payments/:id/decline',
    setup: async () => ({ rowPaymentId: (await paymentOfA()).paymentId }),
    send: (a, c) => a.post(`/api/admin/payments/${c.rowPaymentId}/decline`, { reason: 'The outlet refused the topic' }),
    expect: adminOnly(200),
  },
  {
    route: 'GET /api/brand/projects/:paymentId/swap-options',
    setup: async () => ({ rowPaymentId: (await paymentOfA()).paymentId }),
    send: (a, c) => a.get(`/api/brand/projects/${c.rowPaymentId}/swap-options`),
    // not declined: 409 to its owner
    expect: ownerOnly(409),
  },
  {
    route: 'POST /api/brand/projects/:paymentId/swap',
    setup: async () => ({ rowPaymentId: (await paymentOfA()).paymentId }),
    send: (a, c) => a.post(`/api/brand/projects/${c.rowPaymentId}/swap`, { opportunityId: NOBODY }),
    expect: ownerOnly(409),
  },

  // draft review
  {
    route: 'POST /api/brand/projects/:paymentId/approve',
    setup: reviewableOfA,
    send: (a, c) => a.post(`/api/brand/projects/${c.rowPaymentId}/approve`),
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/brand/projects/:paymentId/request-edits',
    setup: reviewableOfA,
    send: (a, c) => a.post(`/api/brand/projects/${c.rowPaymentId}/request-edits`, { feedback: 'Shorter intro please' }),
    expect: ownerOnly(200),
  },
  { route: 'GET /api/admin/projects', send: (a) => a.get('/api/admin/projects'), expect: adminOnly(200) },
  { route: 'GET /api/admin/projects/counts', send: (a) => a.get('/api/admin/projects/counts'), expect: adminOnly(200) },
  { route: 'GET /api/admin/team', send: (a) => a.get('/api/admin/team'), expect: adminOnly(200) },
  // the test clock (issue 59): an admin's move of 0 hours is refused (400), so the matrix moves no time
  { route: 'GET /api/admin/test-clock', send: (a) => a.get('/api/admin/test-clock'), expect: adminOnly(200) },
  { route: 'POST /api/admin/test-clock', send: (a) => a.post('/api/admin/test-clock', { advanceHours: 0 }), expect: adminOnly(400) },
  {
    route: 'PUT /api/admin/placements/:placementId/assignee',
    setup: async () => ({ rowPaymentId: (await paymentOfA()).paymentId }),
    send: (a, c) => a.put(`/api/admin/placements/${c.rowPaymentId}/assignee`, { adminId: null }),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/admin/projects/:id/mark-edits-complete',
    setup: async () => {
      const { rowPaymentId } = await reviewableOfA();
      ok(
        await brandA.post(`/api/brand/projects/${rowPaymentId}/request-edits`, { feedback: 'More detail' }),
        'request edits',
      );
      return { rowPaymentId };
    },
    send: (a, c) => a.post(`/api/admin/projects/${c.rowPaymentId}/mark-edits-complete`),
    expect: adminOnly(200),
  },

  // messages: the brand of the payment and the editorial team; another brand's payment is a 404
  { route: 'GET /api/brand/messages/unread', send: (a) => a.get('/api/brand/messages/unread'), expect: approvedBrands(200) },
  { route: 'GET /api/admin/messages/unread', send: (a) => a.get('/api/admin/messages/unread'), expect: adminOnly(200) },
  { route: 'GET /api/brand/projects/:paymentId/conversation', send: (a, c) => a.get(`/api/brand/projects/${c.paymentId}/conversation`), expect: ownerOnly(200) },
  { route: 'GET /api/admin/projects/:paymentId/conversation', send: (a, c) => a.get(`/api/admin/projects/${c.paymentId}/conversation`), expect: adminOnly(200) },
  { route: 'GET /api/brand/projects/:paymentId/messages', send: (a, c) => a.get(`/api/brand/projects/${c.paymentId}/messages`), expect: ownerOnly(200) },
  { route: 'GET /api/admin/projects/:paymentId/messages', send: (a, c) => a.get(`/api/admin/projects/${c.paymentId}/messages`), expect: adminOnly(200) },
  { route: 'POST /api/brand/projects/:paymentId/messages', send: (a, c) => a.post(`/api/brand/projects/${c.paymentId}/messages`, { text: 'Hello' }), expect: ownerOnly(201) },
  { route: 'POST /api/admin/projects/:paymentId/messages', send: (a, c) => a.post(`/api/admin/projects/${c.paymentId}/messages`, { text: 'Hello' }), expect: adminOnly(201) },
  { route: 'POST /api/brand/projects/:paymentId/messages/read', send: (a, c) => a.post(`/api/brand/projects/${c.paymentId}/messages/read`), expect: ownerOnly(204) },
  { route: 'POST /api/admin/projects/:paymentId/messages/read', send: (a, c) => a.post(`/api/admin/projects/${c.paymentId}/messages/read`), expect: adminOnly(204) },
  {
    route: 'GET /api/brand/projects/:paymentId/messages/:messageId/attachment',
    setup: async (c) => ({ sessionId: ok(await brandA.upload(`/api/brand/projects/${c.paymentId}/messages`, 'file', PDF, 'a.pdf'), 'attach').id }),
    // sessionId carries the message id here
    send: (a, c) => a.get(`/api/brand/projects/${c.paymentId}/messages/${c.sessionId}/attachment`),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/admin/projects/:paymentId/messages/:messageId/attachment',
    setup: async (c) => ({ sessionId: ok(await admin.upload(`/api/admin/projects/${c.paymentId}/messages`, 'file', PNG, 'a.png'), 'attach').id }),
    // sessionId carries the message id here
    send: (a, c) => a.get(`/api/admin/projects/${c.paymentId}/messages/${c.sessionId}/attachment`),
    expect: adminOnly(200),
  },
];

async function sixAgents(): Promise<Record<Kind, Agent>> {
  const [a, b, ad, unnamed, pending] = await Promise.all([
    signedIn(t.app, t.handle.db, kinds.approvedBrand),
    signedIn(t.app, t.handle.db, kinds.approvedBrand),
    signedIn(t.app, t.handle.db, kinds.admin),
    signedIn(t.app, t.handle.db, kinds.unnamedBrand),
    signedIn(t.app, t.handle.db, kinds.pendingBrand),
  ]);
  return {
    visitor: new Agent(t.app),
    unnamedBrand: unnamed.agent,
    pendingBrand: pending.agent,
    brandB: b.agent,
    brandA: a.agent,
    admin: ad.agent,
  };
}

beforeAll(async () => {
  t = await buildMatrixApp();
  who = await sixAgents();
  admin = who.admin;
  brandA = who.brandA;
  const { paymentId, opportunityId } = await paymentOfA();
  await submitBriefOfA(paymentId);
  const draftFile = await attachDraft(paymentId);
  const { url } = ok(await admin.upload('/api/upload/avatar', 'avatar', PNG, 'a.png', 'image/png'), 'avatar');
  const [pending, adminRow, loginUser] = await Promise.all([
    createUser(t.handle.db, kinds.pendingBrand),
    createUser(t.handle.db, kinds.admin),
    createUser(t.handle.db, kinds.approvedBrand),
  ]);
  const [code] = await t.handle.db.insert(inviteCodes).values({ code: 'MATRIX', createdBy: adminRow.id }).returning();
  ctx = {
    paymentId,
    opportunityId,
    draftFile,
    uploadName: String(url).split('/').pop()!,
    pendingBrandId: pending.id,
    inviteCodeId: code.id,
    loginEmail: loginUser.email,
  };
}, 120_000);
afterAll(() => t?.close());

/**
 * A placement's routes on their new paths (issue 58, `/api/brand|admin/placements/:placementId/…`):
 * each row of an older path (an alias) again, its requests sent to the new path, which must answer
 * every kind of caller exactly as the older one does.
 */
for (const row of [...ROWS]) {
  const [method, path] = row.route.split(' ');
  const now = (API_ALIASES as Record<string, string>)[path];
  if (!now) continue;
  ROWS.push({
    ...row,
    route: `${method} ${now}`,
    async send(agent, c) {
      const moved = viaNewPaths(agent);
      const res = await row.send(moved, c);
      if (moved.rewritten === 0) throw new Error(`${row.route}: its row sent nothing to ${now}`);
      return res;
    },
  });
}

describe('the route table', () => {
  it('every registered route has a row in the matrix, and every row names a registered route', () => {
    const table = ROWS.map((r) => r.route).sort();
    expect(new Set(table).size, 'a route appears twice in the table').toBe(table.length);
    expect([...registered].sort()).toEqual(table);
  });
});

describe('permission matrix', () => {
  for (const row of ROWS) {
    it(`${row.route}: ${KINDS.map((k) => `${k} ${row.expect[k]}`).join(', ')}`, async () => {
      const agents = row.fresh ? await sixAgents() : who;
      const c = { ...ctx, ...(row.setup ? await row.setup(ctx) : {}) };
      const got: Record<string, number> = {};
      const bodies: Record<string, string> = {};
      for (const kind of KINDS) {
        const res = await row.send(agents[kind], c);
        got[kind] = res.status;
        bodies[kind] = res.text.slice(0, 200);
        // every refusal says why, in the shared error shape
        if (res.status >= 400 && !row.probe && !row.page) expect(typeof res.body?.message, `${kind}: ${res.text}`).toBe('string');
        if (res.status >= 400 && row.page) expect(res.text, kind).toMatch(/<h1>[^<]+<\/h1>/);
        if (row.probe) expect(res.body, kind).toEqual({ status: 'unavailable', reason: 'jobs' });
      }
      expect(got, JSON.stringify(bodies, null, 1)).toEqual(row.expect);
    });
  }

  it('B asking about A’s opportunity learns nothing: brief access is false for B, true for A', async () => {
    expect((await who.brandB.get(`/api/brand/brief-access?opportunityId=${ctx.opportunityId}`)).body).toBe(false);
    expect((await who.brandA.get(`/api/brand/brief-access?opportunityId=${ctx.opportunityId}`)).body).toBe(true);
  });

  it('B’s lists never show A’s payment', async () => {
    for (const url of ['/api/brand/payments', '/api/brand/my-articles']) {
      const text = (await who.brandB.get(url)).text;
      expect(text, url).not.toContain(ctx.paymentId);
      expect((await who.brandA.get(url)).text, url).toContain(ctx.paymentId);
    }
  });

  it('the shared sessions are still signed in as their kind after the matrix', async () => {
    for (const kind of KINDS.filter((k) => k !== 'visitor'))
      expect((await who[kind].get('/api/user')).status, kind).toBe(200);
  });
});
