import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Fields, Item } from '../db/item';
import { preparedVariants } from '../db/statement';
import type { JsonPageRow } from './paging';

/** The item's JSON as the page statement's `json` column. */
export type ItemColumns = (item: Item<Fields>) => SQL;
const columns: ItemColumns = (item) => sql`${item.sql}::text AS "json"`;

/**
 * The pages of a list whose items' JSON the database builds (decision 009): one prepared statement
 * per shape of the list (a tab, a filter, whether a cursor is given), each read from the database
 * every time. `build(options, columns)` writes the page's SQL with `columns(item)` at the head of
 * its select list, beside the row's key (`id`, `cursorAt`) and wrapped in `limitedPage`.
 */
export function jsonPages<Options, Values extends Record<string, unknown>>(
  name: string,
  shapeOf: (options: Options) => string,
  build: (options: Options, columns: ItemColumns) => SQL,
) {
  const statements = preparedVariants<Options, JsonPageRow, Values>(name, shapeOf, (options) => build(options, columns));
  return Object.assign((db: Db, options: Options, values: Values): Promise<JsonPageRow[]> => statements(db, options, values), {
    statementOf: statements.statementOf,
  });
}
