import { sql } from 'drizzle-orm';
import { catalogueVersions } from './schema';

/**
 * The catalogue's version (schema.ts `catalogueVersions`): the number of committed changes to
 * opportunities, as text. A subquery of 16 rows, cheap enough to ride along with every request's
 * session lookup (auth/session.ts), so that the browse list's cache is checked without a round trip
 * of its own (opportunities/browse-cache.ts).
 */
export const catalogueVersionSql = sql<string>`(SELECT coalesce(sum(${catalogueVersions.version}), 0)::text FROM ${catalogueVersions})`;
