/**
 * `npm run bench:conversation`: a placement's conversation and timeline under load (issue 19),
 * judged against the issue's targets (2-core machine, PostgreSQL server, 50 connections):
 *
 * - a conversation of 1,000 messages and a timeline of 200 entries answer their first page with a
 *   p99 under 50 ms (brand and admin routes; the second page of messages, followed through `Link`,
 *   is measured too);
 * - the sidebar's unread counts (GET /api/{brand,admin}/messages/unread) cost one indexed query:
 *   the statements of `unreadByPayment` (src/server/modules/messages/service.ts), captured from
 *   the pool they run on against the seeded database, each run again under EXPLAIN (ANALYZE,
 *   BUFFERS): one statement, and no sequential scan on placement_messages.
 *
 * The pages' statements (`messagesPage`, `timelinePage`) are explained too, with the generic plan
 * the server runs, as a first request runs them (db/item-pages.ts: the page's row versions with the
 * database snapshot, then the JSON of the items the server does not hold yet; later requests run
 * the first only, or nothing but the snapshot and session check while nothing is committed).
 *
 * Seeds its own database `byline_bench_conversation` (dropped and created again each run, dropped
 * at the end unless BENCH_KEEP_DB=1) on the server of BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres, loopback only) with `npm run bench`'s data
 * (scripts/bench-seed.ts: 5,000 brands, 100,000 payments) plus ~300,000 messages over two thirds of
 * the payments, ~450,000 timeline entries and read marks, and the measured placement: 1,000
 * messages (both sides, some with attachments) and 200 timeline entries. Starts the built server as
 * `npm start` does, signs in over HTTP as that placement's brand and as an admin, and drives it with
 * autocannon on loopback. Writes its section of bench/results.md between
 * <!-- bench-conversation:start --> and <!-- bench-conversation:end -->; exits 1 when a target is missed.
 *
 * BENCH_CONVERSATION_SECONDS (10, per route), BENCH_CONNECTIONS (50), BENCH_POOL_SIZE (10: the
 * server's DATABASE_POOL_SIZE).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import PipelinedRequestsQueue from 'autocannon/lib/pipelinedRequestsQueue.js';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../src/server/db/client';
import { openPostgres } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';
import * as schema from '../src/server/db/schema';
import { hashPassword } from '../src/server/lib/password';
import { messagesPage } from '../src/server/modules/messages/conversation';
import { unreadByPayment } from '../src/server/modules/messages/service';
import { timelinePage } from '../src/server/modules/timeline/service';
import {
  BENCH_BRANDS,
  BENCH_PAYMENTS,
  BIG_BRAND_PLACEMENTS,
  BRAND_PASSWORD,
  brandEmail,
  seedStatements,
} from './bench-seed';
import { login, sleep, withDatabase } from './lib/bench-util';
import { postgresCpuMs, procCpuMs } from './lib/proc-cpu';
import { adminQuery as adminQueryOn, assertLoopback, startBuiltServer, stopServer, writeResultsSection } from './lib/bench-server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(root, 'bench', 'results.md');
const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'byline_bench_conversation';
const SECONDS = Number(process.env.BENCH_CONVERSATION_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 10);

// the issue's targets
const FIRST_PAGE_P99_MS = 50;
const NO_SEQ_SCAN_ON = 'placement_messages';
/** a count that reads this share of placement_messages or more is not an indexed one */
const FULL_READ = 0.1;

// the measured placement: brand 0's payment number 1 (released), `npm run bench`'s big brand
const PAYMENT = "md5('bench-pay-1')::uuid";
const CONVERSATION_MESSAGES = 1_000;
const TIMELINE_ENTRIES = 200;
/** the brand of the measured placement has read its conversation up to this message */
const BRAND_READ_UP_TO = 980;
/** the editorial team's members who write the admin side's messages */
const EDITORS = 3;

const ADMIN_EMAIL = 'admin@conversation-bench.example.com';
const ADMIN_PASSWORD = 'conversation-bench-admin-password';
/** what a browser sends with the portal's fetches (see scripts/bench.ts) */
const BROWSER_HEADERS = { accept: 'application/json', 'accept-encoding': 'br, gzip' };

// the load generator counts bodies without keeping them (see scripts/bench.ts)
PipelinedRequestsQueue.prototype.addBody = function addBody() {};

assertLoopback(BASE_URL);

const log = (line: string) => console.log(`[bench:conversation ${new Date().toISOString().slice(11, 19)}] ${line}`);
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');
const count = (n: number) => n.toLocaleString('en-US');
/** What `uptime` prints: the machine's time up and its 1, 5 and 15-minute load averages. */
const uptime = () => {
  const up = Math.floor(os.uptime() / 60);
  return `up ${Math.floor(up / 60)}:${String(up % 60).padStart(2, '0')}, load average: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`;
};

// ---------------------------------------------------------------------------------------------
// the data

const BRAND_LINES = [
  'Thanks for the draft! Could we mention our Series A in the second paragraph?',
  'Attached is the updated fact sheet with the launch date.',
  'Our legal team asked us to drop the comparison with competitors, sorry for the back and forth.',
  'Looks great, approving now.',
  'Can you confirm the link will be dofollow?',
  'Quick question: when do you expect the article to go live?',
];
const ADMIN_LINES = [
  'Hi! The editor has picked up your brief and will send a first draft this week.',
  'Here is the first draft for your review.',
  'We have made the edits you asked for; let us know if anything else needs changing.',
  'The article is scheduled for Thursday morning.',
  'Published: the link is live and we have verified it.',
  'The outlet asks for a headshot of the founder, could you send one?',
];
const ATTACHMENTS: [string, string][] = [
  ['draft.pdf', 'application/pdf'],
  ['fact-sheet.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['headshot.jpg', 'image/jpeg'],
];
const sqlArray = (xs: string[]) => `(ARRAY[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(', ')}])`;

/** A placement's steps in the order they happen, with who takes them. */
const STEPS: [string, 'brand' | 'admin' | 'system'][] = [
  ['paid', 'brand'],
  ['brief_saved', 'brand'],
  ['brief_submitted', 'brand'],
  ['draft_attached', 'admin'],
  ['review_reminder', 'system'],
  ['edits_requested', 'brand'],
  ['edits_completed', 'admin'],
  ['approved', 'brand'],
  ['published', 'admin'],
  ['released', 'system'],
  ['check_failed', 'system'],
  ['case_opened', 'admin'],
  ['live_url_changed', 'admin'],
  ['case_closed', 'admin'],
];
const STEP_KINDS = sqlArray(STEPS.map((s) => s[0]));
const STEP_ACTORS = sqlArray(STEPS.map((s) => s[1]));
/** the brand number of bench payment `k` (scripts/bench-seed.ts) */
const brandOf = (k: string) =>
  `(CASE WHEN ${k} <= ${BIG_BRAND_PLACEMENTS} THEN 0 ELSE 1 + (${k} * 7) % ${BENCH_BRANDS - 1} END)`;
const editor = (n: string) => `md5('bench-editor-' || ((${n}) % ${EDITORS}))::uuid`;
/** the bench payments with their number k */
const BENCH_PAYMENT_ROWS = `(SELECT id, brand_id, created_at, substr(stripe_payment_id, 10)::int AS k FROM payments WHERE stripe_payment_id LIKE 'pi_bench_%')`;

function conversationStatements(passwordHash: string): { label: string; sql: string }[] {
  if (passwordHash.includes("'")) throw new Error('unexpected quote in the password hash');
  const messageColumns =
    'id, payment_id, side, author_id, text, attachment_file, attachment_name, attachment_type, attachment_size, created_at';
  const text = (side: string, n: string) =>
    `CASE WHEN ${side} = 'brand' THEN ${sqlArray(BRAND_LINES)}[1 + (${n}) % ${BRAND_LINES.length}] ELSE ${sqlArray(ADMIN_LINES)}[1 + (${n}) % ${ADMIN_LINES.length}] END
       || repeat(' We want the piece to read naturally for the outlet''s audience.', (${n}) % 4)`;
  const attachment = (when: string, n: string) => `
       CASE WHEN ${when} THEN 'msg-' || md5('att' || ${n}) || '.bin' END,
       CASE WHEN ${when} THEN ${sqlArray(ATTACHMENTS.map((a) => a[0]))}[1 + (${n}) % ${ATTACHMENTS.length}] END,
       CASE WHEN ${when} THEN ${sqlArray(ATTACHMENTS.map((a) => a[1]))}[1 + (${n}) % ${ATTACHMENTS.length}] END,
       CASE WHEN ${when} THEN (20000 + (${n})::bigint * 7919 % 4000000)::int END`;
  return [
    {
      label: `${EDITORS} editors (admins)`,
      sql: `INSERT INTO users (id, name, email, password, role, approved)
        SELECT md5('bench-editor-' || n)::uuid, 'Editor ' || n, 'editor' || n || '@bench.example.com', '${passwordHash}', 'admin', true
        FROM generate_series(0, ${EDITORS - 1}) n`,
    },
    {
      // two payments in three have a conversation, 2 to 7 messages, the sides taking turns
      label: 'background messages',
      sql: `INSERT INTO placement_messages (${messageColumns})
        SELECT md5('bench-msg-' || p.k || '-' || j)::uuid, p.id, s.side,
          CASE WHEN s.side = 'brand' THEN p.brand_id ELSE ${editor('p.k + j')} END,
          ${text('s.side', 'p.k + j')},
          ${attachment('(p.k + j) % 15 = 0', 'p.k * 10 + j')},
          least(now() - interval '1 minute', p.created_at + make_interval(hours => j * 5, secs => p.k % 3600))
        FROM ${BENCH_PAYMENT_ROWS} p
        CROSS JOIN LATERAL generate_series(1, 2 + p.k % 6) j
        CROSS JOIN LATERAL (SELECT CASE WHEN (p.k + j) % 2 = 0 THEN 'brand' ELSE 'admin' END AS side) s
        WHERE p.k % 3 <> 0 AND p.k <> 1`,
    },
    {
      label: `the measured conversation (${CONVERSATION_MESSAGES} messages)`,
      sql: `INSERT INTO placement_messages (${messageColumns})
        SELECT md5('bench-conv-msg-' || i)::uuid, ${PAYMENT}, s.side,
          CASE WHEN s.side = 'brand' THEN md5('bench-brand-0')::uuid ELSE ${editor('i')} END,
          ${text('s.side', 'i')},
          ${attachment('i % 20 = 0', 'i')},
          now() - make_interval(mins => (${CONVERSATION_MESSAGES} - i) * 43, secs => (i * 7919 % 1000000) / 1000000.0)
        FROM generate_series(1, ${CONVERSATION_MESSAGES}) i
        CROSS JOIN LATERAL (SELECT CASE WHEN i % 5 IN (0, 2, 3) THEN 'brand' ELSE 'admin' END AS side) s`,
    },
    {
      // each payment 1 to 8 steps of its way, in order
      label: 'background timeline entries',
      sql: `INSERT INTO placement_events (payment_id, kind, actor_type, actor_id, actor_name, details, at)
        SELECT p.id, ${STEP_KINDS}[j], ${STEP_ACTORS}[j],
          CASE ${STEP_ACTORS}[j] WHEN 'brand' THEN p.brand_id WHEN 'admin' THEN ${editor('p.k')} END,
          CASE ${STEP_ACTORS}[j] WHEN 'brand' THEN 'Bench Brand ' || ${brandOf('p.k')} WHEN 'admin' THEN 'Editor ' || p.k % ${EDITORS} ELSE 'Byline' END,
          jsonb_build_object('step', 's' || j, 'round', 1),
          least(now() - interval '1 minute', p.created_at + make_interval(hours => j * 7))
        FROM ${BENCH_PAYMENT_ROWS} p
        CROSS JOIN LATERAL generate_series(1, 1 + p.k % 8) j
        WHERE p.k <> 1
        ORDER BY p.k, j`,
    },
    {
      // the measured placement's 200 entries: its steps again and again (rounds of edits, checks, cases)
      label: `the measured timeline (${TIMELINE_ENTRIES} entries)`,
      sql: `INSERT INTO placement_events (payment_id, kind, actor_type, actor_id, actor_name, details, at)
        SELECT ${PAYMENT}, ${STEP_KINDS}[1 + (i - 1) % ${STEPS.length}], ${STEP_ACTORS}[1 + (i - 1) % ${STEPS.length}],
          CASE ${STEP_ACTORS}[1 + (i - 1) % ${STEPS.length}] WHEN 'brand' THEN md5('bench-brand-0')::uuid WHEN 'admin' THEN ${editor('i')} END,
          CASE ${STEP_ACTORS}[1 + (i - 1) % ${STEPS.length}] WHEN 'brand' THEN 'Bench Brand 0' WHEN 'admin' THEN 'Editor ' || i % ${EDITORS} ELSE 'Byline' END,
          jsonb_build_object('step', 's' || i, 'round', 1 + (i - 1) / ${STEPS.length}, 'feedback', 'Please tighten the introduction.', 'url', 'https://outlet.example.com/a/' || i),
          now() - make_interval(mins => (${TIMELINE_ENTRIES} - i) * 211)
        FROM generate_series(1, ${TIMELINE_ENTRIES}) i
        ORDER BY i`,
    },
    {
      // each side has read what the other wrote, but for some conversations: the editorial team has
      // never opened 1 in 500 and read only the first message of another 1 in 500; the brands have
      // never opened 1 in 10 and read only the first message of another 1 in 10
      label: 'read marks',
      sql: `INSERT INTO conversation_reads (payment_id, side, read_at)
        SELECT g.payment_id, g.reader,
          CASE WHEN (g.reader = 'admin' AND g.k % 500 = 257) OR (g.reader = 'brand' AND g.k % 10 = 8) THEN g.first_at ELSE g.last_at END
        FROM (SELECT m.payment_id, CASE m.side WHEN 'brand' THEN 'admin' ELSE 'brand' END AS reader,
                     min(m.created_at) AS first_at, max(m.created_at) AS last_at, p.k
              FROM placement_messages m JOIN ${BENCH_PAYMENT_ROWS} p ON p.id = m.payment_id
              GROUP BY m.payment_id, m.side, p.k) g
        WHERE NOT (g.reader = 'admin' AND g.k % 500 = 7) AND NOT (g.reader = 'brand' AND g.k % 10 = 4)
        ON CONFLICT (payment_id, side) DO UPDATE SET read_at = excluded.read_at`,
    },
    {
      // the measured conversation: the brand has read up to message ${BRAND_READ_UP_TO}, the team all of it
      label: 'the measured read marks',
      sql: `UPDATE conversation_reads SET read_at = (SELECT created_at FROM placement_messages WHERE id = md5('bench-conv-msg-${BRAND_READ_UP_TO}')::uuid)
        WHERE payment_id = ${PAYMENT} AND side = 'brand'`,
    },
    { label: 'vacuum analyze', sql: 'VACUUM (ANALYZE)' },
  ];
}

const adminQuery = (query: string) => adminQueryOn(BASE_URL, query);

async function seed(url: string) {
  const handle = openPostgres(url, 1);
  try {
    await runMigrations(handle);
  } finally {
    await handle.close();
  }
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const hash = await hashPassword(BRAND_PASSWORD);
    for (const s of [
      ...seedStatements(hash).filter((s) => !/vacuum/i.test(s.label)),
      ...conversationStatements(hash),
    ]) {
      const t0 = performance.now();
      await c.query(s.sql);
      log(`seeded ${s.label} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    const { rows } = await c.query(`SELECT
        (SELECT count(*)::int FROM placement_messages) AS messages,
        (SELECT count(DISTINCT payment_id)::int FROM placement_messages) AS conversations,
        (SELECT count(*)::int FROM placement_events) AS events,
        (SELECT count(*)::int FROM conversation_reads) AS reads,
        (SELECT count(*)::int FROM placement_messages WHERE payment_id = ${PAYMENT}) AS measured_messages,
        (SELECT count(*)::int FROM placement_messages WHERE payment_id = ${PAYMENT} AND attachment_file IS NOT NULL) AS measured_attachments,
        (SELECT count(*)::int FROM placement_events WHERE payment_id = ${PAYMENT}) AS measured_events,
        (SELECT id::text FROM payments WHERE id = ${PAYMENT}) AS payment_id`);
    const r = rows[0] as Record<string, number> & { payment_id: string };
    if (r.measured_messages !== CONVERSATION_MESSAGES || r.measured_events !== TIMELINE_ENTRIES)
      throw new Error(
        `the measured placement has ${r.measured_messages} messages and ${r.measured_events} timeline entries`,
      );
    return r;
  } finally {
    await c.end();
  }
}

// ---------------------------------------------------------------------------------------------
// the server and the load

/** The built server as `npm start` runs it (scripts/lib/bench-server.ts), on this bench's database. */
const startServer = (url: string, dataDir: string) =>
  startBuiltServer({ DATABASE_URL: url, DATABASE_POOL_SIZE: String(POOL_SIZE), DATA_DIR: dataDir, ADMIN_EMAIL, ADMIN_PASSWORD });

const stop = stopServer;

interface Probe {
  items: number;
  /** the unread endpoints: their total and the number of conversations they list */
  unread?: { total: number; conversations: number };
  next: string | null;
  bytes: number;
}

async function probe(origin: string, p: string, cookie: string): Promise<Probe> {
  const res = await fetch(`${origin}${p}`, { headers: { cookie, accept: 'application/json' } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as unknown;
  const summary =
    body && typeof body === 'object' && 'byPayment' in body ? (body as { total: number; byPayment: object }) : null;
  const unread = summary ? { total: summary.total, conversations: Object.keys(summary.byPayment).length } : undefined;
  return {
    items: Array.isArray(body) ? body.length : -1,
    unread,
    next: /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? null,
    bytes: Buffer.byteLength(text),
  };
}

/** Waits until the server has worked off the last run's requests in flight (see scripts/bench.ts). */
async function settle(origin: string, cookie: string) {
  const deadline = Date.now() + 30_000;
  let fast = 0;
  while (Date.now() < deadline && fast < 3) {
    const t0 = performance.now();
    await fetch(`${origin}/api/user`, { headers: { cookie } }).then((r) => r.arrayBuffer());
    fast = performance.now() - t0 < 20 ? fast + 1 : 0;
    await sleep(50);
  }
}

const load = (origin: string, p: string, cookie: string, seconds: number): Promise<Result> =>
  autocannon({
    url: `${origin}${p}`,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    headers: { cookie, ...BROWSER_HEADERS },
  });

interface Route {
  name: string;
  path: string;
  who: 'brand' | 'admin';
  /** p99 target in ms; null: measured, not judged by the issue */
  target: number | null;
  probe?: Probe;
  result?: Result;
  /** CPU ms per request of the server and of all PostgreSQL processes */
  cpu?: { server: number; database: number };
  load?: { before: number; after: number };
}

async function measure(origin: string, r: Route, cookie: string, pid: number) {
  await settle(origin, cookie);
  await load(origin, r.path, cookie, 1);
  await settle(origin, cookie);
  const before = os.loadavg()[0];
  const s0 = procCpuMs(pid);
  const d0 = postgresCpuMs();
  r.result = await load(origin, r.path, cookie, SECONDS);
  const s1 = procCpuMs(pid);
  const d1 = postgresCpuMs();
  const n = r.result.requests.total || NaN;
  r.cpu = {
    server: s0 !== null && s1 !== null ? (s1 - s0) / n : NaN,
    database: d0 !== null && d1 !== null ? (d1 - d0) / n : NaN,
  };
  r.load = { before, after: os.loadavg()[0] };
  log(
    `${r.name}: p50 ${r.result.latency.p50} ms, p99 ${r.result.latency.p99} ms, ${fmt(r.result.requests.average)} req/s, non-2xx ${r.result.non2xx + r.result.errors + r.result.timeouts}; ${uptime()}`,
  );
}

// ---------------------------------------------------------------------------------------------
// EXPLAIN of the server's own statements

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Heap Fetches'?: number;
  Plans?: PlanNode[];
}

interface Explained {
  what: string;
  sql: string;
  text: string;
  ms: number;
  hit: number;
  read: number;
  scans: string[];
  seqScan: boolean;
  /** rows placement_messages' scans produced (over all their loops) */
  messageRows: number;
  /** rows conversation_reads' scans read (produced and filtered out, over all their loops) */
  readMarkRows: number;
  /** a scan of conversation_reads ran in several loops: PostgreSQL rounds its rows per loop, the count is approximate */
  readMarkRowsApprox: boolean;
  /** a named statement of the server, explained with the plan it runs with (generic) */
  prepared: boolean;
}

/** A statement as the server's functions sent it; `name` for a named prepared statement (db/statement.ts). */
interface Captured {
  sql: string;
  params: unknown[];
  name?: string;
}

const walk = (n: PlanNode, out: PlanNode[] = []) => {
  out.push(n);
  for (const c of n.Plans ?? []) walk(c, out);
  return out;
};

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a captured statement. A named prepared statement of the server is
 * planned once per connection and, from its sixth run on, runs a generic plan (one made without its
 * values): it is explained that way, PREPAREd and EXECUTEd with plan_cache_mode = force_generic_plan.
 */
async function explain(c: pg.Client, what: string, s: Captured): Promise<Explained> {
  const prepared = s.name !== undefined;
  const run = async (options: string) => {
    if (!prepared) return c.query(`EXPLAIN (${options}) ${s.sql}`, s.params);
    const args = s.params.map((v) => (v === null || v === undefined ? 'NULL' : c.escapeLiteral(String(v)))).join(', ');
    await c.query(`PREPARE bench_explained AS ${s.sql}`);
    try {
      await c.query('SET plan_cache_mode = force_generic_plan');
      return await c.query(`EXPLAIN (${options}) EXECUTE bench_explained${args ? `(${args})` : ''}`);
    } finally {
      await c.query('RESET plan_cache_mode');
      await c.query('DEALLOCATE bench_explained');
    }
  };
  const json = await run('ANALYZE, BUFFERS, FORMAT JSON');
  const [{ Plan: plan, 'Execution Time': ms }] = json.rows[0]['QUERY PLAN'] as {
    Plan: PlanNode & { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
    'Execution Time': number;
  }[];
  const text = await run('ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY ON');
  const nodes = walk(plan);
  const on = (relation: string) => nodes.filter((n) => n['Relation Name'] === relation);
  const onMessages = on(NO_SEQ_SCAN_ON);
  return {
    what,
    sql: s.sql,
    text: text.rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n'),
    ms,
    hit: plan['Shared Hit Blocks'],
    read: plan['Shared Read Blocks'],
    scans: [
      ...new Set(
        nodes
          .filter((n) => /Scan/.test(n['Node Type']) && n['Relation Name'])
          .map((n) => `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''} on ${n['Relation Name']}`),
      ),
    ],
    seqScan: onMessages.some((n) => n['Node Type'] === 'Seq Scan'),
    messageRows: onMessages.reduce((s, n) => s + (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1), 0),
    readMarkRows: on('conversation_reads').reduce(
      (s, n) => s + ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0)) * (n['Actual Loops'] ?? 1),
      0,
    ),
    readMarkRowsApprox: on('conversation_reads').some((n) => (n['Actual Loops'] ?? 1) > 1),
    prepared,
  };
}

/**
 * Runs the server's functions on the seeded database and EXPLAINs each statement they sent: every
 * query of the pool they run on is captured, Drizzle's and the named prepared statements alike.
 */
async function explainAll(url: string, paymentId: string, brandId: string) {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const captured: Captured[] = [];
  const query = pool.query.bind(pool) as (config: unknown, values?: unknown) => Promise<unknown>;
  (pool as unknown as { query: typeof query }).query = (config, values) => {
    if (typeof config === 'string') captured.push({ sql: config, params: (values as unknown[] | undefined) ?? [] });
    else {
      const q = config as pg.QueryConfig;
      captured.push({ sql: q.text, params: q.values ?? (values as unknown[] | undefined) ?? [], name: q.name });
    }
    return query(config, values);
  };
  const db = drizzle(pool, { schema }) as unknown as Db;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const capture = async (run: () => Promise<unknown>) => {
    captured.length = 0;
    await run();
    return [...captured];
  };
  const label = (what: string, list: Captured[], i: number) => (list.length === 1 ? what : `${what}, statement ${i + 1}`);
  try {
    const brand = { side: 'brand' as const, brandId, userId: brandId };
    const brandUnread = await capture(() => unreadByPayment(db, 'brand', { brandId }));
    const adminUnread = await capture(() => unreadByPayment(db, 'admin', 'all'));
    let rows: { cursorAt: string; id: string }[] = [];
    const firstPage = await capture(async () => (rows = await messagesPage(db, brand, paymentId, { limit: 50 })));
    const last = rows[49];
    const secondPage = await capture(() =>
      messagesPage(db, brand, paymentId, { limit: 50, cursor: { at: last.cursorAt, id: last.id } }),
    );
    const timeline = await capture(() => timelinePage(db, paymentId, { brandId, limit: 100 }));
    const plans = { brandUnread: [] as Explained[], adminUnread: [] as Explained[], pages: [] as Explained[] };
    for (const [i, s] of brandUnread.entries()) plans.brandUnread.push(await explain(c, label('brand unread', brandUnread, i), s));
    for (const [i, s] of adminUnread.entries()) plans.adminUnread.push(await explain(c, label('admin unread', adminUnread, i), s));
    for (const [what, list] of [
      ['messages, first page', firstPage],
      ['messages, second page', secondPage],
      ['timeline, first page', timeline],
    ] as const)
      for (const [i, s] of list.entries()) plans.pages.push(await explain(c, label(what, list, i), s));
    return plans;
  } finally {
    await c.end();
    await pool.end();
  }
}

// ---------------------------------------------------------------------------------------------
// results.md

const writeSection = (body: string) => writeResultsSection('bench-conversation', body);

async function main() {
  const started = performance.now();
  const startedAt = new Date();
  const uptimeAtStart = uptime();
  log(`${uptimeAtStart}; ${os.cpus().length} cores`);
  const url = withDatabase(BASE_URL, DB_NAME);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-bench-conversation-'));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    log(`database ${DB_NAME}: drop and create on ${new URL(BASE_URL).host}`);
    await adminQuery(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await adminQuery(`CREATE DATABASE ${DB_NAME}`);
    const seed0 = performance.now();
    const data = await seed(url);
    const seedS = (performance.now() - seed0) / 1000;
    const paymentId = data.payment_id;
    const brandId = await (async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const { rows } = await c.query('SELECT id FROM users WHERE email = $1', [brandEmail(0)]);
      await c.end();
      return rows[0].id as string;
    })();

    server = await startServer(url, dataDir);
    const { origin } = server;
    const cookies = {
      brand: await login(origin, brandEmail(0), BRAND_PASSWORD),
      admin: await login(origin, ADMIN_EMAIL, ADMIN_PASSWORD),
    };
    const routes: Route[] = [
      {
        name: 'brand: messages, first page',
        path: `/api/brand/projects/${paymentId}/messages`,
        who: 'brand',
        target: FIRST_PAGE_P99_MS,
      },
      {
        name: 'admin: messages, first page',
        path: `/api/admin/projects/${paymentId}/messages`,
        who: 'admin',
        target: FIRST_PAGE_P99_MS,
      },
      {
        name: 'brand: timeline, first page',
        path: `/api/brand/projects/${paymentId}/timeline`,
        who: 'brand',
        target: FIRST_PAGE_P99_MS,
      },
      {
        name: 'admin: timeline, first page',
        path: `/api/admin/projects/${paymentId}/timeline`,
        who: 'admin',
        target: FIRST_PAGE_P99_MS,
      },
      { name: 'brand: unread counts (sidebar)', path: '/api/brand/messages/unread', who: 'brand', target: null },
      { name: 'admin: unread counts (sidebar)', path: '/api/admin/messages/unread', who: 'admin', target: null },
    ];
    for (const r of routes) r.probe = await probe(origin, r.path, cookies[r.who]);
    const next = routes[0].probe!.next;
    if (!next) throw new Error('the first page of messages has no Link to the next one');
    const second: Route = { name: 'brand: messages, second page (Link)', path: next, who: 'brand', target: null };
    second.probe = await probe(origin, next, cookies.brand);
    routes.splice(1, 0, second);
    for (const r of routes)
      log(
        `${r.name}: ${r.probe!.unread ? `${r.probe!.unread.total} unread in ${r.probe!.unread.conversations} conversations` : `${r.probe!.items} items`}, ${count(r.probe!.bytes)} bytes of JSON`,
      );

    const uptimes: string[] = [uptime()];
    for (const r of routes) {
      await measure(origin, r, cookies[r.who], server.child.pid!);
      uptimes.push(uptime());
    }
    await stop(server.child);
    server = undefined;

    log("EXPLAIN (ANALYZE, BUFFERS) of the server's statements");
    const plans = await explainAll(url, paymentId, brandId);
    const version = await (async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const v = (await c.query('SHOW server_version')).rows[0].server_version as string;
      await c.end();
      return v;
    })();

    // -----------------------------------------------------------------------------------------
    // report
    const misses: string[] = [];
    const lines: string[] = [];
    lines.push(
      `## \`npm run bench:conversation\` (a placement's conversation of ${count(CONVERSATION_MESSAGES)} messages and timeline of ${TIMELINE_ENTRIES} entries; unread counts)`,
    );
    lines.push('');
    lines.push(
      `Run ${startedAt.toISOString()} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}), ${Math.round(os.totalmem() / 1024 ** 3)} GB, Node ${process.version}, PostgreSQL ${version}. ` +
        `**The machine is shared and noisy**: other engineers' tests, builds and benches run on the same 2 cores and the same PostgreSQL server, so the figures move from run to run; \`uptime\` at the start: \`${uptimeAtStart}\`, and the 1-minute load before and after each run is in the table. ` +
        `The built server (dist/server/main.js, DATABASE_POOL_SIZE ${POOL_SIZE}) on loopback, signed in over HTTP as the placement's brand and as an admin; autocannon in the bench process, ${CONNECTIONS} connections, ${SECONDS} s per route after 1 s of warm-up, \`Accept-Encoding: br, gzip\`.`,
    );
    lines.push('');
    lines.push(
      `Data (\`INSERT … SELECT generate_series\`, seeded in ${fmt(seedS)} s): \`npm run bench\`'s ${count(BENCH_BRANDS)} brands and ${count(BENCH_PAYMENTS)} payments (scripts/bench-seed.ts), ${EDITORS} editors; ` +
        `${count(data.messages)} messages in ${count(data.conversations)} conversations (2-7 each, the sides taking turns, 1 in 15 with an attachment), ${count(data.events)} timeline entries (1-8 steps per payment), ${count(data.reads)} read marks (the team has not opened 1 conversation in 500 and read only the first message of another 1 in 500; the brands 1 in 10 and 1 in 10). ` +
        `The measured placement (a released payment of the brand with ${BIG_BRAND_PLACEMENTS} placements): ${count(data.measured_messages)} messages over ~30 days (3 in 5 the brand's, ${data.measured_attachments} with an attachment), ${data.measured_events} timeline entries, the brand's read mark at message ${BRAND_READ_UP_TO}. Whole run: ${fmt((performance.now() - started) / 1000)} s.`,
    );
    lines.push('');
    lines.push('### Routes at 50 connections');
    lines.push('');
    lines.push(
      '| route | answer | req/s | p50 ms | p99 ms | non-2xx | CPU ms per request, server / PostgreSQL | mean latency floor on idle cores (ms) | 1-min load before → after | target | met? |',
    );
    lines.push('|---|---|---:|---:|---:|---:|---|---:|---|---|---|');
    for (const r of routes) {
      const res = r.result!;
      const bad = res.non2xx + res.errors + res.timeouts;
      const ok = r.target === null ? null : res.latency.p99 < r.target && bad === 0 && res['2xx'] > 0;
      if (ok === false) misses.push(`${r.name}: p99 ${res.latency.p99} ms (target < ${r.target} ms), non-2xx ${bad}`);
      if (r.target === null && bad > 0) misses.push(`${r.name}: ${bad} non-2xx answers`);
      const answer = r.probe!.unread
        ? `${r.probe!.unread.total} unread in ${r.probe!.unread.conversations} conversations`
        : `${r.probe!.items} items${r.probe!.next ? ' + Link' : ''}`;
      lines.push(
        `| GET \`${r.path.replace(paymentId, '{id}').replace(/cursor=[^&]+/, 'cursor=…')}\` (${r.name}) | ${answer}, ${count(r.probe!.bytes)} B JSON | ${fmt(res.requests.average)} | ${res.latency.p50} | ${res.latency.p99} | ${bad} | ${fmt(r.cpu!.server, 2)} / ${fmt(r.cpu!.database, 2)} | ${fmt((CONNECTIONS * (r.cpu!.server + r.cpu!.database)) / os.cpus().length)} | ${fmt(r.load!.before, 2)} → ${fmt(r.load!.after, 2)} | ${r.target === null ? 'not judged' : `p99 < ${r.target} ms`} | ${ok === null ? '—' : ok ? 'yes' : '**no**'} |`,
      );
    }
    lines.push('');
    lines.push(
      `Mean latency floor: with ${CONNECTIONS} connections each waiting for its answer before sending again, the mean latency is ${CONNECTIONS} / (requests a second); ` +
        `if the server and PostgreSQL had the ${os.cpus().length} cores to themselves (and autocannon took none), requests a second could not exceed ${os.cpus().length} × 1,000 / (their CPU ms per request), so the mean could not fall below ${CONNECTIONS} × CPU ms / ${os.cpus().length}. ` +
        "A p99 under 50 ms at 50 connections needs that floor well under 50 ms. (PostgreSQL's CPU is that of every PostgreSQL process on the machine, other engineers' tests included: an upper bound.)",
    );
    lines.push('');
    lines.push(
      `\`uptime\` after each run: ${uptimes
        .slice(1)
        .map((u) => `\`${u.replace(/^.*load average/, 'load average')}\``)
        .join(', ')}.`,
    );

    // the unread counts: one statement each, no sequential scan on placement_messages
    lines.push('');
    lines.push('### Unread counts: the statements and their plans');
    lines.push('');
    lines.push(
      "`unreadByPayment` (src/server/modules/messages/service.ts), the function behind both routes, run outside the server on the seeded database, every statement it sent captured (the brand's scope: its payments; the admins': every conversation), and each statement it ran put through `EXPLAIN (ANALYZE, BUFFERS)` with the same parameters. " +
        '(The routes also read the session, as every signed-in route does; that is not counted.) ' +
        `Target, "one indexed query": one statement, no sequential scan on placement_messages, and no scan that reads ${FULL_READ * 100}% or more of its ${count(data.messages)} rows either (an index scan over a whole side of the table is a table scan in all but name: its cost grows with every message ever written).`,
    );
    lines.push('');
    lines.push(
      `| count | statements | scans | ms | buffers hit / read | placement_messages rows read (of ${count(data.messages)}) | conversation_reads rows read (of ${count(data.reads)}) | seq scan on placement_messages? | met? |`,
    );
    lines.push('|---|---:|---|---:|---|---:|---:|---|---|');
    for (const [name, list] of [
      ['brand (its placements)', plans.brandUnread],
      ['admin (every conversation)', plans.adminUnread],
    ] as const) {
      const fullRead = list.some((e) => e.messageRows >= FULL_READ * data.messages);
      const ok = list.length === 1 && !list[0].seqScan && !fullRead;
      if (!ok)
        misses.push(
          `${name} unread: ${list.length} statement(s)${list.some((e) => e.seqScan) ? ', Seq Scan on placement_messages' : ''}${fullRead ? `, reads ${count(Math.max(...list.map((e) => e.messageRows)))} of the ${count(data.messages)} rows of placement_messages` : ''}`,
        );
      const e = list[0];
      lines.push(
        `| ${name} | ${list.length} | ${e?.scans.join('; ') ?? '—'} | ${fmt(e?.ms ?? NaN, 2)} | ${e ? `${e.hit} / ${e.read}` : '—'} | ${e ? count(e.messageRows) : '—'} | ${e ? `${e.readMarkRowsApprox ? '~' : ''}${count(e.readMarkRows)}` : '—'} | ${list.some((x) => x.seqScan) ? '**yes**' : 'no'} | ${ok ? 'yes' : '**no**'} |`,
      );
    }
    for (const e of [...plans.brandUnread, ...plans.adminUnread]) {
      lines.push('');
      lines.push(`<details><summary>${e.what}</summary>`);
      lines.push('');
      lines.push('```sql');
      lines.push(e.sql);
      lines.push('```');
      lines.push('');
      lines.push('```');
      lines.push(e.text);
      lines.push('```');
      lines.push('');
      lines.push('</details>');
    }

    lines.push('');
    lines.push('### Plans of the pages');
    lines.push('');
    lines.push(
      'Each page is read by named prepared statements of the server (src/server/db/statement.ts; `messagesPage` in src/server/modules/messages/conversation.ts, `timelinePage` in src/server/modules/timeline/service.ts), ' +
        'its items kept by row version and the page whole while nothing is committed (src/server/db/item-pages.ts, docs/decisions/029): ' +
        "a first request runs two, the page's row versions with the database snapshot (a brand's page only of its own payment) and then the JSON of the items not kept, built by the database; " +
        'the measured requests run the first one at most. ' +
        'Run outside the server with the parameters of the measured requests (the brand\'s) and explained with the generic plan the server runs them with (`PREPARE`, then `EXECUTE` under `plan_cache_mode = force_generic_plan`).',
    );
    lines.push('');
    lines.push('| statement | scans | ms | buffers hit / read | placement_messages rows read |');
    lines.push('|---|---|---:|---|---:|');
    for (const e of plans.pages)
      lines.push(
        `| ${e.what}${e.prepared ? ' (prepared, generic plan)' : ''} | ${e.scans.join('; ')} | ${fmt(e.ms, 2)} | ${e.hit} / ${e.read} | ${count(e.messageRows)} |`,
      );
    for (const e of plans.pages) {
      lines.push('');
      lines.push(`<details><summary>${e.what}</summary>`);
      lines.push('');
      lines.push('```sql');
      lines.push(e.sql);
      lines.push('```');
      lines.push('');
      lines.push('```');
      lines.push(e.text);
      lines.push('```');
      lines.push('');
      lines.push('</details>');
    }

    // the verdict, target by target
    const judgedRoute = (prefix: string) => routes.filter((r) => r.target !== null && r.name.includes(prefix));
    const routeVerdict = (what: string, prefix: string, statement: string) => {
      const rs = judgedRoute(prefix);
      const met = rs.every(
        (r) => r.result!.latency.p99 < r.target! && r.result!.non2xx + r.result!.errors + r.result!.timeouts === 0,
      );
      const floor = Math.min(...rs.map((r) => (CONNECTIONS * (r.cpu!.server + r.cpu!.database)) / os.cpus().length));
      const page = plans.pages.filter((e) => e.what.startsWith(statement));
      const loads = rs.flatMap((r) => [r.load!.before, r.load!.after]);
      return (
        `- **${what}: ${met ? 'met' : 'missed'}** (p99 ${rs.map((r) => `${r.who} ${r.result!.latency.p99} ms`).join(', ')}; target < ${FIRST_PAGE_P99_MS} ms). ` +
        (page.length === 1
          ? `Its page is ${page[0].prepared ? 'one prepared statement (the ownership check and the page together, the JSON built by the database)' : 'one statement'}, ${page[0].scans.join('; ')}, ${fmt(page[0].ms, 2)} ms in PostgreSQL (plans above)`
          : `Its page takes ${page.length} statements, ${fmt(page.reduce((s, e) => s + e.ms, 0), 2)} ms in PostgreSQL (plans above)`) +
        (met
          ? '.'
          : `; the time goes to the CPU each request costs (server + PostgreSQL): at ${CONNECTIONS} connections it alone sets a mean-latency floor of ${fmt(floor)} ms on idle cores, ` +
            (floor >= FIRST_PAGE_P99_MS
              ? 'above the target before any other load is counted'
              : 'under the target but with no room for a p99 (which sits well above the mean)') +
            `, and the machine was busy (1-minute load ${fmt(Math.min(...loads), 1)} to ${fmt(Math.max(...loads), 1)} on ${os.cpus().length} cores during these runs).`)
      );
    };
    const adminUnreadOk =
      plans.adminUnread.length === 1 &&
      !plans.adminUnread.some((e) => e.seqScan || e.messageRows >= FULL_READ * data.messages);
    const brandUnreadOk =
      plans.brandUnread.length === 1 &&
      !plans.brandUnread.some((e) => e.seqScan || e.messageRows >= FULL_READ * data.messages);
    lines.push('');
    lines.push('### Verdict per target');
    lines.push('');
    lines.push(
      routeVerdict(
        `A conversation of ${count(CONVERSATION_MESSAGES)} messages answers its first page with p99 < ${FIRST_PAGE_P99_MS} ms at ${CONNECTIONS} connections`,
        'messages, first page',
        'messages, first page',
      ),
    );
    lines.push(
      routeVerdict(
        `A timeline of ${TIMELINE_ENTRIES} entries answers its first page with p99 < ${FIRST_PAGE_P99_MS} ms at ${CONNECTIONS} connections`,
        'timeline, first page',
        'timeline, first page',
      ),
    );
    const unreadRoute = (who: string) => routes.find((r) => r.path === `/api/${who}/messages/unread`)!.result!.requests.average;
    const unreadPlan = (list: Explained[]) =>
      list.length === 1
        ? `one statement (${list[0].scans.join('; ')}), ${list[0].seqScan ? '**a sequential scan** on' : 'no sequential scan on'} placement_messages, ${count(list[0].messageRows)} of its ${count(data.messages)} rows read, ${fmt(list[0].ms, 2)} ms in EXPLAIN`
        : `${list.length} statements`;
    const readMarks = (list: Explained[]) =>
      list.some((e) => e.scans.some((x) => x.includes('conversation_reads_unread_idx')))
        ? 'only the read marks of conversations with something unread (through the partial index conversation_reads_unread_idx)'
        : `every read mark (${count(Math.max(0, ...list.map((e) => e.readMarkRows)))} of ${count(data.reads)} rows of conversation_reads: the planner chose not to use the partial index conversation_reads_unread_idx)`;
    lines.push(
      `- **Unread counts for the sidebar cost one indexed query: brand ${brandUnreadOk ? 'met' : 'missed'}, admin ${adminUnreadOk ? 'met' : 'missed'}.** ` +
        `The brand's count (its placements): ${unreadPlan(plans.brandUnread)}; it reads ${readMarks(plans.brandUnread)}; ${fmt(unreadRoute('brand'))} requests a second over HTTP. ` +
        `The admins' (every conversation): ${unreadPlan(plans.adminUnread)}; it reads ${readMarks(plans.adminUnread)}; ${fmt(unreadRoute('admin'))} requests a second over HTTP. ` +
        "Each conversation counted is one whose read mark is behind the other side's last message (`last_other_at`, kept by the message insert's trigger, migration 0014), its messages counted through placement_messages_unread_idx: " +
        'the messages read follow the unread conversations, not every message ever written.',
    );
    lines.push('');
    lines.push(misses.length ? '### Targets missed in this run' : '### All targets met in this run');
    for (const m of misses) lines.push(`- ${m}`);

    writeSection(lines.join('\n'));
    console.log(lines.join('\n'));
    if (misses.length) {
      console.log(`targets missed:\n  ${misses.join('\n  ')}`);
      process.exitCode = 1;
    }
    log(`written to ${path.relative(process.cwd(), RESULTS)}`);
  } finally {
    await stop(server?.child);
    rmSync(dataDir, { recursive: true, force: true });
    if (process.env.BENCH_KEEP_DB !== '1')
      await adminQuery(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`).catch(() => {});
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
