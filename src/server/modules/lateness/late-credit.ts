import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lateCredits, payments, placements } from '../../db/schema';
import type { PaymentProvider } from '../../providers/provider';
import type { Member } from '../../lib/contract';
import { conflict, notFound } from '../../lib/errors';
import { now as clockNow } from '../../lib/clock';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import { fromCents, toCents } from '../../../shared/money';
import { lateCreditCents, type LateCreditTerms } from '../../../shared/late-credit';
import { countEvent } from '../../ops/events';
import { lockPaymentMoney } from '../ledger/ledger';
import { memberActor, transition } from '../placements/transition';
import { claimPartialRefund, completePartialRefund, completeRefund, refundableCents, type PartialRefundRow } from '../payments/refunds';
import type { Tx } from '../payments/slots';

/**
 * Credit without a claim (issue 59, decision 049). A placement in progress (not published, not
 * refunded) whose "Live by" date (`live_by(promised_by, promise_moved_days)`: the promise moved by
 * the time the brand held it) has passed is late by `late_days(…)` business days. For each business
 * day late not yet credited, the brand is credited LATE_CREDIT_PERCENT of the price (whole cents,
 * half-up), never more than LATE_CREDIT_MAX_PERCENT of it in all: a part refund through the ledger
 * (reason `late_credit`) with its credit note, the brand's mail and a timeline entry.
 *
 * Once per day across every instance: each day is one transaction that locks the payment's row
 * first (two sweeps queue there; the second then reads the first's day), claims the part refund
 * (ledger.ts claimRefund) and inserts the day's `late_credits` row, whose key (placement, day)
 * refuses a second; the provider is called after the commit with the part refund's id as
 * idempotency key, and a crash between the two leaves the claim for `completePendingPartialRefunds`
 * (the guarantee job) to finish, once.
 */

const rowsOf = <T>(result: unknown) => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
const BATCH = 200;

/** A placement's late credits so far: the last day credited and the total, in cents. */
async function creditedOf(tx: Tx | Db, placementId: string): Promise<{ lastDay: number; cents: number }> {
  const [row] = rowsOf<{ lastDay: number | null; total: string | null }>(
    await tx.execute(sql`SELECT max(late_day) AS "lastDay", sum(amount)::text AS total FROM late_credits WHERE placement_id = ${placementId}`),
  );
  return { lastDay: Number(row?.lastDay ?? 0), cents: row?.total ? toCents(row.total) : 0 };
}

/** The placement's business days late at `at` when it can still be credited (in progress, held, no full refund under way); else 0. */
async function lateDaysOf(tx: Tx, placementId: string, at: Date): Promise<number> {
  const [row] = rowsOf<{ days: number }>(
    await tx.execute(sql`
      SELECT late_days(pl.promised_by, pl.promise_moved_days, ${at.toISOString()}::timestamptz) AS days
      FROM placements pl JOIN payments p ON p.id = pl.payment_id
      WHERE pl.id = ${placementId} AND pl.state = 'in_progress' AND p.status = 'paid' AND p.refund_requested_at IS NULL`),
  );
  return Number(row?.days ?? 0);
}

class DayTaken extends Error {}

/**
 * Credits the next business day late of one placement, if one is due: its claimed part refund
 * (to be made through the provider), or undefined when none is due (not late enough, published,
 * refunded, the cap reached, or another instance credited it).
 */
async function claimNextDay(db: Db, placementId: string, terms: LateCreditTerms, at: Date): Promise<PartialRefundRow | undefined> {
  try {
    return await db.transaction(async (tx) => {
      // the payment's row first (the lock every claim takes): a second sweep waits here, then reads this one's day
      const locked = await lockPaymentMoney(tx, placementId);
      if (!locked) return undefined;
      const days = await lateDaysOf(tx, placementId, at);
      const credited = await creditedOf(tx, placementId);
      const day = credited.lastDay + 1;
      if (day > days) return undefined;
      const cents = lateCreditCents(toCents(locked.payment.amount), credited.cents, terms);
      if (cents <= 0) return undefined;
      return transition(
        tx,
        placementId,
        'refund_part',
        { type: 'system' },
        async () => {
          const refund = await claimPartialRefund(tx, placementId, cents, 'late_credit', at);
          if (!refund) return undefined;
          const [taken] = await tx
            .insert(lateCredits)
            .values({ placementId, lateDay: day, refundId: refund.id, amount: refund.amount, createdAt: at })
            .onConflictDoNothing()
            .returning({ day: lateCredits.lateDay });
          // another instance credited this day meanwhile: the claim above is rolled back with it
          if (!taken) throw new DayTaken();
          return refund;
        },
        (refund) => ({ amount: refund.amount, reason: 'late_credit', partial: true, lateDay: day }),
        at,
      );
    });
  } catch (err) {
    if (err instanceof DayTaken) return undefined;
    throw err;
  }
}

/** Every late placement's days not yet credited, each once; answers how many credits were made. */
export async function creditLatePlacements(db: Db, provider: PaymentProvider, terms: LateCreditTerms, at: Date = clockNow()): Promise<number> {
  if (terms.percent <= 0 || terms.maxPercent <= 0) return 0;
  const due = rowsOf<{ id: string }>(
    await db.execute(sql`
      SELECT pl.id FROM placements pl
      WHERE pl.state = 'in_progress' AND pl.promised_by IS NOT NULL AND pl.promised_by < ${at.toISOString()}::timestamptz
        AND live_by(pl.promised_by, pl.promise_moved_days) < ${at.toISOString()}::timestamptz
        AND late_days(pl.promised_by, pl.promise_moved_days, ${at.toISOString()}::timestamptz)
          > coalesce((SELECT max(lc.late_day) FROM late_credits lc WHERE lc.placement_id = pl.id), 0)
      ORDER BY live_by(pl.promised_by, pl.promise_moved_days)
      LIMIT ${BATCH}`),
  );
  let made = 0;
  for (const { id } of due) {
    // a server down for days credits each day missed, one credit (and credit note) each
    for (;;) {
      const refund = await claimNextDay(db, id, terms, at);
      if (!refund) break;
      made++;
      countEvent('refund');
      // a provider failure leaves the claim for the guarantee job (completePendingPartialRefunds)
      await completePartialRefund(db, provider, refund, at).catch(() => undefined);
    }
  }
  return made;
}

/**
 * POST /api/brand/placements/{id}/cancel-late: LATE_CANCEL_DAYS business days late (the table's
 * `very_late` guard, read from the database's clock), the brand cancels in one click and is refunded
 * all that is left after the late credits, with its credit note and mail. 409 before then.
 */
export async function cancelLatePlacement(db: Db, provider: PaymentProvider, member: Member, placementId: string, at: Date = clockNow()) {
  const claimed = await db.transaction(async (tx) => {
    // the payment's row first, then the placement's (transition): the order a refund's record takes them in
    const [pay] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, placementId), eq(payments.organisationId, member.organisationId)))
      .for('no key update');
    if (!pay) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
    const [p] = await tx.select({ state: placements.state }).from(placements).where(eq(placements.id, placementId));
    if (p.state !== 'in_progress' || pay.status !== 'paid' || pay.refundRequestedAt) throw conflict('not_in_progress', 'Only a placement in progress can be cancelled');
    const [late] = rowsOf<{ days: number; threshold: number }>(
      await tx.execute(sql`
        SELECT late_days(pl.promised_by, pl.promise_moved_days, clock_now()) AS days, (SELECT cancel_days FROM late_credit_settings) AS threshold
        FROM placements pl WHERE pl.id = ${placementId}`),
    );
    const days = Number(late.days);
    const threshold = Number(late.threshold);
    if (days < threshold) {
      throw conflict(
        'not_late_enough',
        days === 0
          ? `This placement is not late: it can be cancelled this way once it is ${threshold} business days past its "Live by" date`
          : `This placement is ${days} business day${days === 1 ? '' : 's'} late: it can be cancelled this way once it is ${threshold} business days late`,
      );
    }
    const { money } = (await lockPaymentMoney(tx, placementId))!;
    const givenCents = refundableCents(pay, money);
    return transition(
      tx,
      placementId,
      'cancel_late',
      memberActor(member),
      async () => {
        const [row] = await tx
          .update(payments)
          .set({ refundRequestedAt: at, refundReason: 'late_cancel' })
          .where(and(eq(payments.id, placementId), eq(payments.status, 'paid')))
          .returning();
        // the placement is refunded when the provider's refund is recorded (completeRefund, below)
        return row ? { row, givenCents } : undefined;
      },
      () => ({ late: true, lateDays: days, amount: fromCents(givenCents) }),
      at,
      { by: member },
    );
  });
  if (!claimed) throw conflict('not_in_progress', 'Only a placement in progress can be cancelled');
  await completeRefund(db, provider, claimed.row, at, { type: 'brand', id: member.userId });
  return { refundedUsd: fromCents(claimed.givenCents) };
}
