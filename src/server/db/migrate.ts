import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import type { DbHandle } from './client';
import { migrationsDir } from '../paths';

// any constant: all app instances take the same lock so only one migrates at a time
const MIGRATION_LOCK = 7_240_113;

/** `transactionPooler`: the connection goes through a pooler in transaction mode (DATABASE_TRANSACTION_POOLER). */
export async function runMigrations(handle: DbHandle, opts: { transactionPooler?: boolean } = {}): Promise<void> {
  if (handle.kind === 'pglite') {
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: migrationsDir });
    return;
  }
  // several instances may start together against one server: serialise on an advisory lock
  const client = await handle.pool!.connect();
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const migrate = () => migratePg(drizzle(client) as unknown as NodePgDatabase, { migrationsFolder: migrationsDir });
  if (opts.transactionPooler) {
    // behind a pooler in transaction mode a session's lock stays on whichever server connection
    // took it, for whoever gets that connection next: the lock is the transaction's instead. Drizzle
    // runs its reads and its own BEGIN inside this one (PostgreSQL only warns of the nested BEGIN)
    // and its COMMIT ends it, which releases the lock once the migrations are in
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await migrate();
    } finally {
      // nothing left open when drizzle committed; its failure already rolled back
      await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
    return;
  }
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
  void sql;
}
