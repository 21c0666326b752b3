/**
 * Payments and escrow: the statuses, and the shapes the API answers with (their schemas:
 * schemas/responses/payment.ts), shared by server and client.
 */

import type { z } from 'zod';
import type {
  adminPaymentItemSchema,
  brandPaymentItemSchema,
  checkoutViewSchema,
  paymentAttentionItemSchema,
  paymentSchema,
  paymentTotalsSchema,
} from './schemas/responses/payment';
import type { DraftReviewStatus, PaymentStatus } from './enums';
import { toCents } from './money';

// the lists themselves live in the leaf enums.ts, which the response schemas build on
export { CHECKOUT_STATUSES, DRAFT_REVIEW_STATUSES, PAYMENT_STATUSES, PLACEMENT_STATES, REFUND_REASONS } from './enums';
export type { DraftReviewStatus, PaymentStatus, PlacementState, RefundReason } from './enums';

/** Spec §4: a draft under the brand's review, which the brand may approve or ask edits for. */
export const REVIEW_STATUSES = ['pending_brand_review', 'edits_requested', 'edits_complete'] as const satisfies readonly DraftReviewStatus[];
export const isUnderReview = (s: DraftReviewStatus) => (REVIEW_STATUSES as readonly DraftReviewStatus[]).includes(s);

/**
 * How long a checkout holds its slot: Stripe refuses an expiry under 30 minutes from its own clock,
 * so one extra minute covers the time the request takes and clock skew.
 */
export const CHECKOUT_HOLD_SECONDS = 31 * 60;
/** Where the provider sends the brand back (appended to PUBLIC_URL for Stripe). */
export const CHECKOUT_SUCCESS_PATH = '/brand/my-articles?checkout=success';
export const CHECKOUT_CANCEL_PATH = '/brand/opportunities?checkout=cancelled';
/** Where a paid cart's order lands (issue 46): its own page, which says "Payment received". */
export const orderSuccessPath = (orderId: string) => `/brand/orders/${orderId}?checkout=success`;
/** Where a cart's cancelled checkout goes back to. */
export const CART_CANCEL_PATH = '/brand/cart?checkout=cancelled';

/** GET /api/payments/checkout/:sessionId — the built-in checkout page's data. */
export type CheckoutView = z.infer<typeof checkoutViewSchema>;

/** A payment as the API returns it (dates as ISO strings, money as decimal strings). */
export type PaymentDto = z.infer<typeof paymentSchema>;

/** GET /api/brand/payments item. */
export type BrandPaymentItem = z.infer<typeof brandPaymentItemSchema>;

/** GET /api/admin/payments item. */
export type AdminPaymentItem = z.infer<typeof adminPaymentItemSchema>;

/** GET /api/admin/payments/totals — sums of what was charged for paid / released payments. */
export type PaymentTotals = z.infer<typeof paymentTotalsSchema>;

/** Spec: the brand's payment history shows the first 20 characters followed by "...". */
export const shortPaymentId = (id: string) => `${id.slice(0, 20)}...`;
/** Spec: the admin's release choices show the last 8 characters. */
export const paymentIdTail = (id: string) => id.slice(-8);

/** An approved draft whose money is still held: nothing left for the brand, publication next. */
const AWAITING_PUBLICATION = 'Approved – awaiting publication';

/** The money of a payment a refund may have touched (issue 47): what was charged and what went back. */
interface RefundedMoney {
  amount: string;
  refundedAmount: string;
}

/**
 * Part of the payment went back, not all of it (issue 47): a part refund of a held or released
 * payment, or a cancellation granted with a part refund (refunded, the rest kept). In cents.
 * Without the amounts (a client reviewer's answer, decision 035) nothing says so: false.
 */
export function isPartlyRefunded(p: Partial<RefundedMoney>): boolean {
  if (p.amount === undefined || p.refundedAmount === undefined) return false;
  const refunded = toCents(p.refundedAmount);
  return refunded > 0 && refunded < toCents(p.amount);
}

/** What is left to refund, in cents: what was charged less what went back. */
export const leftToRefund = (p: RefundedMoney): number => toCents(p.amount) - toCents(p.refundedAmount);

/** A refunded payment of which only a part went back reads so, instead of "Refunded". */
export const PARTLY_REFUNDED = 'Partially refunded';

/**
 * Where a placement stands, in the brand's words: the one status its card (My Articles), its page
 * and Payment History show. The spec's badges (Pending, Needs Review, Released, and Refunded), with
 * the approved draft not yet published apart (issue 43: under Pending or Needs Review it read as
 * still waiting on the brand).
 */
export type PlacementStatus = 'Pending' | 'Needs Review' | typeof AWAITING_PUBLICATION | 'Released' | 'Refunded' | typeof PARTLY_REFUNDED;

export function placementStatus(p: { status: PaymentStatus; draftReviewStatus: DraftReviewStatus } & Partial<RefundedMoney>): PlacementStatus {
  if (p.status === 'released') return 'Released';
  if (p.status === 'refunded') return isPartlyRefunded(p) ? PARTLY_REFUNDED : 'Refunded';
  if (p.draftReviewStatus === 'approved') return AWAITING_PUBLICATION;
  if (isUnderReview(p.draftReviewStatus)) return 'Needs Review';
  return 'Pending';
}

/** What each status means (Payment History's guide: the spec's four, the approved draft and a part refund). */
export const PLACEMENT_STATUS_GUIDE: readonly (readonly [PlacementStatus, string])[] = [
  ['Pending', 'Payment received, awaiting draft'],
  ['Needs Review', 'Draft ready for your review'],
  [AWAITING_PUBLICATION, 'Draft approved, publication next'],
  ['Released', 'Approved and published'],
  ['Refunded', 'Refunded to your card'],
  [PARTLY_REFUNDED, 'Part of the payment refunded to your card'],
];

/** Shown on every page, on the built-in checkout and in every e-mail while the test provider runs. */
export const TEST_MODE_NOTICE = 'Test mode: payments are simulated';

/**
 * The test clock in the "Test mode" banner once it moved (issue 59): "Byline's clock: 14 Mar 2027,
 * 09:00 UTC (moved 72 h)". Hours moved are shown whole, days past 72 h as hours still (what was typed).
 */
export function testClockNotice(at: Date, offsetMs: number): string {
  const day = at.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const time = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' });
  const hours = Math.round((offsetMs / 3_600_000) * 10) / 10;
  return `Byline's clock: ${day}, ${time} UTC (moved ${hours} h)`;
}

/** GET /api/admin/payments/attention item: a paid checkout that was not booked (what was charged did not match). */
export type PaymentAttentionItem = z.infer<typeof paymentAttentionItemSchema>;
