import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { sideOf, type Db } from './client';
import { changesAtOf, rowVersionsOf, type Fields, type Item } from './item';
import { sessionCheckSql, type SessionCheck } from './session-check';
import { preparedVariants, readOnSend, type ReadOnSend } from './statement';
import { jsonArrayOf, keepPageBody, type JsonPageRow, type PageBody } from '../lib/paging';

/**
 * Pages of a list whose items are kept by row version (docs/decisions/011).
 *
 * A page is first asked for without its items: the same statement, the same rows in the same order,
 * but instead of each item's JSON only the versions of the rows it is made of (`xmin`, which
 * PostgreSQL gives every committed change of a row, so a changed row is a new version). When every
 * item of the page was built before for exactly those versions, the page is answered with the kept
 * JSON. Otherwise the page is asked for again, with the keys (id and versions) of the items that
 * are kept: the database builds the JSON of the others only, and the server fills in the rest.
 * Either way the answer is what the database holds at that moment (the second statement's, when
 * there is one: an item is used only for the row versions it was built from), so nothing needs
 * telling when data changes, whoever changes it (another server, plain SQL). Reading the versions
 * walks the same index as the page; what it saves is writing ~20 columns per item out and building
 * their JSON, and a page with one changed item builds that one.
 *
 * A page read from kept items alone is also kept whole, with the snapshot it was read in
 * (`pg_current_snapshot()`: which transactions had committed). The next request for it sends that
 * snapshot, and the statement reads the page only when its own snapshot differs: when nothing at
 * all was committed since, the database is exactly as it was, and the statement checks the sign-in
 * session and answers one row. Time alone can change an item too (Admin Projects' `overdue`): such
 * an item says when (`Computed.changesAt`), and its page is not kept past that.
 */

/** A row of a page with the versions its item is built from. */
export interface VersionedPageRow extends JsonPageRow {
  version: string;
}

/** A row as the statement returns it: no JSON for an item the server said it holds. */
type PageRow = Omit<VersionedPageRow, 'json'> & { json: string | null };

/**
 * A row of the first statement: the snapshot it read in, and a row of the page, none (`id` null,
 * one such row) when the page is empty or unchanged since the snapshot the server sent.
 */
type SnapshotRow = { snapshot: string; changesIn?: number | null } & ({ id: string } | { id: null }) & Omit<PageRow, 'id'>;

/** A page read from kept items: the snapshot it was read in, until when that answer holds, its rows. */
interface KeptPage {
  snapshot: string;
  until: number;
  /** the rows, or their reading under way */
  rows: VersionedPageRow[] | Promise<VersionedPageRow[]>;
}

/**
 * What is kept of one page (a shape of a list and its values): the page as last read whole, and its
 * last bodies, newest first. A few bodies, as requests answered from the snapshots just before and
 * after a change overlap; and per page, so that a page that changes often leaves its old bodies
 * behind at once (kept by the keys of their items alone, the bodies of a changing page stayed long
 * enough to fill the old generation of the heap).
 */
interface PageState {
  kept?: KeptPage;
  bodies: PageBody[];
}
const BODIES_PER_PAGE = 4;

const keyOf = (row: { id: string; version: string }) => `${row.id}@${row.version}`;

/**
 * Items built before, by id and row versions: the most recently used 5,000 (a hundred pages of 50)
 * per list and database, each for an hour at most. A row's `xmin` comes round again only after four
 * billion transactions, so an hour keeps a stale match impossible without counting on how busy the
 * database is.
 */
class ItemCache {
  private readonly items = new LRUCache<string, string>({ max: 5_000, ttl: 60 * 60 * 1000 });
  /** what is kept of each page, by shape and values: the 100 asked for last, an hour at most (like the items) */
  private readonly pages = new LRUCache<string, PageState>({ max: 100, ttl: 60 * 60 * 1000 });
  /**
   * Items a request is building right now, by key, settled when its statement has answered: a
   * request that finds an item changed waits for the build already under way for that very version
   * instead of building it too (without this, every request that reads a changed page before the
   * first build lands builds the same item again).
   */
  private readonly building = new Map<string, Promise<void>>();
  /** pages answered from kept items alone, pages with some items built, and items built */
  hits = 0;
  builds = 0;
  itemsBuilt = 0;
  /** pages answered after waiting for another request's build of their changed items */
  joined = 0;
  /** pages answered whole as kept: nothing committed in the database since they were read */
  unchanged = 0;
  /** pages answered by another request's statement, which they had joined before it was sent */
  grouped = 0;
  /** statements held until the same page's statement for the same session, already sent, had answered */
  queued = 0;
  /**
   * Each page's first statement while it waits for a connection, by page and sign-in session:
   * until it is sent, a request for the same page of the same session joins it instead of queueing
   * one of its own. The statement runs after every request in it had arrived, so its answer is as
   * current for each of them as one of its own would be.
   */
  readonly unsent = new Map<string, Promise<VersionedPageRow[]>>();
  /**
   * Each page's first statement once sent, by page and sign-in session, until it has answered: the
   * next statement for the same page of the same session is sent only then (requests arriving
   * meanwhile join it while it waits), so one page of one session has one statement at the
   * database at a time. Sent side by side, each would read the page again after every commit.
   */
  readonly sent = new Map<string, Promise<VersionedPageRow[]>>();

  /** The kept JSON of those of `rows` that are kept, by key. */
  keptOf(rows: { id: string; version: string }[]): Map<string, string> {
    const kept = new Map<string, string>();
    for (const row of rows) {
      const key = keyOf(row);
      const json = this.items.get(key);
      if (json !== undefined) kept.set(key, json);
    }
    return kept;
  }

  /** The builds under way of the page's items that are not kept, when every one of them is under way. */
  underWay(rows: { id: string; version: string }[], kept: Map<string, string>): Promise<void>[] | undefined {
    const waits: Promise<void>[] = [];
    for (const row of rows) {
      const key = keyOf(row);
      if (kept.has(key)) continue;
      const build = this.building.get(key);
      if (!build) return undefined;
      waits.push(build);
    }
    return waits;
  }

  /** Marks the items of `rows` that are not kept as being built until `statement` settles. */
  async build<T>(rows: { id: string; version: string }[], kept: Map<string, string>, statement: () => Promise<T>): Promise<T> {
    const mine: string[] = [];
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    for (const row of rows) {
      const key = keyOf(row);
      if (kept.has(key) || this.building.has(key)) continue;
      this.building.set(key, done);
      mine.push(key);
    }
    try {
      return await statement();
    } finally {
      for (const key of mine) this.building.delete(key);
      settle();
    }
  }

  /**
   * The page's rows with every item's JSON: those the database left out filled in from `kept` (the
   * items it was told of), those it built kept.
   */
  answer(rows: PageRow[], kept: Map<string, string>): VersionedPageRow[] {
    let built = 0;
    for (const row of rows) {
      const key = keyOf(row);
      if (row.json === null) {
        const json = kept.get(key);
        // the statement leaves out only the JSON of items whose keys it was sent
        if (json === undefined) throw new Error(`item ${key} was neither built nor kept`);
        row.json = json;
      } else {
        built++;
        this.items.set(key, row.json);
      }
    }
    if (built) this.builds++;
    else this.hits++;
    this.itemsBuilt += built;
    return rows as VersionedPageRow[];
  }

  /** What is kept of the page of `key` (a shape and its values). */
  pageOf(key: string): PageState {
    let state = this.pages.get(key);
    if (!state) this.pages.set(key, (state = { bodies: [] }));
    return state;
  }

  get size() {
    return this.items.size;
  }
}

/** Every list's caches, by list name and database handle (itemPageStats). */
const lists = new Map<string, WeakMap<Db, ItemCache>>();

/**
 * What a list's statement selects at the head of its select list (then `id`, `cursorAt`, a
 * `cursorRank`): the item of the row with `id`. Its row versions come from the item's definition,
 * every table it reads (`overrides` names how to read a table's `xmin` where the statement reads it
 * through a subquery, by table name or alias).
 */
export type ItemColumns = (item: Item<Fields>, id: SQL | AnyColumn, overrides?: Record<string, SQL>) => SQL;

/**
 * A list's page statements (one per shape, see `preparedVariants`) with its items kept by row
 * version. `build(options, columns)` writes the page's SQL with `columns(item, id)` at the head of
 * its select list; the same item for every shape of the list.
 */
export function itemPages<Options, Values extends Record<string, unknown>>(
  name: string,
  shapeOf: (options: Options) => string,
  build: (options: Options, columns: ItemColumns) => SQL,
) {
  // the first statement of a page, also checking the sign-in session when the request has left
  // that to it (no row at all then: the caller asks again, session.ts). The page is read only when
  // the statement's snapshot differs from `known`, the one the server's kept page was read in.
  type Checked = { options: Options; checked: boolean };
  const versionsOnly = preparedVariants<Checked, SnapshotRow, Values & Partial<Omit<SessionCheck, 'checkNow'>> & { checkNow?: ReadOnSend; known: ReadOnSend }>(
    `${name}:v`,
    ({ options, checked }) => `${shapeOf(options)}${checked ? '.s' : ''}`,
    ({ options, checked }) => {
      const versions = build(options, (item, _id, overrides) => {
        const changesAt = changesAtOf(item);
        return sql`NULL::text AS "json", ${rowVersionsOf(item, overrides)} AS "version"${
          changesAt ? sql`, (extract(epoch FROM ${changesAt} - now()) * 1000)::float8 AS "changesIn"` : sql``
        }`;
      });
      return sql`SELECT "now"."snapshot", "page".* FROM (SELECT pg_current_snapshot()::text AS "snapshot"${checked ? sql` WHERE ${sessionCheckSql}` : sql``}) AS "now"
        LEFT JOIN LATERAL (SELECT * FROM (${versions}) AS "rows" WHERE "now"."snapshot" IS DISTINCT FROM ${sql.placeholder('known')}::text) AS "page" ON true`;
    },
  );
  const page = preparedVariants<Options, PageRow, Values & { kept: string }>(name, shapeOf, (o) =>
    build(o, (item, id, overrides) => {
      const versions = rowVersionsOf(item, overrides);
      // the item's JSON only where the server does not keep it for this id and these versions
      return sql`CASE WHEN ${sql.placeholder('kept')}::jsonb ? ((${id})::text || '@' || ${versions})
        THEN NULL ELSE (${item.sql})::text END AS "json", ${versions} AS "version"`;
    }),
  );
  // per database: row versions mean nothing across databases
  const caches = new WeakMap<Db, ItemCache>();
  lists.set(name, caches);
  const cacheOf = (db: Db) => {
    let cache = caches.get(db);
    if (!cache) caches.set(db, (cache = new ItemCache()));
    return cache;
  };
  const pageKey = (options: Options, values: Values) => `${shapeOf(options)} ${JSON.stringify(values)}`;

  /**
   * The page, joining the same page's statement for the same session while that is not yet sent, or
   * sending a new one once the one already sent for it (if any) has answered.
   */
  const readJoined = (db: Db, options: Options, values: Values, check: SessionCheck | undefined): Promise<VersionedPageRow[]> => {
    const cache = cacheOf(db);
    const key = `${pageKey(options, values)} ${check ? `${check.checkSession} ${check.checkUser} ${check.checkVersion}` : '-'}`;
    const unsent = cache.unsent.get(key);
    if (unsent) {
      cache.grouped++;
      return unsent;
    }
    let sent = false;
    let reading: Promise<VersionedPageRow[]> | undefined = undefined;
    const onSend = () => {
      sent = true;
      if (!reading) return;
      if (cache.unsent.get(key) === reading) cache.unsent.delete(key);
      cache.sent.set(key, reading);
    };
    const settled = () => {
      if (cache.unsent.get(key) === reading) cache.unsent.delete(key);
      if (cache.sent.get(key) === reading) cache.sent.delete(key);
    };
    const start = () => read(db, options, values, check, true, onSend);
    const ahead = cache.sent.get(key);
    if (ahead) cache.queued++;
    reading = ahead ? answeredOrLate(ahead).then(start) : start();
    // (PGlite sends at once)
    if (sent) cache.sent.set(key, reading);
    else cache.unsent.set(key, reading);
    reading.then(settled, settled);
    return reading;
  };

  const read = async (
    db: Db,
    options: Options,
    values: Values,
    check: SessionCheck | undefined,
    useKept: boolean,
    onSend?: () => void,
  ): Promise<VersionedPageRow[]> => {
    const cache = cacheOf(db);
    const state = cache.pageOf(pageKey(options, values));
    const asked = Date.now();
    // the kept page's snapshot as it is when a connection takes the statement, not as it was queued
    let known: KeptPage | undefined;
    const knownSnapshot = readOnSend(() => {
      onSend?.();
      known = useKept ? state.kept : undefined;
      if (known && known.until <= Date.now()) known = undefined;
      return known?.snapshot ?? null;
    });
    // the session is judged at sending too: the requests that joined the statement arrived before it
    const checked = check && { ...check, checkNow: readOnSend(() => new Date().toISOString()) };
    const first = await versionsOnly(db, { options, checked: check !== undefined }, { ...values, ...checked, known: knownSnapshot });
    if (!first.length) return [];
    const { snapshot } = first[0];
    if (first[0].id === null) {
      if (!known || snapshot !== known.snapshot) return [];
      cache.unchanged++;
      // a page being read for this very snapshot: its answer (a failed read is this request's to redo)
      return known.rows instanceof Promise ? known.rows.catch(() => read(db, options, values, check, false)) : known.rows;
    }
    const versions = first as PageRow[];
    const until = asked + keptFor(first);
    const kept = cache.keptOf(versions);
    if (kept.size === versions.length) {
      const rows = shown(cache.answer(versions, kept), values, state);
      state.kept = { snapshot, until, rows };
      return rows;
    }
    // Items changed: this request builds them, and a request that finds the database at this same
    // snapshot waits for that rather than reading the page too. The build reads a later snapshot: when
    // it holds other changes, they were committed after this one, which is then never current again.
    const reading: KeptPage = { snapshot, until, rows: changedItems(cache, db, options, values, versions, kept, state) };
    state.kept = reading;
    try {
      const rows = await reading.rows;
      reading.rows = rows;
      return rows;
    } catch (err) {
      if (state.kept === reading) state.kept = undefined;
      throw err;
    }
  };

  /** The page with the items of `versions` that are not `kept` built (or waited for, when under way). */
  async function changedItems(
    cache: ItemCache,
    db: Db,
    options: Options,
    values: Values,
    versions: PageRow[],
    kept: Map<string, string>,
    state: PageState,
  ) {
    // the changed items are being built by another request for these very versions: wait for it
    const waits = cache.underWay(versions, kept);
    if (waits) {
      await Promise.all(waits);
      kept = cache.keptOf(versions);
      if (kept.size === versions.length) {
        cache.joined++;
        return shown(cache.answer(versions, kept), values, state);
      }
    }
    const keys = JSON.stringify(Object.fromEntries([...kept.keys()].map((key) => [key, 1])));
    // on the side pool's connections: this request has had its turn at the main pool already
    const rows = await cache.build(versions, kept, () => page(sideOf(db), options, { ...values, kept: keys }));
    return shown(cache.answer(rows, kept), values, state);
  }

  return (db: Db, options: Options, values: Values, check?: SessionCheck) => readJoined(db, options, values, check);
}

/**
 * How long a page's statement waits for the one sent before it for the same page and session: a
 * statement that never answers (its connection silently gone) must not hold every later request
 * for that page until the connection is found dead.
 */
const AHEAD_WAIT_MS = 2_000;

/** Settles when `ahead` has, or after AHEAD_WAIT_MS, whichever comes first. */
function answeredOrLate(ahead: Promise<unknown>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, AHEAD_WAIT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    ahead.then(done, done);
  });
}

/** How long a page read now holds with nothing committed: an hour, or until an item changes with time. */
function keptFor(rows: { changesIn?: number | null }[]): number {
  let ms = 60 * 60 * 1000;
  for (const { changesIn } of rows) if (changesIn != null && changesIn < ms) ms = changesIn;
  return ms;
}

/**
 * The rows, with their page's JSON array (a statement asks for `limit` rows, one more than it
 * shows): the same body, with its compressed forms, as the page's last ones when it shows the same
 * items (same ids and versions), so an unchanged page is neither joined nor compressed again.
 */
function shown(rows: VersionedPageRow[], values: Record<string, unknown>, state: PageState) {
  if (typeof values.limit !== 'number') return rows;
  const count = values.limit - 1;
  const items = rows.length > count ? rows.slice(0, count) : rows;
  const keys = items.map(keyOf).join(',');
  let body = state.bodies.find((b) => b.keys === keys);
  if (!body) {
    body = { keys, count: items.length, body: jsonArrayOf(items) };
    state.bodies = [body, ...state.bodies.slice(0, BODIES_PER_PAGE - 1)];
  }
  keepPageBody(rows, body);
  return rows;
}

type ListStats = { kept: number; hits: number; builds: number; itemsBuilt: number; joined: number; unchanged: number; grouped: number; queued: number };

/** What each list's cache did on `db` so far (for tests and diagnostics). */
export function itemPageStats(db: Db): Record<string, ListStats> {
  const stats: Record<string, ListStats> = {};
  for (const [name, caches] of lists) {
    const cache = caches.get(db);
    stats[name] = {
      kept: cache?.size ?? 0,
      hits: cache?.hits ?? 0,
      builds: cache?.builds ?? 0,
      itemsBuilt: cache?.itemsBuilt ?? 0,
      joined: cache?.joined ?? 0,
      unchanged: cache?.unchanged ?? 0,
      grouped: cache?.grouped ?? 0,
      queued: cache?.queued ?? 0,
    };
  }
  return stats;
}
