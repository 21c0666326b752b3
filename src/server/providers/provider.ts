/**
 * The card payment provider seen from our side. `local` (the default) keeps its sessions in our
 * own database and is paid on the app's built-in test checkout page; `stripe` talks to Stripe.
 * Whatever the provider, our fulfilment re-reads the session through `retrieveSession` before
 * anything changes: an event or a redirect is only a hint.
 */
export interface CheckoutRequest {
  /** Our id for the hold, which becomes the payment's id (sent as client_reference_id). */
  paymentId: string;
  brandId: string;
  opportunityId: string;
  brandEmail: string;
  amountCents: number;
  /** What the card statement / checkout page calls the purchase. */
  productName: string;
  /**
   * An order's lines (issue 46), one line item each; `amountCents` is then their sum and
   * `opportunityId` the first line's. Without it the session has one line: productName, amountCents.
   */
  lines?: { name: string; amountCents: number }[];
  expiresAt: Date;
  successUrl: string;
  cancelUrl: string;
  idempotencyKey: string;
}

interface CreatedCheckout {
  sessionId: string;
  /** Where the browser goes to pay. */
  url: string;
}

export interface ProviderSession {
  id: string;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  /** The provider's payment reference (Stripe: PaymentIntent id), once there is one. */
  providerRef: string | null;
  clientReferenceId: string | null;
  amountCents: number | null;
  currency: string | null;
}

export interface RefundRequest {
  providerRef: string;
  amountCents: number;
  /** The payment id: a retried or concurrent refund of the same payment is one refund. */
  idempotencyKey: string;
}

/** The parts of a verified webhook event we use; everything else is re-read from the provider. */
export interface WebhookEvent {
  id: string;
  type: string;
  /** The id of the event's object (a checkout session id for checkout.session.*). */
  objectId: string | null;
  /** For charge events: the payment reference the charge belongs to. */
  providerRef: string | null;
}

/** Thrown by verifyWebhook when the signature or timestamp does not check out. */
export class WebhookSignatureError extends Error {}
/** Thrown by verifyWebhook when a correctly signed event lacks what every event has (an id, a type). */
export class WebhookPayloadError extends Error {}

export interface PaymentProvider {
  readonly name: 'test' | 'stripe';
  /**
   * For a provider whose session is derived from our id and created nowhere (the built-in one):
   * the session known before the slot is reserved, so the hold is written once, with its URL.
   */
  precomputedCheckout?(paymentId: string): CreatedCheckout;
  createCheckout(req: CheckoutRequest): Promise<CreatedCheckout>;
  /** The provider's current truth about a session; null when it does not know the id. */
  retrieveSession(sessionId: string): Promise<ProviderSession | null>;
  /** Closes an open session so it can no longer be paid (a brand cancelled). */
  expireSession(sessionId: string): Promise<void>;
  /** A full refund of the payment. */
  refund(req: RefundRequest): Promise<{ refundId: string }>;
  /** Whether the payment has been refunded in full on the provider's side (e.g. from its dashboard). */
  isRefunded(providerRef: string): Promise<boolean>;
  verifyWebhook(rawBody: Buffer, signature: string | undefined, now?: Date): WebhookEvent;
}
