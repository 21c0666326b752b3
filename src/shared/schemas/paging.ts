import { z } from 'zod';

const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 200;
const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${PAGE_LIMIT_MAX}`;

/** `?limit=&cursor=` of a paged list (see src/server/lib/paging.ts). */
export const pageQuerySchema = z.object({
  limit: z
    .string({ error: LIMIT_MESSAGE })
    .regex(/^\d{1,4}$/, LIMIT_MESSAGE)
    .optional()
    .transform((v) => (v === undefined ? PAGE_LIMIT_DEFAULT : Number(v)))
    .pipe(z.number().int().min(1, LIMIT_MESSAGE).max(PAGE_LIMIT_MAX, LIMIT_MESSAGE))
    .describe(`how many items a page holds: 1 to ${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT})`),
  cursor: z.string({ error: 'cursor must be a single value' }).max(500, 'This page link is no longer valid; reload the list from the start')
    .optional()
    .describe('where the page starts: the value in the previous page’s `Link: rel="next"` (opaque)'),
});
