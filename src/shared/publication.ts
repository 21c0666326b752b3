/**
 * Publication: the live article a brand paid for, its checks and the guarantee that watches it
 * (issue 17). The shapes the API answers with (their schemas: schemas/responses/publication.ts),
 * shared by server and client.
 */

import type { z } from 'zod';
import type {
  adminPlacementItemSchema,
  placementCountsSchema,
  publicationCheckResultSchema,
  publicationSchema,
} from './schemas/responses/publication';

export const PUBLICATION_HEALTHS = ['unverified', 'ok', 'warning', 'issue', 'refunded'] as const;
export type PublicationHealth = (typeof PUBLICATION_HEALTHS)[number];

/** The kinds of link an outlet may promise. */
export type { LinkType } from './catalogue';
import type { LinkType } from './catalogue';
export type LinkRel = LinkType | 'ugc';

export const CHECK_PROBLEM_CODES = [
  'blocked_address',
  'blocked_port',
  'unreachable',
  'timeout',
  'http_error',
  'too_large',
  'not_html',
  'noindex',
  'link_missing',
  'rel_mismatch',
  'too_many_redirects',
  'bad_url',
  'text_changed',
] as const;
export type CheckProblemCode = (typeof CHECK_PROBLEM_CODES)[number];

/** One check of the live page. */
export type PublicationCheck = z.infer<typeof publicationCheckResultSchema>;

/** A placement's publication as my-articles and admin items carry it (null before publication). */
export type Publication = z.infer<typeof publicationSchema>;

/** GET /api/admin/placements item: a published placement and its health. */
export type AdminPlacementItem = z.infer<typeof adminPlacementItemSchema>;

/** GET /api/admin/placements/counts: placements by health, and the open cases (the sidebar's count). */
export type PlacementCounts = z.infer<typeof placementCountsSchema>;

/** Body of a release with a live link (POST …/release, PATCH …/status) and of PUT …/publication. */
export interface PublishRequest {
  liveUrl?: string;
  overrideReason?: string;
}

/** Problems block a release unless a reason is given; warnings never do. */
export const isBlocking = (code: CheckProblemCode) => code !== 'rel_mismatch' && code !== 'text_changed';
