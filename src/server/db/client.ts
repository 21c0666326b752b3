import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema';
import { withoutNamedStatements } from './statement';

type Schema = typeof schema;
/**
 * Either driver: the query builder is the same; code never needs to know which. `$client` is the
 * driver's own handle (a node-postgres Pool or a PGlite instance), for prepared statements
 * (statement.ts).
 */
export type Db = PgDatabase<PgQueryResultHKT, Schema> & { $client: pg.Pool | PGlite };

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The raw PGlite instance (embedded mode only), e.g. for pg-boss's pglite backend. */
  pglite?: PGlite;
  pool?: pg.Pool;
  /**
   * Reads that may trail the primary by the replication lag (DATABASE_READ_URL: a streaming
   * replica): the catalogue, the search, outlet pages and report contents. Absent: `db` serves them.
   */
  read?: { db: Db; pool: pg.Pool };
  close(): Promise<void>;
}

export interface PoolOptions {
  /**
   * The URL reaches PostgreSQL through a pooler in transaction mode (DATABASE_TRANSACTION_POOLER),
   * which gives each transaction whichever server connection is free and keeps no session state
   * for it. The hot statements (statement.ts) are then sent unnamed, parsed and planned each time,
   * since PgBouncer before 1.21 does not carry a named statement to another server connection; and
   * the pool does not `SET` anything on its connections: the pooler's `connect_query` does that on
   * its server connections (docs/deploy.md).
   */
  transactionPooler?: boolean;
}

/**
 * Memoize (PostgreSQL 14+) caches the inner side of a nested loop by join key. Every list page joins
 * 51 rows to their opportunity, brand, brief and publication, nearly always 51 different keys: the
 * cache never hits and costs more to set up each time than the lookups it would save (decision 025).
 */
const NO_MEMOIZE = 'SET enable_memoize = off';

/** A pool as the server opens them: its timeouts, keep-alive, and each connection's settings. */
function newPool(url: string, max: number, options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // a server that does not answer (network gone, host down) fails the request after 5 s instead
    // of leaving it waiting for a connection forever; refused connections fail at once anyway
    connectionTimeoutMillis: 5_000,
    // notices a silently dropped connection (failover, NAT timeout) instead of waiting on it
    keepAlive: true,
    // before the connection's first use (docs/decisions/025): the lists' joins run as plain index
    // lookups, without Memoize's per-statement hash table. Awaited, not queued behind the first
    // query: node-postgres deprecates sending a query while another is under way. A failure is left
    // to the query that follows, as a lost connection would be.
    onConnect: (client) =>
      options.transactionPooler
        ? Promise.resolve()
        : client.query(NO_MEMOIZE).then(
            () => {},
            () => {},
          ),
  });
  // an idle client that loses its server (restart, failover) must not crash the process;
  // the pool replaces it on the next checkout
  pool.on('error', () => {});
  // pg-pool removes that listener while a client is checked out (e.g. inside a transaction, between
  // two statements): a connection ended then by the server emits 'error' with nobody listening, an
  // uncaught exception that ends the whole process. The transaction fails on its next statement
  // instead, and the pool discards the dead client when it is released (it is no longer queryable).
  pool.on('connect', (client) => {
    client.on('error', () => {});
    if (options.transactionPooler) withoutNamedStatements(client);
  });
  if (options.transactionPooler) withoutNamedStatements(pool);
  return pool;
}

export function openPostgres(url: string, max = 10, options: PoolOptions = {}): DbHandle {
  const pool = newPool(url, max, options);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return { db, kind: 'postgres', pool, close: () => pool.end() };
}

/**
 * The primary (`url`) and, with `readUrl`, a pool of the same size to its streaming replica for
 * the reads that may lag (DbHandle.read). Both are closed together.
 */
export function openPostgresWithReplica(url: string, readUrl: string | undefined, max = 10, options: PoolOptions = {}): DbHandle {
  const primary = openPostgres(url, max, options);
  if (!readUrl) return primary;
  const read = openPostgres(readUrl, max, options);
  return {
    ...primary,
    read: { db: read.db, pool: read.pool! },
    close: async () => {
      await Promise.all([primary.close(), read.close()]);
    },
  };
}
