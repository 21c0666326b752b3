import { sql, type SQL, type Table } from 'drizzle-orm';
import type { Db } from './client';
import { preparedVariants } from './statement';
import type { JsonPageRow } from '../lib/paging';

/**
 * Pages of a list whose items are kept by row version (docs/decisions/011).
 *
 * A page is first asked for without its items: the same statement, the same rows in the same order,
 * but instead of each item's JSON only the versions of the rows it is made of (`xmin`, which
 * PostgreSQL gives every committed change of a row, so a changed row is a new version). When every
 * item of the page was built before for exactly those versions, the page is answered with the kept
 * JSON; otherwise the whole page is built by the database, in one statement as before, and its items
 * are kept. Either way the answer is what the database holds at that moment: a kept item is only
 * used for the row versions it was built from, so nothing needs telling when data changes, whoever
 * changes it (another server, plain SQL). Reading the versions walks the same index as the page;
 * what it saves is writing ~20 columns per item out and building their JSON (~0.6 ms a page).
 */

/** A row of a page with the versions its item is built from. */
export interface VersionedPageRow extends JsonPageRow {
  version: string;
}

/**
 * `xmin` of each table's row in the item, as one text ("-" for a row a LEFT JOIN did not find).
 * Name every table whose columns the item's JSON reads, and add anything else it depends on.
 */
export function rowVersions(...parts: SQL[]): SQL {
  return sql`concat_ws(':', ${sql.join(
    parts.map((p) => sql`coalesce((${p})::text, '-')`),
    sql`, `,
  )})`;
}

/** The `xmin` of a table (or alias) of the statement. */
export const xminOf = (table: Table | SQL) => sql`${table}.xmin`;

/** Items kept per list and database handle: a hundred pages of 50. */
const MAX_ITEMS = 5_000;
/**
 * How long a kept item may be used: a row's `xmin` comes round again only after four billion
 * transactions, so an hour keeps a stale match impossible without counting on how busy the
 * database is.
 */
const MAX_AGE_MS = 60 * 60 * 1000;

/** Items built before, by id and row versions; first in, first out beyond MAX_ITEMS. */
class ItemCache {
  private readonly items = new Map<string, { json: string; at: number }>();
  /** pages answered from kept items, and pages built by the database */
  hits = 0;
  builds = 0;
  /** Fills `json` of every row from the cache; false (rows untouched) when any one is missing. */
  fill(rows: VersionedPageRow[]): boolean {
    const oldest = Date.now() - MAX_AGE_MS;
    const found: string[] = [];
    for (const row of rows) {
      const kept = this.items.get(`${row.id}@${row.version}`);
      if (!kept || kept.at < oldest) return false;
      found.push(kept.json);
    }
    rows.forEach((row, i) => (row.json = found[i]));
    this.hits++;
    return true;
  }

  keep(rows: VersionedPageRow[]) {
    this.builds++;
    const at = Date.now();
    for (const row of rows) {
      const key = `${row.id}@${row.version}`;
      this.items.delete(key);
      this.items.set(key, { json: row.json, at });
    }
    for (const key of this.items.keys()) {
      if (this.items.size <= MAX_ITEMS) break;
      this.items.delete(key);
    }
  }

  get size() {
    return this.items.size;
  }
}

/** Every list's caches, by list name and database handle (itemPageStats). */
const lists = new Map<string, WeakMap<object, ItemCache>>();

/**
 * A list's page statements (one per shape, see `preparedVariants`) with its items kept by row
 * version. `build(options, columns)` writes the page's SQL with `columns(itemJson, versions)` at
 * the head of its select list; the rest of the list (`id`, `cursorAt`, a `cursorRank`) as before.
 * The item's JSON must depend on nothing but the rows named in `versions` (and what else `versions`
 * adds), the same for every shape of the list.
 */
export function itemPages<Options, Values extends Record<string, unknown>>(
  name: string,
  shapeOf: (options: Options) => string,
  build: (options: Options, columns: (item: SQL, versions: SQL) => SQL) => SQL,
) {
  const built = preparedVariants<Options, VersionedPageRow, Values>(name, shapeOf, (o) =>
    build(o, (item, versions) => sql`${item}::text AS "json", ${versions} AS "version"`),
  );
  const versionsOnly = preparedVariants<Options, VersionedPageRow, Values>(`${name}:v`, shapeOf, (o) =>
    build(o, (_item, versions) => sql`${versions} AS "version"`),
  );
  // per database handle: row versions mean nothing across databases
  const caches = new WeakMap<object, ItemCache>();
  lists.set(name, caches);
  return async (db: Db, options: Options, values: Values): Promise<VersionedPageRow[]> => {
    let cache = caches.get(db._.session);
    if (!cache) caches.set(db._.session, (cache = new ItemCache()));
    const rows = await versionsOnly(db, options, values);
    if (cache.fill(rows)) return rows;
    const page = await built(db, options, values);
    cache.keep(page);
    return page;
  };
}

/** What each list's cache did on `db` so far (for tests and diagnostics). */
export function itemPageStats(db: Db): Record<string, { kept: number; hits: number; builds: number }> {
  const stats: Record<string, { kept: number; hits: number; builds: number }> = {};
  for (const [name, caches] of lists) {
    const cache = caches.get(db._.session);
    stats[name] = { kept: cache?.size ?? 0, hits: cache?.hits ?? 0, builds: cache?.builds ?? 0 };
  }
  return stats;
}
