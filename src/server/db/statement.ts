import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { PgDialect, type PgPreparedQuery, type PreparedQueryConfig } from 'drizzle-orm/pg-core';
import type { Db } from './client';

const dialect = new PgDialect();

/**
 * A statement on a hot path (every request's session, the lists), compiled once and prepared once
 * per database connection: on PostgreSQL a named statement, parsed and planned on each pooled
 * connection the first time it runs there and only bound and executed afterwards, which halves the
 * database's work for short queries. (PGlite has no connection pool; there it is an ordinary query.)
 *
 * Values are bound by name (`sql.placeholder('brandId')`). Rows come back as the driver gives
 * them, without Drizzle's mapping: timestamps as the database's text, so select them shaped
 * (`isoUtc`), and alias columns to the keys the caller reads.
 */
export function preparedStatement<Row, Values extends Record<string, unknown> = Record<string, never>>(
  name: string,
  query: SQL,
) {
  const compiled = dialect.sqlToQuery(query);
  const prepared = new WeakMap<object, PgPreparedQuery<PreparedQueryConfig>>();
  return async (db: Db, values: Values): Promise<Row[]> => {
    const session = db._.session;
    let statement = prepared.get(session);
    if (!statement) {
      statement = session.prepareQuery(compiled, undefined, name, false);
      prepared.set(session, statement);
    }
    const result = (await statement.execute(values)) as { rows: Row[] };
    return result.rows;
  };
}

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
  const statements = new Map<string, (db: Db, values: Values) => Promise<Row[]>>();
  return (db: Db, options: Options, values: Values): Promise<Row[]> => {
    const shape = shapeOf(options);
    let statement = statements.get(shape);
    if (!statement) {
      statement = preparedStatement<Row, Values>(`${name}.${shape}`, build(options));
      statements.set(shape, statement);
    }
    return statement(db, values);
  };
}
