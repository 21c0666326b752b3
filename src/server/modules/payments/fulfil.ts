import { REVISIONS_INCLUDED_DEFAULT } from '../../../shared/constants';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { checkouts, payments, placements, processedWebhookEvents } from '../../db/schema';
import type { PaymentProvider, ProviderSession, WebhookEvent } from '../../providers/provider';
import { closeCheckouts, checkoutById, reserveSlot } from './slots';
import { fulfilOrder, orderForSession } from './orders';
import { fulfilSwapTopup } from './swap';
import { completeRefund, syncExternalRefund, type PaymentRow } from './refunds';
import { recordEvent } from '../timeline/service';
import { countEvent } from '../../ops/events';
import { formatUsd, toCents } from '../../../shared/money';
import { issueInvoice, TEST_INVOICING, type InvoiceSettings } from '../invoices/service';
import { appendCharge } from '../ledger/ledger';

export type FulfilOutcome =
  | { outcome: 'unknown' }
  | { outcome: 'pending' }
  | { outcome: 'closed' }
  | { outcome: 'mismatch'; reason: string }
  | { outcome: 'paid'; payment: PaymentRow; created: boolean }
  | { outcome: 'refunded'; payment: PaymentRow; created: boolean };

async function checkoutForSession(db: Db, session: ProviderSession) {
  const [bySession] = await db.select().from(checkouts).where(eq(checkouts.providerSessionId, session.id));
  if (bySession) return bySession;
  // the provider answered before we stored its session id (possible only in a race): use our reference
  if (!session.clientReferenceId || !/^[0-9a-f-]{36}$/i.test(session.clientReferenceId)) return undefined;
  const [byRef] = await db.select().from(checkouts).where(eq(checkouts.id, session.clientReferenceId));
  return byRef && (byRef.providerSessionId === null || byRef.providerSessionId === session.id) ? byRef : undefined;
}

/**
 * Brings our records in line with the provider's truth about one checkout session. The only
 * input is the session id: the session itself is re-read from the provider. Runs once per
 * session however many times and in whatever order it is called:
 * - paid → the hold becomes a `paid` payment (payments.provider_session_id is unique). If the hold
 *   had expired and its slot was given back, the payment takes a free slot, or, when there is none,
 *   is refunded in full automatically (reason sold_out) and shows as Refunded.
 * - expired → the hold is closed and its slot given back.
 * - `paymentFailed` (an async payment failed) and still unpaid → the hold is cancelled.
 */
export async function fulfilCheckout(
  db: Db,
  provider: PaymentProvider,
  sessionId: string,
  now: Date = new Date(),
  opts: { paymentFailed?: boolean; invoicing?: InvoiceSettings } = {},
): Promise<FulfilOutcome> {
  const session = await provider.retrieveSession(sessionId);
  if (!session) return { outcome: 'unknown' };
  const hold = await checkoutForSession(db, session);
  if (!hold) {
    // a cart's order: one session, a line per opportunity (issue 46)
    const order = await orderForSession(db, session);
    if (!order) return { outcome: 'unknown' };
    return fulfilOrder(db, provider, session, order, now, { ...opts, describeCharge });
  }

  const paid = session.status === 'complete' && (session.paymentStatus === 'paid' || session.paymentStatus === 'no_payment_required');
  if (paid) {
    // the provider must have charged exactly what the hold asked for, in dollars
    const expected = toCents(hold.amount);
    const currency = (session.currency ?? '').toLowerCase();
    if (session.amountCents !== expected || currency !== CURRENCY) {
      const reason = `Charged ${describeCharge(session.amountCents, currency)}, expected ${formatUsd(expected)} USD`;
      await flagChargeMismatch(db, hold.id, session, reason, now);
      return { outcome: 'mismatch', reason };
    }
  }
  if (!paid) {
    if (session.status === 'expired') {
      await closeCheckouts(db, checkoutById(hold.id), 'expired', now);
      return { outcome: 'closed' };
    }
    if (opts.paymentFailed && session.status === 'complete') {
      await closeCheckouts(db, checkoutById(hold.id), 'cancelled', now);
      return { outcome: 'closed' };
    }
    return { outcome: 'pending' };
  }

  const result = await db.transaction(async (tx) => {
    // one fulfilment at a time per hold; the others find the payment below
    const [h] = await tx.select().from(checkouts).where(eq(checkouts.id, hold.id)).for('no key update');
    const [existing] = await tx.select().from(payments).where(eq(payments.providerSessionId, session.id));
    if (existing) return { payment: existing, created: false };

    // an open hold (even one past its time that the sweep has not reached) still has its slot
    const holdsSlot = h.status === 'open' || h.status === 'completed' || Boolean(await reserveSlot(tx, h.opportunityId, now, { ignoreDeadline: true }));
    // the difference of a swap for a dearer alternative: no placement of its own (swap.ts)
    if (h.swapOf) return { payment: await fulfilSwapTopup(tx, h, session, holdsSlot, now, opts.invoicing ?? TEST_INVOICING), created: true };
    await tx
      .update(checkouts)
      .set({ status: 'completed', closedAt: now, providerSessionId: session.id })
      .where(eq(checkouts.id, h.id));
    const [payment] = await tx
      .insert(payments)
      .values({
        id: h.id,
        brandId: h.brandId,
        organisationId: h.organisationId,
        clientId: h.clientId,
        opportunityId: h.opportunityId,
        stripePaymentId: session.providerRef ?? session.id,
        providerSessionId: session.id,
        amount: h.amount,
        status: 'paid',
        holdsSlot,
        paidAt: now,
        createdAt: now,
        // sold out while the brand was paying: the money goes straight back
        ...(holdsSlot ? {} : { refundRequestedAt: now, refundReason: 'sold_out' as const }),
      })
      .returning();
    // the placement it pays for: its work, with the payment's id (the spec's paymentId names both)
    await tx.insert(placements).values({
      id: payment.id,
      paymentId: payment.id,
      brandId: payment.brandId,
      organisationId: payment.organisationId,
      clientId: payment.clientId,
      opportunityId: payment.opportunityId,
      createdAt: payment.createdAt,
      revisionsIncluded: opts.invoicing?.revisionsIncluded ?? REVISIONS_INCLUDED_DEFAULT,
    });
    // the money that came in, on the ledger (a sold-out payment's refund follows it there)
    await appendCharge(tx, payment.id, now, payment.brandId);
    // its invoice, numbered in this transaction: a rollback gives the number back
    const invoiceNumber = await issueInvoice(tx, payment.id, opts.invoicing ?? TEST_INVOICING, now);
    // the receipt (a payment that holds its slot) and the audit entry follow the entry (timeline/effects.ts paid)
    await recordEvent(tx, payment.id, 'paid', { type: 'brand', id: payment.brandId }, { amount: payment.amount }, now, { invoiceNumber });
    return { payment, created: true };
  });

  if (result.created) countEvent('payment');
  let payment = result.payment;
  // the automatic sold-out refund (also completes one an earlier run could not finish)
  if (payment.status === 'paid' && !payment.holdsSlot && payment.refundRequestedAt) {
    payment = (await completeRefund(db, provider, payment, now))?.payment ?? payment;
  }
  return { outcome: payment.status === 'refunded' ? 'refunded' : 'paid', payment, created: result.created };
}

const CURRENCY = 'usd';

function describeCharge(cents: number | null, currency: string): string {
  if (cents === null) return 'an unknown amount';
  if (currency === CURRENCY) return `${formatUsd(cents)} USD`;
  return `${cents} minor units of ${currency ? currency.toUpperCase() : 'an unknown currency'}`;
}

/**
 * A paid session whose amount or currency is not the hold's: no placement is booked. The hold is
 * closed (its slot given back) and keeps what was charged, for the admins' "Needs attention" list.
 */
async function flagChargeMismatch(db: Db, holdId: string, session: ProviderSession, reason: string, now: Date) {
  await db.transaction(async (tx) => {
    await tx
      .update(checkouts)
      .set({
        attentionReason: reason,
        chargedAmountCents: session.amountCents,
        chargedCurrency: session.currency,
        chargedProviderRef: session.providerRef,
      })
      .where(eq(checkouts.id, holdId));
    await closeCheckouts(tx, checkoutById(holdId), 'cancelled', now);
  });
}

/** A verified provider event. Each event id is handled once; the handlers are idempotent anyway. */
export async function handleWebhookEvent(
  db: Db,
  provider: PaymentProvider,
  event: WebhookEvent,
  now: Date = new Date(),
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
