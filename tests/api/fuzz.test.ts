/**
 * Input fuzzing: fast-check generates malformed bodies, query strings, path ids and headers for
 * every JSON endpoint, sent as a caller allowed to use it (so the input reaches validation).
 * For every answer: never ≥ 500; a 4xx is JSON {message: string}; and after a refused request the
 * database is exactly as before (a fingerprint of every business table's full contents).
 * Inputs that are invalid by construction (a non-object body, a wrong-typed field, a made-up id)
 * must never be accepted. Seeds are fixed so a failure replays; FUZZ_SEED overrides.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/client';
import { createTestApp, ORIGIN, type TestApp } from '../support/app';
import { PART1, PART2 } from '../support/content';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity } from '../support/payments';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
/** Totals across the four properties: 10,400 generated requests. */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const RUNS = { bodies: 4000 * SCALE, paths: 2400 * SCALE, queries: 2000 * SCALE, headers: 2000 * SCALE };

type Who = 'visitor' | 'admin' | 'brand' | 'profile';
interface Route {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  who: Who;
  /** the body members the route reads (fuzzed keys are drawn from these and from hostile names) */
  fields?: string[];
  /** the route parses a JSON object body: anything else, or a wrong-typed member, must be refused */
  needsBody?: boolean;
}

// every JSON endpoint (the multipart uploads get malformed bodies too; real files are in hostile-files)
const ROUTES: Route[] = [
  { method: 'GET', path: '/api/user', who: 'brand' },
  { method: 'POST', path: '/api/login', who: 'visitor', fields: ['email', 'password'], needsBody: true },
  { method: 'POST', path: '/api/logout', who: 'visitor' },
  { method: 'POST', path: '/api/register', who: 'visitor', fields: ['email', 'password'], needsBody: true },
  { method: 'POST', path: '/api/password/forgot', who: 'visitor', fields: ['email'], needsBody: true },
  { method: 'POST', path: '/api/password/reset', who: 'visitor', fields: ['token', 'password'], needsBody: true },
  {
    method: 'PATCH',
    path: '/api/user/profile',
    who: 'profile',
    fields: ['name', 'brandName', 'website', 'inviteCode', 'avatarUrl'],
    needsBody: true,
  },
  { method: 'POST', path: '/api/upload/avatar', who: 'brand' },
  { method: 'POST', path: '/api/upload/logo', who: 'admin' },
  { method: 'POST', path: '/api/upload/document', who: 'admin' },
  { method: 'GET', path: '/uploads/:name', who: 'visitor' },
  { method: 'GET', path: '/api/files/:name', who: 'brand' },
  { method: 'GET', path: '/api/admin/pending-brands', who: 'admin' },
  { method: 'POST', path: '/api/admin/approve-brand/:id', who: 'admin' },
  { method: 'GET', path: '/api/admin/invite-codes', who: 'admin' },
  { method: 'POST', path: '/api/admin/invite-codes', who: 'admin', fields: ['code'], needsBody: true },
  { method: 'POST', path: '/api/admin/invite-codes/:id/deactivate', who: 'admin' },
  { method: 'GET', path: '/api/opportunities', who: 'brand' },
  { method: 'GET', path: '/api/admin/opportunities', who: 'admin' },
  { method: 'GET', path: '/api/admin/opportunities/:id', who: 'admin' },
  {
    method: 'POST',
    path: '/api/admin/opportunities',
    who: 'admin',
    fields: [
      'outletName',
      'outletUrl',
      'title',
      'description',
      'type',
      'tat',
      'priceUsd',
      'maxSlots',
      'domainAuthority',
      'deadlineDate',
      'logoUrl',
      'exampleUrls',
      'status',
    ],
    needsBody: true,
  },
  {
    method: 'PATCH',
    path: '/api/admin/opportunities/:id',
    who: 'admin',
    fields: ['outletName', 'title', 'priceUsd', 'maxSlots', 'deadlineDate', 'status', 'type'],
    needsBody: true,
  },
  { method: 'GET', path: '/api/brand/wallet', who: 'brand' },
  { method: 'GET', path: '/api/brand/payments', who: 'brand' },
  { method: 'POST', path: '/api/payments/checkout', who: 'brand', fields: ['opportunityId'], needsBody: true },
  { method: 'GET', path: '/api/payments/checkout/:sessionId', who: 'brand' },
  { method: 'POST', path: '/api/payments/checkout/:sessionId/pay', who: 'brand' },
  { method: 'POST', path: '/api/payments/checkout/:sessionId/cancel', who: 'brand' },
  { method: 'POST', path: '/api/webhooks/stripe', who: 'visitor', fields: ['id', 'type', 'data'] },
  { method: 'GET', path: '/api/admin/payments', who: 'admin' },
  { method: 'GET', path: '/api/admin/payments/totals', who: 'admin' },
  { method: 'POST', path: '/api/admin/payments/:id/release', who: 'admin' },
  {
    method: 'PATCH',
    path: '/api/admin/payments/:id/status',
    who: 'admin',
    fields: ['status', 'draftDocumentUrl', 'draftDocumentFile'],
    needsBody: true,
  },
  { method: 'POST', path: '/api/admin/payments/:id/refund', who: 'admin' },
  { method: 'GET', path: '/api/brand/my-articles', who: 'brand' },
  { method: 'GET', path: '/api/brand/my-articles/counts', who: 'brand' },
  { method: 'GET', path: '/api/brand/brief/:paymentId', who: 'brand' },
  {
    method: 'POST',
    path: '/api/brand/brief/:paymentId',
    who: 'brand',
    fields: ['part1Json', 'part2Json'],
    needsBody: true,
  },
  {
    method: 'POST',
    path: '/api/brand/brief/:paymentId/submit',
    who: 'brand',
    fields: ['part1Json', 'part2Json'],
    needsBody: true,
  },
  { method: 'GET', path: '/api/brand/brief-access', who: 'brand' },
  { method: 'POST', path: '/api/briefs', who: 'brand', fields: ['opportunityId', 'part1', 'part2'], needsBody: true },
  { method: 'POST', path: '/api/brand/projects/:paymentId/approve', who: 'brand' },
  {
    method: 'POST',
    path: '/api/brand/projects/:paymentId/request-edits',
    who: 'brand',
    fields: ['feedback'],
    needsBody: true,
  },
  { method: 'GET', path: '/api/admin/projects', who: 'admin' },
  { method: 'GET', path: '/api/admin/projects/counts', who: 'admin' },
  { method: 'POST', path: '/api/admin/projects/:id/mark-edits-complete', who: 'admin' },
];
const WITH_PARAMS = ROUTES.filter((r) => r.path.includes('/:'));
const WITH_BODY = ROUTES.filter((r) => r.method !== 'GET');

// ---------------------------------------------------------------------------------------------
// hostile values

const SQL = [
  "' OR 1=1 --",
  "'; DROP TABLE users; --",
  '1; SELECT pg_sleep(5)',
  "' UNION SELECT password FROM users --",
  '%',
  '_',
  '\\',
  '$$; --',
  "E'\\x00'",
];
const HTML = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '<svg onload=alert(1)>',
  '{{7*7}}',
  '${7*7}',
  '</script><script>x</script>',
  'data:text/html,<b>x</b>',
];
const ODD_TEXT = [
  '\u0000',
  'a\u0000b',
  '\u202eevil',
  '\ufeff',
  '\ud800',
  '\udfff\ud800',
  '😀'.repeat(300),
  'ﷺ'.repeat(2000),
  '  ',
  '\r\n',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  'NaN',
  '../../etc/passwd',
  '%00',
  '%2e%2e%2f',
];
const POLLUTION_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  'hasOwnProperty',
  'toString',
  'isAdmin',
  'role',
  'approved',
  'id',
  'brandId',
  'amount',
];
/** JSON number tokens written raw: JSON.parse turns 1e999 into Infinity */
const RAW_NUMBERS = [
  '1e999',
  '-1e999',
  '-0',
  '1e-400',
  '9007199254740993',
  '-1',
  '0.1',
  '1e308',
  '-2147483649',
  '123456789012345678901234567890',
];
/** tokens that are not JSON at all */
const NOT_JSON = [
  'NaN',
  'Infinity',
  '-Infinity',
  'undefined',
  '0x10',
  '01',
  "'single'",
  '{a:1}',
  '[1,]',
  '{"a":1,}',
  '{',
  '"\\u12"',
  '/*c*/1',
];

/** encodeURIComponent, with lone surrogates sent as their raw UTF-8 bytes (which decode to nothing valid) */
const encode = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80' + encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''));
  }
};

const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.constantFrom(...SQL, ...HTML, ...ODD_TEXT) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 120_000 }).map((n) => 'A'.repeat(n)) },
);

/** A JSON text for a hostile scalar. */
const scalarText = fc.oneof(
  { weight: 5, arbitrary: hostileString.map((s) => JSON.stringify(s)) },
  { weight: 2, arbitrary: fc.constantFrom(...RAW_NUMBERS) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
      .map((n) => JSON.stringify(n)),
  },
  { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null') },
);

/** JSON text of a value tree whose keys mix the route's names with hostile ones. */
const valueText = (fields: string[]) =>
  fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalarText, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    object: fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...fields, ...POLLUTION_KEYS), hostileString), tie('value')), {
        maxLength: 5,
      })
      .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  }));

const bodyText = (fields: string[]) => {
  const tree = valueText(fields.length ? fields : ['x']);
  return fc.oneof(
    { weight: 6, arbitrary: tree.object },
    { weight: 2, arbitrary: tree.value },
    { weight: 1, arbitrary: fc.constantFrom(...NOT_JSON, '', ' ') },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
    // one member set to a prototype-polluting object, the classic
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{"__proto__":{"role":"admin","approved":true}}',
        '{"constructor":{"prototype":{"isAdmin":true}}}',
      ),
    },
    // past the 1 MB body limit
    { weight: 1, arbitrary: fc.constant(`{"x":"${'A'.repeat(1024 * 1024 + 10)}"}`) },
  );
};

/** Not a JSON object, or a known member of the wrong type: never valid for a route that parses an object. */
const surelyInvalidBody = (fields: string[]) =>
  fc.oneof(
    fc.constantFrom(...NOT_JSON, '[]', '[{}]', '"text"', '42', 'true', 'null', '{"__proto__":{"role":"admin"}}'),
    fc
      .tuple(
        fc.subarray(fields, { minLength: 1 }),
        fc.oneof(
          fc.boolean().map(String),
          fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }).map((a) => JSON.stringify(a)),
          fc.constantFrom(...RAW_NUMBERS),
        ),
      )
      .map(([keys, wrong]) => `{${keys.map((k) => `${JSON.stringify(k)}:${wrong}`).join(',')}}`),
  );

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=zzz',
  'application/xml',
  'application/octet-stream',
  'json',
  '*/*',
];

/** A path segment: made-up ids, encodings, traversal, near-misses of real ids. */
const hostileSegment = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }).map(encode),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map(encode),
  fc.constantFrom(...SQL, ...HTML, ...ODD_TEXT.filter((s) => s.length < 100)).map(encode),
  fc.uuid().map((u) => u), // a well-formed id of nothing
  fc.uuid().map((u) => u.toUpperCase()),
  fc.constantFrom(
    '00000000-0000-0000-0000-000000000000',
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e',
    '%00',
    '%E0%A4%A',
    '%',
    '%%',
    '..',
    'a'.repeat(499),
    'a'.repeat(600),
    '1e999',
    '-1',
    'NaN',
    'cs_test_' + 'A'.repeat(300),
    'x.png',
    'x.pdf',
    '0123456789abcdef0123456789abcdef.svg',
    '0123456789abcdef0123456789abcdef.html',
    '0123456789abcdef0123456789abcdef.png%00.html',
  ),
);

const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          'opportunityId',
          'status',
          'purpose',
          '__proto__',
          '__proto__[role]',
          'constructor[prototype][x]',
          'opportunityId[]',
          'status[$ne]',
          'a[b][c][d][e][f]',
          'limit',
          'cursor',
          'tab',
          'type',
          'full',
          'paymentId',
          'limit[]',
        ),
        fc.string({ maxLength: 10 }),
      ),
      fc.oneof(
        hostileString.filter((s) => s.length < 3000),
        fc.constantFrom('paid', 'released', 'refunded', 'example', '', '0', '200', '201', '1e2', '-5', 'needs-review', 'eyJhIjoxfQ'),
      ),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((pairs) =>
    pairs.map(([k, v]) => `${encode(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encode(v)}`).join('&'),
  )
  .chain((q) => fc.constantFrom(q, q + '&', q.replace(/=/g, '%3D'), q + '&&&=', q + '%'));

/** Header values must be visible ASCII to be sent at all. */
const headerValue = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  fc.constantFrom(...SQL, ...HTML.filter((h) => /^[\x20-\x7e]*$/.test(h)), 'A'.repeat(4000)),
);
const headerSet = fc.record(
  {
    cookie: fc.oneof(
      headerValue.map((v) => `byline_session=${v}`),
      fc.constant(`byline_session=${'a'.repeat(101)}`),
      headerValue,
    ),
    'content-type': fc.constantFrom(...CONTENT_TYPES),
    accept: fc.constantFrom('application/json', 'text/html', '*/*', 'image/svg+xml', ''),
    'x-forwarded-for': headerValue,
    'x-forwarded-proto': fc.constantFrom('https', 'http', 'gopher', ''),
    'x-forwarded-host': fc.constantFrom('evil.example', 'localhost'),
    'accept-language': headerValue,
    'user-agent': headerValue,
    'if-none-match': headerValue,
    range: fc.constantFrom('bytes=0-0', 'bytes=-1', 'bytes=99999999-', 'bytes=a-b', 'bytes=0-1,2-3,4-5'),
    'stripe-signature': headerValue,
    'sec-fetch-site': fc.constantFrom('same-origin', 'cross-site', 'none', 'same-site'),
  },
  { requiredKeys: [] },
);

// ---------------------------------------------------------------------------------------------

let t: TestApp;
let cookies: Record<Who, string | undefined>;
/** real ids, so a fuzzed body meets a real row */
let real: { paymentId: string; opportunityId: string; sessionId: string };
const stats = {
  sent: 0,
  accepted: 0,
  refused: 0,
  byStatus: new Map<number, number>(),
  acceptedBy: new Map<string, number>(),
};

// every business table; the throttling logs (login_failures, password_reset_requests) are written
// on refused attempts by design and are left out
const WATCHED = [
  'users',
  'sessions',
  'invite_codes',
  'opportunities',
  'checkout_sessions',
  'payments',
  'processed_webhook_events',
  'briefs',
  'mail_outbox',
  'password_reset_tokens',
];

/**
 * Counts every row written to a watched table (insert, update, delete; rolled back with its
 * transaction), so "unchanged" is one cheap read: a changed fingerprint means a committed write.
 */
async function watchWrites(db: Db) {
  const statements = [
    'CREATE TABLE fuzz_writes (n bigint NOT NULL)',
    'INSERT INTO fuzz_writes VALUES (0)',
    `CREATE FUNCTION fuzz_count() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE fuzz_writes SET n = n + 1; RETURN NULL; END $$`,
    ...WATCHED.map(
      (name) =>
        `CREATE TRIGGER fuzz_count AFTER INSERT OR UPDATE OR DELETE ON ${name} FOR EACH ROW EXECUTE FUNCTION fuzz_count()`,
    ),
  ];
  for (const statement of statements) await db.execute(sql.raw(statement));
}

async function fingerprint(db: Db): Promise<string> {
  const res = (await db.execute(sql.raw('SELECT n::text AS f FROM fuzz_writes'))) as unknown as {
    rows: { f: string }[];
  };
  return res.rows[0].f;
}

function fill(path: string, segment?: string) {
  return path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    if (segment !== undefined) return segment;
    if (name === 'sessionId') return real.sessionId;
    if (name === 'name') return 'missing.png';
    return name === 'paymentId' || name === 'id' ? real.paymentId : real.opportunityId;
  });
}

async function send(
  app: FastifyInstance,
  route: Route,
  url: string,
  headers: Record<string, string>,
  payload?: string,
) {
  const cookie = cookies[route.who];
  const res = await app.inject({
    method: route.method,
    url,
    headers: {
      host: 'localhost:80',
      ...(route.method !== 'GET' ? { origin: ORIGIN } : {}),
      ...(cookie ? { cookie } : {}),
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    payload,
  });
  return res;
}

/** Sends, then checks the three rules; returns the status. */
async function check(
  route: Route,
  url: string,
  headers: Record<string, string>,
  payload: string | undefined,
  before: { f: string },
) {
  const res = await send(t.app, route, url, headers, payload);
  stats.sent++;
  stats.byStatus.set(res.statusCode, (stats.byStatus.get(res.statusCode) ?? 0) + 1);
  const what = `${route.method} ${url.slice(0, 200)} ${payload?.slice(0, 200) ?? ''} ${JSON.stringify(headers).slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  if (res.statusCode >= 500) throw new Error(`5xx: ${what}`);
  if (res.statusCode >= 400) {
    stats.refused++;
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      throw new Error(`4xx without JSON: ${what}`);
    }
    if (typeof (body as { message?: unknown })?.message !== 'string') throw new Error(`4xx without {message}: ${what}`);
    if (!String(res.headers['content-type']).startsWith('application/json'))
      throw new Error(`4xx not typed JSON: ${what}`);
    if (route.method !== 'GET') {
      const after = await fingerprint(t.db);
      if (after !== before.f) throw new Error(`refused but the database changed: ${what}`);
    }
  } else {
    stats.accepted++;
    const key = `${route.method} ${route.path}`;
    stats.acceptedBy.set(key, (stats.acceptedBy.get(key) ?? 0) + 1);
    // an accepted request may change things: the next comparison starts from here
    if (route.method !== 'GET') before.f = await fingerprint(t.db);
  }
  return res.statusCode;
}

beforeAll(async () => {
  t = await createTestApp();
  await watchWrites(t.db);
  if (process.env.FUZZ_PROFILE) {
    const s = Date.now();
    for (let i = 0; i < 100; i++) await fingerprint(t.db);
    process.stdout.write(`fingerprint: ${(Date.now() - s) / 100} ms\n`);
  }
  const [admin, brand, profile] = await Promise.all([
    signedIn(t.app, t.db, kinds.admin),
    signedIn(t.app, t.db, kinds.approvedBrand),
    signedIn(t.app, t.db, kinds.approvedBrand),
  ]);
  cookies = { visitor: undefined, admin: admin.agent.cookie, brand: brand.agent.cookie, profile: profile.agent.cookie };
  // a paid payment with a submitted brief, and an open checkout, all through the API
  const opp = await createOpportunity(t.db, { maxSlots: 5 });
  const first = await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id });
  const paid = await brand.agent.post(`/api/payments/checkout/${String(first.body.url).split('/').pop()}/pay`);
  await brand.agent.post(`/api/brand/brief/${paid.body.paymentId}/submit`, { part1Json: PART1, part2Json: PART2 });
  const open = await brand.agent.post('/api/payments/checkout', {
    opportunityId: (await createOpportunity(t.db, { maxSlots: 5 })).id,
  });
  real = { paymentId: paid.body.paymentId, opportunityId: opp.id, sessionId: String(open.body.url).split('/').pop()! };
  expect(real.paymentId).toBeTruthy();
}, 120_000);

afterAll(async () => {
  // the figures docs/reliability.md quotes
  const byStatus = Object.fromEntries([...stats.byStatus.entries()].sort((a, b) => a[0] - b[0]));
  process.stdout.write(
    `fuzz: ${stats.sent} requests, ${stats.refused} refused, ${stats.accepted} accepted, 0 ≥ 500; by status ${JSON.stringify(byStatus)}\n`,
  );
  if (process.env.FUZZ_PROFILE)
    process.stdout.write(`accepted: ${JSON.stringify(Object.fromEntries(stats.acceptedBy))}\n`);
  await t?.close();
});

describe('fuzzing every JSON endpoint', () => {
  it(`bodies: ${RUNS.bodies} malformed or hostile bodies`, async () => {
    const before = { f: await fingerprint(t.db) };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...WITH_BODY).chain((route) =>
          fc.tuple(
            fc.constant(route),
            route.needsBody
              ? fc.oneof(
                  bodyText(route.fields ?? []),
                  surelyInvalidBody(route.fields!).map((b) => `!${b}`),
                )
              : bodyText(route.fields ?? []),
            fc.option(fc.constantFrom(...CONTENT_TYPES), { freq: 4 }),
          ),
        ),
        async ([route, text, contentType]) => {
          const invalid = text.startsWith('!');
          const payload = invalid ? text.slice(1) : text;
          const status = await check(
            route,
            fill(route.path),
            contentType ? { 'content-type': contentType } : {},
            payload,
            before,
          );
          if (invalid && status < 400)
            throw new Error(
              `invalid body accepted: ${route.method} ${route.path} ${payload.slice(0, 200)} → ${status}`,
            );
        },
      ),
      { numRuns: RUNS.bodies, seed: SEED, endOnFailure: true },
    );
  }, 240_000);

  it(`path ids: ${RUNS.paths} made-up, encoded and traversing ids, none accepted`, async () => {
    const before = { f: await fingerprint(t.db) };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...WITH_PARAMS), hostileSegment, async (route, segment) => {
        const status = await check(
          route,
          fill(route.path, segment),
          {},
          route.method === 'GET' ? undefined : '{}',
          before,
        );
        if (status < 400)
          throw new Error(`made-up id accepted: ${route.method} ${fill(route.path, segment)} → ${status}`);
      }),
      { numRuns: RUNS.paths, seed: SEED + 1, endOnFailure: true },
    );
  }, 240_000);

  it(`query strings: ${RUNS.queries} hostile query strings`, async () => {
    const before = { f: await fingerprint(t.db) };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), queryString, async (route, q) => {
        await check(route, `${fill(route.path)}?${q}`, {}, route.method === 'GET' ? undefined : '{}', before);
      }),
      { numRuns: RUNS.queries, seed: SEED + 2, endOnFailure: true },
    );
  }, 240_000);

  it(`headers: ${RUNS.headers} hostile header sets`, async () => {
    const before = { f: await fingerprint(t.db) };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), headerSet, async (route, headers) => {
        await check(route, fill(route.path), headers, route.method === 'GET' ? undefined : '{}', before);
      }),
      { numRuns: RUNS.headers, seed: SEED + 3, endOnFailure: true },
    );
  }, 240_000);

  it('the signed-in callers are still who they were (no fuzzed request changed a role or ended a session)', async () => {
    const admin = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: cookies.admin! } });
    const brand = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: cookies.brand! } });
    expect(JSON.parse(admin.body).role).toBe('admin');
    expect(JSON.parse(brand.body)).toMatchObject({ role: 'brand', approved: true });
    expect(Object.prototype).not.toHaveProperty('role');
    expect(Object.prototype).not.toHaveProperty('isAdmin');
  });
});
