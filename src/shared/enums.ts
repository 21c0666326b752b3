/**
 * The lists of words the API answers with and the database stores (its enums): statuses, kinds,
 * sides, tabs. A leaf: it imports nothing, so the response schemas (schemas/responses/) build on it
 * while the files of each thing (payment.ts, opportunity.ts, …) import their answers' types from
 * those schemas and re-export these lists with their labels and helpers. Import them from there.
 */

// Payments (payment.ts)
export const PAYMENT_STATUSES = ['paid', 'released', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const DRAFT_REVIEW_STATUSES = [
  'awaiting_brand_brief',
  'pending_brand_review',
  'edits_requested',
  'edits_complete',
  'approved',
] as const;
export type DraftReviewStatus = (typeof DRAFT_REVIEW_STATUSES)[number];

/**
 * Where a placement stands (its work, not its money): in progress until published; refunded when
 * its payment is refunded. It moves with the payment's status, in the same transaction.
 */
export const PLACEMENT_STATES = ['in_progress', 'published', 'refunded'] as const;
export type PlacementState = (typeof PLACEMENT_STATES)[number];

export const CHECKOUT_STATUSES = ['open', 'completed', 'expired', 'cancelled'] as const;
export const REFUND_REASONS = ['admin', 'guarantee', 'sold_out', 'provider', 'not_restored', 'declined', 'swap', 'cancelled', 'dispute', 'late_credit', 'late_cancel'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

// Opportunities (opportunity.ts)
export const OPPORTUNITY_TYPES = [
  'profile_article',
  'editorial_feature',
  'advertorial_brand_voice',
  'listicle',
] as const;
export type OpportunityType = (typeof OPPORTUNITY_TYPES)[number];

export const OPPORTUNITY_STATUSES = ['available', 'claimed', 'in_progress', 'published', 'full'] as const;
export type OpportunityStatus = (typeof OPPORTUNITY_STATUSES)[number];

// Publication (publication.ts)
export const PUBLICATION_HEALTHS = ['unverified', 'ok', 'warning', 'issue', 'refunded'] as const;
export type PublicationHealth = (typeof PUBLICATION_HEALTHS)[number];
/**
 * What a release went without (issue 57): `live_url`, released by the spec's call with no live URL,
 * so no page was checked; `approval`, the brand had not approved the draft (a guard a release with
 * a URL keeps).
 */
export const RELEASE_SKIPS = ['live_url', 'approval'] as const;
export type ReleaseSkip = (typeof RELEASE_SKIPS)[number];

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

// The timeline (timeline.ts) and the conversation (messages.ts)
/**
 * A placement's timeline entries that no transition of its machine writes: the payment, the brief's
 * drafts, the publication and its checks, the reminders. The whole list, `TIMELINE_KINDS`, adds the
 * machine's own kinds (one per event) from its table: placement-machine.ts.
 */
export const TIMELINE_ENTRY_KINDS = [
  'paid',
  'brief_saved',
  'published',
  'check_failed',
  'case_opened',
  'case_closed',
  'live_url_changed',
  'brief_reminder',
  'review_reminder',
  // issue 59: a reminder before an automatic step (the guarantee's refund, a cancellation granted, a swap's refund)
  'deadline_reminder',
] as const;
export type TimelineEntryKind = (typeof TIMELINE_ENTRY_KINDS)[number];

/** An edit request beyond the included rounds (issue 47): awaiting the editorial team, then its answer. */
export const REVISION_REQUEST_STATUSES = ['pending', 'accepted', 'declined'] as const;

/** A cancellation after writing started (issue 47): requested, then granted (in full or in part) or refused. */
export const CANCELLATION_STATUSES = ['requested', 'granted', 'refused'] as const;
export const CANCELLATION_OUTCOMES = ['refund_full', 'refund_partial', 'refuse'] as const;
export type CancellationOutcome = (typeof CANCELLATION_OUTCOMES)[number];

/** A dispute (issue 47): what it is about, what the brand asks for, where it stands, how it ended. */
export const DISPUTE_REASONS = ['not_published', 'link_missing', 'link_changed', 'not_as_briefed', 'other'] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];
/** The reasons about the live link: decided by Byline's own checks during the publication guarantee. */
export const LINK_DISPUTE_REASONS: readonly DisputeReason[] = ['not_published', 'link_missing', 'link_changed'];
export const DISPUTE_OUTCOMES = ['refund_full', 'refund_partial', 'correction'] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];
export const DISPUTE_STATUSES = ['open', 'offered', 'escalated', 'resolved'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
export const DISPUTE_ACTIONS = ['accept', 'offer', 'reject'] as const;
export const DISPUTE_DECISIONS = ['refund_full', 'refund_partial', 'reject'] as const;
/** How a dispute ended: money back in full or in part, a correction agreed, the article restored, or nothing. */
export const DISPUTE_RESOLUTIONS = ['refunded_full', 'refunded_partial', 'corrected', 'restored', 'rejected'] as const;
export type DisputeResolution = (typeof DISPUTE_RESOLUTIONS)[number];

export const ACTOR_TYPES = ['brand', 'admin', 'system'] as const;

/** The two sides of a conversation: the brand, and the editorial team (every admin). */
export const MESSAGE_SIDES = ['brand', 'admin'] as const;
export type MessageSide = (typeof MESSAGE_SIDES)[number];

// The placements' tabs (schemas/brief.ts)
/**
 * Spec §4 brand tab placement; the server filters My Articles by it. The spec's three, with
 * "approved" before Completed (issue 43: an approved draft not yet published is in none of the
 * spec's tabs), then "refunded" (issue 20: nor is a refunded purchase; shown when there is one).
 */
export const ARTICLE_TABS = ['pending', 'needs-review', 'approved', 'completed', 'refunded'] as const;
export type ArticleTab = (typeof ARTICLE_TABS)[number];

/**
 * Spec §4 admin tab placement; the server filters Admin Projects by it. The spec's three, then
 * "published" and "refunded" (issue 20: every state has a tab; refunded ones were in none).
 */
export const PROJECT_TABS = ['awaiting', 'review', 'approved', 'published', 'refunded'] as const;
export type ProjectTab = (typeof PROJECT_TABS)[number];
