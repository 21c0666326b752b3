import { z } from 'zod';
import { SEARCH_TEXT_MAX } from '../constants';

const TOO_LONG = `q must be at most ${SEARCH_TEXT_MAX} characters`;

/**
 * `?q=` of the admin lists (Projects, Payments, Placements, Approvals): a piece of a brand's name, brand name or
 * e-mail. Trimmed; blank means no search, so `?q=` and `?q=%20` answer the whole list.
 */
export const adminSearchQuery = z
  .string({ error: 'q must be given once' })
  .transform((v) => v.trim())
  .pipe(z.string().max(SEARCH_TEXT_MAX, TOO_LONG))
  .transform((v) => v || undefined)
  .optional();

/** The query of a list or its counts that takes nothing but the search. */
export const adminSearchQuerySchema = z.object({ q: adminSearchQuery });
