import { z } from 'zod';
import { PUBLICATION_HEALTHS } from '../publication';
import { adminSearchQuery } from './admin-search';

const LIVE_URL_MESSAGE = 'Enter the address of the live article (https://…)';
const LIVE_URL_MAX = 2048;

/** A bare domain ("outlet.com/story") is read as https; anything but http(s) is refused. */
function normaliseLiveUrl(value: string): string | null {
  const text = value.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.toString();
  } catch {
    return null;
  }
}

const liveUrl = z
  .string({ error: LIVE_URL_MESSAGE })
  .max(LIVE_URL_MAX, LIVE_URL_MESSAGE)
  .transform((value, ctx) => {
    const url = normaliseLiveUrl(value);
    if (!url) {
      ctx.addIssue({ code: 'custom', message: LIVE_URL_MESSAGE });
      return z.NEVER;
    }
    return url;
  });

const overrideReason = z.string({ error: 'The reason must be text' }).trim().max(1000, 'The reason can be at most 1000 characters').optional();

/**
 * The optional body of a release (POST …/release, PATCH …/status with status "released"): the live
 * article and, to publish although its check found problems, a written reason.
 */
export const publishRequestSchema = z.object({ liveUrl: liveUrl.optional(), overrideReason });

/** PUT /api/admin/payments/{id}/publication */
export const publicationUrlSchema = z.object({ liveUrl, overrideReason });

/** POST /api/admin/payments/{id}/publication/check: a URL to try, or none (the live article's check, now) */
export const publicationCheckSchema = z.object({ liveUrl: liveUrl.optional() });

/** GET /api/admin/placements query */
export const placementsQuerySchema = z.object({
  health: z.enum(PUBLICATION_HEALTHS, { error: 'Unknown health' }).optional(),
  /** the brands the admins' search finds, as Projects and Payments (admin-search.ts) */
  q: adminSearchQuery,
});
