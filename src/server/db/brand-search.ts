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
