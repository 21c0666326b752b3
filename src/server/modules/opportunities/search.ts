import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { OpportunitySort } from '../../../shared/catalogue';
import { SEARCH_LIMIT_DEFAULT, type BrandOpportunityItem } from '../../../shared/opportunity';
import type { OpportunitySearchQuery } from '../../../shared/schemas/opportunity-search';
import type { Db } from '../../db/client';
import { opportunities as o, savedOpportunities, shortlistVersions } from '../../db/schema';
import { preparedStatement } from '../../db/statement';
import { badRequest } from '../../lib/errors';
import type { CompressedForms } from '../../lib/compress-json';
import { startOfUtcDay } from '../../lib/dates';
import { getOpportunity, toBrandOpportunityJson, type OpportunityRow } from './service';

/**
 * The brands' catalogue search (GET /api/opportunities with parameters): words, filters and a
 * sort, run by the database on the indexes of migration 0012, one keyset page at a time.
 *
 * Words: every word must be in the outlet name, title or description (the last one may be the
 * start of a word), or, for a word of TYPO_MIN_LENGTH letters or more, be close to the outlet's
 * name (pg_trgm's word similarity at least TYPO_SIMILARITY: about one typo). Filters are inclusive.
 * Only claimable opportunities are listed (available, a slot left, deadline today or later),
 * except with `saved=true`: the brand's shortlist keeps what sold out, marked `soldOut`.
 */

/** pg_trgm word similarity from which a text counts as the outlet's name with a typo. */
export const TYPO_SIMILARITY = 0.45;

/** The words of a search text (letters and digits, lower case; at most 20). */
export function searchWords(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).slice(0, 20);
}
/** The words as a tsquery: every word; the last as a prefix, unless `lastIsPrefix` is false. */
export const tsQueryOf = (words: string[], lastIsPrefix = true) =>
  words.map((w, i) => `'${w}'${lastIsPrefix && i === words.length - 1 ? ':*' : ''}`).join(' & ');

/** A word this long or longer may also match an outlet's name with a typo in it. */
export const TYPO_MIN_LENGTH = 5;

/**
 * Matches the search text (see above): each word in the text, or (if long enough) close to the
 * outlet's name (the dashboard's search, service.ts, writes the same with placeholders).
 */
function textMatch(text: string): SQL | undefined {
  const words = searchWords(text);
  if (words.length === 0) return undefined;
  const each = words.map((word, i) => {
    const exact = sql`${o.search} @@ to_tsquery('simple', ${tsQueryOf([word], i === words.length - 1)})`;
    return word.length >= TYPO_MIN_LENGTH ? sql`(${exact} OR ${word} <% ${o.outletName})` : exact;
  });
  return sql`(${sql.join(each, sql` AND `)})`;
}

/**
 * Runs `fn` where `<%` means a word similarity of at least TYPO_SIMILARITY (pg_trgm's setting is
 * per session; SET LOCAL keeps it to this transaction, so a pooled connection is left as it was).
 */
export function withTypoTolerance<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(TYPO_SIMILARITY)}, true)`);
    return fn(tx as unknown as Db);
  });
}

/** A deadline as the deadline sort's index has it: none is the end of time. */
const deadlineKey = sql`coalesce(${o.deadlineDate}, 'infinity'::timestamptz)`;

/**
 * What a brand can buy now: the spec's browse list. The deadline is compared as the deadline index
 * writes it (one range of opportunities_browse_deadline_idx, where `IS NULL OR >=` made the sort
 * read past every expired listing).
 */
const claimable = (since: Date) =>
  sql`(${o.status} = 'available' AND ${o.filledSlots} < ${o.maxSlots} AND ${deadlineKey} >= ${since.toISOString()}::timestamptz)`;

/** Each sort: the key it orders by (then the id, in the same direction) and that direction. */
const SORTS: Record<OpportunitySort, { key: SQL; asc: boolean; keyText: SQL; cast: string }> = {
  newest: { key: sql`${o.createdAt}`, asc: false, keyText: sql`to_char(${o.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`, cast: 'timestamptz' },
  price_asc: { key: sql`${o.priceUsd}`, asc: true, keyText: sql`${o.priceUsd}::text`, cast: 'numeric' },
  price_desc: { key: sql`${o.priceUsd}`, asc: false, keyText: sql`${o.priceUsd}::text`, cast: 'numeric' },
  da_desc: { key: sql`coalesce(${o.domainAuthority}, 0)`, asc: false, keyText: sql`coalesce(${o.domainAuthority}, 0)::text`, cast: 'int' },
  deadline_asc: {
    key: deadlineKey,
    asc: true,
    keyText: sql`CASE WHEN ${o.deadlineDate} IS NULL THEN 'infinity' ELSE to_char(${o.deadlineDate} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END`,
    cast: 'timestamptz',
  },
};

const INVALID_CURSOR = 'This page link is no longer valid; reload the list from the start';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KEY_TEXT: Record<string, RegExp> = {
  timestamptz: /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z|infinity)$/,
  numeric: /^\d{1,10}\.\d{2}$/,
  int: /^\d{1,3}$/,
};

interface SearchCursor {
  sort: OpportunitySort;
  key: string;
  id: string;
}
const encodeSearchCursor = (c: SearchCursor) => Buffer.from(JSON.stringify([c.sort, c.key, c.id])).toString('base64url');

function decodeSearchCursor(raw: string, sort: OpportunitySort): SearchCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3) {
      const [s, key, id] = value as unknown[];
      // a cursor belongs to the order it was made in: another sort's key means nothing here
      if (s === sort && typeof key === 'string' && KEY_TEXT[SORTS[sort].cast].test(key) && typeof id === 'string' && UUID.test(id)) {
        return { sort, key, id };
      }
    }
  } catch {
    // the 400 below
  }
  throw badRequest(INVALID_CURSOR, { cursor: INVALID_CURSOR });
}

/** The WHERE of a search (without the cursor): also what X-Total-Count counts. */
function conditions(q: OpportunitySearchQuery, brandId: string, now: Date): SQL {
  const since = startOfUtcDay(now);
  const parts: (SQL | undefined)[] = [
    q.saved ? sql`${o.id} IN (SELECT ${savedOpportunities.opportunityId} FROM ${savedOpportunities} WHERE ${savedOpportunities.brandId} = ${brandId})` : undefined,
    // the shortlist keeps what sold out; every other search lists what can be bought
    q.saved ? undefined : claimable(since),
    q.saved === false ? sql`${o.id} NOT IN (SELECT ${savedOpportunities.opportunityId} FROM ${savedOpportunities} WHERE ${savedOpportunities.brandId} = ${brandId})` : undefined,
    q.q ? textMatch(q.q) : undefined,
    // an opportunity of several types matches each of them
    q.type?.length ? sql`${o.type} && ${sql.param(q.type)}::text[]` : undefined,
    q.priceMin !== undefined ? sql`${o.priceUsd} >= ${q.priceMin}::numeric` : undefined,
    q.priceMax !== undefined ? sql`${o.priceUsd} <= ${q.priceMax}::numeric` : undefined,
    // the DA range also as the DA sort's index writes it, so that it bounds that index's range
    q.daMin !== undefined ? sql`${o.domainAuthority} >= ${q.daMin} AND coalesce(${o.domainAuthority}, 0) >= ${q.daMin}` : undefined,
    q.daMax !== undefined ? sql`${o.domainAuthority} <= ${q.daMax} AND coalesce(${o.domainAuthority}, 0) <= ${q.daMax}` : undefined,
    q.tatMax !== undefined ? sql`${o.tatDays} <= ${q.tatMax}` : undefined,
    q.linkType?.length ? sql`${o.linkType} = ANY(${sql.param(q.linkType)}::text[])` : undefined,
    q.topic?.length ? sql`${o.topics} && ${sql.param(q.topic)}::text[]` : undefined,
    q.country ? eq(o.country, q.country) : undefined,
    q.language ? eq(o.language, q.language) : undefined,
    // "deadline after" a day: strictly after, so a deadline on that day itself is not listed;
    // open-ended opportunities have none, so they always qualify
    q.deadlineAfter ? sql`${deadlineKey} > ${`${q.deadlineAfter}T00:00:00.000Z`}::timestamptz` : undefined,
    // more than one spot left
    q.multiSlot === true ? sql`${o.maxSlots} - ${o.filledSlots} > 1` : undefined,
    q.multiSlot === false ? sql`${o.maxSlots} - ${o.filledSlots} <= 1` : undefined,
  ];
  return and(...parts) ?? sql`TRUE`;
}

const { search: _search, ...columns } = getTableColumns(o);

export interface SearchPage {
  /** the page's JSON (an array of BrandOpportunityItem), with its compressed forms once sent */
  json: { body: string } & CompressedForms;
  /** the cursor of the next page, when there is one */
  next?: string;
  total: number;
}

/**
 * Pages of recent searches, per catalogue version, UTC day and parameters (decisions 023 and 024).
 * A search that does not depend on the brand's shortlist is kept once for every brand, without the
 * `saved` flags, which are read again for each brand. One with `saved=true` or `saved=false` is kept
 * for that brand and shortlist version, where every item's flag is the filter's. The versions are
 * the ones read with the request's session; a page built later than that read can only be newer,
 * never older.
 */
type KeptItem = Omit<BrandOpportunityItem, 'saved'>;
interface KeptPage {
  items: KeptItem[];
  next?: string;
  total: number;
  /** its JSON by `saved` flags (answerOf) */
  answers: Map<string, Answer>;
}
// an item is about a kilobyte: once as objects, and once or a few times in the kept answers
const pages = new LRUCache<string, KeptPage, never>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (page) => 1_000 + 3_000 * page.items.length,
});

type Answer = { body: string } & CompressedForms;
/** The JSON of a page for as many different sets of `saved` flags as this, kept with the page. */
const ANSWERS_PER_PAGE = 4;

/**
 * The page's JSON for these items, kept with the page by their `saved` flags: brands whose flags on
 * a page are the same (most often none saved) get the same bytes, made and compressed once.
 */
function answerOf(page: KeptPage | undefined, items: BrandOpportunityItem[]): Answer {
  if (!page) return { body: JSON.stringify(items) };
  const flags = items.map((i) => (i.saved ? 1 : 0)).join('');
  let answer = page.answers.get(flags);
  if (!answer) {
    if (page.answers.size >= ANSWERS_PER_PAGE) page.answers.delete(page.answers.keys().next().value!);
    answer = { body: JSON.stringify(items) };
    page.answers.set(flags, answer);
  }
  return answer;
}

let keptPagesServed = 0;
/** Search pages answered from the kept pages so far (tests). */
export const keptSearchPages = () => keptPagesServed;

/** The key a search's page is kept under, when it can be kept (both versions known where needed). */
function pageKeyOf(q: OpportunitySearchQuery, brandId: string, now: Date, opts: SearchOptions): string | undefined {
  if (!opts.catalogueVersion) return undefined;
  const day = startOfUtcDay(now).toISOString();
  if (q.saved === undefined) return `${opts.catalogueVersion}|${day}|${keyOf(q)}`;
  if (!opts.shortlistVersion) return undefined;
  return `${opts.catalogueVersion}|${day}|${brandId}|${opts.shortlistVersion}|${keyOf(q)}`;
}

/** Which of `ids` the brand has saved: one statement on the shortlist's primary key. */
const savedAmongStatement = preparedStatement<{ id: string }, { brandId: string; ids: string }>(
  'saved_among',
  sql`SELECT ${savedOpportunities.opportunityId} AS "id" FROM ${savedOpportunities}
    WHERE ${savedOpportunities.brandId} = ${sql.placeholder('brandId')}::uuid AND ${savedOpportunities.opportunityId} = ANY(${sql.placeholder('ids')}::uuid[])`,
);

/** A shortlist longer than this is not kept in memory: its flags are read page by page instead. */
export const SHORTLIST_KEPT_MAX = 2_000;

let shortlistsRead = 0;
/** Whole shortlists read so far (tests). */
export const shortlistReads = () => shortlistsRead;

/**
 * A brand's whole shortlist (up to one more than SHORTLIST_KEPT_MAX ids) with its version, read in
 * one snapshot: the ids are exactly that version's.
 */
const shortlistStatement = preparedStatement<{ version: string; ids: string }, { brandId: string }>(
  'shortlist_ids',
  sql`SELECT coalesce((SELECT ${shortlistVersions.version} FROM ${shortlistVersions} WHERE ${shortlistVersions.brandId} = ${sql.placeholder('brandId')}::uuid), 0)::text AS "version",
    coalesce((SELECT string_agg("id"::text, ',') FROM (SELECT ${savedOpportunities.opportunityId} AS "id" FROM ${savedOpportunities}
      WHERE ${savedOpportunities.brandId} = ${sql.placeholder('brandId')}::uuid LIMIT ${SHORTLIST_KEPT_MAX + 1}) AS "s"), '') AS "ids"`,
);

/**
 * The brands' shortlists read lately, by brand and shortlist version: a brand browsing page after
 * page gets every page's `saved` flags from memory. A version's ids never change (a save or unsave
 * makes a new version), so a kept shortlist is never stale for the version it is kept under.
 */
const shortlists = new LRUCache<string, ReadonlySet<string> | 'too long', never>({
  maxSize: 200_000,
  sizeCalculation: (ids) => 1 + (typeof ids === 'string' ? 0 : ids.size),
});

/** Which of `ids` the brand has saved, as of its shortlist `version` (the one read with the session) or later. */
async function savedAmong(db: Db, brandId: string, version: string | null | undefined, ids: string[]): Promise<ReadonlySet<string>> {
  if (!ids.length) return new Set();
  if (version) {
    let known = shortlists.get(`${brandId}|${version}`);
    if (!known) {
      shortlistsRead++;
      const [row] = await shortlistStatement(db, { brandId });
      const all = row.ids ? row.ids.split(',') : [];
      known = all.length <= SHORTLIST_KEPT_MAX ? new Set(all) : 'too long';
      // kept under the version it was read with, which is the session's or a later one
      shortlists.set(`${brandId}|${row.version}`, known);
    }
    if (known !== 'too long') return known;
  }
  const rows = await savedAmongStatement(db, { brandId, ids: `{${ids.join(',')}}` });
  return new Set(rows.map((r) => r.id));
}

/** A kept item with the brand's flag, its keys in the order the database-built page has them. */
function withSaved({ soldOut, ...item }: KeptItem, saved: boolean): BrandOpportunityItem {
  return { ...item, saved, soldOut };
}

/** Counts of recent searches, per catalogue version: the same filters count the same until a change. */
const COUNT_CACHE_SIZE = 500;
const counts = new Map<string, number>();

interface SearchOptions {
  now?: Date;
  /** the catalogue version read with the request's session, when known */
  catalogueVersion?: string | null;
  /** the version of the brand's shortlist read with the request's session ('0': never saved), when known */
  shortlistVersion?: string | null;
}

/**
 * One page of a brand's search. With the versions read with the request's session, the page (and
 * the count of a search that does not depend on the brand) is kept for those versions.
 */
export async function searchOpportunities(db: Db, brandId: string, q: OpportunitySearchQuery, opts: SearchOptions = {}): Promise<SearchPage> {
  const now = opts.now ?? new Date();
  const pageKey = pageKeyOf(q, brandId, now, opts);
  const kept = pageKey === undefined ? undefined : pages.get(pageKey);
  if (kept) {
    keptPagesServed++;
    // a brand that never saved anything has no flag to read
    const saved =
      q.saved !== undefined || opts.shortlistVersion === '0'
        ? new Set<string>()
        : await savedAmong(db, brandId, opts.shortlistVersion, kept.items.map((i) => i.id));
    const items = kept.items.map((i) => withSaved(i, q.saved ?? saved.has(i.id)));
    return { json: answerOf(kept, items), next: kept.next, total: kept.total };
  }
  const sort = SORTS[q.sort ?? 'newest'];
  const limit = q.limit ?? SEARCH_LIMIT_DEFAULT;
  const cursor = q.cursor === undefined ? undefined : decodeSearchCursor(q.cursor, q.sort ?? 'newest');
  const where = conditions(q, brandId, now);
  const cmp = sort.asc ? sql.raw('>') : sql.raw('<');
  const dir = sort.asc ? sql.raw('ASC') : sql.raw('DESC');
  const after = cursor ? sql`(${sort.key}, ${o.id}) ${cmp} (${cursor.key}::${sql.raw(sort.cast)}, ${cursor.id}::uuid)` : undefined;
  const since = startOfUtcDay(now);

  const run = async (tx: Db) => {
    const rows = await tx
      .select({
        ...columns,
        cursorKey: sql<string>`${sort.keyText}`,
        saved: sql<boolean>`EXISTS (SELECT 1 FROM ${savedOpportunities} WHERE ${savedOpportunities.brandId} = ${brandId} AND ${savedOpportunities.opportunityId} = ${o.id})`,
        soldOut: sql<boolean>`NOT ${claimable(since)}`,
      })
      .from(o)
      .where(and(where, after))
      .orderBy(sql`${sort.key} ${dir}`, sql`${o.id} ${dir}`)
      .limit(limit + 1);
    let total: number;
    if (q.saved === false) {
      // the catalogue's count (kept) less the brand's saved ones among it: NOT IN over the whole
      // catalogue would be counted row by row
      const everyone = await countOf(tx, { ...q, saved: undefined }, brandId, now, opts.catalogueVersion);
      const [mine] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(o)
        .where(and(conditions({ ...q, saved: undefined }, brandId, now), conditions({ saved: true }, brandId, now)));
      total = everyone - mine.n;
    } else {
      total = await countOf(tx, q, brandId, now, opts.catalogueVersion);
    }
    return { rows, total };
  };
  const { rows, total } = q.q && searchWords(q.q).length ? await withTypoTolerance(db, run) : await run(db);

  const pageRows = rows.slice(0, limit);
  const items = pageRows.map(({ cursorKey: _k, saved, soldOut, ...row }) => ({
    ...toBrandOpportunityJson(row as OpportunityRow),
    saved,
    soldOut,
  }));
  const last = pageRows[pageRows.length - 1];
  const next = rows.length > limit ? encodeSearchCursor({ sort: q.sort ?? 'newest', key: last.cursorKey, id: last.id }) : undefined;
  let page: KeptPage | undefined;
  if (pageKey !== undefined) {
    page = { items: items.map(({ saved: _saved, ...item }) => item), next, total, answers: new Map() };
    pages.set(pageKey, page);
  }
  return { json: answerOf(page, items), next, total };
}

/** X-Total-Count: kept per catalogue version and day when it does not depend on the brand. */
async function countOf(tx: Db, q: OpportunitySearchQuery, brandId: string, now: Date, catalogueVersion: string | null | undefined) {
  const { limit: _l, cursor: _c, sort: _s, ...filters } = q;
  const key = q.saved === undefined && catalogueVersion ? `${catalogueVersion}|${startOfUtcDay(now).toISOString()}|${keyOf(filters)}` : undefined;
  const kept = key ? counts.get(key) : undefined;
  if (kept !== undefined) return kept;
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(o).where(conditions(q, brandId, now));
  if (key) {
    if (counts.size >= COUNT_CACHE_SIZE) counts.delete(counts.keys().next().value!);
    counts.set(key, row.n);
  }
  return row.n;
}

/** A search's parameters as a stable text. */
function keyOf(q: Partial<OpportunitySearchQuery>): string {
  return JSON.stringify(Object.entries(q).sort(([a], [b]) => a.localeCompare(b)));
}

/** The brand's shortlist, most recently saved first (GET /api/brand/saved). */
export async function listSaved(db: Db, brandId: string, now = new Date()): Promise<BrandOpportunityItem[]> {
  const since = startOfUtcDay(now);
  const rows = await db
    .select({ ...columns, soldOut: sql<boolean>`NOT ${claimable(since)}` })
    .from(savedOpportunities)
    .innerJoin(o, eq(o.id, savedOpportunities.opportunityId))
    .where(eq(savedOpportunities.brandId, brandId))
    .orderBy(sql`${savedOpportunities.createdAt} DESC`, sql`${o.id} DESC`);
  return rows.map(({ soldOut, ...row }) => ({ ...toBrandOpportunityJson(row as OpportunityRow), saved: true, soldOut }));
}

/** Saves an opportunity to the brand's shortlist (again: nothing changes). 404 for an unknown one. */
export async function saveOpportunity(db: Db, brandId: string, opportunityId: string): Promise<void> {
  await getOpportunity(db, opportunityId);
  await db.insert(savedOpportunities).values({ brandId, opportunityId }).onConflictDoNothing();
}

export async function unsaveOpportunity(db: Db, brandId: string, opportunityId: string): Promise<void> {
  await db.delete(savedOpportunities).where(and(eq(savedOpportunities.brandId, brandId), eq(savedOpportunities.opportunityId, opportunityId)));
}
