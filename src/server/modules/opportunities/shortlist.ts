import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { opportunities as o, savedOpportunities as saved } from '../../db/schema';
import { preparedStatement } from '../../db/statement';
import { startOfUtcDay } from '../../lib/dates';
import { cursorAt, encodeCursor, type Cursor } from '../../lib/paging';
import { card, cardJson, claimable, freshSinceOf, outletSummary } from './claimable';
import { getOpportunity } from './service';
import { now as clockNow } from '../../lib/clock';

/**
 * An organisation's shortlist: the opportunities its members saved (`saved_opportunities`), kept
 * whether or not they can still be bought; the search's `saved` flag and filter (search.ts) read it
 * in their statement.
 */

/** The organisation's saved ones, for `IN` / `NOT IN` (the search's `saved=true|false`). */
export const shortlistOf = (organisationId: string) =>
  sql`(SELECT ${saved.opportunityId} FROM ${saved} WHERE ${saved.organisationId} = ${organisationId})`;

/** Whether the organisation saved the row of `opportunities` being read: one probe of the shortlist's primary key. */
export const savedBy = (organisationId: string) =>
  sql`EXISTS (SELECT 1 FROM ${saved} WHERE ${saved.organisationId} = ${organisationId} AND ${saved.opportunityId} = ${o.id})`;

/**
 * GET /api/brand/saved: the brand's shortlist, most recently saved first, each item a search item
 * (`saved` always, `soldOut` when it can no longer be bought), at most `limit` at once (LIST_MAX,
 * decision 039), the rest after the (saved at, id) of the last one sent. Prepared, with and
 * without the page's start.
 */
const shortlistSql = (after: boolean) =>
  sql`SELECT ${cardJson} AS "json", ${cursorAt(saved.createdAt)} AS "cursorAt", ${o.id} AS "id"
    FROM ${saved} JOIN ${o} ON ${o.id} = ${saved.opportunityId}
    ${card(sql.placeholder('since'), [sql`true AS "saved"`, sql`NOT ${claimable(sql.placeholder('since'))} AS "soldOut"`, sql`${outletSummary(sql.placeholder('freshSince'))} AS "outlet"`])}
    WHERE ${saved.organisationId} = ${sql.placeholder('organisationId')}::uuid
      ${after ? sql`AND (${saved.createdAt}, ${o.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)` : sql``}
    ORDER BY ${saved.createdAt} DESC, ${o.id} DESC
    LIMIT ${sql.placeholder('limit')}`;
type ShortlistValues = { organisationId: string; since: string; freshSince: string; limit: number };
type ShortlistRow = { json: string; cursorAt: string; id: string };
const shortlistStatement = preparedStatement<ShortlistRow, ShortlistValues>('shortlist', shortlistSql(false));
const shortlistAfterStatement = preparedStatement<ShortlistRow, ShortlistValues & { at: string; id: string }>(
  'shortlist_after',
  shortlistSql(true),
);

/** The organisation's shortlist, `limit` at a time, as its JSON array and where the next page starts. */
export async function listSaved(
  db: Db,
  organisationId: string,
  limit: number,
  after?: Cursor,
  now = clockNow(),
): Promise<{ body: string; next?: string }> {
  const values = { organisationId, since: startOfUtcDay(now).toISOString(), freshSince: freshSinceOf(now), limit: limit + 1 };
  const rows = after
    ? await shortlistAfterStatement(db, { ...values, at: after.at, id: after.id })
    : await shortlistStatement(db, values);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    body: `[${page.map((r) => r.json).join(',')}]`,
    next: rows.length > limit ? encodeCursor({ at: last.cursorAt, id: last.id }) : undefined,
  };
}

/** Saves an opportunity to the organisation's shortlist (again: nothing changes). 404 for an unknown one. */
export async function saveOpportunity(db: Db, member: { userId: string; organisationId: string }, opportunityId: string): Promise<void> {
  await getOpportunity(db, opportunityId);
  await db
    .insert(saved)
    .values({ organisationId: member.organisationId, brandId: member.userId, opportunityId })
    .onConflictDoNothing();
}

/** Takes an opportunity off the organisation's shortlist (also when it was not on it). */
export async function unsaveOpportunity(db: Db, organisationId: string, opportunityId: string): Promise<void> {
  await db.delete(saved).where(and(eq(saved.organisationId, organisationId), eq(saved.opportunityId, opportunityId)));
}
