import Stripe from 'stripe';
import { WebhookPayloadError, WebhookSignatureError, type PaymentProvider, type ProviderSession } from './provider';

/** How far a webhook's signed timestamp may be from our clock, either way (Stripe's own default). */
const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Point the SDK at another server (tests use a stand-in on 127.0.0.1). */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

/**
 * The `t=` of a Stripe-Signature header (null when missing or not a number). A header with more
 * than one is refused: the SDK verifies the signature with the last, so a check of the first would
 * let a signature dated in the future through.
 */
function signedTimestamp(header: string): number | null {
  const stamps = header.split(',').filter((item) => item.split('=')[0].trim() === 't');
  if (stamps.length > 1) throw new WebhookSignatureError('Stripe-Signature header has more than one timestamp');
  const value = stamps[0]?.split('=')[1] ?? '';
  return /^\d{1,12}$/.test(value) ? Number(value) : null;
}

const idOf = (v: string | { id: string } | null | undefined) => (v == null ? null : typeof v === 'string' ? v : v.id);

export function stripeProvider(opts: StripeOptions): PaymentProvider {
  const stripe = new Stripe(opts.secretKey, {
    ...(opts.host ? { host: opts.host } : {}),
    ...(opts.port ? { port: opts.port } : {}),
    ...(opts.protocol ? { protocol: opts.protocol } : {}),
    telemetry: false,
  });

  return {
    name: 'stripe',

    async createCheckout(req) {
      const metadata = { paymentId: req.paymentId, brandId: req.brandId, opportunityId: req.opportunityId };
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: (req.lines ?? [{ name: req.productName, amountCents: req.amountCents }]).map((line) => ({
            quantity: 1,
            price_data: { currency: 'usd', unit_amount: line.amountCents, product_data: { name: line.name } },
          })),
          client_reference_id: req.paymentId,
          customer_email: req.brandEmail,
          metadata,
          // the charge carries our ids too, so a refund made in Stripe's dashboard can be traced
          payment_intent_data: { metadata },
          expires_at: Math.floor(req.expiresAt.getTime() / 1000),
          success_url: req.successUrl,
          cancel_url: req.cancelUrl,
        },
        { idempotencyKey: req.idempotencyKey },
      );
      if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
      return { sessionId: session.id, url: session.url };
    },

    async retrieveSession(sessionId): Promise<ProviderSession | null> {
      try {
        const s = await stripe.checkout.sessions.retrieve(sessionId);
        return {
          id: s.id,
          status: s.status === 'complete' ? 'complete' : s.status === 'expired' ? 'expired' : 'open',
          paymentStatus: s.payment_status === 'paid' ? 'paid' : s.payment_status === 'no_payment_required' ? 'no_payment_required' : 'unpaid',
          providerRef: idOf(s.payment_intent),
          clientReferenceId: s.client_reference_id,
          amountCents: s.amount_total,
          currency: s.currency,
        };
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) return null;
        throw err;
      }
    },

    async expireSession(sessionId) {
      await stripe.checkout.sessions.expire(sessionId);
    },

    async refund(req) {
      // the payment's amount: all of a single purchase's charge, one line of an order's (issue 46);
      // the same parameters every time so the idempotency key always matches
      const refund = await stripe.refunds.create({ payment_intent: req.providerRef, amount: req.amountCents }, { idempotencyKey: req.idempotencyKey });
      return { refundId: refund.id };
    },

    async isRefunded(providerRef) {
      const pi = await stripe.paymentIntents.retrieve(providerRef, { expand: ['latest_charge'] });
      const charge = pi.latest_charge;
      return typeof charge === 'object' && charge !== null && charge.refunded === true;
    },

    verifyWebhook(rawBody, signature, now = new Date()) {
      if (!signature) throw new WebhookSignatureError('Missing Stripe-Signature header');
      // the SDK refuses old timestamps only; one from the future is as much a replay risk
      const timestamp = signedTimestamp(signature);
      if (timestamp === null || Math.abs(now.getTime() / 1000 - timestamp) > WEBHOOK_TOLERANCE_SECONDS) {
        throw new WebhookSignatureError('Webhook timestamp outside the tolerance');
      }
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, opts.webhookSecret, WEBHOOK_TOLERANCE_SECONDS, undefined, Math.floor(now.getTime() / 1000));
      } catch (err) {
        throw new WebhookSignatureError(err instanceof Error ? err.message : 'Invalid signature');
      }
      if (typeof event.id !== 'string' || !event.id || typeof event.type !== 'string') {
        throw new WebhookPayloadError('Webhook event has no id or type');
      }
      const object = event.data?.object as { id?: unknown; payment_intent?: unknown } | undefined;
      return {
        id: event.id,
        type: event.type,
        objectId: typeof object?.id === 'string' ? object.id : null,
        providerRef: typeof object?.payment_intent === 'string' ? object.payment_intent : null,
      };
    },
  };
}
