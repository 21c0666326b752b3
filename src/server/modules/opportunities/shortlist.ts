import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { opportunities as o, savedOpportunities as saved } from '../../db/schema';
import { preparedStatement } from '../../db/statement';
import { startOfUtcDay } from '../../lib/dates';
import { card, cardJson, claimable, freshSinceOf, outletSummary } from './claimable';
import { getOpportunity } from './service';

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
 * GET /api/brand/saved in one statement that returns the body: the brand's shortlist, most
 * recently saved first, each item a search item (`saved` always, `soldOut` when it can no longer be
 * bought).
 */
const shortlistStatement = preparedStatement<{ body: string }, { organisationId: string; since: string; freshSince: string }>(
  'shortlist',
  sql`SELECT coalesce('[' || string_agg(${cardJson}, ',' ORDER BY ${saved.createdAt} DESC, ${o.id} DESC) || ']', '[]') AS "body"
    FROM ${saved} JOIN ${o} ON ${o.id} = ${saved.opportunityId}
    ${card([sql`true AS "saved"`, sql`NOT ${claimable(sql.placeholder('since'))} AS "soldOut"`, sql`${outletSummary(sql.placeholder('freshSince'))} AS "outlet"`])}
    WHERE ${saved.organisationId} = ${sql.placeholder('organisationId')}::uuid`,
);

/** The organisation's shortlist as its JSON array (GET /api/brand/saved). */
export async function listSaved(db: Db, organisationId: string, now = new Date()): Promise<string> {
  const [row] = await shortlistStatement(db, { organisationId, since: startOfUtcDay(now).toISOString(), freshSince: freshSinceOf(now) });
  return row.body;
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
