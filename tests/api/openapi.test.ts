/**
 * The API documentation (issue 22): GET /api/openapi.json and GET /api/docs, made from the route
 * catalogue (src/server/modules/api-docs/catalogue.ts) and the shared zod schemas.
 *
 * - Every route the server registers (Fastify's onRoute hook) is documented, and every documented
 *   route exists. Left out: HEAD (Fastify adds one to every GET) and OPTIONS; the built client's
 *   files, which @fastify/static registers one route each only when a built client is served (not
 *   built here: they are the web pages, not the API).
 * - Every example passes its schema, with no member the schema does not describe.
 * - Who may call a route is what the documentation says: a visitor gets 401, the other role 403.
 * - A journey through the real API on a real database calls every route (a new route needs a step
 *   in it, besides its catalogue entry): each answer must have a documented status and pass its
 *   documented schema exactly, and each schema the route parses (lib/validate.ts `parse`, recorded
 *   here) may read only members the documentation names.
 * - /api/docs answers a page listing every operation, with nothing the app's CSP would block.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, RouteOptions, onSendHookHandler } from 'fastify';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app';
import { configSchema } from '../../src/server/config';
import type { DbHandle } from '../../src/server/db/client';
import { CATALOGUE } from '../../src/server/modules/api-docs/catalogue';
import { openApiPath, operationIdOf } from '../../src/server/modules/api-docs/document';
import { SIGNED_IN, type RouteDoc } from '../../src/server/modules/api-docs/route-doc';
import { errorSchema } from '../../src/shared/schemas/responses/common';
import { diskFileStore } from '../../src/server/storage/file-store';
import { Agent, type Res } from '../support/app';
import { PART1, PART2 } from '../support/content';
import { createTestDb } from '../support/db';
import { createUser, kinds, signedIn, uniqueEmail } from '../support/factories';
import { testChecker } from '../support/outlets';
import { createOpportunity, sessionIdOf } from '../support/payments';

/** The schemas `parse` was called with during the request being answered. */
const parsedNow = vi.hoisted(() => [] as unknown[]);
vi.mock('../../src/server/lib/validate', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/lib/validate')>();
  return {
    ...real,
    parse: (schema: Parameters<typeof real.parse>[0], input: unknown) => {
      parsedNow.push(schema);
      return real.parse(schema, input);
    },
  };
});

type Json = Record<string, unknown>;

/** One answer the journey got: the route, its status and body, the schemas the route parsed. */
interface Seen {
  route: string;
  status: number;
  type: string;
  payload: unknown;
  parsed: unknown[];
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

const registered = new Set<string>();
const seen: Seen[] = [];
let t: { app: FastifyInstance; handle: DbHandle; close(): Promise<void> };
let doc: Json;

const keyOf = (r: Pick<RouteDoc, 'method' | 'path'>) => `${r.method} ${r.path}`;
const catalogue = new Map(CATALOGUE.map((r) => [keyOf(r), r]));

/** Records every answer (as sent) and the schemas parsed for it. */
const record: onSendHookHandler = (req, reply, payload, done) => {
  seen.push({
    route: `${req.method} ${req.routeOptions.url}`,
    status: reply.statusCode,
    type: String(reply.getHeader('content-type') ?? ''),
    payload,
    parsed: parsedNow.splice(0),
  });
  done(null, payload);
};

beforeAll(async () => {
  const handle = await createTestDb();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-openapi-'));
  const config = configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDir });
  const onRoute = (r: RouteOptions) => {
    for (const m of [r.method].flat()) if (m !== 'HEAD' && m !== 'OPTIONS') registered.add(`${m} ${r.url}`);
    r.onSend = [...[r.onSend ?? []].flat(), record];
  };
  const app = await buildApp({
    db: handle.db,
    config,
    files: diskFileStore(path.join(dataDir, 'uploads')),
    onRoute,
    checker: testChecker(config),
  });
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
  const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  doc = res.json();
}, 60_000);
afterAll(() => t?.close());

/** Members of `value` its parse dropped (`parsed` is the parse's output): what an answer carries and its schema does not name. */
function undocumented(value: unknown, parsed: unknown, at = '$'): string[] {
  if (Array.isArray(value) && Array.isArray(parsed))
    return value.flatMap((v, i) => undocumented(v, parsed[i], `${at}[${i}]`));
  if (value && typeof value === 'object' && parsed && typeof parsed === 'object') {
    return Object.entries(value).flatMap(([k, v]) =>
      k in parsed ? undocumented(v, (parsed as Json)[k], `${at}.${k}`) : [`${at}.${k}`],
    );
  }
  return [];
}

/** Passes `schema` exactly: valid, and nothing left over. */
function expectExactly(schema: z.ZodType, value: unknown, what: string) {
  const result = schema.safeParse(value);
  expect(result.success, `${what}: ${result.error?.message}`).toBe(true);
  expect(undocumented(value, result.data), `${what}: members the documentation does not name`).toEqual([]);
}

const operationOf = (route: string): Json => {
  const [method, url] = route.split(' ');
  return ((doc.paths as Json)[openApiPath(url)] as Json | undefined)?.[method.toLowerCase()] as Json;
};

/** Every member name a JSON Schema can hold (through unions and references). */
function memberNames(schema: Json | undefined): string[] {
  if (!schema) return [];
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return memberNames(((doc.components as Json).schemas as Json)[name] as Json);
  }
  const nested = [
    ...((schema.anyOf as Json[]) ?? []),
    ...((schema.oneOf as Json[]) ?? []),
    ...((schema.allOf as Json[]) ?? []),
  ];
  return [...Object.keys((schema.properties as Json) ?? {}), ...nested.flatMap(memberNames)];
}

/** What a route may read according to its documentation: query and body members. */
function documentedInput(op: Json): Set<string> {
  const names = ((op.parameters as Json[]) ?? []).map((p) => String(p.name));
  const content = ((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>;
  for (const media of Object.values(content)) names.push(...memberNames(media.schema as Json));
  return new Set(names);
}

describe('the document', () => {
  it('documents every registered route, and only those', () => {
    const documented = CATALOGUE.map(keyOf).sort();
    expect(new Set(documented).size, 'a route is documented twice').toBe(documented.length);
    const missing = [...registered].filter((r) => !catalogue.has(r));
    expect(missing, 'routes without documentation: add an entry to src/server/modules/api-docs/catalogue.ts').toEqual(
      [],
    );
    expect(
      documented.filter((r) => !registered.has(r)),
      'documented routes that do not exist',
    ).toEqual([]);
  });

  it('is OpenAPI 3.1 with an operation, a success answer and schemas for every route', () => {
    expect(doc.openapi).toBe('3.1.0');
    const ids = new Set<string>();
    for (const route of CATALOGUE) {
      const op = operationOf(keyOf(route));
      expect(op, keyOf(route)).toBeDefined();
      expect(op.operationId).toBe(operationIdOf(route));
      ids.add(String(op.operationId));
      const success = (op.responses as Json)[String(route.answer.status)] as Json;
      expect(success, `${keyOf(route)}: its answer`).toBeDefined();
      if (route.answer.kind === 'json')
        expect(((success.content as Json)['application/json'] as Json).schema, keyOf(route)).toBeTruthy();
      if (route.body)
        expect(
          ((op.requestBody as Json).content as Json)['application/json'],
          `${keyOf(route)}: its body`,
        ).toBeDefined();
      if (route.query || route.paged)
        expect(
          (op.parameters as Json[]).some((p) => p.in === 'query'),
          `${keyOf(route)}: its query`,
        ).toBe(true);
    }
    expect(ids.size, 'operation ids are unique').toBe(CATALOGUE.length);
  });

  it('every example passes its schema, exactly', () => {
    for (const route of CATALOGUE) {
      for (const [name, example] of Object.entries(route.body?.examples ?? {})) {
        expectExactly(route.body!.schema, example, `${keyOf(route)} body example "${name}"`);
      }
      if (route.answer.kind === 'json')
        expectExactly(route.answer.schema, route.answer.example, `${keyOf(route)} answer example`);
    }
  });
});

describe('who may call each route', () => {
  const concrete = (p: string) =>
    p.replace(/:([A-Za-z]+)/g, (_, name: string) =>
      name === 'sessionId' ? 'cs_local_0000' : name === 'name' ? 'a.pdf' : randomUUID(),
    );

  it('a visitor is refused every route that needs a session (401), the other role the rest (403)', async () => {
    const [brand, admin] = await Promise.all([
      signedIn(t.app, t.handle.db, kinds.approvedBrand),
      signedIn(t.app, t.handle.db, kinds.admin),
    ]);
    const visitor = new Agent(t.app);
    const got: Record<string, number[]> = {};
    const want: Record<string, number[]> = {};
    for (const route of CATALOGUE.filter((r) => SIGNED_IN.includes(r.access))) {
      const url = concrete(route.path);
      const other = route.access === 'admin' ? brand.agent : route.access === 'user' ? null : admin.agent;
      got[keyOf(route)] = [
        (await visitor.request(route.method, url)).status,
        ...(other ? [(await other.request(route.method, url)).status] : []),
      ];
      want[keyOf(route)] = [401, ...(other ? [403] : [])];
    }
    expect(got).toEqual(want);
  });
});

describe('a journey through every route, checked against the documentation', () => {
  const ok = (res: Res, what: string) => {
    if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
    return res.body;
  };

  it('answers as documented and reads only what is documented', async () => {
    const db = t.handle.db;
    const { agent: admin } = await signedIn(t.app, db, kinds.admin);
    const visitor = new Agent(t.app);

    // documentation, terms, operations, the webhook (no valid signature here)
    await visitor.get('/api/openapi.json');
    await visitor.get('/api/docs');
    await visitor.get('/api/terms');
    await visitor.get('/healthz');
    await visitor.get('/readyz');
    await visitor.get('/metrics');
    await visitor.request('POST', '/api/webhooks/stripe', Buffer.from('{"id":"evt_1"}'), {
      'content-type': 'application/json',
      'stripe-signature': 't=1,v1=00',
    });

    // brands and invite codes
    const code = ok(
      await admin.post('/api/admin/invite-codes', { code: `docs-${randomUUID().slice(0, 8)}` }),
      'invite code',
    );
    await admin.get('/api/admin/invite-codes');
    await admin.post(`/api/admin/invite-codes/${code.id}/deactivate`);
    await admin.post(`/api/admin/invite-codes/${code.id}/activate`);
    const pending = await createUser(db, kinds.pendingBrand);
    await admin.get('/api/admin/pending-brands?q=a');
    ok(await admin.post(`/api/admin/approve-brand/${pending.id}`), 'approve');

    // an account, from sign-up to an approved brand
    const brand = new Agent(t.app);
    const email = uniqueEmail('docs');
    await brand.get('/api/user');
    ok(await brand.post('/api/register', { email, password: 'a-long-enough-password' }), 'register');
    ok(
      await brand.patch('/api/user/profile', {
        name: 'Jane Founder',
        brandName: 'Acme Soil',
        website: 'acme.example',
        inviteCode: code.code,
      }),
      'complete',
    );
    await brand.post('/api/logout');
    ok(await brand.post('/api/login', { email, password: 'a-long-enough-password' }), 'login');
    await brand.get('/api/user');
    const avatar = ok(await brand.upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png'), 'avatar');
    await brand.patch('/api/user/profile', { avatarUrl: avatar.url });
    await brand.patch('/api/user/profile', { emailNotifications: false });
    await brand.patch('/api/user/profile', {
      name: 'Jane Founder',
      brandName: 'Acme Soil',
      website: 'https://acme.example',
    });
    await visitor.post('/api/password/forgot', { email });
    await visitor.post('/api/password/reset', { token: 'x'.repeat(43), password: 'a-long-enough-password' });
    await visitor.get(avatar.url);

    // the catalogue
    const logo = ok(await admin.upload('/api/upload/logo', 'logo', PNG, 'logo.png', 'image/png'), 'logo');
    const created = ok(
      await admin.post('/api/admin/opportunities', {
        outletName: 'The Daily Planet',
        outletUrl: 'https://dailyplanet.example.com',
        title: 'Founder profile',
        description: 'An in-depth profile.',
        type: ['profile_article'],
        priceUsd: '2500.00',
        maxSlots: 5,
        logoUrl: logo.url,
        topics: ['business'],
      }),
      'create opportunity',
    );
    await admin.get('/api/admin/opportunities?type=profile_article');
    await admin.get(`/api/admin/opportunities/${created.id}`);
    await admin.patch(`/api/admin/opportunities/${created.id}`, {
      outletName: 'The Daily Planet',
      title: 'Founder profile',
      description: 'An in-depth profile.',
      type: ['profile_article'],
      priceUsd: 2500,
      maxSlots: 6,
    });
    await brand.get('/api/opportunities');
    await brand.get('/api/opportunities?sort=newest&limit=5');
    await brand.put(`/api/brand/saved/${created.id}`);
    await brand.get('/api/brand/saved');
    await brand.request('DELETE', `/api/brand/saved/${created.id}`);

    // checkout and payment
    const { url } = ok(await brand.post('/api/payments/checkout', { opportunityId: created.id }), 'checkout');
    await brand.get(`/api/payments/checkout/${sessionIdOf(url)}`);
    const { paymentId } = ok(await brand.post(`/api/payments/checkout/${sessionIdOf(url)}/pay`), 'pay');
    const other = await createOpportunity(db, { maxSlots: 3 });
    const second = ok(await brand.post('/api/payments/checkout', { opportunityId: other.id }), 'second checkout');
    await brand.post(`/api/payments/checkout/${sessionIdOf(second.url)}/cancel`);
    await brand.get('/api/brand/payments');
    await brand.get('/api/brand/wallet');
    await brand.get('/api/brand/billing');
    await brand.put('/api/brand/billing', {
      legalName: 'Acme Soil GmbH',
      addressLine1: 'Ackerstraße 12',
      city: 'Berlin',
      country: 'DE',
      taxId: 'DE123456789',
    });

    // the brief, the draft and its review
    await brand.get('/api/brand/my-articles');
    await brand.get('/api/brand/my-articles/counts');
    await brand.get(`/api/brand/brief/${paymentId}`);
    await brand.post(`/api/brand/brief/${paymentId}`, { part1Json: PART1 });
    await brand.post(`/api/brand/brief/${paymentId}`, { part1Json: PART1, baseVersion: 'an-older-version' });
    ok(await brand.post(`/api/brand/brief/${paymentId}/submit`, { part1Json: PART1, part2Json: PART2 }), 'submit');
    await brand.get(`/api/brand/brief-access?opportunityId=${created.id}`);
    await brand.post('/api/briefs', {
      opportunityId: created.id,
      part1: { nameForArticles: 'Jane', background: 'Soil' },
      part2: { goal: 'Reach', audience: 'Farmers', mainMessage: 'Soil' },
    });
    const draft = ok(
      await admin.upload('/api/upload/document', 'file', PDF, 'draft.pdf', 'application/pdf'),
      'document',
    );
    ok(await admin.patch(`/api/admin/payments/${paymentId}/status`, { draftDocumentFile: draft.path }), 'attach draft');
    await brand.get(draft.path);
    await admin.get('/api/admin/projects?tab=review');
    await admin.get('/api/admin/projects/counts');
    ok(
      await brand.post(`/api/brand/projects/${paymentId}/request-edits`, { feedback: 'Shorter intro' }),
      'request edits',
    );
    ok(await admin.post(`/api/admin/projects/${paymentId}/mark-edits-complete`), 'edits complete');
    ok(await brand.post(`/api/brand/projects/${paymentId}/approve`), 'approve draft');

    // the conversation and the timeline, from both sides
    for (const [agent, side] of [
      [brand, 'brand'],
      [admin, 'admin'],
    ] as const) {
      const base = `/api/${side}/projects/${paymentId}`;
      await agent.post(`${base}/messages`, { text: `Hello from the ${side}` });
      const withFile = ok(await agent.upload(`${base}/messages`, 'file', PNG, 'shot.png', 'image/png'), 'attachment');
      await agent.get(`/api/${side}/messages/unread`);
      await agent.get(`${base}/conversation`);
      await agent.get(`${base}/messages?limit=1`);
      await agent.get(`${base}/messages/${withFile.id}/attachment`);
      await agent.post(`${base}/messages/read`);
      await agent.get(`${base}/timeline`);
    }
    await admin.get('/api/admin/attention');

    // payments, publication, refunds
    await admin.get('/api/admin/payments?status=paid');
    await admin.get('/api/admin/payments/totals');
    await admin.get('/api/admin/payments/attention');
    ok(await admin.post(`/api/admin/payments/${paymentId}/release`), 'release');
    // no LINK_CHECK_ALLOW here: a loopback address is refused before any connection, and the reason accepts it
    await admin.put(`/api/admin/payments/${paymentId}/publication`, {
      liveUrl: 'http://127.0.0.1:9/story',
      overrideReason: 'documented',
    });
    await admin.put(`/api/admin/payments/${paymentId}/publication`, { liveUrl: 'http://127.0.0.1:9/story' });
    await admin.post(`/api/admin/payments/${paymentId}/publication/check`, { liveUrl: 'http://127.0.0.1:9/other' });
    await admin.get('/api/admin/placements');
    await admin.get('/api/admin/placements/counts');
    const third = ok(await brand.post('/api/payments/checkout', { opportunityId: other.id }), 'third checkout');
    const refundable = ok(await brand.post(`/api/payments/checkout/${sessionIdOf(third.url)}/pay`), 'pay again');
    await admin.post(`/api/admin/payments/${refundable.paymentId}/refund`);
    await brand.get(`/api/brand/payments/${paymentId}/invoice`);
    await brand.get(`/api/brand/payments/${refundable.paymentId}/credit-note`);
    await admin.get(`/api/admin/payments/${paymentId}/invoice`);
    await admin.get(`/api/admin/payments/${refundable.paymentId}/credit-note`);
    await admin.get('/api/admin/payments/export.csv?status=paid');

    // every answer: a documented status, passing its documented schema exactly
    const problems: string[] = [];
    for (const s of seen) {
      const route = catalogue.get(s.route);
      const op = route && operationOf(s.route);
      if (!route || !op) continue; // undocumented routes fail the first test
      const statuses = Object.keys(op.responses as Json);
      if (!statuses.includes(String(s.status))) {
        problems.push(
          `${s.route} answered ${s.status}, which is not documented (${statuses.join(', ')}): ${String(s.payload).slice(0, 200)}`,
        );
        continue;
      }
      if (s.status === route.answer.status && route.answer.kind === 'file') {
        if (!route.answer.types.some((type) => s.type.startsWith(type)))
          problems.push(`${s.route} answered ${s.type}, documented ${route.answer.types.join(', ')}`);
      } else if (typeof s.payload === 'string' && s.type.startsWith('application/json')) {
        const refusal = route.errors?.[s.status];
        const schema =
          s.status === route.answer.status && route.answer.kind === 'json'
            ? route.answer.schema
            : refusal && typeof refusal === 'object'
              ? refusal.schema
              : errorSchema;
        const body: unknown = JSON.parse(s.payload);
        const result = schema.safeParse(body);
        if (!result.success) problems.push(`${s.route} ${s.status}: ${result.error.message}`);
        else
          for (const extra of undocumented(body, result.data))
            problems.push(`${s.route} ${s.status}: ${extra} is not documented`);
      }
      // what the route parsed may only read members its documentation names
      const allowed = documentedInput(op);
      for (const schema of s.parsed) {
        const json = z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Json;
        for (const name of memberNames(json))
          if (!allowed.has(name)) problems.push(`${s.route} reads "${name}", which its documentation does not name`);
      }
    }
    expect([...new Set(problems)]).toEqual([]);

    // the journey went everywhere: every documented route answered it at least once
    const reached = new Set(seen.map((s) => s.route));
    expect(
      CATALOGUE.map(keyOf).filter((r) => !reached.has(r)),
      'routes the journey did not call',
    ).toEqual([]);
  });
});

describe('GET /api/docs', () => {
  it('is a page listing every operation, with nothing the Content-Security-Policy blocks', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    for (const route of CATALOGUE) {
      expect(html, keyOf(route)).toContain(`id="${operationIdOf(route)}"`);
      expect(html, keyOf(route)).toContain(`<code>${openApiPath(route.path)}</code>`);
    }
    for (const name of Object.keys((doc.components as Json).schemas as Json))
      expect(html).toContain(`id="schema-${name}"`);
    // the app's policy: scripts and everything else from our origin only, inline styles allowed
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toMatch(/style-src [^;]*'unsafe-inline'/);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\bsrc=|@import|url\(/i);
  });

  it('is sent compressed when the browser takes it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    const json = await t.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(json.headers['content-encoding']).toBe('gzip');
  });
});
