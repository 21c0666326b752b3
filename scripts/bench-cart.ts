/**
 * `npm run bench -- cart`: checking out a 50-line cart (issue 46), judged: p99 < 300 ms.
 *
 * The built server (dist/server/main.js, as `npm start` runs it) on PostgreSQL, in its own database
 * `byline_bench_cart` on BENCH_DATABASE_URL's server (loopback only; dropped afterwards), with the
 * built-in test provider (the provider's page is not ours to time). 10,000 opportunities are seeded
 * with INSERT … SELECT generate_series; BENCH_CART_BRANDS (240) brands sign up through the API (an
 * invite code approves them) and each gets a cart of 50 lines drawn from them. Then an open-loop
 * run: BENCH_CART_RATE (4) checkouts a second for BENCH_CART_SECONDS (50, after 5 of warm-up), each
 * brand's once, latency measured from each request's due time. Every checkout holds 50 slots in one
 * transaction, so the run also says the slots are all there afterwards. Writes its section of
 * bench/results.md between <!-- bench-cart:start --> and <!-- bench-cart:end -->; exits 1 on a miss.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { adminQuery, assertLoopback, startBuiltServer, stopServer, writeResultsSection, type BenchServer } from './lib/bench-server';
import { login, withDatabase } from './lib/bench-util';
import { openLoop, percentile, type Planned } from './lib/open-loop';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'byline_bench_cart';
const BRANDS = Number(process.env.BENCH_CART_BRANDS ?? 240);
const RATE = Number(process.env.BENCH_CART_RATE ?? 4);
const SECONDS = Number(process.env.BENCH_CART_SECONDS ?? 50);
const WARMUP = 5;
const LINES = 50;
const P99_MS = 300;
const ADMIN_EMAIL = 'admin@cart-bench.example.com';
const ADMIN_PASSWORD = 'cart-bench-admin-password';
const BRAND_PASSWORD = 'cart-bench-brand-password';

const log = (line: string) => console.log(`[bench cart ${new Date().toISOString().slice(11, 19)}] ${line}`);

async function api(origin: string, cookie: string, method: string, url: string, body?: unknown) {
  const res = await fetch(origin + url, {
    method,
    headers: { cookie, origin, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text(), cookie: res.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith('byline_session=')) };
}

export async function benchCart() {
  assertLoopback(BASE_URL);
  const url = withDatabase(BASE_URL, DB_NAME);
  await adminQuery(BASE_URL, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await adminQuery(BASE_URL, `CREATE DATABASE ${DB_NAME}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-bench-cart-'));
  let server: BenchServer | undefined;
  try {
    server = await startBuiltServer({
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LIMIT_CHECKOUTS: '100000/1m',
      LIMIT_SIGNUPS_PER_ADDRESS: '100000/1h',
      DATABASE_POOL_SIZE: process.env.BENCH_POOL_SIZE ?? '10',
    });
    const { origin } = server;
    const admin = await login(origin, ADMIN_EMAIL, ADMIN_PASSWORD);
    const code = `CART-BENCH-${Date.now()}`;
    if ((await api(origin, admin, 'POST', '/api/admin/invite-codes', { code })).status !== 201) throw new Error('invite code');

    const c = new pg.Client({ connectionString: url });
    await c.connect();
    log('seeding 10,000 opportunities');
    await c.query(`
      INSERT INTO opportunities (id, outlet_name, title, description, type, price_usd, max_slots, filled_slots, status, topics)
      SELECT gen_random_uuid(), 'Bench outlet ' || g, 'Bench story ' || g, 'A placement.', ARRAY['editorial_feature'],
             (100 + (g % 900))::numeric(12, 2), 1000, 0, 'available', ARRAY['technology']
      FROM generate_series(1, 10000) g`);
    const oppIds = (await c.query<{ id: string }>('SELECT id FROM opportunities')).rows.map((r) => r.id);

    log(`signing up ${BRANDS} brands, a cart of ${LINES} lines each`);
    const cookies: string[] = [];
    for (let n = 0; n < BRANDS; n++) {
      const email = `cart-bench-${n}@example.com`;
      const reg = await api(origin, '', 'POST', '/api/register', { email, password: BRAND_PASSWORD });
      if (reg.status !== 201 || !reg.cookie) throw new Error(`register: ${reg.status} ${reg.text}`);
      const done = await api(origin, reg.cookie, 'PATCH', '/api/user/profile', { name: `Bench ${n}`, brandName: `Bench ${n}`, website: 'https://bench.example.com', inviteCode: code });
      if (done.status !== 200) throw new Error(`profile: ${done.status} ${done.text}`);
      const { rows } = await c.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
      const picked = new Set<string>();
      while (picked.size < LINES) picked.add(oppIds[Math.floor(Math.random() * oppIds.length)]);
      await c.query(
        `INSERT INTO cart_lines (user_id, opportunity_id, price_usd) SELECT $1, o.id, o.price_usd FROM opportunities o WHERE o.id = ANY($2::uuid[])`,
        [rows[0].id, [...picked]],
      );
      cookies.push(reg.cookie);
    }
    await c.query('ANALYZE');

    const total = Math.round(RATE * (SECONDS + WARMUP));
    if (total > BRANDS) throw new Error(`BENCH_CART_BRANDS (${BRANDS}) must cover rate × seconds (${total})`);
    let next = 0;
    log(`open loop: ${RATE} checkouts/s for ${SECONDS} s (after ${WARMUP} s of warm-up)`);
    const result = await openLoop({
      origin,
      rate: RATE,
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      next: (): Planned => ({ endpoint: 'POST /api/cart/checkout', method: 'POST', path: '/api/cart/checkout', cookie: cookies[next++], body: '{}', id: 0 }),
    });
    const stats = result.byEndpoint.get('POST /api/cart/checkout')!;
    const p50 = percentile(stats.latencies, 50);
    const p99 = percentile(stats.latencies, 99);
    const held = Number((await c.query<{ n: string }>(`SELECT count(*) AS n FROM checkouts WHERE status = 'open'`)).rows[0].n);
    const filled = Number((await c.query<{ n: string }>('SELECT sum(filled_slots) AS n FROM opportunities')).rows[0].n);
    await c.end();
    const ok = p99 < P99_MS && stats.errors === 0 && held === total * LINES && filled === held;
    const lines = [
      `Checkout of a ${LINES}-line cart, open loop at ${RATE}/s for ${SECONDS} s on 10,000 opportunities (PostgreSQL, pool ${process.env.BENCH_POOL_SIZE ?? 10}):`,
      '',
      '| requests | errors | p50 | p99 | target | holds (= slots taken) |',
      '|---|---|---|---|---|---|',
      `| ${stats.latencies.length} | ${stats.errors} | ${p50.toFixed(0)} ms | ${p99.toFixed(0)} ms | p99 < ${P99_MS} ms | ${held} (${filled}) |`,
      '',
      ok ? 'Met.' : 'MISSED.',
    ];
    writeResultsSection('bench-cart', lines.join('\n'));
    console.log(lines.join('\n'));
    if (!ok) process.exitCode = 1;
  } finally {
    await stopServer(server?.child);
    rmSync(dataDir, { recursive: true, force: true });
    await adminQuery(BASE_URL, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`).catch(() => {});
  }
}
