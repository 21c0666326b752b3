import type { BrandPlacementItem } from '@shared/schemas/brief';
import type { DraftReviewStatus } from '@shared/payment';
import { may } from '../../life';

/** The server places purchases in tabs (modules/placements/tabs.ts). */
export type { ArticleTab } from '@shared/schemas/brief';

export const hasDraft = (a: BrandPlacementItem) => Boolean(a.payment.draftDocumentUrl || a.payment.draftDocumentFile);

/** The member may approve the draft (and so review it): an attached draft under review, a role that may. */
export const canReview = (a: Pick<BrandPlacementItem, 'life'>) => may(a, 'approve');

/** The member may still change the brief: held, the draft not approved, a role that may (brief.ts refuses otherwise). */
export const briefCanChange = (a: Pick<BrandPlacementItem, 'life'>) => may(a, 'submit_brief');

export const REVIEW_LABELS: Record<DraftReviewStatus, string> = {
  awaiting_brand_brief: 'Brief pending',
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
