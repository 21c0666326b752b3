/**
 * Checkout-creation benchmark: 50 concurrent brands claiming opportunities over real HTTP against
 * the PostgreSQL server (built-in payment provider). Reports rate and latency percentiles and checks
 * that no opportunity was oversold. Not part of `npm test`.
 *
 *   npm run bench:checkout                       # postgres://postgres@127.0.0.1:5432/test
 *   BENCH_DATABASE_URL=postgres://... BENCH_BRANDS=50 BENCH_OPPORTUNITIES=40 npm run bench:checkout
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { configSchema } from '../src/server/config';
import { openPostgres } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';
import { opportunities, users } from '../src/server/db/schema';
import { createSession, SESSION_COOKIE } from '../src/server/modules/auth/session';

const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BRANDS = Number(process.env.BENCH_BRANDS ?? 50);
const OPPORTUNITIES = Number(process.env.BENCH_OPPORTUNITIES ?? 40);
// fewer slots than claims on the last opportunity, so the sold-out path is measured too
const SLOTS = Number(process.env.BENCH_SLOTS ?? 1000);

function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin(query: string) {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  try {
    await c.query(query);
  } finally {
    await c.end();
  }
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main() {
  const name = `byline_bench_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const handle = openPostgres(withDatabase(baseUrl, name), 20);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-bench-'));
  try {
    await runMigrations(handle);
    const { db } = handle;
    const config = configSchema.parse({ NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const { diskFileStore } = await import('../src/server/storage/file-store');
    const app = await buildApp({ db, config, files: diskFileStore(path.join(dataDir, 'uploads')) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    const brands = await db
      .insert(users)
      .values(
        Array.from({ length: BRANDS }, (_, i) => ({
          email: `bench-${i}-${randomBytes(3).toString('hex')}@example.com`,
          password: 'never-used',
          name: `Bench Brand ${i}`,
          brandName: `Bench ${i}`,
          approved: true,
        })),
      )
      .returning();
    const cookies = await Promise.all(brands.map(async (b) => `${SESSION_COOKIE}=${(await createSession(db, b.id, 1)).token}`));
    const opps = await db
      .insert(opportunities)
      .values(
        Array.from({ length: OPPORTUNITIES }, (_, i) => ({
          title: `Bench opportunity ${i}`,
          outletName: 'Bench Outlet',
          description: 'Benchmark',
          type: ['listicle'],
          priceUsd: '100.00',
          // the last one has fewer slots than brands: sold-out answers are part of the mix
          maxSlots: i === OPPORTUNITIES - 1 ? Math.max(1, Math.floor(BRANDS / 5)) : SLOTS,
        })),
      )
      .returning({ id: opportunities.id });

    const claim = async (cookie: string, opportunityId: string) => {
      const t0 = performance.now();
      const res = await fetch(`${origin}/api/payments/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, cookie },
        body: JSON.stringify({ opportunityId }),
      });
      await res.arrayBuffer();
      return { ms: performance.now() - t0, status: res.status };
    };

    // warm-up: connections, JIT
    await Promise.all(cookies.slice(0, 5).map((c) => claim(c, opps[0].id)));

    // baseline on the same machine and concurrency: an authenticated one-query read (the wallet)
    const base: number[] = [];
    const baseStart = performance.now();
    await Promise.all(
      cookies.map(async (cookie) => {
        for (let k = 1; k < OPPORTUNITIES; k++) {
          const t0 = performance.now();
          const res = await fetch(`${origin}/api/brand/wallet`, { headers: { cookie } });
          await res.arrayBuffer();
          base.push(performance.now() - t0);
        }
      }),
    );
    const baseSeconds = (performance.now() - baseStart) / 1000;
    base.sort((a, b) => a - b);

    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    const started = performance.now();
    // each brand walks the opportunities in its own order: 50 requests in flight at all times
    await Promise.all(
      cookies.map(async (cookie, b) => {
        for (let k = 1; k < OPPORTUNITIES; k++) {
          const opp = opps[(b + k) % OPPORTUNITIES];
          const { ms, status } = await claim(cookie, opp.id);
          latencies.push(ms);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);

    const oversold = await db.execute(sql`
      SELECT o.id FROM opportunities o
      LEFT JOIN (SELECT opportunity_id, count(*)::int AS n FROM checkouts WHERE status = 'open' GROUP BY 1) h ON h.opportunity_id = o.id
      WHERE o.filled_slots > o.max_slots OR o.filled_slots <> coalesce(h.n, 0)`);

    console.log(`checkout creation, ${BRANDS} concurrent brands, PostgreSQL (${os.cpus().length} cores)`);
    console.log(`  requests: ${latencies.length} in ${seconds.toFixed(2)} s → ${(latencies.length / seconds).toFixed(0)} req/s`);
    console.log(`  statuses: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}`);
    console.log(`  latency ms: p50 ${pct(latencies, 50).toFixed(1)}  p90 ${pct(latencies, 90).toFixed(1)}  p99 ${pct(latencies, 99).toFixed(1)}  max ${latencies.at(-1)!.toFixed(1)}`);
    console.log(
      `  baseline GET /api/brand/wallet: ${(base.length / baseSeconds).toFixed(0)} req/s, p50 ${pct(base, 50).toFixed(1)} ms, p99 ${pct(base, 99).toFixed(1)} ms`,
    );
    console.log(`  machine load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const rows = (oversold as unknown as { rows: unknown[] }).rows;
    console.log(`  oversold or miscounted opportunities: ${rows.length}`);
    await app.close();
    if (rows.length) process.exitCode = 1;
  } finally {
    await handle.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
