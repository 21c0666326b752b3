import { REVISIONS_INCLUDED_DEFAULT } from '../../../shared/constants';
import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { cartLines, checkouts, orders, payments, placements } from '../../db/schema';
import type { PaymentProvider, ProviderSession } from '../../providers/provider';
import { closeCheckouts, checkoutById, reserveSlot, type Tx } from './slots';
import { closeOrder } from './orders';
import { fulfilSwapTopup } from './swap';
import { completeRefund, type PaymentRow } from './refunds';
import { recordEvent } from '../timeline/service';
import { actorOf, recordAudit } from '../org/audit';
import { notifyOrderReceived } from '../../mail/notify';
import { countEvent } from '../../ops/events';
import { formatUsd, toCents } from '../../../shared/money';
import { issueInvoice, issueOrderInvoice, TEST_INVOICING, type InvoiceSettings } from '../invoices/service';
import { appendCharge } from '../ledger/ledger';

/**
 * A purchase (issue 58): the lines one provider session pays for. "Pay now" is a purchase of one
 * line (a hold in `checkouts`), a cart's order a purchase of its lines (holds with its order_id).
 * Both are paid, closed and booked by the functions below; nothing else books a paid session.
 */
export interface Purchase {
  kind: 'hold' | 'order';
  /** the hold's id, or the order's */
  id: string;
  amount: string;
}

type HoldRow = typeof checkouts.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

export type FulfilOutcome =
  | { outcome: 'unknown' }
  | { outcome: 'pending' }
  | { outcome: 'closed' }
  | { outcome: 'mismatch'; reason: string }
  | { outcome: 'paid'; payment: PaymentRow; created: boolean }
  | { outcome: 'refunded'; payment: PaymentRow; created: boolean };

const CURRENCY = 'usd';

/**
 * The row a session pays for: by its session id, or, when the provider answered before we stored
 * that id (possible only in a race), by our reference on a row still without one.
 */
function ofSession(t: { id: AnyPgColumn; providerSessionId: AnyPgColumn }, session: ProviderSession): SQL {
  const ref = session.clientReferenceId;
  if (!ref || !/^[0-9a-f-]{36}$/i.test(ref)) return eq(t.providerSessionId, session.id);
  return or(eq(t.providerSessionId, session.id), and(eq(t.id, ref), isNull(t.providerSessionId)))!;
}

/** The purchase a provider session pays for: a single hold, or an order. */
export async function purchaseForSession(db: Db, session: ProviderSession): Promise<Purchase | undefined> {
  const pick = { id: checkouts.id, amount: checkouts.amount };
  // an order's lines carry no session of their own: a hold found here is a single purchase
  const [hold] = await db.select(pick).from(checkouts).where(ofSession(checkouts, session)).orderBy(sql`${checkouts.providerSessionId} IS NULL`).limit(1);
  if (hold) return { kind: 'hold' as const, ...hold };
  const [order] = await db
    .select({ id: orders.id, amount: orders.amount })
    .from(orders)
    .where(ofSession(orders, session))
    .orderBy(sql`${orders.providerSessionId} IS NULL`)
    .limit(1);
  return order ? { kind: 'order' as const, ...order } : undefined;
}

/** The purchase's holds, as a condition on `checkouts`. */
export const holdsOf = (p: Purchase): SQL => (p.kind === 'order' ? sql`${checkouts.orderId} = ${p.id}` : checkoutById(p.id));

/** An unpaid purchase ends (expired, or its payment failed): its holds close, their slots given back. */
export async function closePurchase(db: Db, p: Purchase, status: 'expired' | 'cancelled', now: Date): Promise<void> {
  if (p.kind === 'order') await closeOrder(db, p.id, status, now);
  else await closeCheckouts(db, holdsOf(p), status, now);
}

function describeCharge(cents: number | null, currency: string): string {
  if (cents === null) return 'an unknown amount';
  if (currency === CURRENCY) return `${formatUsd(cents)} USD`;
  return `${cents} minor units of ${currency ? currency.toUpperCase() : 'an unknown currency'}`;
}

/** Why the provider's charge is not the purchase's (amount in dollars, currency USD), or null. */
function chargeMismatch(p: Purchase, session: ProviderSession): string | null {
  const expected = toCents(p.amount);
  const currency = (session.currency ?? '').toLowerCase();
  if (session.amountCents === expected && currency === CURRENCY) return null;
  return `Charged ${describeCharge(session.amountCents, currency)}, expected ${formatUsd(expected)} USD`;
}

/**
 * A paid session whose amount or currency is not the purchase's: nothing is booked. The purchase
 * is closed (its slots given back) and its first hold keeps what was charged, shown once on the
 * admins' "Needs attention" list.
 */
async function flagChargeMismatch(db: Db, p: Purchase, session: ProviderSession, reason: string, now: Date) {
  await db.transaction(async (tx) => {
    const [first] = await tx.select({ id: checkouts.id }).from(checkouts).where(holdsOf(p)).orderBy(asc(checkouts.id)).limit(1);
    if (first) {
      await tx
        .update(checkouts)
        .set({ attentionReason: reason, chargedAmountCents: session.amountCents, chargedCurrency: session.currency, chargedProviderRef: session.providerRef })
        .where(eq(checkouts.id, first.id));
    }
    if (p.kind === 'order') await tx.update(orders).set({ status: 'cancelled', closedAt: now }).where(and(eq(orders.id, p.id), eq(orders.status, 'open')));
    await closeCheckouts(tx, holdsOf(p), 'cancelled', now);
  });
}

interface Booking {
  session: ProviderSession;
  now: Date;
  invoicing: InvoiceSettings;
  /** the order the line belongs to; none for "Pay now" */
  order: OrderRow | null;
}

/**
 * One line paid: its payment, the placement it pays for (the same id: the spec's paymentId names
 * both), the charge on the ledger and the `paid` entry. A line whose hold lost its slot takes a
 * free one, or, sold out while the brand paid, is refunded in full (reason sold_out) afterwards.
 */
async function bookLine(tx: Tx, line: HoldRow, b: Booking): Promise<PaymentRow> {
  const { session, now, order } = b;
  // an open hold (even one past its time that the sweep has not reached) still has its slot
  const holdsSlot =
    line.status === 'open' || line.status === 'completed' || Boolean(await reserveSlot(tx, line.opportunityId, now, { ignoreDeadline: true }));
  const owner = order ?? line;
  const [payment] = await tx
    .insert(payments)
    .values({
      id: line.id,
      brandId: owner.brandId,
      organisationId: owner.organisationId,
      clientId: owner.clientId,
      ...(order ? { orderId: order.id } : {}),
      opportunityId: line.opportunityId,
      stripePaymentId: session.providerRef ?? session.id,
      providerSessionId: session.id,
      amount: line.amount,
      status: 'paid',
      holdsSlot,
      paidAt: now,
      createdAt: now,
      ...(holdsSlot ? {} : { refundRequestedAt: now, refundReason: 'sold_out' as const }),
    })
    .returning();
  await tx.insert(placements).values({
    id: payment.id,
    paymentId: payment.id,
    brandId: payment.brandId,
    organisationId: payment.organisationId,
    clientId: payment.clientId,
    opportunityId: payment.opportunityId,
    createdAt: payment.createdAt,
    revisionsIncluded: b.invoicing.revisionsIncluded ?? REVISIONS_INCLUDED_DEFAULT,
  });
  // the money that came in, on the ledger (a sold-out payment's refund follows it there)
  await appendCharge(tx, payment.id, now, payment.brandId);
  const by = { type: 'brand', id: payment.brandId } as const;
  // an order's lines share its one invoice, receipt and audit entry (written once all are booked)
  if (order) {
    await recordEvent(tx, payment.id, 'paid', by, { amount: payment.amount, orderId: order.id }, now);
  } else {
    // its invoice, numbered in this transaction: a rollback gives the number back; the receipt
    // and the audit entry follow the `paid` entry (timeline/effects.ts)
    const invoiceNumber = await issueInvoice(tx, payment.id, b.invoicing, now);
    await recordEvent(tx, payment.id, 'paid', by, { amount: payment.amount }, now, { invoiceNumber });
  }
  return payment;
}

/** The order's one invoice, one receipt and one audit entry, and its lines out of the cart. */
async function closeOrderPaid(tx: Tx & Pick<Db, 'delete'>, o: OrderRow, lines: HoldRow[], b: Booking) {
  await tx.update(orders).set({ status: 'completed', closedAt: b.now, providerSessionId: b.session.id }).where(eq(orders.id, o.id));
  // bought: out of the cart
  await tx.delete(cartLines).where(
    and(
      eq(cartLines.userId, o.brandId),
      inArray(
        cartLines.opportunityId,
        lines.map((l) => l.opportunityId),
      ),
    ),
  );
  const invoiceNumber = await issueOrderInvoice(tx, o.id, b.invoicing, b.now);
  await notifyOrderReceived(tx, o.id, invoiceNumber);
  const actor = await actorOf(tx, o.brandId);
  await recordAudit(tx, { organisationId: o.organisationId, actor, action: 'paid', subject: o.id, details: { amountUsd: o.amount, orderLines: lines.length } }, b.now);
}

/**
 * Books a paid purchase in ONE transaction: the purchase's row is locked (one fulfilment at a time;
 * the others find its payments and answer them), then every line is booked by bookLine.
 */
async function bookPurchase(db: Db, p: Purchase, b: Omit<Booking, 'order'>): Promise<{ payments: PaymentRow[]; created: boolean }> {
  return db.transaction(async (tx) => {
    const [order] = p.kind === 'order' ? await tx.select().from(orders).where(eq(orders.id, p.id)).for('no key update') : [null];
    const lines = await tx.select().from(checkouts).where(holdsOf(p)).orderBy(asc(checkouts.opportunityId)).for('no key update');
    const existing = await tx.select().from(payments).where(eq(payments.providerSessionId, b.session.id)).orderBy(asc(payments.id));
    if (existing.length) return { payments: existing, created: false };
    const booking = { ...b, order };
    // the difference of a swap for a dearer alternative: no placement of its own (swap.ts)
    if (!order && lines[0].swapOf) {
      const h = lines[0];
      const holdsSlot = h.status === 'open' || h.status === 'completed' || Boolean(await reserveSlot(tx, h.opportunityId, b.now, { ignoreDeadline: true }));
      return { payments: [await fulfilSwapTopup(tx, h, b.session, holdsSlot, b.now, b.invoicing)], created: true };
    }
    await tx
      .update(checkouts)
      .set({ status: 'completed', closedAt: b.now, ...(order ? {} : { providerSessionId: b.session.id }) })
      .where(holdsOf(p));
    const made: PaymentRow[] = [];
    for (const line of lines) made.push(await bookLine(tx, line, booking));
    if (order) await closeOrderPaid(tx, order, lines, booking);
    return { payments: made, created: true };
  });
}

/**
 * Brings our records in line with the provider's truth about the session of a purchase, once
 * however many times and in whatever order it is called:
 * - paid → every line a payment and a placement (bookPurchase), then the automatic refunds of the
 *   lines sold out while the brand paid (also finishing one a crash interrupted);
 * - expired → the purchase is closed and its slots given back;
 * - `paymentFailed` (an async payment failed) and still unpaid → the purchase is cancelled.
 */
export async function fulfilPurchase(
  db: Db,
  provider: PaymentProvider,
  session: ProviderSession,
  p: Purchase,
  now: Date,
  opts: { paymentFailed?: boolean; invoicing?: InvoiceSettings } = {},
): Promise<FulfilOutcome> {
  const paid = session.status === 'complete' && (session.paymentStatus === 'paid' || session.paymentStatus === 'no_payment_required');
  if (!paid) {
    if (session.status === 'expired' || (opts.paymentFailed && session.status === 'complete')) {
      await closePurchase(db, p, session.status === 'expired' ? 'expired' : 'cancelled', now);
      return { outcome: 'closed' };
    }
    return { outcome: 'pending' };
  }
  const reason = chargeMismatch(p, session);
  if (reason) {
    await flagChargeMismatch(db, p, session, reason, now);
    return { outcome: 'mismatch', reason };
  }

  const result = await bookPurchase(db, p, { session, now, invoicing: opts.invoicing ?? TEST_INVOICING });
  if (result.created) result.payments.forEach(() => countEvent('payment'));
  // a line sold out while the brand paid is refunded alone
  const settled: PaymentRow[] = [];
  for (const payment of result.payments) {
    const soldOut = payment.status === 'paid' && !payment.holdsSlot && payment.refundRequestedAt;
    settled.push(soldOut ? ((await completeRefund(db, provider, payment, now))?.payment ?? payment) : payment);
  }
  const refundedAll = settled.every((s) => s.status === 'refunded');
  return { outcome: refundedAll ? 'refunded' : 'paid', payment: settled[0], created: result.created };
}
