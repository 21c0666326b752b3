import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openPglite, openPostgres } from '../../src/server/db/client';
import { runMigrations } from '../../src/server/db/migrate';

export const PGLITE_DUMP = path.resolve('.tmp/pglite-migrated.tar.gz');
export const PG_TEMPLATE = 'byline_test_template';

/** Migrates once: a PGlite dump every test file loads, and a Postgres template database. */
export default async function setup() {
  mkdirSync(path.dirname(PGLITE_DUMP), { recursive: true });
  const pglite = await PGlite.create();
  await runMigrations(openPglite(pglite));
  const dump = await pglite.dumpDataDir('gzip');
  writeFileSync(PGLITE_DUMP, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();

  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const old = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE 'byline_test_%'`);
    for (const { datname } of old.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${PG_TEMPLATE}`);
    await admin.end();
    const handle = openPostgres(withDatabase(url, PG_TEMPLATE), 1);
    await runMigrations(handle);
    await handle.close();
  }
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
