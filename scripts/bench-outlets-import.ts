/**
 * `npm run bench -- outlets`: importing an Ahrefs export of 5,000 rows (issue 48: "5,000 rows in
 * under 30 s"), through the built server's real upload on PostgreSQL: the dry run, the import, and
 * the same file again (no change). Seeds its own database `byline_bench_outlets` (5,000 outlets, one
 * opportunity each, plus 15,000 metrics already there for a third of them). Writes its lines to
 * bench/results.md between <!-- outlets-import:start --> and <!-- outlets-import:end -->.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  adminQuery,
  assertLoopback,
  startBuiltServer,
  stopServer,
  writeResultsSection,
  type BenchServer,
} from './lib/bench-server';
import { login, withDatabase } from './lib/bench-util';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'byline_bench_outlets';
const ROWS = 5_000;
const LIMIT_MS = 30_000;
const ADMIN_EMAIL = 'admin@outlets-bench.example.com';
const ADMIN_PASSWORD = 'outlets-bench-admin-password';

const log = (line: string) => console.log(`[bench outlets ${new Date().toISOString().slice(11, 19)}] ${line}`);

export async function benchOutletsImport() {
  assertLoopback(BASE_URL);
  const url = withDatabase(BASE_URL, DB_NAME);
  await adminQuery(BASE_URL, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await adminQuery(BASE_URL, `CREATE DATABASE ${DB_NAME}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-bench-outlets-'));
  let server: BenchServer | undefined;
  try {
    server = await startBuiltServer({ DATABASE_URL: url, DATA_DIR: dataDir, ADMIN_EMAIL, ADMIN_PASSWORD });
    const { origin } = server;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    log(`seeding ${ROWS} outlets`);
    await c.query(`
      INSERT INTO opportunities (outlet_name, outlet_url, title, description, type, price_usd)
      SELECT 'Outlet ' || g, 'https://outlet' || g || '.example.com', 'Story ' || g, 'A placement.', ARRAY['listicle'], 100
      FROM generate_series(1, ${ROWS}) g`);
    await c.query(`
      INSERT INTO outlet_metrics (outlet_id, metric, value, source, as_of)
      SELECT x.id, m, 10, 'ahrefs', now() - interval '30 days'
      FROM outlets x CROSS JOIN unnest(ARRAY['dr', 'referringDomains', 'organicTraffic']) m
      WHERE right(x.host, 13) = '.example.com' AND substring(x.host from 'outlet(\\d+)')::int % 3 = 0`);
    await c.query('ANALYZE');
    await c.end();

    const csv = ['Target,Mode,Domain Rating,Referring domains,Organic traffic']
      .concat(
        Array.from(
          { length: ROWS },
          (_, i) =>
            `https://outlet${i + 1}.example.com/,subdomains,${(i * 7) % 100},${i * 3},"${(i * 1234).toLocaleString('en-US')}"`,
        ),
      )
      .join('\n');
    const admin = await login(origin, ADMIN_EMAIL, ADMIN_PASSWORD);
    const upload = async (dryRun: boolean) => {
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'ahrefs.csv');
      const started = performance.now();
      const res = await fetch(`${origin}/api/admin/outlets/metrics/import?source=ahrefs${dryRun ? '&dryRun=1' : ''}`, {
        method: 'POST',
        headers: { cookie: admin, origin },
        body: form,
      });
      const ms = performance.now() - started;
      const body = (await res.json()) as { changes?: unknown[]; errors?: unknown[] };
      if (res.status !== 200) throw new Error(`import: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      return { ms, changes: body.changes!.length };
    };
    const dry = await upload(true);
    const applied = await upload(false);
    const again = await upload(false);
    const lines = [
      `| step | time | changes |`,
      `|---|---:|---:|`,
      `| dry run, ${ROWS} rows | ${(dry.ms / 1000).toFixed(2)} s | ${dry.changes} |`,
      `| import, ${ROWS} rows | ${(applied.ms / 1000).toFixed(2)} s | ${applied.changes} |`,
      `| the same file again | ${(again.ms / 1000).toFixed(2)} s | ${again.changes} |`,
    ];
    const ok = applied.ms < LIMIT_MS && dry.ms < LIMIT_MS && again.changes === 0 && applied.changes === ROWS * 3;
    const verdict = ok ? `met: under ${LIMIT_MS / 1000} s, the same file again changes nothing` : 'MISSED';
    writeResultsSection('outlets-import', `### Outlet metrics import (issue 48): ${verdict}\n\n${lines.join('\n')}`);
    lines.forEach((l) => log(l));
    log(verdict);
    if (!ok) process.exitCode = 1;
  } finally {
    await stopServer(server?.child);
    rmSync(dataDir, { recursive: true, force: true });
    if (!process.env.BENCH_KEEP_DB) await adminQuery(BASE_URL, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  }
}
