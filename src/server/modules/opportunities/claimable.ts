import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { opportunities as o } from '../../db/schema';
import { startOfUtcDay } from './service';

/** `Date.prototype.toISOString()` of a timestamptz, in SQL (milliseconds truncated like a JS Date). */
const isoUtc = (column: typeof o.createdAt | typeof o.deadlineDate) =>
  sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * GET /api/opportunities in ONE statement that returns the response body itself: the claimable
 * opportunities (available, a slot left, deadline not passed), newest first, as the JSON array
 * `toBrandOpportunityJson` would produce, byte for byte (same keys in the same order, compact).
 * Postgres builds the JSON, so Node neither parses ~1,000 rows nor serialises them again.
 * Uses opportunities_status_created_idx (status = 'available').
 */
export function claimableJsonQuery(now: Date): SQL {
  return sql`SELECT coalesce('[' || string_agg(row_to_json(j)::text, ',' ORDER BY ${o.createdAt} DESC, ${o.id} DESC) || ']', '[]') AS "body"
    FROM ${o}
    CROSS JOIN LATERAL (SELECT
      ${o.id} AS "id", ${o.title} AS "title", ${o.outletName} AS "outletName", ${o.outletUrl} AS "outletUrl",
      ${o.description} AS "description", ${o.type} AS "type", ${o.tat} AS "tat", ${o.priceUsd}::text AS "priceUsd",
      ${o.logoUrl} AS "logoUrl", ${o.exampleUrls} AS "exampleUrls", ${o.maxSlots} AS "maxSlots",
      ${o.filledSlots} AS "filledSlots", ${o.domainAuthority} AS "domainAuthority",
      ${isoUtc(o.deadlineDate)} AS "deadlineDate", ${isoUtc(o.createdAt)} AS "createdAt") j
    WHERE ${o.status} = 'available' AND ${o.filledSlots} < ${o.maxSlots}
      AND (${o.deadlineDate} IS NULL OR ${o.deadlineDate} >= ${startOfUtcDay(now).toISOString()}::timestamptz)`;
}

/** The brands' browse list as a JSON text (see claimableJsonQuery). */
export async function claimableJson(db: Db, now = new Date()): Promise<string> {
  const result = await db.execute(claimableJsonQuery(now));
  return (result as unknown as { rows: { body: string }[] }).rows[0].body;
}
