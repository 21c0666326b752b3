import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgres } from '../../src/server/db/client';
import { createPglite, openPglite } from '../../src/server/db/pglite';
import { runMigrations } from '../../src/server/db/migrate';

export const PGLITE_DUMP = path.resolve('.tmp/pglite-migrated.tar.gz');
/** Per run, so two runs on one server never drop each other's databases. */
export const pgTemplateName = () => `byline_test_${process.env.BYLINE_TEST_RUN}_tpl`;

/** Migrates once: a PGlite dump every test file loads, and a Postgres template database. */
export default async function setup() {
  // projects that extend the root config each call this: do the work once per process
  if (process.env.BYLINE_TEST_SETUP_DONE) return;
  process.env.BYLINE_TEST_SETUP_DONE = '1';
  // the statuses check reads what the API suite just recorded (tests/support/route-statuses.ts)
  if (process.env.ROUTE_STATUSES) return;
  rmSync(path.resolve('.tmp/route-statuses'), { recursive: true, force: true });
  mkdirSync(path.dirname(PGLITE_DUMP), { recursive: true });
  const pglite = await createPglite();
  await runMigrations(openPglite(pglite));
  const dump = await pglite.dumpDataDir('gzip');
  writeFileSync(PGLITE_DUMP, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();

  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    // workers are forked from this process and inherit the run id
    const run = randomBytes(4).toString('hex');
    process.env.BYLINE_TEST_RUN = run;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${pgTemplateName()}`);
    await admin.end();
    const handle = openPostgres(withDatabase(url, pgTemplateName()), 1);
    await runMigrations(handle);
    await handle.close();
    return async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const mine = await c.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`byline\\_test\\_${run}\\_%`]);
      for (const { datname } of mine.rows) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      await c.end();
    };
  }
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
