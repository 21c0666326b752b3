import type { PGlite } from '@electric-sql/pglite';
import { fillPlaceholders, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Db } from './client';

const dialect = new PgDialect();

/** Timestamps stay the database's text, as Drizzle's own sessions leave them (select them shaped, `isoUtc`). */
const TEXT_TYPES = new Set<number>([pg.types.builtins.TIMESTAMP, pg.types.builtins.TIMESTAMPTZ, pg.types.builtins.DATE, pg.types.builtins.INTERVAL]);
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};
const pgliteParsers = Object.fromEntries([...TEXT_TYPES].map((oid) => [oid, (v: string) => v]));

const isPool = (client: Db['$client']): client is pg.Pool => client instanceof pg.Pool;

/** Pools and their connections whose statements go unnamed (client.ts, PoolOptions.transactionPooler). */
const unnamed = new WeakSet<object>();

/** Sends this pool's or connection's prepared statements unnamed: for a pooler in transaction mode. */
export function withoutNamedStatements(poolOrConnection: pg.Pool | pg.Client): void {
  unnamed.add(poolOrConnection);
}

/** Whether statements sent through this pool or connection go unnamed (withoutNamedStatements). */
export const sendsUnnamed = (poolOrConnection: object): boolean => unnamed.has(poolOrConnection);

/**
 * A statement on a hot path (every request's sign-in session, the lists), compiled once and, on
 * PostgreSQL, prepared once per pooled connection as a named statement: parsed and planned the
 * first time it runs on a connection, only bound and executed afterwards, which halves the
 * database's work for short queries. (PGlite has one connection and no named statements: there it
 * is an ordinary query, as it is behind a pooler in transaction mode: withoutNamedStatements.) It
 * goes through each driver's own public API (`db.$client`).
 *
 * Values are bound by name (`sql.placeholder('brandId')`). Rows come back as the driver gives
 * them: alias columns to the keys the caller reads.
 */
export function preparedStatement<Row, Values extends Record<string, unknown> = Record<string, never>>(name: string, query: SQL) {
  const compiled = dialect.sqlToQuery(query);
  const run = async (db: Db, values: Values): Promise<Row[]> => {
    const params = fillPlaceholders(compiled.params, values);
    const client = db.$client;
    if (isPool(client)) {
      const result = await client.query({ ...(unnamed.has(client) ? {} : { name }), text: compiled.sql, values: params, types: pgTypes });
      return result.rows as Row[];
    }
    const result = await (client as PGlite).query<Row>(compiled.sql, params, { parsers: pgliteParsers });
    return result.rows;
  };
  // the text the database prepares, with its $n, and the values in the order they are bound (to
  // plan it in tests)
  return Object.assign(run, { text: compiled.sql, paramsOf: (values: Values) => fillPlaceholders(compiled.params, values) });
}

/**
 * Byline's now in a statement (issue 59): clock_now() (drizzle/0051) read once for the whole
 * statement. The function reads the test clock's row, so PostgreSQL cannot inline it: called for
 * each row it costs a sub-plan a row (6 µs, a list's whole page over again); as an uncorrelated
 * sub-select it is an InitPlan, run once.
 */
export const clockNowSql = sql<Date>`(SELECT clock_now())`;

/**
 * A timestamptz as `Date.prototype.toISOString()` writes it (UTC, milliseconds truncated as a JS
 * Date holds them), in SQL: JSON built by the database then matches JSON built by Node byte for byte.
 */
export const isoUtc = (column: AnyColumn | SQL) =>
  sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Prepared statements for a query whose text depends on a few options (a tab, a filter, whether a
 * cursor is given): one named statement per shape, compiled on first use. `shapeOf` names the shape
 * (short: PostgreSQL keeps 63 bytes of a statement name) and `build` writes its SQL, with every
 * value a placeholder, so the planner can still pick each shape's own index.
 */
export function preparedVariants<Options, Row, Values extends Record<string, unknown>>(
  name: string,
  shapeOf: (options: Options) => string,
  build: (options: Options) => SQL,
) {
  const statements = new Map<string, ReturnType<typeof preparedStatement<Row, Values>>>();
  const statementOf = (options: Options) => {
    const shape = shapeOf(options);
    let statement = statements.get(shape);
    if (!statement) {
      statement = preparedStatement<Row, Values>(`${name}.${shape}`, build(options));
      statements.set(shape, statement);
    }
    return statement;
  };
  // statementOf: one shape's statement, to plan it in tests
  return Object.assign((db: Db, options: Options, values: Values): Promise<Row[]> => statementOf(options)(db, values), { statementOf });
}
