import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { openPostgres, type DbHandle } from '../../src/server/db/client';
import { createPglite, openPglite } from '../../src/server/db/pglite';
import { PGLITE_DUMP, pgTemplateName, withDatabase } from './global-setup';

export const dbKind = (process.env.TEST_DB_KIND ?? 'pglite') as 'pglite' | 'postgres';

/** A fresh, migrated database for one test file: PGlite from the dump, or a Postgres copy of the template. */
export async function createTestDb(): Promise<DbHandle> {
  if (dbKind === 'pglite') {
    const pglite = await createPglite({ loadDataDir: new Blob([readFileSync(PGLITE_DUMP)]) });
    return openPglite(pglite);
  }
  const url = process.env.TEST_DATABASE_URL!;
  const name = `byline_test_${process.env.BYLINE_TEST_RUN}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${pgTemplateName()}`);
  await admin.end();
  const handle = openPostgres(withDatabase(url, name), 20);
  return {
    ...handle,
    async close() {
      await handle.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
