/**
 * Publication: the live article a brand paid for, its checks and the guarantee that watches it
 * (issue 17). The shapes the API answers with, shared by server and client.
 */

export const PUBLICATION_HEALTHS = ['unverified', 'ok', 'warning', 'issue', 'refunded'] as const;
export type PublicationHealth = (typeof PUBLICATION_HEALTHS)[number];

/** The kinds of link an outlet may promise. */
export type { LinkType } from './catalogue';
import type { LinkType } from './catalogue';
export type LinkRel = LinkType | 'ugc';

export type CheckProblemCode =
  | 'blocked_address'
  | 'blocked_port'
  | 'unreachable'
  | 'timeout'
  | 'http_error'
  | 'too_large'
  | 'not_html'
  | 'noindex'
  | 'link_missing'
  | 'rel_mismatch'
  | 'too_many_redirects'
  | 'bad_url'
  | 'text_changed';

/** One check of the live page. */
export interface PublicationCheck {
  result: 'pass' | 'warning' | 'fail';
  checkedAt: string;
  httpStatus: number | null;
  finalUrl: string | null;
  indexable: boolean | null;
  link: { found: boolean; rel: LinkRel | null };
  title: string | null;
  problems: { code: CheckProblemCode; message: string }[];
}

/** A placement's publication as my-articles and admin items carry it (null before publication). */
export interface Publication {
  /** the live article; null when it was released without a live link */
  url: string | null;
  health: PublicationHealth;
  /** when the live page first passed its check (or was accepted with a reason) */
  verifiedAt: string | null;
  guaranteeEndsAt: string;
  /** the admin's reason for publishing although the check found problems */
  overrideReason: string | null;
  lastCheck: PublicationCheck | null;
  /** an open case: a confirmed problem the outlet must fix by `restoreBy`, or the brand is refunded */
  issue: { reason: string; openedAt: string; restoreBy: string; evidence: PublicationCheck } | null;
  /** when the last case closed because the article passed its check again ("Restored") */
  restoredAt: string | null;
}

/** GET /api/admin/placements item: a published placement and its health. */
export interface AdminPlacementItem {
  paymentId: string;
  title: string;
  outletName: string;
  brand: { id: string; name: string | null; brandName: string | null; email: string };
  /** the brand's website as its profile has it: the host a link is looked for */
  brandWebsite: string | null;
  amount: string;
  publishedAt: string;
  nextCheckAt: string | null;
  /** a failing check not confirmed yet (a case opens if the next one, an hour later, fails too) */
  failingSince: string | null;
  publication: Publication;
}

/** GET /api/admin/placements/counts: placements by health, and the open cases (the sidebar's count). */
export type PlacementCounts = Record<PublicationHealth | 'all' | 'issues', number>;

/** Body of a release with a live link (POST …/release, PATCH …/status) and of PUT …/publication. */
export interface PublishRequest {
  liveUrl?: string;
  overrideReason?: string;
}

/** Problems block a release unless a reason is given; warnings never do. */
export const isBlocking = (code: CheckProblemCode) => code !== 'rel_mismatch' && code !== 'text_changed';
