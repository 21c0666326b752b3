import type { MyArticleItem } from '@shared/schemas/brief';
import type { DraftReviewStatus } from '@shared/payment';

export type ArticleTab = 'pending' | 'needs-review' | 'completed';

const UNDER_REVIEW: DraftReviewStatus[] = ['pending_brand_review', 'edits_requested', 'edits_complete'];

export const hasDraft = (a: MyArticleItem) => Boolean(a.payment.draftDocumentUrl || a.payment.draftDocumentFile);

/** The brand may approve or ask for edits: a held payment whose attached draft is under review. */
export const canReview = (a: MyArticleItem) => a.payment.status === 'paid' && UNDER_REVIEW.includes(a.payment.draftReviewStatus) && hasDraft(a);

/**
 * Spec §4 tab placement. Two cases the spec leaves open: an approved draft waits for the admin to
 * publish, so it stays under Needs Review (marked Approved, without actions) until the payment is
 * released; a refunded purchase is over, so it goes to Completed with a Refunded badge.
 */
export function tabOf(a: MyArticleItem): ArticleTab {
  if (a.payment.status !== 'paid') return 'completed';
  return a.payment.draftReviewStatus === 'awaiting_brand_brief' ? 'pending' : 'needs-review';
}

export type CardStatus = 'Released' | 'Refunded' | 'Approved' | 'Needs Review' | 'Pending';

export function cardStatus(a: MyArticleItem): CardStatus {
  if (a.payment.status === 'released') return 'Released';
  if (a.payment.status === 'refunded') return 'Refunded';
  if (a.payment.draftReviewStatus === 'approved') return 'Approved';
  if (UNDER_REVIEW.includes(a.payment.draftReviewStatus)) return 'Needs Review';
  return 'Pending';
}

export const CARD_STATUS_VARIANT = {
  Released: 'success',
  Refunded: 'destructive',
  Approved: 'success',
  'Needs Review': 'info',
  Pending: 'warning',
} as const;

export const REVIEW_LABELS: Record<DraftReviewStatus, string> = {
  awaiting_brand_brief: 'Awaiting brief',
  pending_brand_review: 'Awaiting your review',
  edits_requested: 'Edits requested',
  edits_complete: 'Edits complete',
  approved: 'Approved',
};

export const REVIEW_VARIANT = {
  awaiting_brand_brief: 'secondary',
  pending_brand_review: 'info',
  edits_requested: 'warning',
  edits_complete: 'info',
  approved: 'success',
} as const;
