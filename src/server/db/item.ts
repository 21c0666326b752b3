import { getTableColumns, getTableName, is, sql, Column, type AnyColumn, type SQL } from 'drizzle-orm';
import { isoUtc } from './statement';

/**
 * An API object defined once, from the columns it shows: the JSON the database builds for a list
 * (`.sql`), the same JSON from rows Node already holds (`.of`, e.g. the row an UPDATE returned) and its
 * TypeScript type (`ItemOf`). Columns become JSON by their type, the same way on both
 * paths: timestamps as `Date.prototype.toISOString()` writes them, numeric as its decimal text,
 * everything else as it is. Lists read the database on every request: nothing here is kept.
 */

/** A value the definition cannot read off one column: its SQL and its value from rows. */
export interface Computed<T> {
  readonly kind: 'computed';
  readonly sql: SQL;
  readonly of: (rows: Rows) => T;
}

type Field = AnyColumn | Item<Fields> | Computed<unknown>;
export type Fields = { readonly [key: string]: Field };
/** Rows of the tables an item reads, by table name (or alias). */
type Rows = Record<string, Record<string, unknown> | null | undefined>;

type ColumnJson<C extends AnyColumn> = C['_']['data'] extends Date ? string : C['_']['data'];
type FieldJson<F> =
  F extends Item<infer Inner>
    ? ItemJson<Inner>
    : F extends Computed<infer T>
      ? T
      : F extends AnyColumn
        ? F['_']['notNull'] extends true
          ? ColumnJson<F>
          : ColumnJson<F> | null
        : never;
type ItemJson<F extends Fields> = { -readonly [K in keyof F]: FieldJson<F[K]> };
/** The JSON an item answers with. */
export type ItemOf<I> = I extends Item<infer F> ? ItemJson<F> : never;

export interface Item<F extends Fields> {
  readonly kind: 'item';
  readonly fields: F;
  readonly sql: SQL;
  of(rows: Rows): ItemJson<F>;
}

const KEY = /^[A-Za-z][A-Za-z0-9]*$/;
const keyOfColumn = new WeakMap<AnyColumn, string>();

function columnKey(column: AnyColumn): string {
  let key = keyOfColumn.get(column);
  if (key === undefined) {
    const columns = getTableColumns(column.table) as Record<string, AnyColumn>;
    key = Object.keys(columns).find((k) => columns[k] === column || columns[k].name === column.name);
    if (key === undefined) throw new Error(`column ${column.name} is not a column of ${getTableName(column.table)}`);
    keyOfColumn.set(column, key);
  }
  return key;
}

const isItem = (f: Field): f is Item<Fields> => (f as Item<Fields>).kind === 'item';
const isComputed = (f: Field): f is Computed<unknown> => (f as Computed<unknown>).kind === 'computed';

function columnSql(column: AnyColumn): SQL {
  if (column.columnType === 'PgTimestamp') return isoUtc(column);
  if (column.columnType === 'PgNumeric') return sql`${column}::text`;
  return sql`${column}`;
}

function columnValue(column: AnyColumn, rows: Rows): unknown {
  const row = rows[getTableName(column.table)];
  if (!row) return null;
  const value = row[columnKey(column)];
  if (value === undefined || value === null) return null;
  return value instanceof Date ? value.toISOString() : value;
}

/** Defines an API object by its fields (columns, nested items, computed values), in the order sent. */
export function item<F extends Fields>(fields: F): Item<F> {
  const pairs: SQL[] = [];
  for (const [key, field] of Object.entries(fields)) {
    if (!KEY.test(key)) throw new Error(`not a JSON key for SQL: ${key}`);
    let value: SQL;
    if (isItem(field) || isComputed(field)) {
      value = field.sql;
    } else if (is(field, Column)) {
      value = columnSql(field);
    } else {
      throw new Error(`field ${key}: not a column, an item or a computed value`);
    }
    pairs.push(sql`${sql.raw(`'${key}'`)}, ${value}`);
  }
  return {
    kind: 'item',
    fields,
    sql: sql`json_build_object(${sql.join(pairs, sql`, `)})`,
    of(rows) {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(fields)) {
        out[key] = isItem(field) || isComputed(field) ? field.of(rows) : columnValue(field, rows);
      }
      return out as ItemJson<F>;
    },
  };
}

/** A nested object shown only when `present` (a column) is not null, e.g. a LEFT JOINed row. */
export function when<F extends Fields>(present: AnyColumn, inner: Item<F>): Computed<ItemJson<F> | null> {
  return {
    kind: 'computed',
    sql: sql`CASE WHEN ${present} IS NOT NULL THEN ${inner.sql} END`,
    of: (rows) => (columnValue(present, rows) === null ? null : inner.of(rows)),
  };
}

/**
 * A column shown under a narrower type than its column's (a jsonb the schema types loosely, a
 * value a `when` condition guarantees): the caller states the type it has checked.
 */
export function as<T>(column: AnyColumn): Computed<T> {
  return { kind: 'computed', sql: columnSql(column), of: (rows) => columnValue(column, rows) as T };
}

/** Compile-time check that a definition answers exactly the shared API type. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
