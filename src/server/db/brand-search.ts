import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { users } from './schema';

/**
 * The admins' search by brand (Projects, Payments, Placements, Approvals): a case-insensitive piece of the
 * brand's name, brand name or e-mail. The text searched is written exactly as the expression of
 * `users_search_trgm_idx` (migration 0012), so the planner can match it to that trigram index.
 */
const searchedText = sql`(coalesce(${users.name}, '') || ' ' || coalesce(${users.brandName}, '') || ' ' || ${users.email})`;

/**
 * The user's text as a LIKE pattern piece that matches only itself: `%`, `_` and the escape
 * character `\` (LIKE's default) are escaped, so "50%" finds "50%" and not "500".
 */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** `users` matches the search `q` (a value already passed through `likeLiteral`, or its placeholder). */
export const brandMatches = (q: SQL | Placeholder | string): SQL =>
  sql`${searchedText} ILIKE ('%' || ${q}::text || '%')`;

/** A search that finds fewer brands than this picks its page from their rows; more, by walking the list's order. */
const FEW_BRANDS = 200;

/**
 * The rows of a list's page for a search by brand (issue 61), as a FROM item `"pick"("id", "at")`
 * (`at` the list's order key), at most `pageMax` of them in the list's order, and that order over
 * the pick (order the page by it: by the table's own columns the planner may walk the table's index
 * in that order and join the pick to every row). Both ways are in the one (prepared) statement,
 * each behind a one-time filter on how many brands `q` finds (an InitPlan over the trigram index, at
 * most FEW_BRANDS rows), and only one runs:
 * - few brands: each found brand's rows (a LATERAL sub-select kept apart by OFFSET 0, so the
 *   planner starts from the brands and reads the list's brand index; ordered by the list's key it
 *   would rather walk the whole list in that order), then sorted (a search that finds no brand
 *   reads nothing);
 * - many: the list's own order walked (its index), the brand tested against the array of found
 *   brands, until `pageMax` are theirs.
 * Walking the list and testing each row's brand, as before, read the whole list for a search that
 * found one small brand, or none. Admin Payments has its own (payments/service.ts `searchPick`).
 */
export function brandSearchPick(list: { from: SQL; id: SQL; at: SQL; asc: boolean; brandId: SQL; filters: SQL | undefined; pageMax: number }) {
  const q = sql.placeholder('q');
  const where = list.filters ?? sql`true`;
  const dir = sql.raw(list.asc ? 'ASC' : 'DESC');
  const brands = sql`(SELECT count(*) FROM (SELECT 1 FROM ${users} WHERE ${brandMatches(q)} LIMIT ${sql.raw(String(FEW_BRANDS))}) AS "found")`;
  const limit = sql.raw(String(list.pageMax));
  const from = sql`(
      (SELECT "mine"."id", "mine"."at" FROM ${users}
        CROSS JOIN LATERAL (SELECT ${list.id} AS "id", ${list.at} AS "at" FROM ${list.from} WHERE ${list.brandId} = ${users.id} AND ${where} OFFSET 0) AS "mine"
        WHERE ${brandMatches(q)} AND ${brands} < ${sql.raw(String(FEW_BRANDS))}
        ORDER BY "mine"."at" ${dir}, "mine"."id" ${dir} LIMIT ${limit})
      UNION ALL
      (SELECT ${list.id} AS "id", ${list.at} AS "at" FROM ${list.from}
        WHERE ${where} AND ${list.brandId} = ANY (ARRAY(SELECT ${users.id} FROM ${users} WHERE ${brandMatches(q)})) AND ${brands} >= ${sql.raw(String(FEW_BRANDS))}
        ORDER BY ${list.at} ${dir}, ${list.id} ${dir} LIMIT ${limit})
    ) AS "pick"`;
  return { from, order: sql`"pick"."at" ${dir}, "pick"."id" ${dir}` };
}
