import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
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

export async function openEmbedded(dataDir: string): Promise<DbHandle> {
  const dir = path.resolve(dataDir, 'db');
  mkdirSync(dir, { recursive: true });
  const pglite = await PGlite.create(dir);
  return openPglite(pglite);
}
