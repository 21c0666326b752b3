import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { opportunities as o, savedOpportunities as saved } from '../../db/schema';
import { preparedStatement } from '../../db/statement';
import { startOfUtcDay } from '../../lib/dates';
import { card, cardJson, claimable } from './claimable';
import { getOpportunity } from './service';

/**
 * A brand's shortlist: the opportunities it saved (`saved_opportunities`), kept whether or not they
 * can still be bought; the search's `saved` flag and filter (search.ts) read it in their statement.
 */

/** The brand's saved ones, for `IN` / `NOT IN` (the search's `saved=true|false`). */
export const shortlistOf = (brandId: string) =>
  sql`(SELECT ${saved.opportunityId} FROM ${saved} WHERE ${saved.brandId} = ${brandId})`;

/** Whether the brand saved the row of `opportunities` being read: one probe of the shortlist's primary key. */
export const savedBy = (brandId: string) =>
  sql`EXISTS (SELECT 1 FROM ${saved} WHERE ${saved.brandId} = ${brandId} AND ${saved.opportunityId} = ${o.id})`;

/**
 * GET /api/brand/saved in one statement that returns the body: the brand's shortlist, most
 * recently saved first, each item a search item (`saved` always, `soldOut` when it can no longer be
 * bought).
 */
const shortlistStatement = preparedStatement<{ body: string }, { brandId: string; since: string }>(
  'shortlist',
  sql`SELECT coalesce('[' || string_agg(${cardJson}, ',' ORDER BY ${saved.createdAt} DESC, ${o.id} DESC) || ']', '[]') AS "body"
    FROM ${saved} JOIN ${o} ON ${o.id} = ${saved.opportunityId}
    ${card([sql`true AS "saved"`, sql`NOT ${claimable(sql.placeholder('since'))} AS "soldOut"`])}
    WHERE ${saved.brandId} = ${sql.placeholder('brandId')}::uuid`,
);

/** The brand's shortlist as its JSON array (GET /api/brand/saved). */
export async function listSaved(db: Db, brandId: string, now = new Date()): Promise<string> {
  const [row] = await shortlistStatement(db, { brandId, since: startOfUtcDay(now).toISOString() });
  return row.body;
}

/** Saves an opportunity to the brand's shortlist (again: nothing changes). 404 for an unknown one. */
export async function saveOpportunity(db: Db, brandId: string, opportunityId: string): Promise<void> {
  await getOpportunity(db, opportunityId);
  await db.insert(saved).values({ brandId, opportunityId }).onConflictDoNothing();
}

/** Takes an opportunity off the brand's shortlist (also when it was not on it). */
export async function unsaveOpportunity(db: Db, brandId: string, opportunityId: string): Promise<void> {
  await db.delete(saved).where(and(eq(saved.brandId, brandId), eq(saved.opportunityId, opportunityId)));
}
