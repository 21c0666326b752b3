import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { checkouts, orders, payments } from '../db/schema';
import { toCents } from '../../shared/money';
import { WebhookSignatureError, type PaymentProvider, type ProviderSession } from './provider';

const LOCAL_SESSION_PREFIX = 'cs_local_';

/** Derived from our hold id, so creating the same checkout twice gives the same session. */
const localSessionId = (paymentId: string) => LOCAL_SESSION_PREFIX + paymentId.replace(/-/g, '');

/**
 * The built-in provider used when no card provider is configured: the session is our own hold
 * row, "paying" on /checkout/{sessionId} records a local payment reference on it
 * (see checkout.ts payTestCheckout), and refunds always succeed.
 */
export function testCheckoutProvider(db: Db): PaymentProvider {
  return {
    name: 'test',

    precomputedCheckout(paymentId) {
      const sessionId = localSessionId(paymentId);
      // relative: the app serves the page itself, under whatever host the brand is using
      return { sessionId, url: `/checkout/${sessionId}` };
    },

    async createCheckout(req) {
      return this.precomputedCheckout!(req.paymentId);
    },

    async retrieveSession(sessionId): Promise<ProviderSession | null> {
      // a single checkout's hold, or a cart's order: either is the session
      const [single] = await db.select().from(checkouts).where(eq(checkouts.providerSessionId, sessionId));
      const hold = single ?? (await db.select().from(orders).where(eq(orders.providerSessionId, sessionId)))[0];
      if (!hold) return null;
      const paid = Boolean(hold.testProviderRef);
      const expired = !paid && (hold.status === 'expired' || hold.status === 'cancelled');
      return {
        id: sessionId,
        status: paid ? 'complete' : expired ? 'expired' : 'open',
        paymentStatus: paid ? 'paid' : 'unpaid',
        providerRef: hold.testProviderRef,
        clientReferenceId: hold.id,
        amountCents: toCents(hold.amount),
        currency: 'usd',
      };
    },

    async expireSession() {
      // the hold row is the session: closing the hold (done by the caller) is all there is
    },

    async refund(req) {
      return { refundId: 're_local_' + createHash('sha256').update(req.idempotencyKey).digest('hex').slice(0, 24) };
    },

    async isRefunded(providerRef) {
      const [row] = await db.select({ status: payments.status }).from(payments).where(eq(payments.stripePaymentId, providerRef));
      return row?.status === 'refunded';
    },

    verifyWebhook() {
      throw new WebhookSignatureError('Webhooks are not configured');
    },
  };
}
