import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { cancellations, opportunities, payments, placements, users } from '../../db/schema';
import { DomainError, notFound, conflict } from '../../lib/errors';
import type { Member } from '../../lib/contract';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import type { PaymentProvider } from '../../providers/provider';
import { DAY_MS, RESPONSE_DAYS_DEFAULT } from '../../../shared/constants';
import { fromCents, toCents } from '../../../shared/money';
import type { Cancellation, CancellationAnswer } from '../../../shared/schemas/fair-terms';
import { cancellationDue } from '../timeline/deadlines';
import { recordEvent, SYSTEM, type Actor } from '../timeline/service';
import { isUniqueViolation } from '../auth/users';
import { item, type Computed } from '../../db/item';
import { claimPartialRefund, completePartialRefund, completeRefund, moreThanLeft, refundableCents } from './refunds';
import { cancellationAmountSql, lockPaymentMoney, movementOfRefund, paymentMoney } from '../ledger/ledger';
import { releaseSlot, type Tx } from './slots';
import { now as clockNow } from '../../lib/clock';

/**
 * Cancellation (issue 47). Until the editorial team marks writing as started (or attaches a draft)
 * the brand cancels and is refunded in full at once, exactly once (the refund is claimed on the
 * payment's row while the placement's row is locked, so "writing started" and a cancellation cannot
 * both win). After that it is a request the team answers by `respondBy` (RESPONSE_DAYS): a full
 * refund, a part refund (the rest is kept for the work done and the placement ends), or a refusal
 * with a reason. Unanswered by then it is granted in full by the job queue, once.
 */

/** A cancellation as both sides see it (placements' items carry their latest). */
export const cancellationItem = item({
  id: cancellations.id,
  status: cancellations.status,
  respondBy: cancellations.respondBy,
  reason: cancellations.reason,
  outcome: cancellations.outcome,
  // what its grant gave back, read from the ledger (decision 050)
  amountUsd: {
    kind: 'computed',
    sql: cancellationAmountSql,
    of: () => {
      throw new Error('a cancellation’s amount is read from the ledger: build it with cancellationItem.sql');
    },
  } satisfies Computed<string | null>,
  answer: cancellations.answer,
  answeredAt: cancellations.answeredAt,
  byDeadline: {
    kind: 'computed',
    // granted by the job: no one answered, at or after the deadline (a cancellation before writing is granted at once)
    sql: sql`coalesce(${cancellations.status} = 'granted' AND ${cancellations.answeredBy} IS NULL AND ${cancellations.createdAt} < ${cancellations.respondBy} AND ${cancellations.answeredAt} >= ${cancellations.respondBy}, false)`,
    of: (rows) => {
      const c = rows.cancellations as typeof cancellations.$inferSelect | undefined;
      return Boolean(
        c &&
        c.status === 'granted' &&
        !c.answeredBy &&
        c.answeredAt &&
        c.createdAt < c.respondBy &&
        c.answeredAt >= c.respondBy,
      );
    },
  } satisfies Computed<boolean>,
  createdAt: cancellations.createdAt,
});
const NOT_IN_PROGRESS = 'Only a placement in progress can be cancelled';

async function cancellationById(db: Db | Tx, id: string): Promise<Cancellation> {
  const [row] = await db.select({ c: cancellationItem.sql }).from(cancellations).where(eq(cancellations.id, id));
  return row.c as Cancellation;
}

export type CancelResult = { refundedUsd: string; cancellation: Cancellation } | { requested: Cancellation };

/** POST /api/brand/projects/{id}/cancel */
export async function cancelPlacement(
  db: Db,
  provider: PaymentProvider,
  member: Member,
  paymentId: string,
  reason: string | null,
  now: Date = clockNow(),
  responseDays: number = RESPONSE_DAYS_DEFAULT,
): Promise<CancelResult> {
  const actor: Actor = { type: 'brand', id: member.userId };
  const step = await db.transaction(async (tx) => {
    // the payment's row first, then the placement's: the order a refund's record takes them in
    // (refunds.ts recordRefund), so a cancel and a refund being recorded never deadlock
    const [pay] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, paymentId), eq(payments.organisationId, member.organisationId)))
      .for('no key update');
    if (!pay) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
    const [p] = await tx.select().from(placements).where(eq(placements.id, paymentId)).for('no key update');
    if (p.state !== 'in_progress' || pay.status !== 'paid' || pay.refundRequestedAt) throw conflict('not_in_progress', NOT_IN_PROGRESS);
    const started = p.writingStartedAt !== null || p.draftDocumentUrl !== null || p.draftDocumentFile !== null;
    if (!started) {
      // before writing: refunded in full (all that is left on the ledger), claimed here (the
      // guarantee job finishes a claim a crash left)
      const givenCents = refundableCents(pay, await paymentMoney(tx, paymentId));
      const [claimed] = await tx
        .update(payments)
        .set({ refundRequestedAt: now, refundReason: 'cancelled' })
        .where(eq(payments.id, paymentId))
        .returning();
      const [c] = await tx
        .insert(cancellations)
        .values({
          placementId: paymentId,
          reason,
          status: 'granted',
          outcome: 'refund_full',
          respondBy: now,
          requestedBy: member.userId,
          createdAt: now,
          answeredAt: now,
        })
        .returning({ id: cancellations.id });
      await recordEvent(tx, paymentId, 'cancel_requested', actor, { reason, beforeWriting: true }, now, { by: member });
      return { kind: 'refund' as const, claimed, givenCents, id: c.id };
    }
    const respondBy = new Date(now.getTime() + responseDays * DAY_MS);
    let id: string;
    try {
      [{ id }] = await tx
        .insert(cancellations)
        .values({ placementId: paymentId, reason, respondBy, requestedBy: member.userId, createdAt: now })
        .returning({ id: cancellations.id });
    } catch (err) {
      if (isUniqueViolation(err))
        throw conflict('cancellation_pending', 'A cancellation of this placement is already awaiting the editorial team');
      throw err;
    }
    await recordEvent(tx, paymentId, 'cancel_requested', actor, { reason, respondBy: respondBy.toISOString() }, now, { by: member });
    return { kind: 'request' as const, id };
  });
  if (step.kind === 'request') return { requested: await cancellationById(db, step.id) };
  const done = await completeRefund(db, provider, step.claimed, now, actor);
  return {
    refundedUsd: fromCents(step.givenCents),
    cancellation: await cancellationById(db, step.id),
    ...(done ? {} : {}),
  };
}

/**
 * A granted cancellation's money, in the transaction that grants it: the rest in full (claimed
 * here, made by the caller through completeRefund), or a part (claimed here, made by the caller
 * through completePartialRefund) with the placement ended and the rest kept.
 */
async function grant(tx: Tx, paymentId: string, partCents: number | null, now: Date) {
  const { payment: pay, money } = (await lockPaymentMoney(tx, paymentId))!;
  const left = refundableCents(pay, money);
  if (left === 0 || pay.status !== 'paid') throw conflict('not_in_progress', NOT_IN_PROGRESS);
  if (partCents !== null && partCents > left) {
    throw moreThanLeft(pay, left);
  }
  if (partCents === null || partCents === left) {
    const [claimed] = await tx
      .update(payments)
      .set({ refundRequestedAt: now, refundReason: 'cancelled' })
      .where(eq(payments.id, paymentId))
      .returning();
    return { full: claimed, given: left };
  }
  const part = await claimPartialRefund(tx, paymentId, partCents, 'cancelled', now);
  if (!part) throw conflict('not_in_progress', NOT_IN_PROGRESS);
  // the placement ends: the payment is closed as refunded (in part), its slot given back
  await tx
    .update(payments)
    .set({ status: 'refunded', refundedAt: now, refundRequestedAt: now, refundReason: 'cancelled', holdsSlot: false })
    .where(eq(payments.id, paymentId));
  if (pay.holdsSlot) await releaseSlot(tx, pay.opportunityId);
  // its refund mail follows the answer's entry (cancel_answered, timeline/effects.ts)
  await tx.update(placements).set({ state: 'refunded' }).where(eq(placements.id, paymentId));
  return { part, given: partCents };
}

/** POST /api/admin/cancellations/{id}/answer */
export async function answerCancellation(
  db: Db,
  provider: PaymentProvider,
  cancellationId: string,
  answer: CancellationAnswer,
  admin: Actor,
  now: Date = clockNow(),
) {
  return settle(db, provider, cancellationId, admin, now, async (tx, c) => {
    if (answer.outcome === 'refuse') {
      await tx
        .update(cancellations)
        .set({
          status: 'refused',
          outcome: 'refuse',
          answer: answer.reason ?? null,
          answeredBy: admin.type === 'system' ? null : admin.id,
          answeredAt: now,
        })
        .where(eq(cancellations.id, c.id));
      await recordEvent(
        tx,
        c.placementId,
        'cancel_answered',
        admin,
        { outcome: 'refuse', reason: answer.reason ?? null },
        now,
      );
      return {};
    }
    const money = await grant(
      tx,
      c.placementId,
      answer.outcome === 'refund_partial' ? toCents(answer.amountUsd!) : null,
      now,
    );
    const outcome = 'full' in money ? 'refund_full' : 'refund_partial';
    await tx
      .update(cancellations)
      .set({
        status: 'granted',
        outcome,
        // what it gave back is its movement's amount (decision 050): a part's movement now; a full refund's when it is recorded (ledger.ts linkFullRefund)
        ...(money.part ? { movementId: await movementOfRefund(tx, money.part.id) } : {}),
        answer: answer.reason ?? null,
        answeredBy: admin.type === 'system' ? null : admin.id,
        answeredAt: now,
      })
      .where(eq(cancellations.id, c.id));
    await recordEvent(
      tx,
      c.placementId,
      'cancel_answered',
      admin,
      { outcome, amount: fromCents(money.given), reason: answer.reason ?? null },
      now,
    );
    return money;
  });
}

/** Locks the open request, answers it in one transaction, then makes the refund through the provider. */
async function settle(
  db: Db,
  provider: PaymentProvider,
  cancellationId: string,
  actor: Actor,
  now: Date,
  answer: (
    tx: Tx,
    c: typeof cancellations.$inferSelect,
  ) => Promise<{ full?: typeof payments.$inferSelect; part?: Awaited<ReturnType<typeof claimPartialRefund>> }>,
): Promise<Cancellation> {
  const money = await db.transaction(async (tx) => {
    const [c] = await tx.select().from(cancellations).where(eq(cancellations.id, cancellationId)).for('no key update');
    if (!c) throw notFound('cancellation_not_found', 'Cancellation not found');
    if (c.status !== 'requested') throw conflict('cancellation_answered', 'This cancellation has already been answered');
    return answer(tx, c);
  });
  if (money.full) await completeRefund(db, provider, money.full, now, actor);
  if (money.part) await completePartialRefund(db, provider, money.part, now).catch(() => undefined);
  return cancellationById(db, cancellationId);
}

/**
 * Requests unanswered by their `respondBy`: each granted in full, once (the row is locked and must
 * still be `requested`; the refund is claimed in the same transaction and made with the payment's
 * id as idempotency key). Run by the job queue. Returns the cancellations granted now.
 */
export async function grantUnansweredCancellations(
  db: Db,
  provider: PaymentProvider,
  now: Date = clockNow(),
): Promise<string[]> {
  const due = await db
    .select({ id: cancellations.id })
    .from(cancellations)
    .where(cancellationDue(now))
    .orderBy(asc(cancellations.respondBy))
    .limit(200);
  const granted: string[] = [];
  for (const { id } of due) {
    try {
      await settle(db, provider, id, SYSTEM, now, async (tx, c) => {
        const [pay] = await tx
          .select({ status: payments.status, refundRequestedAt: payments.refundRequestedAt })
          .from(payments)
          .where(eq(payments.id, c.placementId));
        if (pay.status !== 'paid' || pay.refundRequestedAt) {
          // refunded or published meanwhile: nothing left to grant
          await tx
            .update(cancellations)
            .set({
              status: 'refused',
              outcome: 'refuse',
              answer: 'The placement was no longer in progress',
              answeredAt: now,
            })
            .where(eq(cancellations.id, c.id));
          return {};
        }
        const money = await grant(tx, c.placementId, null, now);
        await tx
          .update(cancellations)
          .set({ status: 'granted', outcome: 'refund_full', answeredAt: now })
          .where(eq(cancellations.id, c.id));
        await recordEvent(
          tx,
          c.placementId,
          'cancel_answered',
          SYSTEM,
          { outcome: 'refund_full', amount: fromCents(money.given), byDeadline: true },
          now,
        );
        return money;
      });
      granted.push(id);
    } catch (err) {
      // answered by another instance or an admin meanwhile: theirs stands
      if (!(err instanceof DomainError && err.kind === 'conflict')) throw err;
    }
  }
  return granted;
}

/** GET /api/admin/cancellations: the requests awaiting an answer, soonest due first. */
export async function openCancellations(db: Db) {
  const rows = await db
    .select({
      c: cancellationItem.sql,
      paymentId: placements.id,
      title: opportunities.title,
      outletName: opportunities.outletName,
      brandName: sql<string>`COALESCE(${users.brandName}, ${users.name}, ${users.email})`,
      amount: payments.amount,
    })
    .from(cancellations)
    .innerJoin(placements, eq(placements.id, cancellations.placementId))
    .innerJoin(payments, eq(payments.id, placements.paymentId))
    .innerJoin(opportunities, eq(opportunities.id, placements.opportunityId))
    .innerJoin(users, eq(users.id, placements.brandId))
    .where(and(eq(cancellations.status, 'requested'), isNull(cancellations.answeredAt)))
    .orderBy(asc(cancellations.respondBy));
  return rows.map(({ c, ...rest }) => ({ ...(c as Cancellation), ...rest }));
}
