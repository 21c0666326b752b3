/**
 * `npm run bench:invoices`: issue 21's judged numbers, on the PostgreSQL server (2-core machine):
 *
 * - an invoice PDF, GET /api/admin/payments/{id}/invoice, p99 < 150 ms at 10 connections. Measured
 *   twice: first downloads (every request a different invoice, each rendered from its stored data:
 *   the target is judged here) and repeat downloads (300 of them ten times over, served from the
 *   cache of rendered documents);
 * - the CSV export of 1,000,000 payments, GET /api/admin/payments/export.csv: ≥ 50,000 rows/s, the
 *   first byte at once, and the server's resident memory growing by less than 50 MB while it streams.
 *
 * Seeds its own database `byline_bench_invoices` on BENCH_DATABASE_URL's server (default
 * postgres://postgres@127.0.0.1:5432/postgres, loopback only; dropped at the end unless
 * BENCH_KEEP_DB=1): 100 brands with billing details, 20 opportunities, 1,000,000 payments, and the
 * invoices of INVOICES of them issued by the server's own `issueInvoice`. Then starts the built
 * server as `npm start` does. Writes its section of bench/results.md.
 *
 * BENCH_INVOICES (3000), BENCH_EXPORT_ROWS (1000000), BENCH_POOL_SIZE (10).
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import PipelinedRequestsQueue from 'autocannon/lib/pipelinedRequestsQueue.js';
import { desc, sql } from 'drizzle-orm';
import { payments } from '../src/server/db/schema';
import { openPostgres } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';
import { issueInvoice, TEST_INVOICING } from '../src/server/modules/invoices/service';
import { login, mb, procMemory, sleep, withDatabase } from './lib/bench-util';
import { adminQuery, assertLoopback, startBuiltServer, stopServer, writeResultsSection, type BenchServer } from './lib/bench-server';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'byline_bench_invoices';
const INVOICES = Number(process.env.BENCH_INVOICES ?? 3000);
const EXPORT_ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 10);
const CONNECTIONS = 10;

// the issue's targets
const PDF_P99_MS = 150;
const EXPORT_ROWS_PER_S = 50_000;
const EXPORT_RSS_GROWTH = 50 * 1024 * 1024;

const ADMIN_EMAIL = 'admin@invoice-bench.example.com';
const ADMIN_PASSWORD = 'invoice-bench-admin-password';

// the load generator counts bodies without keeping them (see scripts/bench.ts)
PipelinedRequestsQueue.prototype.addBody = function addBody() {};
assertLoopback(BASE_URL);

const log = (line: string) => console.log(`[bench:invoices ${new Date().toISOString().slice(11, 19)}] ${line}`);

async function seed(url: string): Promise<string[]> {
  const handle = openPostgres(url, 4);
  try {
    await runMigrations(handle);
    const db = handle.db;
    const t0 = performance.now();
    await db.execute(sql`
      INSERT INTO users (email, password, role, name, brand_name, website, approved)
      SELECT 'brand-' || g || '@invoice-bench.example.com', 'not-a-hash', 'brand', 'Person ' || g, 'Brand ' || g || ', "Ltd"', 'https://brand' || g || '.example.com', true
      FROM generate_series(1, 100) g`);
    await db.execute(sql`
      INSERT INTO billing_details (brand_id, legal_name, address_line1, postal_code, city, country, tax_id)
      SELECT id, brand_name || ' GmbH', 'Hauptstraße ' || row_number() OVER (), '10115', 'Berlin', 'DE', 'DE123456789' FROM users WHERE role = 'brand'`);
    await db.execute(sql`
      INSERT INTO opportunities (title, outlet_name, description, type, price_usd, max_slots)
      SELECT 'Feature ' || g || ': how brands grow', 'Outlet ' || g, 'A feature', ARRAY['editorial_feature'], 1250.50, 1000000
      FROM generate_series(1, 20) g`);
    await db.execute(sql`
      WITH b AS (SELECT array_agg(id ORDER BY email) AS ids FROM users WHERE role = 'brand'),
           o AS (SELECT array_agg(id ORDER BY title) AS ids FROM opportunities)
      INSERT INTO payments (brand_id, opportunity_id, stripe_payment_id, provider_session_id, amount, status, holds_slot, paid_at, created_at, released_at)
      SELECT b.ids[1 + g % 100], o.ids[1 + g % 20], 'pi_bench_' || g, 'cs_bench_' || g, 1250.50,
        CASE WHEN g % 3 = 0 THEN 'released' ELSE 'paid' END, g % 3 <> 0,
        timestamptz '2025-01-01T00:00:00Z' + g * interval '20 seconds', timestamptz '2025-01-01T00:00:00Z' + g * interval '20 seconds',
        CASE WHEN g % 3 = 0 THEN timestamptz '2025-06-01T00:00:00Z' + g * interval '20 seconds' END
      FROM b, o, generate_series(1, ${EXPORT_ROWS}) g`);
    log(`seeded ${EXPORT_ROWS.toLocaleString('en-US')} payments in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const latest = await db.select({ id: payments.id }).from(payments).orderBy(desc(payments.createdAt)).limit(INVOICES);
    const ids = latest.map((r) => r.id);
    const t1 = performance.now();
    for (const id of ids) await db.transaction((tx) => issueInvoice(tx, id, TEST_INVOICING, new Date()));
    log(`issued ${ids.length} invoices in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    await db.execute(sql`VACUUM (ANALYZE)`);
    return ids;
  } finally {
    await handle.close();
  }
}

/** Every request a different invoice from `ids`, in order, `ids.length` requests in all. */
async function downloads(origin: string, cookie: string, ids: string[], label: string): Promise<Result> {
  let next = 0;
  const result = await autocannon({
    url: origin,
    connections: CONNECTIONS,
    amount: ids.length,
    headers: { cookie },
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/admin/payments/${ids[next++ % ids.length]}/invoice` }) }],
  });
  if (result.non2xx || result.errors) throw new Error(`${label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  log(`${label}: ${result.requests.total} requests, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.requests.average}/s`);
  return result;
}

interface ExportRun {
  rows: number;
  bytes: number;
  firstByteMs: number;
  seconds: number;
  rssBefore: number;
  rssPeak: number;
}

/** Downloads the whole export, counting its lines, while sampling the server's resident memory. */
async function exportRun(server: BenchServer, cookie: string): Promise<ExportRun> {
  const pid = server.child.pid!;
  const rssBefore = procMemory(pid)?.rss ?? 0;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, procMemory(pid)?.rss ?? 0);
  }, 25);
  const started = performance.now();
  try {
    return await new Promise<ExportRun>((resolve, reject) => {
      const req = http.get(`${server.origin}/api/admin/payments/export.csv`, { headers: { cookie } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`export: ${res.statusCode}`));
        let firstByteMs = -1;
        let bytes = 0;
        let lines = 0;
        res.on('data', (chunk: Buffer) => {
          if (firstByteMs < 0) firstByteMs = performance.now() - started;
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
        });
        res.on('end', () =>
          resolve({ rows: lines - 1, bytes, firstByteMs, seconds: (performance.now() - started) / 1000, rssBefore, rssPeak: Math.max(rssPeak, procMemory(pid)?.rss ?? 0) }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  } finally {
    clearInterval(sampler);
  }
}

async function main() {
  const loadAtStart = os.loadavg();
  log(`load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}, ${os.cpus().length} cores`);
  const url = withDatabase(BASE_URL, DB_NAME);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-bench-invoices-'));
  let server: BenchServer | undefined;
  let ok = true;
  try {
    await adminQuery(BASE_URL, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await adminQuery(BASE_URL, `CREATE DATABASE ${DB_NAME}`);
    const ids = await seed(url);
    server = await startBuiltServer({ DATABASE_URL: url, DATABASE_POOL_SIZE: String(POOL_SIZE), DATA_DIR: dataDir, ADMIN_EMAIL, ADMIN_PASSWORD });
    const cookie = await login(server.origin, ADMIN_EMAIL, ADMIN_PASSWORD);
    // warm the code paths (not the invoices measured)
    await downloads(server.origin, cookie, ids.slice(-20), 'warm-up');
    const first = await downloads(server.origin, cookie, ids.slice(0, -20), 'first downloads');
    // the 300 invoices downloaded last, ten times over: within the server's cache of rendered documents
    const recent = ids.slice(-320, -20);
    const repeat = await downloads(server.origin, cookie, Array.from({ length: 10 }, () => recent).flat(), 'repeat downloads');
    await sleep(1000);
    const csv = await exportRun(server, cookie);
    const rate = csv.rows / csv.seconds;
    const growth = csv.rssPeak - csv.rssBefore;
    log(`export: ${csv.rows.toLocaleString('en-US')} rows, ${mb(csv.bytes)} MB in ${csv.seconds.toFixed(1)} s (${Math.round(rate).toLocaleString('en-US')} rows/s), first byte ${csv.firstByteMs.toFixed(0)} ms, RSS ${mb(csv.rssBefore)} → ${mb(csv.rssPeak)} MB`);
    const pdfOk = first.latency.p99 < PDF_P99_MS;
    const rowsOk = csv.rows === EXPORT_ROWS && rate >= EXPORT_ROWS_PER_S;
    const memOk = growth < EXPORT_RSS_GROWTH;
    ok = pdfOk && rowsOk && memOk;
    const mark = (b: boolean) => (b ? 'met' : '**missed**');
    writeResultsSection(
      'bench-invoices',
      `## Invoices and the CSV export (\`npm run bench:invoices\`, ${new Date().toISOString().slice(0, 10)})

PostgreSQL server, the built server (\`npm start\`'s flags), pool ${POOL_SIZE}, ${CONNECTIONS} connections; load average at start ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} cores.

| measure | result | target | |
|---|---|---|---|
| invoice PDF, first downloads (${first.requests.total} different invoices, each rendered) | p50 ${first.latency.p50} ms, p99 ${first.latency.p99} ms, ${first.requests.average}/s | p99 < ${PDF_P99_MS} ms | ${mark(pdfOk)} |
| invoice PDF, repeat downloads (300 invoices ten times: the rendered documents cached) | p50 ${repeat.latency.p50} ms, p99 ${repeat.latency.p99} ms, ${repeat.requests.average}/s | | |
| CSV export of ${csv.rows.toLocaleString('en-US')} payments (${mb(csv.bytes)} MB) | ${Math.round(rate).toLocaleString('en-US')} rows/s, ${csv.seconds.toFixed(1)} s, first byte after ${csv.firstByteMs.toFixed(0)} ms | ≥ ${EXPORT_ROWS_PER_S.toLocaleString('en-US')} rows/s | ${mark(rowsOk)} |
| server RSS while exporting | ${mb(csv.rssBefore)} → ${mb(csv.rssPeak)} MB (+${mb(growth)} MB) | growth < 50 MB | ${mark(memOk)} |`,
    );
  } finally {
    await stopServer(server?.child);
    rmSync(dataDir, { recursive: true, force: true });
    if (process.env.BENCH_KEEP_DB !== '1') await adminQuery(BASE_URL, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`).catch(() => {});
  }
  process.exit(ok ? 0 : 1);
}

await main();
