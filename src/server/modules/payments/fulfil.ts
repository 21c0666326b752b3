import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { processedWebhookEvents } from '../../db/schema';
import type { PaymentProvider, WebhookEvent } from '../../providers/provider';
import { syncExternalRefund } from './refunds';
import { TEST_INVOICING, type InvoiceSettings } from '../invoices/service';
import { fulfilPurchase, purchaseForSession, type FulfilOutcome } from './purchase';
import { now as clockNow } from '../../lib/clock';

export type { FulfilOutcome } from './purchase';

/**
 * Brings our records in line with the provider's truth about one checkout session. The only
 * input is the session id: the session itself is re-read from the provider, and the purchase it
 * pays for (a "Pay now" hold or a cart's order) is fulfilled by fulfilPurchase (purchase.ts).
 */
export async function fulfilCheckout(
  db: Db,
  provider: PaymentProvider,
  sessionId: string,
  now: Date = clockNow(),
  opts: { paymentFailed?: boolean; invoicing?: InvoiceSettings } = {},
): Promise<FulfilOutcome> {
  const session = await provider.retrieveSession(sessionId);
  if (!session) return { outcome: 'unknown' };
  const purchase = await purchaseForSession(db, session);
  if (!purchase) return { outcome: 'unknown' };
  return fulfilPurchase(db, provider, session, purchase, now, opts);
}

/** A verified provider event. Each event id is handled once; the handlers are idempotent anyway. */
export async function handleWebhookEvent(
  db: Db,
  provider: PaymentProvider,
  event: WebhookEvent,
  now: Date = clockNow(),
  invoicing: InvoiceSettings = TEST_INVOICING,
): Promise<{ handled: boolean; mismatch?: string }> {
  const [seen] = await db.select({ id: processedWebhookEvents.id }).from(processedWebhookEvents).where(eq(processedWebhookEvents.id, event.id));
  if (seen) return { handled: false };
  let mismatch: string | undefined;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.expired':
      if (event.objectId) {
        const result = await fulfilCheckout(db, provider, event.objectId, now, { invoicing });
        if (result.outcome === 'mismatch') mismatch = result.reason;
      }
      break;
    case 'checkout.session.async_payment_failed':
      if (event.objectId) await fulfilCheckout(db, provider, event.objectId, now, { paymentFailed: true, invoicing });
      break;
    case 'charge.refunded':
      if (event.providerRef) await syncExternalRefund(db, provider, event.providerRef, now);
      break;
    default:
      break;
  }
  // recorded only once handled: an event that failed half-way is handled again when redelivered
  await db.insert(processedWebhookEvents).values({ id: event.id, type: event.type }).onConflictDoNothing();
  return { handled: true, ...(mismatch ? { mismatch } : {}) };
}
