/**
 * The catalogue search's statements at marketplace scale (issue 61): seeds the bench's catalogue
 * (scripts/lib/mix-seed.ts: 100,000 opportunities of 3,000 outlets, 50,000 claimable) into an empty
 * PostgreSQL database, gives four outlets in five an on-time rate, and prints each search shape's
 * statement under EXPLAIN (ANALYZE, BUFFERS): the time (median of 5) and the pages it touched.
 *
 *   npx tsx scripts/search-plans.ts postgres://postgres@127.0.0.1:5432/i61 [--plans]
 *
 * The database is seeded once (when it has no opportunities yet); later runs measure it as it is.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { hashPassword } from '../src/server/lib/password';
import { runMigrations } from '../src/server/db/migrate';
import { openPostgres, type Db } from '../src/server/db/client';
import * as schema from '../src/server/db/schema';
import { searchOpportunities } from '../src/server/modules/opportunities/search';
import { browseList, browseStatement } from '../src/server/modules/opportunities/claimable';
import { opportunitySearchQuerySchema } from '../src/shared/schemas/opportunity-search';
import { catalogueStatements, MIX_BRAND_PASSWORD } from './lib/mix-seed';

const url = process.argv[2];
if (!url || !/@(127\.0\.0\.1|localhost)[:/]/.test(url)) throw new Error('usage: search-plans.ts postgres://…@127.0.0.1/db');
const showPlans = process.argv.includes('--plans');
/** the plain list's page (the LIST_MAX setting's default) */
const LIST_MAX = 1000;

/** The shapes (the first: the plain list's first page), and each sort alone. */
const SHAPES = [
  '',
  'sort=on_time_desc',
  'daMin=80&linkType=sponsored',
  'type=listicle&topic=finance&daMin=50',
  'daMin=60&daMax=70&multiSlot=true',
  'topic=fintech&language=de',
  'tatMax=3&country=US',
  'sort=newest&limit=24',
  'sort=price_asc',
  'sort=price_desc',
  'sort=da_desc',
  'sort=deadline_asc',
];

const handle = openPostgres(url, 2);
await runMigrations(handle);
const client = new pg.Client({ connectionString: url });
await client.connect();
const { rows: have } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM opportunities');
if (have[0].n === 0) {
  for (const s of catalogueStatements(await hashPassword(MIX_BRAND_PASSWORD))) {
    const t0 = performance.now();
    await client.query(s.sql);
    console.log(`seeded ${s.label} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  // Byline's record of four outlets in five (the rest have none yet): as publications would leave it
  await client.query(`UPDATE outlets SET delivered = 1 + abs(hashtext(id::text)) % 40,
      on_time_rate = round((abs(hashtext(id::text || 'r')) % 1001)::numeric / 1000, 3)
    WHERE abs(hashtext(id::text)) % 5 <> 0`);
  await client.query('VACUUM (ANALYZE)');
  await client.query('CHECKPOINT');
}

/** The statements a search runs, caught as drizzle sends them. */
const caught: { sql: string; params: unknown[] }[] = [];
const catching = drizzle(handle.pool!, {
  schema,
  logger: { logQuery: (sql, params) => caught.push({ sql, params }) },
}) as unknown as Db;
const organisationId = (await client.query<{ id: string }>(`SELECT md5('search-brand-0')::uuid::text AS id`)).rows[0].id;

interface Explained {
  'Execution Time': number;
  'Planning Time': number;
  Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
}
async function explain(sql: string, params: unknown[]): Promise<Explained> {
  const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
  return (rows[0] as { 'QUERY PLAN': Explained[] })['QUERY PLAN'][0];
}
async function explainText(sql: string, params: unknown[]): Promise<string> {
  const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
  return rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log('| search | statement ms (median of 5) | buffers (shared hit + read) | answer bytes |');
console.log('|---|---:|---:|---:|');
for (const shape of SHAPES) {
  caught.length = 0;
  let bytes: number;
  if (shape === '') {
    bytes = (await browseList(catching, LIST_MAX)).body.length;
  } else {
    const q = opportunitySearchQuerySchema.parse(Object.fromEntries(new URLSearchParams(shape)));
    bytes = (await searchOpportunities(catching, organisationId, q)).body.length;
  }
  const statement = caught.at(-1);
  // the plain list is a prepared statement: it goes to the pool, not through the logger
  const sqlText = statement?.sql ?? browseStatement.text;
  const params = statement?.params ?? browseStatement.paramsOf({ since: new Date(new Date().setUTCHours(0, 0, 0, 0)).toISOString(), limit: LIST_MAX + 1 });
  const times: number[] = [];
  let last: Explained | undefined;
  for (let i = 0; i < 5; i++) {
    last = await explain(sqlText, params);
    times.push(last['Execution Time']);
  }
  const buffers = last!.Plan['Shared Hit Blocks'] + last!.Plan['Shared Read Blocks'];
  console.log(`| ${shape || '(no parameters)'} | ${median(times).toFixed(2)} | ${buffers} | ${bytes.toLocaleString('en-US')} |`);
  if (showPlans) console.log(`\n\`\`\`\n${await explainText(sqlText, params)}\n\`\`\`\n`);
}
await client.end();
await handle.close();
