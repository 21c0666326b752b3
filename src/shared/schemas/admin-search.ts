import { z } from 'zod';

/** The longest search an admin list takes (the search box stops there too). */
export const ADMIN_SEARCH_MAX = 200;
const TOO_LONG = `q must be at most ${ADMIN_SEARCH_MAX} characters`;

/**
 * `?q=` of the admin lists (Projects, Payments, Approvals): a piece of a brand's name, brand name or
 * e-mail. Trimmed; blank means no search, so `?q=` and `?q=%20` answer the whole list.
 */
export const adminSearchQuery = z
  .string({ error: 'q must be given once' })
  .transform((v) => v.trim())
  .pipe(z.string().max(ADMIN_SEARCH_MAX, TOO_LONG))
  .transform((v) => v || undefined)
  .optional();

/** The query of a list or its counts that takes nothing but the search. */
export const adminSearchQuerySchema = z.object({ q: adminSearchQuery });
