import pg from 'pg';
import type { Db } from './client';
import { sendsUnnamed, withoutNamedStatements } from './statement';

/**
 * A transaction (the `tx` of `db.transaction`) as a `Db` whose `$client` is the transaction's own
 * connection, so that prepared statements (statement.ts, which run on `$client`) run inside it.
 * On a `Db`, `$client` is the pool, whose statement would run on another connection, outside the
 * transaction and its `SET LOCAL`s, or the PGlite instance, which would wait for the transaction to
 * end: a deadlock. A transaction has no `$client` of its own; its session holds the connection.
 */
export function onConnectionOf(tx: Db): Db {
  const connection = (tx as unknown as { session: { client: pg.PoolClient | Db['$client'] } }).session.client;
  // statement.ts sends a named statement to a pg.Pool: the checked-out connection takes it the same way
  const $client =
    connection instanceof pg.Client
      ? (Object.assign(Object.create(pg.Pool.prototype) as pg.Pool, { query: connection.query.bind(connection) }) as pg.Pool)
      : // a PGlite transaction answers `query(text, params, options)` as PGlite does
        connection;
  // behind a pooler in transaction mode the connection's statements go unnamed, and so do the transaction's
  if (connection instanceof pg.Client && sendsUnnamed(connection)) withoutNamedStatements($client as pg.Pool);
  return Object.assign(Object.create(tx) as Db, { $client });
}
