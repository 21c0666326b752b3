/** Payments and escrow: the shapes the API answers with, shared by server and client. */

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

export type CheckoutStatus = 'open' | 'completed' | 'expired' | 'cancelled';
export type RefundReason = 'admin' | 'guarantee' | 'sold_out' | 'provider';

/**
 * How long a checkout holds its slot: Stripe refuses an expiry under 30 minutes from its own clock,
 * so one extra minute covers the time the request takes and clock skew.
 */
export const CHECKOUT_HOLD_SECONDS = 31 * 60;
/** Where the provider sends the brand back (appended to PUBLIC_URL for Stripe). */
export const CHECKOUT_SUCCESS_PATH = '/brand/my-articles?checkout=success';
export const CHECKOUT_CANCEL_PATH = '/brand/opportunities?checkout=cancelled';

/** GET /api/payments/checkout/:sessionId — the built-in checkout page's data. */
export interface CheckoutView {
  sessionId: string;
  paymentId: string;
  status: CheckoutStatus;
  /** decimal string, e.g. "1250.00" */
  amount: string;
  expiresAt: string;
  opportunityId: string;
  title: string;
  outletName: string;
}

/** A payment as the API returns it (dates as ISO strings, money as decimal strings). */
export interface PaymentDto {
  id: string;
  brandId: string;
  opportunityId: string;
  stripePaymentId: string;
  amount: string;
  status: PaymentStatus;
  draftReviewStatus: DraftReviewStatus;
  draftDocumentUrl: string | null;
  draftDocumentFile: string | null;
  brandFeedback: string | null;
  refundReason: RefundReason | null;
  paidAt: string;
  releasedAt: string | null;
  refundedAt: string | null;
  createdAt: string;
}

/** GET /api/brand/payments item. */
export interface BrandPaymentItem extends PaymentDto {
  opportunity: { id: string; title: string; outletName: string; type: string[]; priceUsd: string };
}

/** GET /api/admin/payments item. */
export interface AdminPaymentItem extends PaymentDto {
  opportunity: { id: string; title: string; outletName: string; priceUsd: string };
  user: { id: string; name: string | null; brandName: string | null; email: string };
}

/** GET /api/admin/payments/totals — sums of the opportunity price over paid / released payments. */
export interface PaymentTotals {
  held: string;
  released: string;
}

/** Spec: the brand's payment history shows the first 20 characters followed by "...". */
export const shortPaymentId = (id: string) => `${id.slice(0, 20)}...`;
/** Spec: the admin's release choices show the last 8 characters. */
export const paymentIdTail = (id: string) => id.slice(-8);

/** Spec §4: the payment history badge. */
export function paymentBadge(p: { status: PaymentStatus; draftReviewStatus: DraftReviewStatus }): 'Released' | 'Needs Review' | 'Refunded' | 'Pending' {
  if (p.status === 'released') return 'Released';
  if (p.status === 'refunded') return 'Refunded';
  if (p.draftReviewStatus === 'pending_brand_review' || p.draftReviewStatus === 'edits_requested' || p.draftReviewStatus === 'edits_complete') {
    return 'Needs Review';
  }
  return 'Pending';
}
