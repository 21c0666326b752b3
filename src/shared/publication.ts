/**
 * Publication: the live article a brand paid for, its checks and the guarantee that watches it
 * (issue 17). The shapes the API answers with (their schemas: schemas/responses/publication.ts),
 * shared by server and client.
 */

import type { z } from 'zod';
import type {
  livePlacementItemSchema,
  placementCountsSchema,
  publicationCheckResultSchema,
  publicationSchema,
} from './schemas/responses/publication';
import type { CheckProblemCode } from './enums';

// the lists themselves live in the leaf enums.ts, which the response schemas build on
export { PUBLICATION_HEALTHS } from './enums';
export type { CheckProblemCode, PublicationHealth } from './enums';

/**
 * A release by the spec's call, which checks no live page (issue 57), in the words of the timeline,
 * the audit log and the admin's placement page and Payments row.
 */
export const RELEASED_WITHOUT_URL = 'Released without a live URL';
export const RELEASED_WITHOUT_APPROVAL = 'Released without a live URL or the brand’s approval';
/** What a release went without, said (`releasedWithout` of a publication or a payment); null: nothing. */
export const releasedWithoutText = (without: readonly string[] | undefined): string | null =>
  without?.includes('approval') ? RELEASED_WITHOUT_APPROVAL : without?.includes('live_url') ? RELEASED_WITHOUT_URL : null;

/** The kinds of link an outlet may promise. */
export type { LinkType } from './catalogue';
import type { LinkType } from './catalogue';
export type LinkRel = LinkType | 'ugc';

/** One check of the live page. */
export type PublicationCheck = z.infer<typeof publicationCheckResultSchema>;

/** A placement's publication as my-articles and admin items carry it (null before publication). */
export type Publication = z.infer<typeof publicationSchema>;

/** GET /api/admin/placements item: a published placement and its health. */
export type LivePlacementItem = z.infer<typeof livePlacementItemSchema>;

/** GET /api/admin/placements/counts: placements by health, and the open cases (the sidebar's count). */
export type PlacementCounts = z.infer<typeof placementCountsSchema>;

/** Body of a release with a live link (POST …/release, PATCH …/status) and of PUT …/publication. */
export interface PublishRequest {
  liveUrl?: string;
  overrideReason?: string;
}

/** Problems block a release unless a reason is given; warnings never do. */
export const isBlocking = (code: CheckProblemCode) => code !== 'rel_mismatch' && code !== 'text_changed';
