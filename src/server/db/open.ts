import type { Config } from '../config';
import { openPostgresWithReplica, type DbHandle } from './client';
import { runMigrations } from './migrate';

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, with its replica when
 * DATABASE_READ_URL is) and migrates it.
 */
export async function openConfiguredDb(config: Config): Promise<DbHandle> {
  const handle = config.DATABASE_URL
    ? openPostgresWithReplica(config.DATABASE_URL, config.DATABASE_READ_URL, config.DATABASE_POOL_SIZE, {
        transactionPooler: config.DATABASE_TRANSACTION_POOLER,
      })
    : await import('./pglite').then(({ openEmbedded }) => openEmbedded(config.DATA_DIR));
  await runMigrations(handle, { transactionPooler: config.DATABASE_TRANSACTION_POOLER });
  return handle;
}
