import { and, eq, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payments } from '../../db/schema';
import type { PaymentProvider } from '../../payments/provider';
import { toCents } from '../../../shared/money';
import { ESCROW_GUARANTEE_DAYS } from '../../../shared/constants';
import type { RefundReason } from '../../../shared/payment';
import { releaseSlot } from './slots';
import { notifyPlacement, notifyRefunded } from '../../mail/notify';

export type PaymentRow = typeof payments.$inferSelect;

/**
 * Records a refund the provider has made and gives the payment's slot back (when it had one), once:
 * the row is locked and only a `paid` payment changes.
 */
export interface RefundResult {
  payment: PaymentRow;
  /** false when another run (an admin, a second instance) had already recorded it */
  changed: boolean;
}

async function recordRefund(db: Db, paymentId: string, refundId: string | null, now: Date): Promise<RefundResult | undefined> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    if (!before) return undefined;
    if (before.status !== 'paid') return { payment: before, changed: false };
    const [after] = await tx
      .update(payments)
      .set({
        status: 'refunded',
        refundedAt: now,
        providerRefundId: refundId,
        holdsSlot: false,
        refundRequestedAt: before.refundRequestedAt ?? now,
        refundReason: before.refundReason ?? 'provider',
      })
      .where(eq(payments.id, paymentId))
      .returning();
    if (before.holdsSlot) await releaseSlot(tx, before.opportunityId);
    await notifyRefunded(tx, paymentId);
    return { payment: after, changed: true };
  });
}

/** Second half of a refund whose claim is recorded: the provider call (idempotent) and the record. */
export async function completeRefund(db: Db, provider: PaymentProvider, payment: PaymentRow, now: Date) {
  const { refundId } = await provider.refund({
    paymentRef: payment.stripePaymentId,
    amountCents: toCents(payment.amount),
    idempotencyKey: payment.id,
  });
  return recordRefund(db, payment.id, refundId, now);
}

/**
 * Refunds a held payment in full through the provider. First the refund is claimed on the row
 * (from then on the payment cannot be released), then the provider is called with the payment id as
 * idempotency key, then the refund is recorded. Rerunning after a crash anywhere is safe.
 * Returns undefined when the payment is not held (`paid`).
 */
export async function refundPayment(db: Db, provider: PaymentProvider, paymentId: string, reason: RefundReason, now: Date = new Date()) {
  const [claimed] = await db
    .update(payments)
    .set({
      refundRequestedAt: sql`COALESCE(${payments.refundRequestedAt}, ${now.toISOString()}::timestamptz)`,
      refundReason: sql`COALESCE(${payments.refundReason}, ${reason})`,
    })
    .where(and(eq(payments.id, paymentId), eq(payments.status, 'paid')))
    .returning();
  if (!claimed) return undefined;
  return completeRefund(db, provider, claimed, now);
}

/** A refund made on the provider's side (its dashboard): recorded after asking the provider. */
export async function syncExternalRefund(db: Db, provider: PaymentProvider, paymentRef: string, now: Date = new Date()) {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.stripePaymentId, paymentRef), eq(payments.status, 'paid')));
  if (!rows.length) return 0;
  if (!(await provider.isRefunded(paymentRef))) return 0;
  let n = 0;
  for (const { id } of rows) if ((await recordRefund(db, id, null, now))?.changed) n++;
  return n;
}

/**
 * The 90-day guarantee: every payment still held 90 days after it was paid is refunded in full,
 * its slot given back. Also finishes refunds that were claimed but never completed (a crash or a
 * provider outage). Returns the ids refunded now.
 */
export async function refundOverduePayments(db: Db, provider: PaymentProvider, now: Date = new Date()): Promise<string[]> {
  const cutoff = new Date(now.getTime() - ESCROW_GUARANTEE_DAYS * 24 * 60 * 60 * 1000);
  const due = await db
    .select({ id: payments.id, refundReason: payments.refundReason })
    .from(payments)
    .where(and(eq(payments.status, 'paid'), or(lte(payments.paidAt, cutoff), isNotNull(payments.refundRequestedAt))))
    .orderBy(payments.paidAt)
    .limit(500);
  const done: string[] = [];
  for (const p of due) {
    const after = await refundPayment(db, provider, p.id, p.refundReason ?? 'guarantee', now);
    if (after?.changed) done.push(p.id);
  }
  return done;
}

/** Admin: paid → released. Undefined when the payment is not held or a refund has begun. */
export async function releasePayment(db: Db, paymentId: string, now: Date = new Date()) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(payments)
      .set({ status: 'released', releasedAt: now })
      .where(and(eq(payments.id, paymentId), eq(payments.status, 'paid'), isNull(payments.refundRequestedAt)))
      .returning();
    if (row) await notifyPlacement(tx, row.id, 'published');
    return row;
  });
}
