import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { opportunities as o } from '../../db/schema';
import { isoUtc, preparedStatement } from '../../db/statement';
import { cursorAt, encodeCursor, type Cursor } from '../../lib/paging';
import { startOfUtcDay } from '../../lib/dates';
import { DAY_MS } from '../../../shared/constants';
import { METRIC_STALE_DAYS } from '../../../shared/outlets';
import type { BrandOpportunity } from '../../../shared/opportunity';
import { now as clockNow } from '../../lib/clock';

/**
 * What brands see of the catalogue: an opportunity's card as JSON built by PostgreSQL, and the
 * spec's browse list (GET /api/opportunities without parameters) in one statement.
 */

/**
 * A card's fields (`BrandOpportunity`: the admin's opportunity without its status) for a lateral
 * SELECT: `row_to_json` of them is what `toBrandOpportunityJson` gives, byte for byte (the same
 * keys in the same order, compact), so Node neither maps the rows nor serialises them again.
 */
const cardFields = sql`${o.id} AS "id", ${o.title} AS "title", ${o.outletName} AS "outletName", ${o.outletUrl} AS "outletUrl",
  ${o.description} AS "description", ${o.type} AS "type", ${o.tat} AS "tat", ${o.priceUsd}::text AS "priceUsd",
  ${o.logoUrl} AS "logoUrl", ${o.exampleUrls} AS "exampleUrls", ${o.maxSlots} AS "maxSlots",
  ${o.filledSlots} AS "filledSlots", ${o.domainAuthority} AS "domainAuthority",
  ${isoUtc(o.deadlineDate)} AS "deadlineDate", ${isoUtc(o.createdAt)} AS "createdAt",
  ${o.tatDays} AS "tatDays", ${o.linkType} AS "linkType", ${o.topics} AS "topics", ${o.country} AS "country",
  ${o.language} AS "language", ${o.outletId} AS "outletId"`;

/**
 * The promise of a purchase on the day `since` starts (issue 59, drizzle/0047 promise_json): its
 * date is that of any purchase that day (business days keep the time of day), and the lists stay
 * the same all day (their ETag, the pages kept).
 */
export const promiseOn = (since: string | Placeholder) =>
  sql<BrandOpportunity['promise']>`promise_json(${o.tatDays}, ${o.outletId}, ${since}::timestamptz)`;

/**
 * `CROSS JOIN LATERAL` of the card of the row of `opportunities` being read, with its promise for
 * a purchase on the day `since` starts, and `extra` fields after its own (a search item's `saved`
 * and `soldOut`): `cardJson` is its JSON text.
 */
export const card = (since: string | Placeholder, extra: SQL[] = []) =>
  sql`CROSS JOIN LATERAL (SELECT ${sql.join([cardFields, sql`${promiseOn(since)} AS "promise"`, ...extra], sql`, `)}) AS "card"`;
export const cardJson = sql`row_to_json("card")::text`;

/**
 * A search item's outlet in short (issue 48): Byline's record as the database keeps it on the
 * outlet's row, and the newest value of each metric the SEO tools reported, with its date.
 */
export const outletSummary = (freshSince: string | Placeholder) => sql`(
  SELECT json_build_object(
    'delivered', x.delivered,
    'onTimeRate', x.on_time_rate::float8,
    'metrics', coalesce((
      SELECT json_agg(json_build_object('name', m.metric, 'value', m.value::float8, 'source', m.source,
          'asOf', to_char(m.as_of AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'stale', m.as_of < ${freshSince}::timestamptz)
        ORDER BY m.metric)
      FROM (SELECT DISTINCT ON (metric) metric, value, source, as_of FROM outlet_metrics
        WHERE outlet_id = x.id ORDER BY metric, as_of DESC) m), '[]'::json))
  FROM outlets x WHERE x.id = ${o.outletId})`;

/** The day a metric must be as of to be fresh on `now`'s day: METRIC_STALE_DAYS before it. */
export const freshSinceOf = (now: Date) => new Date(startOfUtcDay(now).getTime() - METRIC_STALE_DAYS * DAY_MS).toISOString();

/** A deadline as the deadline sort's index has it: none is the end of time. */
export const deadlineKey = sql`coalesce(${o.deadlineDate}, 'infinity'::timestamptz)`;

/**
 * What a brand can buy now (available, a slot left, the deadline day not over), `since` being the
 * start of today in UTC. The deadline is compared as the deadline index writes it (one range of
 * opportunities_browse_deadline_idx, where `IS NULL OR >=` made the sort read past every expired
 * listing). `since`: its ISO text, or the placeholder of a prepared statement.
 */
export const claimable = (since: string | Placeholder) =>
  sql`(${o.status} = 'available' AND ${o.filledSlots} < ${o.maxSlots} AND ${deadlineKey} >= ${since}::timestamptz)`;

/**
 * The browse list (GET /api/opportunities without parameters): the claimable opportunities, newest
 * first, each as its card's JSON built by the database, at most `limit` at once (LIST_MAX,
 * decision 039), the rest after `(createdAt, id)` of the last one sent. The page's ids first, in
 * order: the claimable condition is the search's (`claimable`), read from
 * opportunities_browse_newest_idx alone (drizzle/0043), backwards; then the cards of those rows
 * only. Prepared, with and without the page's start.
 */
const browsePageSql = (after: boolean) =>
  sql`SELECT ${cardJson} AS "json", ${cursorAt(o.createdAt)} AS "cursorAt", ${o.id} AS "id"
    FROM (
      SELECT ${o.id} AS "id", ${o.createdAt} AS "createdAt" FROM ${o}
      WHERE ${claimable(sql.placeholder('since'))}
        ${after ? sql`AND (${o.createdAt}, ${o.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)` : sql``}
      ORDER BY ${o.createdAt} DESC, ${o.id} DESC
      LIMIT ${sql.placeholder('limit')}
    ) AS "keys"
    JOIN ${o} ON ${o.id} = "keys"."id"
    ${card(sql.placeholder('since'))}
    ORDER BY "keys"."createdAt" DESC, "keys"."id" DESC`;
type BrowseRow = { json: string; cursorAt: string; id: string };
export const browseStatement = preparedStatement<BrowseRow, { since: string; limit: number }>('claimable_opportunities', browsePageSql(false));
const browseAfterStatement = preparedStatement<BrowseRow, { since: string; limit: number; at: string; id: string }>(
  'claimable_opportunities_after',
  browsePageSql(true),
);

export interface BrowsePage {
  /** the page's JSON: an array of BrandOpportunity */
  body: string;
  /** where the next page starts (lib/paging's cursor), when there is one */
  next?: string;
}

/**
 * The brands' browse list as of `now`, `limit` at a time (from the start, or after the cursor `after`
 * of the page before): an opportunity leaves it when its deadline day is over in UTC, with nothing
 * changed in the database.
 */
export async function browseList(db: Db, limit: number, after?: Cursor, now = clockNow()): Promise<BrowsePage> {
  const since = startOfUtcDay(now).toISOString();
  const rows = after
    ? await browseAfterStatement(db, { since, limit: limit + 1, at: after.at, id: after.id })
    : await browseStatement(db, { since, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    body: `[${page.map((r) => r.json).join(',')}]`,
    next: rows.length > limit ? encodeCursor({ at: last.cursorAt, id: last.id }) : undefined,
  };
}
