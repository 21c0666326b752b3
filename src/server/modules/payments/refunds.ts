import { and, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { paymentRefunds, payments, placements, publicationCases, publications } from '../../db/schema';
import type { PaymentProvider } from '../../providers/provider';
import { formatUsd, fromCents, toCents } from '../../../shared/money';
import { DomainError, conflict } from '../../lib/errors';
import type { RefundReason } from '../../../shared/payment';
import { releaseSlot, type Tx } from './slots';
import { guaranteeDue } from '../timeline/deadlines';
import { recordEvent, SYSTEM, type Actor } from '../timeline/service';
import { countEvent } from '../../ops/events';
import { issueCreditNote, issuePartialCreditNote } from '../invoices/service';
import { claimRefund, fullRefundCents, linkFullRefund, type PartialRefundRow, type PaymentMoney } from '../ledger/ledger';
import { now as clockNow } from '../../lib/clock';

export type PaymentRow = typeof payments.$inferSelect;

/**
 * Records a refund the provider has made and gives the payment's slot back (when it had one), once:
 * the row is locked and only a `paid` payment (or a `released` one whose refund was claimed) changes.
 */
export interface RefundResult {
  payment: PaymentRow;
  /** false when another run (an admin, a second instance) had already recorded it */
  changed: boolean;
}

async function recordRefund(db: Db, paymentId: string, refundId: string | null, now: Date, actor: Actor): Promise<RefundResult | undefined> {
  const result = await db.transaction(async (tx): Promise<RefundResult | undefined> => {
    const [before] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('no key update');
    if (!before) return undefined;
    // a held payment, or a published one whose refund the guarantee claimed (refundPublishedPayment)
    const refundable = before.status === 'paid' || (before.status === 'released' && before.refundRequestedAt !== null);
    if (!refundable) return { payment: before, changed: false };
    // all that is left is given back now: the ledger's refund of the rest (the parts have theirs)
    const claimed = await claimRefund(tx, {
      paymentId,
      amountCents: 'rest',
      reason: before.refundReason ?? 'provider',
      providerRef: refundId,
      recordedBy: actor.type === 'admin' ? actor.id : null,
      now,
    });
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
    // a cancellation's or a dispute's full refund refers to its movement, recorded now
    if (claimed) await linkFullRefund(tx, claimed.movement);
    if (before.holdsSlot) await releaseSlot(tx, before.opportunityId);
    // the placement it paid for is refunded with it
    const [placement] = await tx
      .update(placements)
      .set({ state: 'refunded' })
      .where(eq(placements.paymentId, paymentId))
      .returning({ id: placements.id });
    // a published placement refunded: its watch ends and its open case closes, refunded
    if (before.status === 'released' && placement) {
      await tx.update(publications).set({ health: 'refunded', nextCheckAt: null, updatedAt: now }).where(eq(publications.placementId, placement.id));
      await tx
        .update(publicationCases)
        .set({ closedAt: now, outcome: 'refunded' })
        .where(and(eq(publicationCases.placementId, placement.id), isNull(publicationCases.closedAt)));
    }
    // its credit note, numbered in this transaction (none yet when the payment has no invoice: see ensureDocuments)
    await issueCreditNote(tx, paymentId, after.refundReason, now);
    const given = claimed?.movement.amount ?? '0.00';
    // a swap's difference has no placement of its own: its refund is on the timeline of the one it
    // topped up; the brand's mail (and the admins', for a published one) follows the entry
    await recordEvent(
      tx,
      before.topupOf ?? paymentId,
      'refunded',
      actor,
      { amount: given, reason: after.refundReason, ...(before.topupOf ? { topup: true } : {}) },
      now,
      { toAdmins: before.status === 'released' },
    );
    return { payment: after, changed: true };
  });
  if (result?.changed) countEvent('refund');
  return result;
}

/** Second half of a refund whose claim is recorded: the provider call (idempotent) and the record. */
/** `actor`: the admin who asked for it; Byline for the automatic refunds (and a stalled one finished later). */
export async function completeRefund(db: Db, provider: PaymentProvider, payment: PaymentRow, now: Date, actor: Actor = SYSTEM) {
  // the charge less the parts given back earlier (a swap's difference has had its own refund): the
  // same amount on every attempt, also after a racing completion recorded it (what is left is 0 then)
  const { refundId } = await provider.refund({
    providerRef: payment.stripePaymentId,
    amountCents: await fullRefundCents(db, payment.id),
    idempotencyKey: payment.id,
  });
  const result = await recordRefund(db, payment.id, refundId, now, actor);
  // the differences paid for dearer swaps go back with the payment they topped up (issue 46)
  if (result?.payment.status === 'refunded' && !payment.topupOf) await refundTopups(db, provider, payment.id, result.payment.refundReason ?? 'admin', now, actor);
  return result;
}

/** Refunds what was paid on top of a payment (a dearer swap's difference), each once, through the provider. */
async function refundTopups(db: Db, provider: PaymentProvider, paymentId: string, reason: RefundReason, now: Date, actor: Actor) {
  const topups = await db
    .update(payments)
    .set({
      refundRequestedAt: sql`COALESCE(${payments.refundRequestedAt}, ${now.toISOString()}::timestamptz)`,
      refundReason: sql`COALESCE(${payments.refundReason}, ${reason})`,
    })
    .where(and(eq(payments.topupOf, paymentId), or(eq(payments.status, 'paid'), eq(payments.status, 'released'))))
    .returning();
  for (const t of topups) await completeRefund(db, provider, t, now, actor);
}

/**
 * Refunds a held payment in full through the provider. First the refund is claimed on the row
 * (from then on the payment cannot be released), then the provider is called with the payment id as
 * idempotency key, then the refund is recorded. Rerunning after a crash anywhere is safe.
 * Returns undefined when the payment is not held (`paid`).
 */
export async function refundPayment(db: Db, provider: PaymentProvider, paymentId: string, reason: RefundReason, now: Date = clockNow(), actor: Actor = SYSTEM) {
  const [claimed] = await db
    .update(payments)
    .set({
      refundRequestedAt: sql`COALESCE(${payments.refundRequestedAt}, ${now.toISOString()}::timestamptz)`,
      refundReason: sql`COALESCE(${payments.refundReason}, ${reason})`,
    })
    .where(and(eq(payments.id, paymentId), eq(payments.status, 'paid')))
    .returning();
  if (!claimed) return undefined;
  return completeRefund(db, provider, claimed, now, actor);
}

/**
 * The publication guarantee: a published article removed (or broken) and not restored in time is
 * refunded in full although its money was released (an admin may also refund one from Placements). Claimed on the row first (only a `released`
 * payment), then the provider is called with the payment id as idempotency key: exactly one refund,
 * whoever runs it and however often. Undefined when the payment is not released.
 */
/** Claims the refund of a published placement (in the caller's transaction, e.g. with the check that decided it). */
export async function claimPublishedRefund(
  db: Db | Tx,
  paymentId: string,
  now: Date,
  reason: 'not_restored' | 'admin' | 'dispute' = 'not_restored',
  /** only when not claimed before (a second checker racing the first gets nothing; the refund job finishes a stalled claim) */
  { firstClaim = false } = {},
) {
  const [claimed] = await db
    .update(payments)
    .set({
      refundRequestedAt: sql`COALESCE(${payments.refundRequestedAt}, ${now.toISOString()}::timestamptz)`,
      refundReason: sql`COALESCE(${payments.refundReason}, ${reason})`,
    })
    .where(and(eq(payments.id, paymentId), eq(payments.status, 'released'), firstClaim ? isNull(payments.refundRequestedAt) : undefined))
    .returning();
  return claimed;
}

export async function refundPublishedPayment(
  db: Db,
  provider: PaymentProvider,
  paymentId: string,
  now: Date = clockNow(),
  reason: 'not_restored' | 'admin' = 'not_restored',
  actor: Actor = SYSTEM,
) {
  const claimed = await claimPublishedRefund(db, paymentId, now, reason);
  if (!claimed) return undefined;
  return completeRefund(db, provider, claimed, now, actor);
}

/** A refund made on the provider's side (its dashboard): recorded after asking the provider. */
export async function syncExternalRefund(db: Db, provider: PaymentProvider, providerRef: string, now: Date = clockNow()) {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.stripePaymentId, providerRef), eq(payments.status, 'paid')));
  if (!rows.length) return 0;
  if (!(await provider.isRefunded(providerRef))) return 0;
  let n = 0;
  for (const { id } of rows) if ((await recordRefund(db, id, null, now, SYSTEM))?.changed) n++;
  return n;
}

/**
 * The guarantee (GUARANTEE_DAYS): every payment still held that long after it was paid is refunded in full,
 * its slot given back. Also finishes refunds that were claimed but never completed (a crash or a
 * provider outage). Returns the ids refunded now.
 */
export async function refundOverduePayments(db: Db, provider: PaymentProvider, now: Date = clockNow()): Promise<string[]> {
  const due = await db
    .select({ id: payments.id, status: payments.status, refundReason: payments.refundReason })
    .from(payments)
    .where(
      or(
        // a swap's difference follows its payment: only a refund of it claimed and not finished is taken here
        guaranteeDue(now),
        and(eq(payments.status, 'paid'), isNotNull(payments.refundRequestedAt)),
        // a publication refund claimed but not completed (the provider was down)
        and(eq(payments.status, 'released'), isNotNull(payments.refundRequestedAt)),
      ),
    )
    .orderBy(payments.paidAt)
    .limit(500);
  const done: string[] = [];
  for (const p of due) {
    const after =
      p.status === 'released'
        ? await refundPublishedPayment(db, provider, p.id, now)
        : await refundPayment(db, provider, p.id, p.refundReason ?? 'guarantee', now);
    if (after?.changed) done.push(p.id);
  }
  return done;
}

export type { PartialRefundRow };

/**
 * Claims a refund of part of a payment, in the caller's transaction, through the ledger's one
 * claim path (ledger.ts claimRefund): never beyond what was charged, and the refund recorded to be
 * made. Undefined when the payment is not held or released, is being refunded in full, or has
 * no more left than asked (asking for all that is left is a full refund).
 */
export async function claimPartialRefund(
  tx: Tx,
  paymentId: string,
  amountCents: number,
  reason: RefundReason,
  now: Date,
  /** an admin's part refund: the reason they wrote, and who they are */
  by: { note?: string | null; requestedBy?: string | null } = {},
): Promise<PartialRefundRow | undefined> {
  const claimed = await claimRefund(tx, { paymentId, amountCents, reason, now, part: { note: by.note ?? null, requestedBy: by.requestedBy ?? null } });
  return claimed?.refund;
}

/**
 * Refunds part of a held or published payment (issue 47: an admin's, a cancellation's, a dispute's):
 * claimed with its timeline entry and the brand's e-mail in one transaction, then made through the
 * provider with its own credit note. Undefined when it cannot be claimed (see claimPartialRefund): a
 * caller asking for exactly what is left refunds in full instead. A provider failure leaves the
 * claim for the guarantee job to finish (completePendingPartialRefunds).
 */
export async function refundPart(
  db: Db,
  provider: PaymentProvider,
  paymentId: string,
  amountCents: number,
  reason: RefundReason,
  actor: Actor,
  now: Date = clockNow(),
  note: string | null = null,
): Promise<PartialRefundRow | undefined> {
  const refund = await db.transaction(async (tx) => {
    const claimed = await claimPartialRefund(tx, paymentId, amountCents, reason, now, { note, requestedBy: actor.type === 'admin' ? actor.id : null });
    if (!claimed) return undefined;
    const [owner] = await tx.select({ topupOf: payments.topupOf }).from(payments).where(eq(payments.id, paymentId));
    await recordEvent(tx, owner?.topupOf ?? paymentId, 'refunded', actor, { amount: claimed.amount, reason, partial: true, ...(note ? { note } : {}) }, now, {
      topup: Boolean(owner?.topupOf),
    });
    return claimed;
  });
  if (!refund) return undefined;
  countEvent('refund');
  await completePartialRefund(db, provider, refund, now);
  return refund;
}

/**
 * What is left of a payment to refund, in cents (0: nothing, or a full refund is under way): its
 * amount less what went back of it on the ledger (`paymentMoney`, or `lockPaymentMoney` for a
 * decision that moves it).
 */
export function refundableCents(p: Pick<PaymentRow, 'amount' | 'status' | 'refundRequestedAt'>, money: Pick<PaymentMoney, 'refunded'>): number {
  if ((p.status !== 'paid' && p.status !== 'released') || p.refundRequestedAt) return 0;
  return toCents(p.amount) - toCents(money.refunded);
}

/** 409 for a refund asked beyond what is left (`leftCents`), saying what is. */
export function moreThanLeft(p: Pick<PaymentRow, 'amount'>, leftCents: number): DomainError {
  return conflict('more_than_left_to_refund', `That is more than is left to refund: ${formatUsd(fromCents(leftCents))} of ${formatUsd(p.amount)}`, {
    amountUsd: 'More than is left to refund',
  });
}

/**
 * Makes a claimed part refund through the provider (its id as idempotency key: a rerun is the same
 * refund) and completes it once, with its credit note. Rerunning after a crash anywhere is safe.
 */
export async function completePartialRefund(db: Db, provider: PaymentProvider, refund: PartialRefundRow, now: Date = clockNow()) {
  const [payment] = await db.select({ ref: payments.stripePaymentId }).from(payments).where(eq(payments.id, refund.paymentId));
  const { refundId } = await provider.refund({ providerRef: payment.ref, amountCents: toCents(refund.amount), idempotencyKey: `refund-${refund.id}` });
  return db.transaction(async (tx) => {
    const [done] = await tx
      .update(paymentRefunds)
      .set({ completedAt: now, providerRefundId: refundId })
      .where(and(eq(paymentRefunds.id, refund.id), isNull(paymentRefunds.completedAt)))
      .returning();
    if (!done) return false;
    await issuePartialCreditNote(tx, refund.id, now);
    return true;
  });
}

/** Part refunds claimed but never made (a crash, a provider outage): the guarantee job finishes them. */
export async function completePendingPartialRefunds(db: Db, provider: PaymentProvider, now: Date = clockNow()): Promise<number> {
  const pending = await db.select().from(paymentRefunds).where(isNull(paymentRefunds.completedAt)).orderBy(paymentRefunds.createdAt).limit(100);
  let n = 0;
  for (const r of pending) if (await completePartialRefund(db, provider, r, now)) n++;
  return n;
}
