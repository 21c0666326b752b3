import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import type { DbHandle } from './client';
import { migrationsDir } from '../paths';

// any constant: all app instances take the same lock so only one migrates at a time
const MIGRATION_LOCK = 7_240_113;

export async function runMigrations(handle: DbHandle): Promise<void> {
  if (handle.kind === 'pglite') {
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: migrationsDir });
    return;
  }
  // several instances may start together against one server: serialise on an advisory lock
  const client = await handle.pool!.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const { drizzle } = await import('drizzle-orm/node-postgres');
    await migratePg(drizzle(client) as unknown as NodePgDatabase, { migrationsFolder: migrationsDir });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
  void sql;
}
