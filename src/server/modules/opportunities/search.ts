import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { OpportunitySort } from '../../../shared/catalogue';
import { SEARCH_COUNT_CAP } from '../../../shared/constants';
import { SEARCH_LIMIT_DEFAULT } from '../../../shared/opportunity';
import type { OpportunitySearchQuery } from '../../../shared/schemas/opportunity-search';
import type { Db } from '../../db/client';
import { opportunities as o } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { startOfUtcDay } from '../../lib/dates';
import { card, cardJson, claimable, deadlineKey, freshSinceOf, outletSummary } from './claimable';
import { savedBy, shortlistOf } from './shortlist';
import { searchWords, textMatch, withTypoTolerance } from './words';
import { now as clockNow } from '../../lib/clock';

/**
 * The brands' catalogue search (GET /api/opportunities with parameters): words (words.ts), filters
 * and a sort, run by the database on the indexes of migration 0012, one keyset page at a time, read
 * from the database on every request (decision 017). Filters are inclusive. Only claimable
 * opportunities are listed (available, a slot left, deadline today or later), except with
 * `saved=true`: the brand's shortlist keeps what sold out, marked `soldOut`.
 */

const TIMESTAMP_TEXT = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Each sort: the key it orders by (then the id, in the same direction), its direction, the key as cursor text and its type; `outlet`: the key is its outlet's (joined). */
const SORTS: Record<OpportunitySort, { key: SQL; asc: boolean; keyText: SQL; cast: string }> = {
  newest: { key: sql`${o.createdAt}`, asc: false, keyText: TIMESTAMP_TEXT(sql`${o.createdAt}`), cast: 'timestamptz' },
  price_asc: { key: sql`${o.priceUsd}`, asc: true, keyText: sql`${o.priceUsd}::text`, cast: 'numeric' },
  price_desc: { key: sql`${o.priceUsd}`, asc: false, keyText: sql`${o.priceUsd}::text`, cast: 'numeric' },
  da_desc: {
    key: sql`coalesce(${o.domainAuthority}, 0)`,
    asc: false,
    keyText: sql`coalesce(${o.domainAuthority}, 0)::text`,
    cast: 'int',
  },
  deadline_asc: {
    key: deadlineKey,
    asc: true,
    keyText: sql`CASE WHEN ${o.deadlineDate} IS NULL THEN 'infinity' ELSE ${TIMESTAMP_TEXT(sql`${o.deadlineDate}`)} END`,
    cast: 'timestamptz',
  },
  // Byline's record: the outlet's on-time rate (kept on its row by the database, drizzle/0035, and
  // copied to each of its opportunities, drizzle/0043: -1 when it has none, sorted last)
  on_time_desc: {
    key: sql`${o.outletOnTime}`,
    asc: false,
    keyText: sql`to_char(${o.outletOnTime}, 'FM0.000')`,
    cast: 'rate',
  },
};

const INVALID_CURSOR = 'This page link is no longer valid; reload the list from the start';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KEY_TEXT: Record<string, RegExp> = {
  timestamptz: /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z|infinity)$/,
  numeric: /^\d{1,10}\.\d{2}$/,
  int: /^\d{1,3}$/,
  rate: /^(-1|0|1)\.\d{3}$/,
};
/** The SQL type of a cursor's key. */
const CAST: Record<string, string> = { timestamptz: 'timestamptz', numeric: 'numeric', int: 'int', rate: 'numeric' };

/** A search's cursor: the sort it was made in, and the last item's key (as text) and id. */
interface SearchCursor {
  sort: OpportunitySort;
  key: string;
  id: string;
}
const encodeSearchCursor = (c: SearchCursor) =>
  Buffer.from(JSON.stringify([c.sort, c.key, c.id])).toString('base64url');

function decodeSearchCursor(raw: string, sort: OpportunitySort): SearchCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3) {
      const [s, key, id] = value as unknown[];
      // a cursor belongs to the order it was made in: another sort's key means nothing here
      if (
        s === sort &&
        typeof key === 'string' &&
        KEY_TEXT[SORTS[sort].cast].test(key) &&
        typeof id === 'string' &&
        UUID.test(id)
      ) {
        return { sort, key, id };
      }
    }
  } catch {
    // the 400 below
  }
  throw badRequest('invalid_cursor', INVALID_CURSOR, { cursor: INVALID_CURSOR });
}

/** The WHERE of a search (without the cursor): also what the first page's count (X-Total-Count) counts. */
function conditions(
  q: OpportunitySearchQuery,
  organisationId: string,
  since: string,
  words: string[],
  freshSince: string,
): SQL {
  const parts: (SQL | undefined)[] = [
    q.saved === true ? sql`${o.id} IN ${shortlistOf(organisationId)}` : undefined,
    // the shortlist keeps what sold out; every other search lists what can be bought
    q.saved === true ? undefined : claimable(since),
    q.saved === false ? sql`${o.id} NOT IN ${shortlistOf(organisationId)}` : undefined,
    words.length ? textMatch(words) : undefined,
    // an opportunity of several types matches each of them
    q.type?.length ? sql`${o.type} && ${sql.param(q.type)}::text[]` : undefined,
    q.priceMin !== undefined ? sql`${o.priceUsd} >= ${q.priceMin}::numeric` : undefined,
    q.priceMax !== undefined ? sql`${o.priceUsd} <= ${q.priceMax}::numeric` : undefined,
    // the DA range also as the DA sort's index writes it, so that it bounds that index's range
    q.daMin !== undefined
      ? sql`${o.domainAuthority} >= ${q.daMin} AND coalesce(${o.domainAuthority}, 0) >= ${q.daMin}`
      : undefined,
    q.daMax !== undefined
      ? sql`${o.domainAuthority} <= ${q.daMax} AND coalesce(${o.domainAuthority}, 0) <= ${q.daMax}`
      : undefined,
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
    // an SEO tool's metric of the outlet from the last 180 days (outlet_metrics_latest_idx)
    q.fresh === true
      ? sql`EXISTS (SELECT 1 FROM outlet_metrics m WHERE m.outlet_id = ${o.outletId} AND m.as_of >= ${freshSince}::timestamptz)`
      : undefined,
  ];
  return and(...parts) ?? sql`TRUE`;
}

export interface SearchPage {
  /** the page's JSON: an array of BrandOpportunityItem */
  body: string;
  /** the cursor of the next page, when there is one */
  next?: string;
  /**
   * How many the search finds, on the first page only (a page asked with a cursor does not count):
   * exact up to SEARCH_COUNT_CAP; beyond it `total` is SEARCH_COUNT_CAP and `atLeast` true.
   */
  found?: { total: number; atLeast: boolean };
}

type PageRow = { json: string | null; cursorKey: string | null; id: string | null; total: number | null };

/**
 * One page of a brand's search, with how many the search finds on its first page: ONE statement,
 * the count and the page (`limit + 1` rows, to know whether another follows) side by side, so both
 * come from the same snapshot. The count reads at most SEARCH_COUNT_CAP + 1 matching rows (one
 * more than the cap says "more than the cap"), so a broad search costs a few milliseconds instead
 * of counting up to every claimable opportunity; a next page does not count at all (the client
 * shows the first page's number). Each item's JSON is built by the database, with the brand's
 * `saved` flag read there too.
 */
export async function searchOpportunities(
  db: Db,
  organisationId: string,
  q: OpportunitySearchQuery,
  now = clockNow(),
): Promise<SearchPage> {
  const sortName = q.sort ?? 'newest';
  const sort = SORTS[sortName];
  const limit = q.limit ?? SEARCH_LIMIT_DEFAULT;
  const cursor = q.cursor === undefined ? undefined : decodeSearchCursor(q.cursor, sortName);
  const since = startOfUtcDay(now).toISOString();
  const words = searchWords(q.q ?? '');
  const freshSince = freshSinceOf(now);
  const where = conditions(q, organisationId, since, words, freshSince);
  const cmp = sort.asc ? sql.raw('>') : sql.raw('<');
  const dir = sort.asc ? sql.raw('ASC') : sql.raw('DESC');
  const after = cursor
    ? sql`(${sort.key}, ${o.id}) ${cmp} (${cursor.key}::${sql.raw(CAST[sort.cast])}, ${cursor.id}::uuid)`
    : undefined;
  // with a `saved` filter every item's flag is the filter's
  const saved = q.saved === undefined ? savedBy(organisationId) : sql.raw(String(q.saved));
  // The page's keys (sort key and id) in the sort's order, read from the sort's index alone (its
  // INCLUDE columns carry every filter, drizzle/0043). On the first page the count reads the
  // matching keys first, at most SEARCH_COUNT_CAP + 1 of them: when that is all of them, the page is
  // sorted from those keys (a filter that skips most opportunities is read once, not twice); when
  // more match, they are dense enough for the sort's index to find a page after a short walk.
  const ordered = (extra?: SQL) => sql`SELECT ${sort.key} AS "key", ${o.id} AS "id" FROM ${o}
    WHERE ${and(where, after, extra)}
    ORDER BY ${sort.key} ${dir}, ${o.id} ${dir}
    LIMIT ${limit + 1}`;
  const counted = cursor
    ? sql`"found" AS (SELECT NULL::int AS "total"), "keys" AS (${ordered()})`
    : sql`"matching" AS MATERIALIZED (SELECT ${sort.key} AS "key", ${o.id} AS "id" FROM ${o} WHERE ${where} LIMIT ${SEARCH_COUNT_CAP + 1}),
      "found" AS (SELECT count(*)::int AS "total" FROM "matching"),
      "keys" AS (
        (SELECT "key", "id" FROM "matching" WHERE (SELECT "total" FROM "found") <= ${SEARCH_COUNT_CAP}
          ORDER BY "key" ${dir}, "id" ${dir} LIMIT ${limit + 1})
        UNION ALL
        (${ordered(sql`(SELECT "total" FROM "found") > ${SEARCH_COUNT_CAP}`)}))`;
  // then the cards of the page's rows only
  const statement = sql`WITH ${counted}
    SELECT "page"."json", "page"."cursorKey", "page"."id", "found"."total"
    FROM "found"
    LEFT JOIN (
      SELECT ${cardJson} AS "json", ${sort.keyText} AS "cursorKey", "keys"."id", "keys"."key"
      FROM "keys"
      JOIN ${o} ON ${o.id} = "keys"."id"
      ${card(since, [sql`${saved} AS "saved"`, sql`NOT ${claimable(since)} AS "soldOut"`, sql`${outletSummary(freshSince)} AS "outlet"`])}
    ) AS "page" ON true
    ORDER BY "page"."key" ${dir}, "page"."id" ${dir}`;
  const read = async (tx: Db) => ((await tx.execute(statement)) as unknown as { rows: PageRow[] }).rows;
  // the typo match's threshold is set for the search's transaction
  const rows = words.length ? await withTypoTolerance(db, read) : await read(db);

  const items = rows.filter((r) => r.id !== null).slice(0, limit);
  const last = items[items.length - 1];
  const next =
    rows.length > limit ? encodeSearchCursor({ sort: sortName, key: last.cursorKey!, id: last.id! }) : undefined;
  const total = rows[0].total;
  return {
    body: `[${items.map((r) => r.json).join(',')}]`,
    next,
    ...(total === null
      ? {}
      : { found: { total: Math.min(total, SEARCH_COUNT_CAP), atLeast: total > SEARCH_COUNT_CAP } }),
  };
}
