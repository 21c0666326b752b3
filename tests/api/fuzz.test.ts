/**
 * Input fuzzing: fast-check generates bodies, query strings, path ids and headers for every JSON
 * endpoint, sent as a caller allowed to use it (so the input reaches validation).
 * For every answer: never ≥ 500; a 4xx is JSON {message: string}; and after a refused request the
 * database is exactly as before (a count of every write to the business tables).
 * Inputs that are invalid by construction (a non-object body, a wrong-typed field, a made-up id, a
 * string PostgreSQL cannot store) must never be accepted.
 *
 * Most bodies start from a valid body for the route (real ids, values within the rules) with a few
 * members replaced by hostile but valid values, so they get past validation and reach the database:
 * at least half of the body requests must be answered 2xx. Seeds are fixed so a failure replays;
 * FUZZ_SEED overrides.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/client';
import { inviteCodes } from '../../src/server/db/schema';
import { resetLinksMade } from '../../src/server/modules/auth/routes';
import { EDIT_FEEDBACK_MAX, MAX_EXAMPLES } from '../../src/shared/constants';
import { OPPORTUNITY_TYPES } from '../../src/shared/opportunity';
import { BRIEF_PART1_FIELDS, BRIEF_PART2_FIELDS, BRIEF_TEXT_MAX } from '../../src/shared/schemas/brief';
import { UNSTORABLE_TEXT_MESSAGE } from '../../src/shared/schemas/storable-text';
import { createTestApp, ORIGIN, type Agent, type TestApp } from '../support/app';
import { PART1, PART2 } from '../support/content';
import { createUser, kinds, PASSWORD, signedIn } from '../support/factories';
import { createOpportunity } from '../support/payments';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
/** Totals across the four properties: 9,400 generated requests. */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const RUNS = { bodies: 3000 * SCALE, paths: 2400 * SCALE, queries: 2000 * SCALE, headers: 2000 * SCALE };
/** The share of body requests that must get past validation and be answered 2xx. */
const MIN_ACCEPTED_BODIES = 0.5;

type Who = 'visitor' | 'admin' | 'brand' | 'profile';
/** The real rows a route's path parameter is filled with (see `setUp`). */
type RealId =
  | 'briefPayment'
  | 'projectPayment'
  | 'sparePayment'
  | 'sessionId'
  | 'cancelSessionId'
  | 'updateOpportunity'
  | 'pendingBrand'
  | 'inviteCode';
interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  path: string;
  who: Who;
  /** the body members the route reads (fuzzed keys are drawn from these and from hostile names) */
  fields?: string[];
  /** the route parses a JSON object body: anything else, or a wrong-typed member, must be refused */
  needsBody?: boolean;
  /** the real row its path parameter names */
  id?: RealId;
  /**
   * How often the bodies property picks it. Routes whose valid bodies are stored weigh most; those
   * that are rate-limited (sign-up, sign-in, forgotten password, checkout) or take no JSON weigh 1.
   */
  weight?: number;
}

const STORED = 8;

// every JSON endpoint (the multipart uploads get malformed bodies too; real files are in hostile-files)
const ROUTES: Route[] = [
  { method: 'GET', path: '/api/user', who: 'brand' },
  { method: 'GET', path: '/api/terms', who: 'visitor' },
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
    weight: STORED,
  },
  { method: 'POST', path: '/api/upload/avatar', who: 'brand' },
  { method: 'POST', path: '/api/upload/logo', who: 'admin' },
  { method: 'POST', path: '/api/upload/document', who: 'admin' },
  { method: 'GET', path: '/uploads/:name', who: 'visitor' },
  { method: 'GET', path: '/api/files/:name', who: 'brand' },
  { method: 'GET', path: '/api/admin/pending-brands', who: 'admin' },
  { method: 'POST', path: '/api/admin/approve-brand/:id', who: 'admin', id: 'pendingBrand' },
  { method: 'GET', path: '/api/admin/invite-codes', who: 'admin' },
  { method: 'POST', path: '/api/admin/invite-codes', who: 'admin', fields: ['code'], needsBody: true, weight: STORED },
  { method: 'POST', path: '/api/admin/invite-codes/:id/deactivate', who: 'admin', id: 'inviteCode' },
  { method: 'POST', path: '/api/admin/invite-codes/:id/activate', who: 'admin', id: 'inviteCode' },
  { method: 'GET', path: '/api/opportunities', who: 'brand' },
  { method: 'GET', path: '/api/brand/saved', who: 'brand' },
  { method: 'PUT', path: '/api/brand/saved/:id', who: 'brand', id: 'updateOpportunity' },
  { method: 'GET', path: '/api/admin/opportunities', who: 'admin' },
  { method: 'GET', path: '/api/admin/opportunities/:id', who: 'admin', id: 'updateOpportunity' },
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
    weight: STORED,
  },
  {
    method: 'PATCH',
    path: '/api/admin/opportunities/:id',
    who: 'admin',
    fields: ['outletName', 'title', 'priceUsd', 'maxSlots', 'deadlineDate', 'status', 'type'],
    needsBody: true,
    id: 'updateOpportunity',
    weight: STORED,
  },
  { method: 'GET', path: '/api/brand/wallet', who: 'brand' },
  { method: 'GET', path: '/api/brand/payments', who: 'brand' },
  { method: 'POST', path: '/api/payments/checkout', who: 'brand', fields: ['opportunityId'], needsBody: true },
  { method: 'GET', path: '/api/payments/checkout/:sessionId', who: 'brand', id: 'sessionId' },
  { method: 'POST', path: '/api/payments/checkout/:sessionId/pay', who: 'brand', id: 'sessionId' },
  { method: 'POST', path: '/api/payments/checkout/:sessionId/cancel', who: 'brand', id: 'cancelSessionId' },
  { method: 'POST', path: '/api/webhooks/stripe', who: 'visitor', fields: ['id', 'type', 'data'] },
  { method: 'GET', path: '/api/admin/payments', who: 'admin' },
  { method: 'GET', path: '/api/admin/payments/totals', who: 'admin' },
  { method: 'GET', path: '/api/admin/payments/attention', who: 'admin' },
  { method: 'POST', path: '/api/admin/payments/:id/release', who: 'admin', id: 'sparePayment' },
  {
    method: 'PATCH',
    path: '/api/admin/payments/:id/status',
    who: 'admin',
    fields: ['status', 'draftDocumentUrl', 'draftDocumentFile'],
    needsBody: true,
    id: 'projectPayment',
    weight: STORED,
  },
  { method: 'POST', path: '/api/admin/payments/:id/refund', who: 'admin', id: 'sparePayment' },
  {
    method: 'PUT',
    path: '/api/admin/payments/:id/publication',
    who: 'admin',
    fields: ['liveUrl', 'overrideReason'],
    needsBody: true,
    id: 'sparePayment',
  },
  { method: 'POST', path: '/api/admin/payments/:id/publication/check', who: 'admin', fields: ['liveUrl'], id: 'sparePayment' },
  { method: 'GET', path: '/api/admin/placements', who: 'admin' },
  { method: 'GET', path: '/api/admin/placements/counts', who: 'admin' },
  { method: 'GET', path: '/api/brand/my-articles', who: 'brand' },
  { method: 'GET', path: '/api/brand/my-articles/counts', who: 'brand' },
  { method: 'GET', path: '/api/brand/brief/:paymentId', who: 'brand', id: 'briefPayment' },
  {
    method: 'POST',
    path: '/api/brand/brief/:paymentId',
    who: 'brand',
    fields: ['part1Json', 'part2Json'],
    needsBody: true,
    id: 'briefPayment',
    weight: STORED,
  },
  {
    method: 'POST',
    path: '/api/brand/brief/:paymentId/submit',
    who: 'brand',
    fields: ['part1Json', 'part2Json'],
    needsBody: true,
    id: 'briefPayment',
    weight: STORED,
  },
  { method: 'GET', path: '/api/brand/brief-access', who: 'brand' },
  {
    method: 'POST',
    path: '/api/briefs',
    who: 'brand',
    fields: ['opportunityId', 'part1', 'part2'],
    needsBody: true,
    weight: STORED,
  },
  { method: 'POST', path: '/api/brand/projects/:paymentId/approve', who: 'brand', id: 'sparePayment' },
  {
    method: 'POST',
    path: '/api/brand/projects/:paymentId/request-edits',
    who: 'brand',
    fields: ['feedback'],
    needsBody: true,
    id: 'projectPayment',
    weight: STORED,
  },
  { method: 'GET', path: '/api/admin/projects', who: 'admin' },
  { method: 'GET', path: '/api/admin/projects/counts', who: 'admin' },
  { method: 'POST', path: '/api/admin/projects/:id/mark-edits-complete', who: 'admin', id: 'projectPayment' },
];
const WITH_PARAMS = ROUTES.filter((r) => r.path.includes('/:'));
const WITH_BODY = ROUTES.filter((r) => r.method !== 'GET');
const routeKey = (r: Route) => `${r.method} ${r.path}`;

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
/** Lone surrogates: a high one with no low one after it, a low one with no high one before it. */
const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800'];
/** Characters PostgreSQL cannot store as sent: never accepted anywhere. */
const UNSTORABLE_CHARS = ['\u0000', ...LONE_SURROGATES];
/** C0 and C1 controls other than NUL, DEL, and the characters that reorder or hide text. */
const CONTROLS = [
  ...Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)),
  '\u007f',
  '\u0080',
  '\u0085',
  '\u009f',
];
const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u202a', '\u202e', '\u2066', '\u2069', '\u2028', '\u2029', '\ufeff'];
/** Storable unicode that trips up naive code: emoji sequences, combining marks, RTL scripts, noncharacters. */
const UNICODE = [
  '😀',
  '👩‍👩‍👧‍👦',
  '🇺🇦',
  '🏳️‍🌈',
  'e\u0301',
  'Z̴̡̛͓̈́a̷l̸g̶o̵',
  'ﷺ',
  '中文',
  'עברית',
  'العربية',
  '\u202eevil',
  '\ufffd',
  '\ufffe',
  '\uffff',
  '𝕏',
  '\u00a0',
  'İ',
  'ß',
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

/** Text mixing NUL, lone surrogates, controls and invisible marks with ordinary characters. */
const nastyString = fc
  .array(fc.oneof(fc.constantFrom(...UNSTORABLE_CHARS, ...CONTROLS, ...INVISIBLE), fc.string({ maxLength: 4 })), {
    minLength: 1,
    maxLength: 12,
  })
  .map((parts) => parts.join(''));

const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.constantFrom(...SQL, ...HTML, ...ODD_TEXT) },
  { weight: 2, arbitrary: nastyString },
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

// ---------------------------------------------------------------------------------------------
// hostile but valid values: within every rule of the route, so the body reaches the database

/** The longest prefix of `s` at most `max` UTF-16 units long that does not split a character. */
function fit(s: string, max: number): string {
  if (s.length <= max) return s;
  let out = '';
  for (const ch of s) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

/** `chunk` repeated to about `length` units (e.g. a field filled up to its limit). */
const repeatTo = (chunk: string, length: number) => fit(chunk.repeat(Math.ceil(length / chunk.length)), length);

/** Pieces of storable text: any graphemes or code points but NUL, controls, marks, emoji, SQL and HTML. */
const storableChunk = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map((s) => s.replaceAll('\u0000', '')) },
  { weight: 3, arbitrary: fc.constantFrom(...SQL, ...HTML, ...UNICODE, ...CONTROLS, ...INVISIBLE) },
  { weight: 1, arbitrary: fc.constantFrom(' ', '  ', '\t', '\n', '\r\n') },
);

/**
 * Storable text of at most `max` UTF-16 units (zod counts code points, so this stays within a
 * limit of `max` characters); a required one is never blank once trimmed.
 */
const textWithin = (max: number, required: boolean) =>
  fc
    .oneof(
      { weight: 6, arbitrary: fc.array(storableChunk, { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')) },
      // long: up to the field's limit
      {
        weight: 1,
        arbitrary: fc
          .tuple(storableChunk.filter((c) => c.length > 0), fc.constantFrom(1, 0.9, 0.5))
          .map(([chunk, share]) => repeatTo(chunk, Math.max(1, Math.floor(max * share)))),
      },
    )
    .map((s) => {
      const text = fit(s, max);
      return !required || text.trim() ? text : fit(`x${s}`, max);
    });

const HOSTS = [
  'example.com',
  'docs.example.org',
  'EXAMPLE.COM',
  'bücher.example',
  'xn--80ak6aa92e.com',
  '127.0.0.1',
  'a.b',
  'sub.sub.sub.example.co.uk',
  'example.com:8443',
  'user:pass@example.com',
];
/** An http(s) URL whose path, query and fragment are hostile text (the URL parser encodes it). */
const urlWithin = (max: number) =>
  fc
    .tuple(
      fc.constantFrom('https', 'http', 'HTTPS'),
      fc.constantFrom(...HOSTS),
      textWithin(400, false),
      fc.option(textWithin(200, false), { nil: undefined }),
      fc.constantFrom('', ' ', '\t'),
    )
    .map(([scheme, host, path, query, pad]) => fit(`${pad}${scheme}://${host}/${path}${query === undefined ? '' : `?${query}`}`, max));

const UPLOADED = ['/uploads/0123456789abcdef0123456789abcdef.png', '/uploads/abcdefabcdefabcdefabcdefabcdefab.webp'];
const utcDay = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const deadline = fc.oneof(
  fc.integer({ min: 0, max: 3650 }).map(utcDay),
  fc.constantFrom('9999-12-31', `${utcDay(1)}T23:59:59.999Z`, `${utcDay(2)}T00:00+14:00`, null, '', '  '),
);
/** Amounts at the limits of numeric(12,2), as strings and as JSON numbers. */
const price = fc.oneof(
  fc.constantFrom('0.01', '9999999999.99', ' 1250.5 ', '1', 0.01, 1, 9_999_999_999.99, 123.45),
  fc.integer({ min: 1, max: 9_999_999_999 }).map(String),
);
const slots = fc.oneof(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 10_000 }).map(String), fc.constantFrom(1, 10_000, ' 7 '));
const authority = fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constantFrom(null, '', '100', '1'));

/** Members no route reads: stripped, so the body stays valid (no __proto__: that one is refused). */
const strayMembers = fc.dictionary(
  fc.constantFrom('role', 'isAdmin', 'approved', 'id', 'brandId', 'amount', 'filledSlots', 'createdAt', 'x'),
  fc.oneof(textWithin(50, false), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 })),
  { maxKeys: 3 },
);

type Body = Record<string, unknown>;
type Members = Record<string, fc.Arbitrary<unknown>>;
interface BodySpec {
  base: Body;
  /** hostile but valid values, one generator per member that may be replaced */
  members: Members;
  /** members replaced in every body (a new invite code, a new e-mail for sign-up) */
  fresh?: Members;
  /** the members holding text that would be stored: where the unstorable-text probes go */
  textPaths: string[];
}

/** `base` with one to `most` of `members` replaced. */
function mutate(base: Body, members: Members, most = 3, fresh: Members = {}): fc.Arbitrary<Body> {
  const keys = Object.keys(members);
  const chosen = keys.length ? fc.subarray(keys, { minLength: 1, maxLength: Math.min(most, keys.length) }) : fc.constant([]);
  return chosen.chain((picked) => {
    const replaced = { ...fresh, ...Object.fromEntries(picked.map((k) => [k, members[k]])) };
    return fc.record(replaced).map((values) => ({ ...base, ...values }));
  });
}

/** A brief part: the stored one with a few fields rewritten (never blank where the submit requires them). */
function briefPart(base: Record<string, string>, fields: readonly string[], required: readonly string[], limits: Record<string, number>) {
  const members = Object.fromEntries(fields.map((f) => [f, textWithin(limits[f] ?? BRIEF_TEXT_MAX, required.includes(f))]));
  return mutate(base, members, 4);
}

const BRIEF_LIMITS = { personOrBrandName: 200, preferredTitle: 300 };
const OLDER_LIMITS = {
  nameForArticles: 200,
  preferredTitle: 300,
  extra: 2500,
  titleIdeas: 1000,
  referenceLinks: 1400,
  keyPoints: 3000,
  excludedInfo: 1900,
};
const OLDER_PART1 = { nameForArticles: 'Jane Founder', background: 'Agronomist for 20 years', extra: 'Prefers email' };
const OLDER_PART2 = { goal: 'Raise awareness', audience: 'Policy makers', mainMessage: 'Soil is climate', keyPoints: 'Carbon' };
const OLDER_FIELDS1 = ['nameForArticles', 'preferredTitle', 'background', 'inspiration', 'challenges', 'differentiation', 'highlights', 'anecdotes', 'futureVision', 'extra', 'titleIdeas', 'referenceLinks'];
const OLDER_FIELDS2 = ['goal', 'audience', 'mainMessage', 'keyPoints', 'seoKeywords', 'tone', 'excludedInfo', 'socialLinks'];

const DOC_URL = 'https://docs.example.com/document/d/abc/edit';
const OPPORTUNITY = {
  outletName: 'The Daily Planet',
  outletUrl: 'https://dailyplanet.example.com',
  title: 'Founder profile in the business section',
  description: 'An in-depth profile written by our staff.',
  type: ['profile_article'],
  tat: '2-3 weeks',
  priceUsd: '2500.00',
  maxSlots: 3,
  domainAuthority: 88,
  deadlineDate: utcDay(30),
  logoUrl: UPLOADED[0],
  exampleUrls: ['https://dailyplanet.example.com/story'],
};
const opportunityMembers: Members = {
  outletName: textWithin(200, true),
  outletUrl: fc.oneof(urlWithin(2048), fc.constantFrom(null, '', ' ')),
  title: textWithin(200, true),
  description: textWithin(5000, true),
  type: fc.array(fc.constantFrom(...OPPORTUNITY_TYPES), { minLength: 1, maxLength: 6 }),
  tat: fc.oneof(textWithin(100, false), fc.constant(null)),
  priceUsd: price,
  maxSlots: slots,
  domainAuthority: authority,
  deadlineDate: deadline,
  logoUrl: fc.oneof(urlWithin(2048), fc.constantFrom(null, '', ...UPLOADED, '/logos/brand-mark.svg')),
  exampleUrls: fc.array(fc.oneof(urlWithin(2048), fc.constantFrom(...UPLOADED, '', '  ')), { maxLength: MAX_EXAMPLES }),
};
const OPPORTUNITY_TEXT = ['outletName', 'outletUrl', 'title', 'description', 'tat', 'deadlineDate', 'logoUrl', 'exampleUrls.0'];

/** The same address as typed differently: case and spaces (sign-in and forgotten password match it). */
const sameEmail = (email: string) => fc.constantFrom(email, email.toUpperCase(), ` ${email} `, `\t${email}`);
const newEmail = fc.stringMatching(/^[a-z0-9]{8,20}$/).map((local) => `fuzz-${local}@example.com`);
/** 8 to 1024 characters of any storable text (zod counts code points, not UTF-16 units). */
const password = textWithin(1024, false).map((s) => ([...s].length >= 8 ? s : `${s}password`));

/** The valid body of each route that has one, built on the real rows. */
function bodySpecs(ids: Real): Record<string, BodySpec> {
  const profile = { name: 'Fuzz Person', brandName: 'Fuzz Brand', website: 'https://fuzz.example.com', emailNotifications: true };
  const briefParts = (required: boolean) => ({
    part1Json: briefPart(PART1, BRIEF_PART1_FIELDS, required ? ['personOrBrandName', 'backgroundExperience'] : [], BRIEF_LIMITS),
    part2Json: briefPart(PART2, BRIEF_PART2_FIELDS, required ? ['mainGoal', 'targetAudience', 'mainMessage'] : [], BRIEF_LIMITS),
  });
  const briefText = [...BRIEF_PART1_FIELDS.map((f) => `part1Json.${f}`), ...BRIEF_PART2_FIELDS.map((f) => `part2Json.${f}`)];
  const draft = briefParts(false);
  const nothing: BodySpec = { base: {}, members: {}, textPaths: [] };
  return {
    'POST /api/login': {
      base: { email: ids.loginEmail, password: PASSWORD },
      members: { email: sameEmail(ids.loginEmail) },
      textPaths: ['email', 'password'],
    },
    'POST /api/register': {
      base: { password: PASSWORD },
      members: { password },
      fresh: { email: newEmail },
      textPaths: ['email', 'password'],
    },
    'POST /api/password/forgot': { base: { email: ids.loginEmail }, members: { email: sameEmail(ids.loginEmail) }, textPaths: ['email'] },
    'POST /api/password/reset': {
      base: { token: 'A'.repeat(43), password: PASSWORD },
      members: { token: fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), password },
      textPaths: ['token', 'password'],
    },
    'PATCH /api/user/profile': {
      base: profile,
      members: {
        name: textWithin(120, true),
        brandName: textWithin(120, true),
        website: urlWithin(2048),
        emailNotifications: fc.boolean(),
      },
      textPaths: ['name', 'brandName', 'website'],
    },
    'POST /api/admin/invite-codes': {
      base: {},
      members: {},
      fresh: {
        code: fc
          .tuple(fc.stringMatching(/^[A-Za-z0-9_-]{12,60}$/), fc.constantFrom('', ' ', '\t'))
          .map(([code, pad]) => `${pad}${code}${pad}`),
      },
      textPaths: ['code'],
    },
    'POST /api/admin/opportunities': { base: OPPORTUNITY, members: opportunityMembers, textPaths: OPPORTUNITY_TEXT },
    'PATCH /api/admin/opportunities/:id': { base: OPPORTUNITY, members: opportunityMembers, textPaths: OPPORTUNITY_TEXT },
    'POST /api/payments/checkout': {
      base: { opportunityId: ids.checkoutOpportunity },
      members: { opportunityId: fc.constantFrom(ids.checkoutOpportunity, ids.checkoutOpportunity.toUpperCase()) },
      textPaths: ['opportunityId'],
    },
    'PATCH /api/admin/payments/:id/status': {
      base: { draftDocumentUrl: DOC_URL },
      members: { draftDocumentUrl: urlWithin(2048), draftDocumentFile: fc.constantFrom(null, '', ' ') },
      textPaths: ['draftDocumentUrl', 'draftDocumentFile'],
    },
    // the page checker resolves names with the tests' loopback-only resolver: outlet.test never resolves
    'PUT /api/admin/payments/:id/publication': {
      base: { liveUrl: 'https://outlet.test/story', overrideReason: 'fuzz' },
      members: { liveUrl: urlWithin(2048), overrideReason: fc.oneof(textWithin(1000, false), fc.constant(undefined)) },
      textPaths: ['liveUrl', 'overrideReason'],
    },
    'POST /api/admin/payments/:id/publication/check': {
      base: { liveUrl: 'https://outlet.test/story' },
      members: { liveUrl: fc.oneof(urlWithin(2048), fc.constant(undefined)) },
      textPaths: ['liveUrl'],
    },
    'POST /api/brand/brief/:paymentId': {
      base: { part1Json: PART1, part2Json: PART2 },
      members: {
        part1Json: fc.oneof({ weight: 4, arbitrary: draft.part1Json }, fc.constant(undefined), fc.constant({})),
        part2Json: fc.oneof({ weight: 4, arbitrary: draft.part2Json }, fc.constant(undefined), fc.constant({})),
      },
      textPaths: briefText,
    },
    'POST /api/brand/brief/:paymentId/submit': { base: { part1Json: PART1, part2Json: PART2 }, members: briefParts(true), textPaths: briefText },
    'POST /api/briefs': {
      base: { opportunityId: ids.briefOpportunity, part1: OLDER_PART1, part2: OLDER_PART2 },
      members: {
        part1: briefPart(OLDER_PART1, OLDER_FIELDS1, ['nameForArticles', 'background'], OLDER_LIMITS),
        part2: briefPart(OLDER_PART2, OLDER_FIELDS2, ['goal', 'audience', 'mainMessage'], OLDER_LIMITS),
      },
      textPaths: ['opportunityId', ...OLDER_FIELDS1.map((f) => `part1.${f}`), ...OLDER_FIELDS2.map((f) => `part2.${f}`)],
    },
    'POST /api/brand/projects/:paymentId/request-edits': {
      base: { feedback: 'Shorter intro please' },
      members: { feedback: fc.oneof({ weight: 4, arbitrary: textWithin(EDIT_FEEDBACK_MAX, false) }, fc.constantFrom(null, '')) },
      textPaths: ['feedback'],
    },
    // routes that read no body: anything valid as JSON goes
    'POST /api/logout': nothing,
    'POST /api/admin/approve-brand/:id': nothing,
    'POST /api/admin/invite-codes/:id/deactivate': nothing,
    'POST /api/admin/invite-codes/:id/activate': nothing,
    'POST /api/payments/checkout/:sessionId/pay': nothing,
    'POST /api/payments/checkout/:sessionId/cancel': nothing,
    'POST /api/admin/payments/:id/release': nothing,
    'POST /api/admin/payments/:id/refund': nothing,
    'POST /api/brand/projects/:paymentId/approve': nothing,
    'POST /api/admin/projects/:id/mark-edits-complete': nothing,
  };
}

/** JSON with every non-ASCII character written as a \u escape: the same value, another spelling. */
const asciiJson = (text: string) =>
  text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const validBody = (spec: BodySpec) =>
  fc
    .tuple(mutate(spec.base, spec.members, 3, spec.fresh), fc.option(strayMembers, { freq: 4 }), fc.boolean())
    .map(([body, stray, escaped]) => {
      const text = JSON.stringify(stray ? { ...stray, ...body } : body);
      return escaped ? asciiJson(text) : text;
    });

function setPath(body: Body, path: string, value: string): Body {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let at: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) {
    const next = at[key];
    at[key] = typeof next === 'object' && next !== null ? next : {};
    at = at[key] as Record<string, unknown>;
  }
  at[keys.at(-1)!] = value;
  return copy;
}

/** A valid body with one stored text member carrying a character PostgreSQL cannot store. */
const unstorableBody = (spec: BodySpec) =>
  fc
    .tuple(
      mutate(spec.base, spec.members, 2, spec.fresh),
      fc.constantFrom(...spec.textPaths),
      fc.constantFrom(...UNSTORABLE_CHARS),
      fc.constantFrom('start', 'middle', 'end'),
    )
    .map(([body, path, bad, where]) => {
      const valid = 'Acme Co';
      const text = where === 'start' ? bad + valid : where === 'end' ? valid + bad : `Acme${bad} Co`;
      return { path, payload: JSON.stringify(setPath(body, path, text)) };
    });

type Kind = 'valid' | 'unstorable' | 'hostile' | 'invalid';
interface BodyCase {
  kind: Kind;
  payload: string;
  contentType: string | null;
  /** unstorable: the member whose text cannot be stored */
  path?: string;
}

/**
 * What the bodies property sends to a route. With a valid body to start from, about two thirds are
 * valid (hostile values within the rules) and the rest malformed, invalid or unstorable; without one,
 * only the malformed kinds.
 */
function bodyCases(route: Route, spec: BodySpec | undefined): fc.Arbitrary<BodyCase> {
  const hostile = fc
    .tuple(bodyText(route.fields ?? []), fc.option(fc.constantFrom(...CONTENT_TYPES), { freq: 4, nil: null }))
    .map(([payload, contentType]): BodyCase => ({ kind: 'hostile', payload, contentType }));
  const cases: fc.WeightedArbitrary<BodyCase>[] = [{ weight: spec ? 3 : 1, arbitrary: hostile }];
  if (route.needsBody) {
    const invalid = surelyInvalidBody(route.fields!).map((payload): BodyCase => ({ kind: 'invalid', payload, contentType: null }));
    cases.push({ weight: 1, arbitrary: invalid });
  }
  if (spec) {
    const valid = validBody(spec).map((payload): BodyCase => ({ kind: 'valid', payload, contentType: null }));
    cases.push({ weight: 14, arbitrary: valid });
  }
  if (spec?.textPaths.length) {
    const unstorable = unstorableBody(spec).map(({ path, payload }): BodyCase => ({ kind: 'unstorable', payload, path, contentType: null }));
    cases.push({ weight: 2, arbitrary: unstorable });
  }
  return fc.oneof(...cases);
}

/** A path segment: made-up ids, encodings, traversal, near-misses of real ids. */
const hostileSegment = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }).map(encode),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map(encode),
  fc.constantFrom(...SQL, ...HTML, ...ODD_TEXT.filter((s) => s.length < 100)).map(encode),
  nastyString.map(encode),
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
/** real rows, so a fuzzed request meets them (see the comment in beforeAll) */
interface Real extends Record<RealId, string> {
  loginEmail: string;
  checkoutOpportunity: string;
  briefOpportunity: string;
}
let real: Real;
const stats = {
  sent: 0,
  accepted: 0,
  refused: 0,
  byStatus: new Map<number, number>(),
  acceptedBy: new Map<string, number>(),
};
/** the bodies property: requests and 2xx answers per kind of body */
const bodies = new Map<Kind, { sent: number; accepted: number }>();
/** why valid bodies were refused, per route (FUZZ_PROFILE prints it) */
const validRefused = new Map<string, number>();

/**
 * Written on refused requests by design, so not watched: rate-limit bookkeeping (a refused sign-in
 * is counted), the older throttling logs, upload bookkeeping; and the counter itself.
 */
const UNWATCHED = /^(rate_limit|login_failures$|password_reset_requests$|uploads$|fuzz_)/;

/**
 * Counts every row written to a business table (insert, update, delete; rolled back with its
 * transaction), so "unchanged" is one cheap read: a changed fingerprint means a committed write.
 * Every table of the schema is watched unless UNWATCHED names it, so a new table is watched too.
 */
async function watchWrites(db: Db) {
  const tables = (await db.execute(sql.raw(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`))) as unknown as {
    rows: { tablename: string }[];
  };
  const watched = tables.rows.map((r) => r.tablename).filter((name) => !UNWATCHED.test(name));
  expect(watched).toEqual(expect.arrayContaining(['users', 'sessions', 'opportunities', 'payments', 'briefs', 'mail_outbox']));
  const statements = [
    'CREATE TABLE fuzz_writes (n bigint NOT NULL)',
    'INSERT INTO fuzz_writes VALUES (0)',
    `CREATE FUNCTION fuzz_count() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE fuzz_writes SET n = n + 1; RETURN NULL; END $$`,
    ...watched.map(
      (name) =>
        `CREATE TRIGGER fuzz_count AFTER INSERT OR UPDATE OR DELETE ON "${name}" FOR EACH ROW EXECUTE FUNCTION fuzz_count()`,
    ),
  ];
  for (const statement of statements) await db.execute(sql.raw(statement));
  return watched;
}

async function fingerprint(db: Db): Promise<string> {
  const res = (await db.execute(sql.raw('SELECT n::text AS f FROM fuzz_writes'))) as unknown as {
    rows: { f: string }[];
  };
  return res.rows[0].f;
}

function fill(route: Route, segment?: string) {
  return route.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    if (segment !== undefined) return segment;
    if (name === 'name') return 'missing.png';
    return real[route.id!];
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

/** Sends, then checks the three rules; returns the status and the parsed body of a refusal. */
async function check(
  route: Route,
  url: string,
  headers: Record<string, string>,
  payload: string | undefined,
  before: { f: string },
) {
  const res = await send(t.app, route, url, headers, payload);
  // a forgot-password answer goes out before its link is made: let that work end before comparing
  await resetLinksMade();
  stats.sent++;
  stats.byStatus.set(res.statusCode, (stats.byStatus.get(res.statusCode) ?? 0) + 1);
  const what = `${route.method} ${url.slice(0, 200)} ${payload?.slice(0, 200) ?? ''} ${JSON.stringify(headers).slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  if (res.statusCode >= 500) throw new Error(`5xx: ${what}`);
  let body: unknown;
  if (res.statusCode >= 400) {
    stats.refused++;
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
    const key = routeKey(route);
    stats.acceptedBy.set(key, (stats.acceptedBy.get(key) ?? 0) + 1);
    // an accepted request may change things: the next comparison starts from here
    if (route.method !== 'GET') before.f = await fingerprint(t.db);
  }
  return { status: res.statusCode, body: body as { message: string; errors?: Record<string, string> } | undefined, what };
}

/** Buys through the API: a paid payment of the brand (checkout, then the built-in pay). */
async function buy(agent: Agent, opportunityId: string) {
  const checkout = await agent.post('/api/payments/checkout', { opportunityId });
  const paid = await agent.post(`/api/payments/checkout/${String(checkout.body.url).split('/').pop()}/pay`);
  expect(paid.status, paid.text).toBe(200);
  return paid.body.paymentId as string;
}

beforeAll(async () => {
  t = await createTestApp();
  const watched = await watchWrites(t.db);
  if (process.env.FUZZ_PROFILE) {
    const s = Date.now();
    for (let i = 0; i < 100; i++) await fingerprint(t.db);
    process.stdout.write(`fingerprint: ${(Date.now() - s) / 100} ms over ${watched.join(', ')}\n`);
  }
  const [admin, brand, profile, loginUser, pendingBrand] = await Promise.all([
    signedIn(t.app, t.db, kinds.admin),
    signedIn(t.app, t.db, kinds.approvedBrand),
    signedIn(t.app, t.db, kinds.approvedBrand),
    createUser(t.db),
    createUser(t.db, kinds.pendingBrand),
  ]);
  cookies = { visitor: undefined, admin: admin.agent.cookie, brand: brand.agent.cookie, profile: profile.agent.cookie };
  // Each state-changing route gets a row of its own, so one that succeeds (a refund, an approval)
  // does not leave the others facing a row they may no longer change: the brief routes write to a
  // paid payment with a submitted brief, the draft routes to one whose draft is under review, and
  // approve/release/refund act on a spare one.
  const briefOpportunity = await createOpportunity(t.db, { maxSlots: 5 });
  const briefPayment = await buy(brand.agent, briefOpportunity.id);
  const projectPayment = await buy(brand.agent, (await createOpportunity(t.db, { maxSlots: 5 })).id);
  const sparePayment = await buy(brand.agent, (await createOpportunity(t.db, { maxSlots: 5 })).id);
  for (const id of [briefPayment, projectPayment, sparePayment]) {
    expect((await brand.agent.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 })).status).toBe(200);
  }
  for (const id of [projectPayment, sparePayment]) {
    expect((await admin.agent.patch(`/api/admin/payments/${id}/status`, { draftDocumentUrl: DOC_URL })).status).toBe(200);
  }
  const openCheckout = async () => {
    const opportunityId = (await createOpportunity(t.db, { maxSlots: 5 })).id;
    return String((await brand.agent.post('/api/payments/checkout', { opportunityId })).body.url).split('/').pop()!;
  };
  const [code] = await t.db.insert(inviteCodes).values({ code: 'FUZZ-DEACTIVATE' }).returning();
  real = {
    briefPayment,
    projectPayment,
    sparePayment,
    sessionId: await openCheckout(),
    cancelSessionId: await openCheckout(),
    updateOpportunity: (await createOpportunity(t.db, { maxSlots: 3 })).id,
    pendingBrand: pendingBrand.id,
    inviteCode: code.id,
    loginEmail: loginUser.email,
    checkoutOpportunity: (await createOpportunity(t.db, { maxSlots: 10_000 })).id,
    briefOpportunity: briefOpportunity.id,
  };
  expect(real.sessionId).toMatch(/^cs_/);
}, 120_000);

afterAll(async () => {
  // the figures docs/reliability.md quotes
  const byStatus = Object.fromEntries([...stats.byStatus.entries()].sort((a, b) => a[0] - b[0]));
  process.stdout.write(
    `fuzz: ${stats.sent} requests, ${stats.refused} refused, ${stats.accepted} accepted, 0 ≥ 500; by status ${JSON.stringify(byStatus)}\n`,
  );
  const all = [...bodies.values()].reduce((a, b) => ({ sent: a.sent + b.sent, accepted: a.accepted + b.accepted }), { sent: 0, accepted: 0 });
  if (all.sent) {
    const share = ((100 * all.accepted) / all.sent).toFixed(1);
    process.stdout.write(
      `fuzz bodies: ${all.sent} requests, ${all.accepted} answered 2xx (${share}%: past validation, into the database); by kind ${JSON.stringify(Object.fromEntries(bodies))}\n`,
    );
  }
  if (process.env.FUZZ_PROFILE) {
    process.stdout.write(`accepted: ${JSON.stringify(Object.fromEntries(stats.acceptedBy))}\n`);
    process.stdout.write(`valid bodies refused: ${JSON.stringify(Object.fromEntries(validRefused), null, 1)}\n`);
  }
  await t?.close();
});

/** The refusal of a string PostgreSQL cannot store: 400 naming the member (or a rate limit's 429). */
function expectUnstorableRefused(result: Awaited<ReturnType<typeof check>>, path: string) {
  if (result.status < 400) throw new Error(`unstorable text accepted: ${result.what}`);
  if (result.status === 429) return;
  if (result.status !== 400 || result.body?.errors?.[path] !== UNSTORABLE_TEXT_MESSAGE)
    throw new Error(`unstorable text at ${path} not refused with "${UNSTORABLE_TEXT_MESSAGE}": ${result.what}`);
}

describe('fuzzing every JSON endpoint', () => {
  it(`bodies: ${RUNS.bodies} bodies, most of them valid with hostile values, the rest malformed`, async () => {
    const specs = bodySpecs(real);
    const before = { f: await fingerprint(t.db) };
    const cases = fc.oneof(
      ...WITH_BODY.map((route) => ({
        weight: route.weight ?? 1,
        arbitrary: fc.tuple(fc.constant(route), bodyCases(route, specs[routeKey(route)])),
      })),
    );
    await fc.assert(
      fc.asyncProperty(cases, async ([route, c]) => {
        const result = await check(route, fill(route), c.contentType ? { 'content-type': c.contentType } : {}, c.payload, before);
        const tally = bodies.get(c.kind) ?? { sent: 0, accepted: 0 };
        bodies.set(c.kind, { sent: tally.sent + 1, accepted: tally.accepted + (result.status < 300 ? 1 : 0) });
        if (c.kind === 'valid' && result.status >= 400) {
          const why = `${routeKey(route)} → ${result.status} ${result.body?.message}`;
          validRefused.set(why, (validRefused.get(why) ?? 0) + 1);
        }
        if (c.kind === 'invalid' && result.status < 400) throw new Error(`invalid body accepted: ${result.what}`);
        if (c.kind === 'unstorable') expectUnstorableRefused(result, c.path!);
      }),
      { numRuns: RUNS.bodies, seed: SEED, endOnFailure: true },
    );
    const all = [...bodies.values()].reduce((a, b) => ({ sent: a.sent + b.sent, accepted: a.accepted + b.accepted }), { sent: 0, accepted: 0 });
    expect(all.accepted / all.sent).toBeGreaterThanOrEqual(MIN_ACCEPTED_BODIES);
  }, 240_000);

  it(`path ids: ${RUNS.paths} made-up, encoded and traversing ids, none accepted`, async () => {
    const before = { f: await fingerprint(t.db) };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...WITH_PARAMS), hostileSegment, async (route, segment) => {
        const { status } = await check(route, fill(route, segment), {}, route.method === 'GET' ? undefined : '{}', before);
        if (status < 400) throw new Error(`made-up id accepted: ${route.method} ${fill(route, segment)} → ${status}`);
      }),
      { numRuns: RUNS.paths, seed: SEED + 1, endOnFailure: true },
    );
  }, 240_000);

  it(`query strings: ${RUNS.queries} hostile query strings`, async () => {
    const before = { f: await fingerprint(t.db) };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), queryString, async (route, q) => {
        await check(route, `${fill(route)}?${q}`, {}, route.method === 'GET' ? undefined : '{}', before);
      }),
      { numRuns: RUNS.queries, seed: SEED + 2, endOnFailure: true },
    );
  }, 240_000);

  it(`headers: ${RUNS.headers} hostile header sets`, async () => {
    const before = { f: await fingerprint(t.db) };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), headerSet, async (route, headers) => {
        await check(route, fill(route), headers, route.method === 'GET' ? undefined : '{}', before);
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
