import type { Config } from '../config';
import { openPostgres, type DbHandle } from './client';
import { runMigrations } from './migrate';

/** Opens the configured database (PostgreSQL when DATABASE_URL is set) and migrates it. */
export async function openConfiguredDb(config: Config): Promise<DbHandle> {
  const handle = config.DATABASE_URL
    ? openPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE)
    : await import('./pglite').then(({ openEmbedded }) => openEmbedded(config.DATA_DIR));
  await runMigrations(handle);
  return handle;
}
