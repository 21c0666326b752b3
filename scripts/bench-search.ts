/**
 * `npm run bench:search`: the brands' catalogue search at 100,000 opportunities (50,000 claimable)
 * and the admins' paged lists at 100,000 and at 1,000,000 payments, judged against the issue's
 * targets (2-core machine, PostgreSQL server, 50 connections):
 *
 * - every filter and sort combination of GET /api/opportunities p99 < 50 ms, text searches p99 < 100 ms
 *   (and the pages after the first, followed through `Link`);
 * - a browse page's JSON (the first page, default limit) under 30 KB as sent compressed;
 * - GET /api/admin/payments, /projects and /placements (first page and page 11) p99 < 50 ms at
 *   1,000,000 payments, and how each grew from 100,000;
 * - the plan of every single filter × sort, the multi-filter and the text searches: no sequential
 *   scan on opportunities, payments or saved_opportunities. The statements are the server's own:
 *   `searchOpportunities` (src/server/modules/opportunities/search.ts) run on the seeded database
 *   with a Drizzle logger, each then run again under EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON).
 *
 * Seeds its own database `byline_bench_search` (scripts/lib/search-seed.ts; dropped and created
 * again each run, dropped at the end unless BENCH_KEEP_DB=1) on the server of BENCH_DATABASE_URL
 * (default postgres://postgres@127.0.0.1:5432/postgres, loopback only), starts the built server as
 * `npm start` does, signs in over HTTP and drives it with autocannon on loopback. Writes its section
 * of bench/results.md between <!-- bench-search:start --> and <!-- bench-search:end -->.
 *
 * BENCH_SEARCH_SECONDS (3, per combination), BENCH_ADMIN_SECONDS (5, per list page),
 * BENCH_CONNECTIONS (50), BENCH_POOL_SIZE (10: the server's DATABASE_POOL_SIZE),
 * BENCH_PAYMENTS (1000000: the second size of the admin lists; the first is 100,000).
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import PipelinedRequestsQueue from 'autocannon/lib/pipelinedRequestsQueue.js';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { OPPORTUNITY_SORTS } from '../src/shared/catalogue';
import { opportunitySearchQuerySchema } from '../src/shared/schemas/opportunity-search';
import type { Db } from '../src/server/db/client';
import { openPostgres } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';
import * as schema from '../src/server/db/schema';
import { hashPassword } from '../src/server/lib/password';
import { searchOpportunities } from '../src/server/modules/opportunities/search';
import { TYPO_SIMILARITY } from '../src/server/modules/opportunities/words';
import { login, sleep, withDatabase } from './lib/bench-util';
import { postgresCpuMs, procCpuMs } from './lib/proc-cpu';
import { adminQuery as adminQueryOn, assertLoopback, startBuiltServer, stopServer, writeResultsSection } from './lib/bench-server';
import {
  SAVED_BY_BRAND_0,
  SEARCH_BRANDS,
  SEARCH_BRAND_PASSWORD,
  SEARCH_OPPORTUNITIES,
  SEARCH_OUTLETS,
  catalogueStatements,
  paymentStatements,
  searchBrandEmail,
} from './lib/search-seed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(root, 'bench', 'results.md');
const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'byline_bench_search';
const SECONDS = Number(process.env.BENCH_SEARCH_SECONDS ?? 3);
const ADMIN_SECONDS = Number(process.env.BENCH_ADMIN_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 10);
const SMALL_PAYMENTS = 100_000;
const BIG_PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 1_000_000);
/** the page of the admin lists measured besides the first (followed through Link) */
const LATER_PAGE = 11;

// the issue's targets
const FILTER_P99_MS = 50;
const TEXT_P99_MS = 100;
const ADMIN_P99_MS = 50;
const BROWSE_PAGE_BYTES = 30 * 1024;
const NO_SEQ_SCAN_ON = ['opportunities', 'payments', 'saved_opportunities'];

const ADMIN_EMAIL = 'admin@search-bench.example.com';
const ADMIN_PASSWORD = 'search-bench-admin-password';
/** what a browser sends with the portal's fetches (see scripts/bench.ts) */
const BROWSER_HEADERS = { accept: 'application/json', 'accept-encoding': 'br, gzip' };

// the load generator counts bodies without keeping them (see scripts/bench.ts)
PipelinedRequestsQueue.prototype.addBody = function addBody() {};

assertLoopback(BASE_URL);

const log = (line: string) => console.log(`[bench:search ${new Date().toISOString().slice(11, 19)}] ${line}`);
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');
const count = (n: number) => n.toLocaleString('en-US');

const adminQuery = (query: string) => adminQueryOn(BASE_URL, query);

async function run(url: string, statements: { label: string; sql: string }[]) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (const s of statements) {
      const t0 = performance.now();
      await c.query(s.sql);
      log(`seeded ${s.label} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
  } finally {
    await c.end();
  }
}

// as a database in use would be: statistics gathered, each row's visibility settled
const VACUUM = { label: 'vacuum analyze', sql: 'VACUUM (ANALYZE)' };
// the seed's dirty pages written now, not by a checkpoint spread over the first measured minutes
const CHECKPOINT = { label: 'checkpoint', sql: 'CHECKPOINT' };

/**
 * Waits (at most 3 minutes) until the machine is quiet after a seed: no autovacuum worker at work
 * and a 1-minute load average under 1, so that the runs measure the server and not the seed's
 * aftermath. Returns the seconds waited and the load then.
 */
async function quiet(url: string): Promise<{ seconds: number; load1: number }> {
  const t0 = performance.now();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    while (performance.now() - t0 < 180_000) {
      const { rows } = await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'`);
      if (rows[0].n === 0 && os.loadavg()[0] < 1) break;
      await sleep(2_000);
    }
  } finally {
    await c.end();
  }
  const waited = { seconds: Math.round((performance.now() - t0) / 1000), load1: os.loadavg()[0] };
  log(`quiet after ${waited.seconds} s (1-min load ${waited.load1.toFixed(2)})`);
  return waited;
}

/** The built server as `npm start` runs it (scripts/lib/bench-server.ts), on this bench's database. */
const startServer = (url: string, dataDir: string) =>
  startBuiltServer({ DATABASE_URL: url, DATABASE_POOL_SIZE: String(POOL_SIZE), DATA_DIR: dataDir, ADMIN_EMAIL, ADMIN_PASSWORD });

const stop = stopServer;

// ---------------------------------------------------------------------------------------------
// requests and load

interface Probe {
  status: number;
  items: number;
  total: string | null;
  next: string | null;
}

async function probe(origin: string, p: string, cookie: string): Promise<Probe> {
  const res = await fetch(`${origin}${p}`, { headers: { cookie, ...BROWSER_HEADERS } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as unknown;
  const items = Array.isArray(body) ? body.length : -1;
  const next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
  return { status: res.status, items, total: res.headers.get('x-total-count'), next };
}

/** The path of page `n` (1: the first), following Link from `first`. */
async function pageAt(origin: string, first: string, cookie: string, n: number): Promise<string> {
  let p = first;
  for (let i = 1; i < n; i++) {
    const next = (await probe(origin, p, cookie)).next;
    if (!next) throw new Error(`${first} has no page ${i + 1}`);
    p = next;
  }
  return p;
}

async function load(origin: string, p: string, cookie: string, seconds: number): Promise<Result> {
  return autocannon({
    url: `${origin}${p}`,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    headers: { cookie, ...BROWSER_HEADERS },
  });
}

/** A measured run, with the CPU time per request of the server (`pid`) and of PostgreSQL. */
async function measured(origin: string, p: string, cookie: string, seconds: number, pid: number) {
  const s0 = procCpuMs(pid);
  const d0 = postgresCpuMs();
  const result = await load(origin, p, cookie, seconds);
  const s1 = procCpuMs(pid);
  const d1 = postgresCpuMs();
  const n = result.requests.total || NaN;
  return {
    result,
    cpu: {
      server: s0 !== null && s1 !== null ? (s1 - s0) / n : NaN,
      database: d0 !== null && d1 !== null ? (d1 - d0) / n : NaN,
    },
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

/** Raw bytes of one response as sent (compressed), and its encoding. */
function sentBytes(
  origin: string,
  p: string,
  cookie: string,
): Promise<{ bytes: number; encoding: string; type: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${origin}${p}`, { headers: { cookie, ...BROWSER_HEADERS } }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () =>
        resolve({
          bytes,
          encoding: String(res.headers['content-encoding'] ?? 'identity'),
          type: String(res.headers['content-type']),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

// ---------------------------------------------------------------------------------------------
// the combinations

interface Combo {
  group: 'sort' | 'filter × sort' | 'multi-filter' | 'text' | 'next pages';
  name: string;
  path: string;
  target: number;
  /** EXPLAINed (every single filter × sort, the multi-filter ones and the text searches) */
  explain: boolean;
  probe?: Probe;
  result?: Result;
  load1?: number;
  /** CPU ms per request of the server process and of all PostgreSQL processes */
  cpu?: { server: number; database: number };
}

const isoDay = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** One value of each filter: each narrows the claimable list the way a buyer would. */
const SINGLE_FILTERS: [string, string][] = [
  ['type', 'advertorial_brand_voice'],
  ['priceMin', '1000'],
  ['priceMax', '500'],
  ['daMin', '70'],
  ['daMax', '30'],
  ['tatMax', '7'],
  ['linkType', 'dofollow'],
  ['topic', 'fintech'],
  ['country', 'DE'],
  ['language', 'de'],
  ['deadlineAfter', isoDay(60)],
  ['multiSlot', 'true'],
  ['saved', 'true'],
  ['saved', 'false'],
];

const MULTI: [string, string][] = [
  [
    "the issue's: sponsored articles under $500 at DA 70+ in Germany about fintech, dofollow",
    'type=advertorial_brand_voice&priceMax=500&daMin=70&country=DE&topic=fintech&linkType=dofollow',
  ],
  [
    'the same, cheapest first',
    'type=advertorial_brand_voice&priceMax=500&daMin=70&country=DE&topic=fintech&linkType=dofollow&sort=price_asc',
  ],
  ['US listicles in English, highest DA first', 'type=listicle&country=US&language=en&sort=da_desc'],
  ['AI or SaaS, DA 50+, up to $1,500, cheapest first', 'topic=ai&topic=saas&daMin=50&priceMax=1500&sort=price_asc'],
  [
    'a narrow band: $200-800, DA 40-60, ≤ 14 days, by deadline',
    'priceMin=200&priceMax=800&daMin=40&daMax=60&tatMax=14&sort=deadline_asc',
  ],
  ['a rare country (Iceland), newest', 'country=IS&sort=newest'],
  ['saved, Germany, dearest first', 'saved=true&country=DE&sort=price_desc'],
  [
    'not saved, nofollow or sponsored, in French, by deadline',
    'saved=false&linkType=nofollow&linkType=sponsored&language=fr&sort=deadline_asc',
  ],
];

const TEXT: [string, string][] = [
  ['a common word', 'q=marketing'],
  ['two common words', 'q=growth%20strategy'],
  ['a common word, cheapest first', 'q=founders&sort=price_asc'],
  ['a prefix', 'q=fin'],
  ['a longer prefix', 'q=techn'],
  ['an outlet name', 'q=Wealth%20Ledger'],
  ['an outlet name with a typo', 'q=Wealht%20Ledger'],
  ['an outlet name with a typo, one word', 'q=Finanse'],
  ['a word no listing has', 'q=zeppelin'],
  ['words and filters', 'q=marketing&country=GB&daMin=40&sort=da_desc'],
];

const NEXT_PAGES: [string, string, number][] = [
  ['newest, page 2', 'sort=newest', 2],
  ['newest, page 20', 'sort=newest', 20],
  ['price_asc, page 10', 'sort=price_asc', 10],
  ['da_desc, page 10', 'sort=da_desc', 10],
  ['deadline_asc, page 10', 'sort=deadline_asc', 10],
  ['country=DE by DA, page 5', 'country=DE&sort=da_desc', 5],
  ['topic=fintech, page 5', 'topic=fintech', 5],
  ['q=marketing, page 5', 'q=marketing', 5],
];

function combos(): Combo[] {
  const list: Combo[] = [];
  for (const s of OPPORTUNITY_SORTS)
    list.push({
      group: 'sort',
      name: `sort=${s}`,
      path: `/api/opportunities?sort=${s}`,
      target: FILTER_P99_MS,
      explain: true,
    });
  for (const [k, v] of SINGLE_FILTERS) {
    for (const s of OPPORTUNITY_SORTS) {
      list.push({
        group: 'filter × sort',
        name: `${k}=${v}&sort=${s}`,
        path: `/api/opportunities?${k}=${v}&sort=${s}`,
        target: FILTER_P99_MS,
        explain: true,
      });
    }
  }
  for (const [name, q] of MULTI)
    list.push({
      group: 'multi-filter',
      name: `${name}: \`${q}\``,
      path: `/api/opportunities?${q}`,
      target: FILTER_P99_MS,
      explain: true,
    });
  for (const [name, q] of TEXT)
    list.push({
      group: 'text',
      name: `${name}: \`${q}\``,
      path: `/api/opportunities?${q}`,
      target: TEXT_P99_MS,
      explain: true,
    });
  return list;
}

// ---------------------------------------------------------------------------------------------
// EXPLAIN of the server's own statements

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Total Time'?: number;
  Plans?: PlanNode[];
}

interface Explained {
  combo: string;
  statements: {
    kind: 'page' | 'count';
    top: string;
    scans: string[];
    seqScans: string[];
    ms: number;
    sharedHit: number;
    sharedRead: number;
  }[];
}

const walk = (n: PlanNode, out: PlanNode[] = []) => {
  out.push(n);
  for (const c of n.Plans ?? []) walk(c, out);
  return out;
};

/** "Limit → Index Scan using x": the top node and the one under it, for the table. */
function topOf(plan: PlanNode): string {
  const name = (n: PlanNode) =>
    `${n['Node Type']}${n['Index Name'] ? ` using ${n['Index Name']}` : n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}`;
  const child = plan.Plans?.[0];
  return child && ['Limit', 'Aggregate', 'Sort', 'Incremental Sort'].includes(plan['Node Type'])
    ? `${name(plan)} → ${name(child)}`
    : name(plan);
}

/** The query of a combination's path, as the route parses it. */
function queryOf(p: string) {
  const params = new URL(p, 'http://x').searchParams;
  const raw: Record<string, string | string[]> = {};
  for (const k of new Set(params.keys())) {
    const all = params.getAll(k);
    raw[k] = all.length > 1 ? all : all[0];
  }
  return opportunitySearchQuerySchema.parse(raw);
}

async function explainAll(url: string, brandId: string, list: { name: string; path: string }[]): Promise<Explained[]> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const captured: { sql: string; params: unknown[] }[] = [];
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (q, params) => captured.push({ sql: q, params }) },
  }) as unknown as Db;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  // what withTypoTolerance sets for a text search's transaction (search.ts), for the whole session here
  await c.query(`SET pg_trgm.word_similarity_threshold = ${TYPO_SIMILARITY}`);
  const out: Explained[] = [];
  try {
    for (const x of list) {
      captured.length = 0;
      // no catalogue version: the count runs every time (the server keeps it per version)
      await searchOpportunities(db, brandId, queryOf(x.path));
      const selects = captured.filter((s) => /^\s*select\b/i.test(s.sql) && !/set_config/.test(s.sql));
      const statements: Explained['statements'] = [];
      for (const s of selects) {
        const res = await c.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${s.sql}`, s.params);
        const [{ Plan: plan, 'Execution Time': ms }] = res.rows[0]['QUERY PLAN'] as {
          Plan: PlanNode & { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
          'Execution Time': number;
        }[];
        const nodes = walk(plan);
        const scans = [
          ...new Set(
            nodes
              .filter((n) => /Scan/.test(n['Node Type']) && n['Relation Name'])
              .map((n) => `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''} on ${n['Relation Name']}`),
          ),
        ];
        const seqScans = [
          ...new Set(
            nodes
              .filter((n) => n['Node Type'] === 'Seq Scan' && NO_SEQ_SCAN_ON.includes(n['Relation Name'] ?? ''))
              .map((n) => n['Relation Name']!),
          ),
        ];
        statements.push({
          kind: /count\(\*\)/.test(s.sql) ? 'count' : 'page',
          top: topOf(plan),
          scans,
          seqScans,
          ms,
          sharedHit: plan['Shared Hit Blocks'],
          sharedRead: plan['Shared Read Blocks'],
        });
      }
      out.push({ combo: x.name, statements });
    }
  } finally {
    await c.end();
    await pool.end();
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// the admin lists

const ADMIN_LISTS = ['/api/admin/payments', '/api/admin/projects', '/api/admin/placements'];

interface AdminRun {
  list: string;
  page: number;
  payments: number;
  result: Result;
  cpu: { server: number; database: number };
  items: number;
  load1: number;
}

async function measureAdminLists(origin: string, cookie: string, payments: number, pid: number): Promise<AdminRun[]> {
  const out: AdminRun[] = [];
  for (const list of ADMIN_LISTS) {
    for (const page of [1, LATER_PAGE]) {
      const p = await pageAt(origin, list, cookie, page);
      const pr = await probe(origin, p, cookie);
      await settle(origin, cookie);
      await load(origin, p, cookie, 1);
      await settle(origin, cookie);
      const load1 = os.loadavg()[0];
      const { result, cpu } = await measured(origin, p, cookie, ADMIN_SECONDS, pid);
      log(
        `${list} page ${page} at ${count(payments)} payments: ${fmt(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx + result.errors}`,
      );
      out.push({ list, page, payments, result, cpu, items: pr.items, load1 });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// results.md

const writeSection = (body: string) => writeResultsSection('bench-search', body);

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function main() {
  const started = performance.now();
  const startedAt = new Date();
  const loadAtStart = os.loadavg();
  log(`load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}, ${os.cpus().length} cores`);
  const url = withDatabase(BASE_URL, DB_NAME);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-bench-search-'));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    log(`database ${DB_NAME}: drop and create on ${new URL(BASE_URL).host}`);
    await adminQuery(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await adminQuery(`CREATE DATABASE ${DB_NAME}`);
    const handle = openPostgres(url, 1);
    await runMigrations(handle);
    await handle.close();
    const seed0 = performance.now();
    await run(url, [
      ...catalogueStatements(await hashPassword(SEARCH_BRAND_PASSWORD)),
      ...paymentStatements(1, SMALL_PAYMENTS),
      VACUUM,
      CHECKPOINT,
    ]);
    const seedSmallS = (performance.now() - seed0) / 1000;
    const quietSmall = await quiet(url);

    server = await startServer(url, dataDir);
    const { origin } = server;
    const adminCookie = await login(origin, ADMIN_EMAIL, ADMIN_PASSWORD);
    const brandCookie = await login(origin, searchBrandEmail(0), SEARCH_BRAND_PASSWORD);
    const brandId = await (async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const { rows } = await c.query('SELECT id FROM users WHERE email = $1', [searchBrandEmail(0)]);
      await c.end();
      return rows[0].id as string;
    })();

    // the admin lists at 100,000 payments, then at BIG_PAYMENTS
    const admin = await measureAdminLists(origin, adminCookie, SMALL_PAYMENTS, server.child.pid!);
    const seed1 = performance.now();
    await run(url, [...paymentStatements(SMALL_PAYMENTS + 1, BIG_PAYMENTS), VACUUM, CHECKPOINT]);
    const seedBigS = (performance.now() - seed1) / 1000;
    const quietBig = await quiet(url);
    admin.push(...(await measureAdminLists(origin, adminCookie, BIG_PAYMENTS, server.child.pid!)));

    // the search
    const list = combos();
    for (const [name, q, n] of NEXT_PAGES) {
      const p = await pageAt(origin, `/api/opportunities?${q}`, brandCookie, n);
      list.push({
        group: 'next pages',
        name: `${name}: \`${q}\``,
        path: p,
        target: /q=/.test(q) ? TEXT_P99_MS : FILTER_P99_MS,
        explain: true,
      });
    }
    // one request of each combination first (its answer checked): the server keeps the count of
    // each search per catalogue version, as it would for a catalogue people keep searching
    for (const x of list) x.probe = await probe(origin, x.path, brandCookie);
    for (const x of list) {
      // a second of the same load first, as the admin lists get: the measured run starts warm
      await settle(origin, brandCookie);
      await load(origin, x.path, brandCookie, 1);
      await settle(origin, brandCookie);
      x.load1 = os.loadavg()[0];
      ({ result: x.result, cpu: x.cpu } = await measured(origin, x.path, brandCookie, SECONDS, server.child.pid!));
      log(
        `${x.group} ${x.name}: ${x.probe!.items} items of ${x.probe!.total}, p50 ${x.result.latency.p50} ms, p99 ${x.result.latency.p99} ms, ${fmt(x.result.requests.average)} req/s, non-2xx ${x.result.non2xx + x.result.errors}`,
      );
    }

    // one browse page as sent
    const browse = await sentBytes(origin, '/api/opportunities?sort=newest', brandCookie);
    const browseRaw = Buffer.byteLength(
      await (
        await fetch(`${origin}/api/opportunities?sort=newest`, {
          headers: { cookie: brandCookie, accept: 'application/json' },
        })
      ).text(),
    );
    log(`browse page: ${browse.bytes} bytes ${browse.encoding} (${browseRaw} bytes uncompressed)`);

    await stop(server.child);
    server = undefined;
    log("EXPLAIN (ANALYZE, BUFFERS) of the server's statements");
    const explained = await explainAll(url, brandId, list);
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
      `## \`npm run bench:search\` (catalogue search at ${count(SEARCH_OPPORTUNITIES)} opportunities; admin lists at ${count(SMALL_PAYMENTS)} and ${count(BIG_PAYMENTS)} payments)`,
    );
    lines.push('');
    lines.push(
      `Run ${startedAt.toISOString()} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}), ${Math.round(os.totalmem() / 1024 ** 3)} GB, Node ${process.version}, PostgreSQL ${version} (shared with other engineers' tests). ` +
        `**Load average at the start: ${loadAtStart.map((l) => l.toFixed(2)).join(' / ')}** (1/5/15 min). ` +
        `The built server (dist/server/main.js, DATABASE_POOL_SIZE ${POOL_SIZE}) on loopback, signed in over HTTP as an approved brand (search) and as the admin (lists); autocannon in the bench process, ${CONNECTIONS} connections, ` +
        `${SECONDS} s per search combination and ${ADMIN_SECONDS} s per admin list page (after 1 s of warm-up), requests with \`Accept-Encoding: br, gzip\`.`,
    );
    lines.push('');
    lines.push(
      `Data (scripts/lib/search-seed.ts, \`INSERT … SELECT generate_series\`): ${count(SEARCH_BRANDS)} brands; ${count(SEARCH_OPPORTUNITIES)} opportunities of ${count(SEARCH_OUTLETS)} outlets, 50,000 claimable (available, a slot left, no deadline or a later one), 10,000 available but past their deadline, 40,000 full, published, claimed or in progress; ` +
        'countries weighted like a real catalogue (US 30%, GB 15%, DE 10%, CA 6%, AU 5%, … Iceland 1%; 2% none), English for 69%, 1-3 topics each (business, technology, finance, marketing the most common), DA 10-95 per outlet, prices $50-$5,000 (whole cents; half under ~$1,300, higher at higher DA), TAT 1-30 days, dofollow 60% / nofollow 25% / sponsored 15%; ' +
        `~100,000 saved opportunities (the measured brand: ${SAVED_BY_BRAND_0}). Payments with a brief for 90% and a publication for each released one (25%): ${count(SMALL_PAYMENTS)} seeded in ${fmt(seedSmallS)} s (with the catalogue), then ${count(BIG_PAYMENTS - SMALL_PAYMENTS)} more in ${fmt(seedBigS)} s; the search was measured at ${count(BIG_PAYMENTS)} payments. After each seed: \`VACUUM (ANALYZE)\`, \`CHECKPOINT\`, then a wait until no autovacuum worker runs and the 1-minute load is under 1 (${quietSmall.seconds} s, load ${quietSmall.load1.toFixed(2)}; ${quietBig.seconds} s, load ${quietBig.load1.toFixed(2)}). Whole run: ${fmt((performance.now() - started) / 1000)} s.`,
    );

    // search
    lines.push('');
    lines.push('### Search: per group');
    lines.push('');
    lines.push(
      '| group | combinations | p50 ms (median / worst) | p99 ms (median / worst) | worst combination | target | met? |',
    );
    lines.push('|---|---:|---|---|---|---|---|');
    const groups = [...new Set(list.map((x) => x.group))];
    for (const g of groups) {
      const xs = list.filter((x) => x.group === g && x.result);
      const p50s = xs.map((x) => x.result!.latency.p50);
      const p99s = xs.map((x) => x.result!.latency.p99);
      const worst = xs.reduce((a, b) => (b.result!.latency.p99 > a.result!.latency.p99 ? b : a));
      const failed = xs.filter(
        (x) => x.result!.latency.p99 >= x.target || x.result!.non2xx + x.result!.errors > 0 || x.result!['2xx'] === 0,
      );
      for (const f of failed)
        misses.push(
          `search ${f.name}: p99 ${f.result!.latency.p99} ms (target < ${f.target} ms), non-2xx ${f.result!.non2xx + f.result!.errors}`,
        );
      const target = [...new Set(xs.map((x) => x.target))].map((t) => `p99 < ${t} ms`).join(' / ');
      lines.push(
        `| ${g} | ${xs.length} | ${percentile(p50s, 50)} / ${Math.max(...p50s)} | ${percentile(p99s, 50)} / ${Math.max(...p99s)} | ${worst.name} | ${target} | ${failed.length ? `**no** (${failed.length})` : 'yes'} |`,
      );
    }
    lines.push('');
    lines.push(
      `**Browse page** (\`GET /api/opportunities?sort=newest\`, the first page at the default limit, \`Accept-Encoding: br, gzip\`): ${count(browse.bytes)} bytes sent (${browse.encoding}; ${count(browseRaw)} bytes of JSON uncompressed); target < ${count(BROWSE_PAGE_BYTES)} bytes: ${browse.bytes < BROWSE_PAGE_BYTES ? 'met' : '**missed**'}.`,
    );
    if (browse.bytes >= BROWSE_PAGE_BYTES)
      misses.push(`browse page ${browse.bytes} bytes compressed (target < ${BROWSE_PAGE_BYTES})`);

    // admin lists
    lines.push('');
    lines.push(`### Admin lists at ${count(SMALL_PAYMENTS)} and ${count(BIG_PAYMENTS)} payments`);
    lines.push('');
    lines.push(
      `| list | page | p50 ms at ${count(SMALL_PAYMENTS)} | p99 ms at ${count(SMALL_PAYMENTS)} | p50 ms at ${count(BIG_PAYMENTS)} | p99 ms at ${count(BIG_PAYMENTS)} | req/s, ${count(SMALL_PAYMENTS)} → ${count(BIG_PAYMENTS)} | CPU ms per request, server / PostgreSQL, ${count(SMALL_PAYMENTS)} → ${count(BIG_PAYMENTS)} | 1-min load at the runs | growth of p99 | target | met? |`,
    );
    lines.push('|---|---:|---:|---:|---:|---:|---|---|---|---:|---|---|');
    for (const l of ADMIN_LISTS) {
      for (const page of [1, LATER_PAGE]) {
        const a = admin.find((r) => r.list === l && r.page === page && r.payments === SMALL_PAYMENTS)!;
        const b = admin.find((r) => r.list === l && r.page === page && r.payments === BIG_PAYMENTS)!;
        const ok =
          b.result.latency.p99 < ADMIN_P99_MS &&
          b.result.non2xx + b.result.errors === 0 &&
          a.result.latency.p99 < ADMIN_P99_MS;
        if (!ok)
          misses.push(
            `${l} page ${page}: p99 ${a.result.latency.p99} ms at ${count(SMALL_PAYMENTS)}, ${b.result.latency.p99} ms at ${count(BIG_PAYMENTS)} (target < ${ADMIN_P99_MS} ms)`,
          );
        lines.push(
          `| GET ${l} | ${page} (${b.items} items) | ${a.result.latency.p50} | ${a.result.latency.p99} | ${b.result.latency.p50} | ${b.result.latency.p99} | ${fmt(a.result.requests.average)} → ${fmt(b.result.requests.average)} | ${fmt(a.cpu.server, 2)} / ${fmt(a.cpu.database, 2)} → ${fmt(b.cpu.server, 2)} / ${fmt(b.cpu.database, 2)} | ${fmt(a.load1, 2)} → ${fmt(b.load1, 2)} | ×${fmt(b.result.latency.p99 / a.result.latency.p99, 2)} | p99 < ${ADMIN_P99_MS} ms | ${ok ? 'yes' : '**no**'} |`,
        );
      }
    }

    // plans
    const seq = explained.filter((e) => e.statements.some((s) => s.seqScans.length));
    for (const e of seq)
      misses.push(
        `plan of ${e.combo}: Seq Scan on ${[...new Set(e.statements.flatMap((s) => s.seqScans))].join(', ')}`,
      );
    lines.push('');
    lines.push('### Plans of the search');
    lines.push('');
    lines.push(
      "Each combination run once more outside the server by the server's own code (`searchOpportunities` with a Drizzle logger on the seeded database, without a catalogue version so that the count runs too; while the catalogue is unchanged the server keeps each count), " +
        `and each statement it ran put through \`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)\` with the same parameters (text searches with pg_trgm.word_similarity_threshold ${TYPO_SIMILARITY}, as search.ts sets). ` +
        `A sequential scan on ${NO_SEQ_SCAN_ON.join(', ')} is flagged **SEQ SCAN**. Page: the page's statement (limit + 1 rows); count: X-Total-Count's.`,
    );
    lines.push('');
    lines.push(
      `**Sequential scans on the big tables: ${seq.length ? `**${seq.length} combination(s)**` : 'none'}** in ${explained.length} combinations (${explained.reduce((n, e) => n + e.statements.length, 0)} statements).`,
    );
    lines.push('');
    lines.push(
      '| combination | page: top plan node | page ms | page buffers hit / read | count: top plan node | count ms | count buffers hit / read | scans | seq scan? |',
    );
    lines.push('|---|---|---:|---|---|---:|---|---|---|');
    for (const e of explained) {
      const page = e.statements.find((s) => s.kind === 'page');
      const cnt = e.statements.find((s) => s.kind === 'count');
      const scans = [...new Set(e.statements.flatMap((s) => s.scans))].join('; ');
      const seqs = [...new Set(e.statements.flatMap((s) => s.seqScans))];
      lines.push(
        `| ${e.combo} | ${page?.top ?? '—'} | ${fmt(page?.ms ?? NaN, 2)} | ${page ? `${page.sharedHit} / ${page.sharedRead}` : '—'} | ${cnt?.top ?? '—'} | ${fmt(cnt?.ms ?? NaN, 2)} | ${cnt ? `${cnt.sharedHit} / ${cnt.sharedRead}` : '—'} | ${scans} | ${seqs.length ? `**SEQ SCAN** on ${seqs.join(', ')}` : 'no'} |`,
      );
    }

    // every measured combination
    lines.push('');
    lines.push('### Search: every combination measured');
    lines.push('');
    lines.push(
      '| group | combination | items / X-Total-Count | req/s | p50 ms | p99 ms | non-2xx | CPU ms per request, server / PostgreSQL | 1-min load | target | met? |',
    );
    lines.push('|---|---|---|---:|---:|---:|---:|---|---:|---|---|');
    for (const x of list) {
      const r = x.result!;
      const ok = r.latency.p99 < x.target && r.non2xx + r.errors === 0 && r['2xx'] > 0;
      lines.push(
        `| ${x.group} | ${x.name} | ${x.probe!.items} / ${x.probe!.total ?? '—'} | ${fmt(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx + r.errors} | ${fmt(x.cpu?.server ?? NaN, 2)} / ${fmt(x.cpu?.database ?? NaN, 2)} | ${fmt(x.load1 ?? NaN, 2)} | p99 < ${x.target} ms | ${ok ? 'yes' : '**no**'} |`,
      );
    }
    lines.push('');
    lines.push(misses.length ? '### Targets missed in this run' : '### All targets met in this run');
    for (const m of misses) lines.push(`- ${m}`);

    writeSection(lines.join('\n'));
    console.log(lines.slice(0, 40).join('\n'));
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
