import type { BrandPlacementItem } from '@shared/schemas/brief';
import { isUnderReview, type DraftReviewStatus } from '@shared/payment';

/** The server places purchases in tabs (modules/placements/tabs.ts). */
export type { ArticleTab } from '@shared/schemas/brief';

export const hasDraft = (a: BrandPlacementItem) => Boolean(a.payment.draftDocumentUrl || a.payment.draftDocumentFile);

/** The brand may approve or ask for edits: a held payment whose attached draft is under review. */
export const canReview = (a: BrandPlacementItem) => a.payment.status === 'paid' && isUnderReview(a.payment.draftReviewStatus) && hasDraft(a);

/** The brief may still change: the money is held and the draft not approved (brief.ts refuses otherwise). */
export const briefCanChange = (a: BrandPlacementItem) => a.payment.status === 'paid' && a.payment.draftReviewStatus !== 'approved';

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
