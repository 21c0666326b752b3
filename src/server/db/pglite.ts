import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { Db, DbHandle } from './client';
import * as schema from './schema';

/**
 * The embedded database (PGlite). Kept out of client.ts so that a server on DATABASE_URL never
 * loads it (open.ts imports this module only in embedded mode).
 */
export function openPglite(pglite: PGlite): DbHandle {
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return { db, kind: 'pglite', pglite, close: () => pglite.close() };
}

/**
 * A PGlite with the extensions the migrations create (pg_trgm: the catalogue search's typo
 * tolerance; btree_gin: its filters' index, drizzle/0043). Every PGlite Byline opens comes from here: one without them cannot run the migrations.
 */
export async function createPglite(options: Omit<PGliteOptions, 'extensions'> & { dataDir?: string } = {}): Promise<PGlite> {
  const pglite = await PGlite.create({ ...options, extensions: { pg_trgm, btree_gin } });
  // the same planner settings as every PostgreSQL connection (client.ts NO_MEMOIZE, decision 025)
  await pglite.exec('SET enable_memoize = off');
  return pglite;
}

export async function openEmbedded(dataDir: string): Promise<DbHandle> {
  const dir = path.resolve(dataDir, 'db');
  mkdirSync(dir, { recursive: true });
  const pglite = await createPglite({ dataDir: dir });
  return openPglite(pglite);
}
