import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { opportunities as o } from '../../db/schema';
import { isoUtc } from '../../db/statement';

import { catalogueVersionSql } from '../../db/catalogue-version';

/**
 * GET /api/opportunities in ONE statement that returns the response body itself: the claimable
 * opportunities (available, a slot left, deadline on or after `since`, the start of today in UTC),
 * newest first, as the JSON array `toBrandOpportunityJson` would produce, byte for byte (same keys
 * in the same order, compact). Postgres builds the JSON, so Node neither parses ~1,000 rows nor
 * serialises them again. It also answers the catalogue version the body belongs to: both come
 * from the statement's one snapshot. Uses opportunities_available_idx.
 */
export function claimableJsonQuery(since: Placeholder): SQL {
  return sql`SELECT ${catalogueVersionSql} AS "version",
    coalesce('[' || string_agg(row_to_json(j)::text, ',' ORDER BY ${o.createdAt} DESC, ${o.id} DESC) || ']', '[]') AS "body"
    FROM ${o}
    CROSS JOIN LATERAL (SELECT
      ${o.id} AS "id", ${o.title} AS "title", ${o.outletName} AS "outletName", ${o.outletUrl} AS "outletUrl",
      ${o.description} AS "description", ${o.type} AS "type", ${o.tat} AS "tat", ${o.priceUsd}::text AS "priceUsd",
      ${o.logoUrl} AS "logoUrl", ${o.exampleUrls} AS "exampleUrls", ${o.maxSlots} AS "maxSlots",
      ${o.filledSlots} AS "filledSlots", ${o.domainAuthority} AS "domainAuthority",
      ${isoUtc(o.deadlineDate)} AS "deadlineDate", ${isoUtc(o.createdAt)} AS "createdAt",
      ${o.tatDays} AS "tatDays", ${o.linkType} AS "linkType", ${o.topics} AS "topics", ${o.country} AS "country",
      ${o.language} AS "language") j
    WHERE ${o.status} = 'available' AND ${o.filledSlots} < ${o.maxSlots}
      AND (${o.deadlineDate} IS NULL OR ${o.deadlineDate} >= ${since}::timestamptz)`;
}
