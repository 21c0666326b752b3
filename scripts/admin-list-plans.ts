/**
 * The admin lists' statements at scale (issue 61): seeds the bench's catalogue and payments
 * (scripts/lib/mix-seed.ts) into a PostgreSQL database up to `--payments N` (grown from what it
 * holds: run it at 20,000 then at 200,000 to see the growth), then runs each admin list's shape
 * through its service, catches the statement it sends, and runs that statement as the server's
 * pool keeps it (the generic plan of a prepared statement) under EXPLAIN (ANALYZE, BUFFERS): the
 * statements a request sends, the time (median of 5), the pages it touched, and with `--plans` each plan
 * (`--only TEXT`: the shapes whose URL has it).
 *
 *   npx tsx scripts/admin-list-plans.ts postgres://postgres@127.0.0.1:5432/db --payments 200000 [--plans] [--only q=]
 */
import pg from 'pg';
import { hashPassword } from '../src/server/lib/password';
import { runMigrations } from '../src/server/db/migrate';
import { openPostgres } from '../src/server/db/client';
import { adminPayments } from '../src/server/modules/payments/service';
import { adminPlacements, adminProjects } from '../src/server/modules/placements/lists';
import { listAll } from '../src/server/modules/opportunities/service';
import type { Page, JsonPageRow } from '../src/server/lib/paging';
import { catalogueStatements, MIX_BRAND_PASSWORD, paymentStatements } from './lib/mix-seed';

const url = process.argv[2];
if (!url || !/@(127\.0\.0\.1|localhost)[:/]/.test(url)) throw new Error('usage: admin-list-plans.ts postgres://…@127.0.0.1/db --payments N [--plans]');
const showPlans = process.argv.includes('--plans');
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const wanted = Number(process.argv[process.argv.indexOf('--payments') + 1] ?? 0) || 0;

const handle = openPostgres(url, 1);
await runMigrations(handle);
const client = new pg.Client({ connectionString: url });
await client.connect();
// as every connection of the server's pool (db/client.ts, decision 025)
await client.query('SET enable_memoize = off');
const count = async (table: string) => (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
const timed = async (label: string, sql: string) => {
  const t0 = performance.now();
  await client.query(sql);
  console.error(`seeded ${label} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
};
if ((await count('opportunities')) === 0) {
  for (const s of catalogueStatements(await hashPassword(MIX_BRAND_PASSWORD))) await timed(s.label, s.sql);
  // an admin (the lists' `mine`)
  await client.query(`INSERT INTO users (id, email, password, role, name, approved) VALUES (md5('plans-admin')::uuid, 'plans-admin@example.com', 'x', 'admin', 'Plans Admin', true) ON CONFLICT DO NOTHING`);
}
const have = await count('payments');
if (have < wanted) {
  // in steps of 50,000, as the bench grows its data
  for (let from = have + 1; from <= wanted; from += 50_000) {
    for (const s of paymentStatements(from, Math.min(wanted, from + 49_999))) await timed(s.label, s.sql);
  }
  // a tenth of the placements in progress assigned to the admin ("Mine")
  await client.query(`UPDATE placements SET assignee_id = md5('plans-admin')::uuid WHERE state = 'in_progress' AND abs(hashtext(id::text)) % 10 = 0 AND assignee_id IS NULL`);
  await client.query('VACUUM (ANALYZE)');
  await client.query('CHECKPOINT');
}
if (process.argv.includes('--seed-only')) {
  await client.end();
  await handle.close();
  process.exit(0);
}
const adminId = (await client.query<{ id: string }>(`SELECT md5('plans-admin')::uuid::text AS id`)).rows[0].id;
const opportunityId = (await client.query<{ id: string }>(`SELECT opportunity_id::text AS id FROM payments ORDER BY created_at DESC LIMIT 1`)).rows[0].id;

/** Every statement the pool's connection is sent while `work` runs (the pool has one connection). */
const caught: { text: string; values: unknown[] }[] = [];
const wrapped = new WeakSet<object>();
handle.pool!.on('acquire', (c) => {
  if (wrapped.has(c)) return;
  wrapped.add(c);
  const query = c.query.bind(c) as (...args: unknown[]) => unknown;
  (c as unknown as { query: unknown }).query = (...args: unknown[]) => {
    const [q, v] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    const text = typeof q === 'string' ? q : q.text;
    if (!/^SET enable_memoize/.test(text)) caught.push({ text, values: (typeof q === 'string' ? v : q.values) ?? [] });
    return query(...args);
  };
});

type List = (page: Page) => Promise<JsonPageRow[]>;
const db = handle.db;
const page = (cursor?: JsonPageRow): Page => ({ limit: 50, ...(cursor ? { cursor: { at: cursor.cursorAt, id: cursor.id } } : {}) });
const SHAPES: [string, List][] = [
  ['/api/admin/payments', (p) => adminPayments(db, {}, p)],
  ['/api/admin/payments?status=paid', (p) => adminPayments(db, { status: 'paid' }, p)],
  ['/api/admin/payments?status=refunded', (p) => adminPayments(db, { status: 'refunded' }, p)],
  ['/api/admin/payments?opportunityId=…', (p) => adminPayments(db, { opportunityId }, p)],
  ['/api/admin/payments?q=brand12', (p) => adminPayments(db, { q: 'brand12' }, p)],
  ['/api/admin/payments?q=nobody-at-all', (p) => adminPayments(db, { q: 'nobody-at-all' }, p)],
  // every brand's e-mail has it
  ['/api/admin/payments?q=mix-bench', (p) => adminPayments(db, { q: 'mix-bench' }, p)],
  ['/api/admin/projects', (p) => adminProjects(db, {}, p, adminId)],
  ['/api/admin/projects?tab=awaiting', (p) => adminProjects(db, { tab: 'awaiting' }, p, adminId)],
  ['/api/admin/projects?tab=review', (p) => adminProjects(db, { tab: 'review' }, p, adminId)],
  ['/api/admin/projects?tab=approved', (p) => adminProjects(db, { tab: 'approved' }, p, adminId)],
  ['/api/admin/projects?tab=published', (p) => adminProjects(db, { tab: 'published' }, p, adminId)],
  ['/api/admin/projects?tab=refunded', (p) => adminProjects(db, { tab: 'refunded' }, p, adminId)],
  ['/api/admin/projects?q=brand12', (p) => adminProjects(db, { q: 'brand12' }, p, adminId)],
  ['/api/admin/projects?q=nobody-at-all', (p) => adminProjects(db, { q: 'nobody-at-all' }, p, adminId)],
  ['/api/admin/projects?q=mix-bench', (p) => adminProjects(db, { q: 'mix-bench' }, p, adminId)],
  ['/api/admin/projects?mine=true', (p) => adminProjects(db, { mine: true }, p, adminId)],
  ['/api/admin/projects?sort=due', (p) => adminProjects(db, { sort: 'due' }, p, adminId)],
  ['/api/admin/projects?clock=late', (p) => adminProjects(db, { clock: 'late' }, p, adminId)],
  ['/api/admin/placements', (p) => adminPlacements(db, {}, p)],
  ['/api/admin/placements?health=issue', (p) => adminPlacements(db, { health: 'issue' }, p)],
  ['/api/admin/placements?q=brand12', (p) => adminPlacements(db, { q: 'brand12' }, p)],
  ['/api/admin/placements?q=nobody-at-all', (p) => adminPlacements(db, { q: 'nobody-at-all' }, p)],
  ['/api/admin/placements?q=mix-bench', (p) => adminPlacements(db, { q: 'mix-bench' }, p)],
  ['/api/admin/opportunities', (p) => listAll(db, {}, p)],
  ['/api/admin/opportunities?status=available', (p) => listAll(db, { status: 'available' }, p)],
  ['/api/admin/opportunities?q=tech%20times', (p) => listAll(db, { q: 'tech times' }, p)],
];

interface Explained {
  'Execution Time': number;
  Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
}
const literal = (v: unknown) => (v === null || v === undefined ? 'NULL' : `'${(Array.isArray(v) ? `{${v.join(',')}}` : String(v)).replace(/'/g, "''")}'`);
/** The statement as the pool keeps it: its generic plan, run with the values (as literals to EXECUTE). */
async function explain(text: string, values: unknown[], format: 'json' | 'text'): Promise<unknown[]> {
  await client.query('BEGIN');
  try {
    await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
    await client.query(`PREPARE plans_check AS ${text}`);
    const { rows } = await client.query(
      `EXPLAIN (ANALYZE, BUFFERS${format === 'json' ? ', FORMAT JSON' : ''}) EXECUTE plans_check (${values.map(literal).join(', ')})`,
    );
    await client.query('DEALLOCATE plans_check');
    return rows;
  } finally {
    // (PREPARE is not undone by a rollback: DEALLOCATE above)
    await client.query('ROLLBACK');
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`payments: ${(await count('payments')).toLocaleString('en-US')}, placements published: ${(await count('publications')).toLocaleString('en-US')}`);
console.log('');
console.log('| list | page | statements | rows | ms (median of 5) | buffers (hit + read) |');
console.log('|---|---|---:|---:|---:|---:|');
for (const [name, list] of SHAPES) {
  if (only && !name.includes(only)) continue;
  let cursor: JsonPageRow | undefined;
  for (const which of ['first', 'next'] as const) {
    if (which === 'next' && !cursor) break;
    caught.length = 0;
    const rows = await list(page(which === 'next' ? cursor : undefined));
    const statements = [...caught];
    const main = statements.find((s) => /json_build_object/.test(s.text))!;
    if (which === 'first') cursor = rows.length > 50 ? rows[49] : undefined;
    const times: number[] = [];
    let last: Explained | undefined;
    for (let i = 0; i < 5; i++) {
      const rowsOut = await explain(main.text, main.values, 'json');
      last = (rowsOut[0] as { 'QUERY PLAN': Explained[] })['QUERY PLAN'][0];
      times.push(last['Execution Time']);
    }
    const buffers = last!.Plan['Shared Hit Blocks'] + last!.Plan['Shared Read Blocks'];
    console.log(`| ${name} | ${which} | ${statements.length} | ${Math.min(rows.length, 50)} | ${median(times).toFixed(2)} | ${buffers} |`);
    if (showPlans && which === 'first') {
      const text = (await explain(main.text, main.values, 'text')).map((r) => (r as Record<string, string>)['QUERY PLAN']).join('\n');
      console.log(`\n<details><summary>${name}</summary>\n\n\`\`\`\n${text}\n\`\`\`\n</details>\n`);
    }
  }
}
await client.end();
await handle.close();
