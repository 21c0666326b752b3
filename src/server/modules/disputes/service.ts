import { and, asc, desc, eq, gte, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  briefs,
  disputes,
  opportunities,
  payments,
  placementEvents,
  placements,
  publicationCases,
  publicationChecks,
  publications,
  users,
} from '../../db/schema';
import { DomainError, forbidden, notFound, conflict } from '../../lib/errors';
import type { Member, Scope } from '../../lib/contract';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import type { PaymentProvider } from '../../providers/provider';
import type { Tx } from '../../mail/outbox';
import {
  DAY_MS,
  DECIDE_DAYS,
  DISPUTE_DAYS_DEFAULT,
  ESCALATE_DAYS,
  RESPONSE_DAYS_DEFAULT,
} from '../../../shared/constants';
import { LINK_DISPUTE_REASONS, type DisputeResolution, type DisputeStatus } from '../../../shared/enums';
import { formatUsd, fromCents, toCents } from '../../../shared/money';
import type {
  Dispute,
  DisputeAnswer,
  DisputeDecisionRequest,
  DisputeDetail,
  DisputeRequest,
} from '../../../shared/schemas/fair-terms';
import { disputeDue } from '../timeline/deadlines';
import type { Actor } from '../timeline/service';
import { memberActor, tableRefusal, transition, type TransitionActor } from '../placements/transition';
import type { LifeEvent, Viewer } from '../../../shared/placement-machine';
import { lifeFor, lifeInputsSql } from '../life/life';
import { isUniqueViolation } from '../auth/users';
import {
  claimPartialRefund,
  claimPublishedRefund,
  completePartialRefund,
  completeRefund,
  moreThanLeft,
  refundableCents,
  type PartialRefundRow,
  type PaymentRow,
} from '../payments/refunds';
import { disputeRefundedSql, fullRefundMovement, lockPaymentMoney, movementOfRefund, paymentMoney, refundedSql } from '../ledger/ledger';
import { now as clockNow } from '../../lib/clock';

/**
 * Disputes (issue 47). A brand disputes a placement's content from its first draft until
 * DISPUTE_DAYS after release, or its live link during the publication guarantee, asking for a full
 * or part refund or a correction. The editorial team answers by `respond_by` (RESPONSE_DAYS):
 * accept, offer (a part refund or a correction) or reject with a reason; the brand accepts an offer
 * or escalates by `escalate_by` (ESCALATE_DAYS); an admin who neither released the placement nor
 * answered decides by `decide_by` (DECIDE_DAYS). Every deadline the team misses grants what the
 * brand asked for, once, by the job queue. A link dispute is decided by Byline's own checks: a
 * problem two checks an hour apart confirm is the publication case (restore by RESTORE_DAYS or
 * refund), which resolves it; checks that keep passing answer it as rejected, with the checks as
 * evidence, and the brand may escalate.
 *
 * Money moves exactly once: the refund is claimed in the transaction that resolves the dispute (a
 * full refund on the payment's row, a part as a payment_refunds row) and made through the provider
 * after it; a crash in between is finished by the guarantee job, as every claimed refund is.
 */

export interface DisputeTerms {
  responseDays: number;
  disputeDays: number;
}
const DEFAULT_TERMS: DisputeTerms = { responseDays: RESPONSE_DAYS_DEFAULT, disputeDays: DISPUTE_DAYS_DEFAULT };

type DisputeRow = typeof disputes.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A dispute's row with what its resolution gave back, read from the ledger (`disputeRefundedSql`). */
const withRefunded = { d: disputes, refunded: disputeRefundedSql };

function disputeJson(d: DisputeRow, refunded: string): Dispute {
  return {
    id: d.id,
    paymentId: d.placementId,
    kind: d.kind,
    reason: d.reason,
    outcome: d.asked,
    amountUsd: d.askedAmount,
    text: d.text,
    status: d.status,
    resolution: d.resolution,
    respondBy: iso(d.respondBy),
    answer:
      d.answerAction && d.answeredAt
        ? {
            action: d.answerAction,
            amountUsd: d.offerAmount,
            reason: d.answerReason,
            answeredAt: d.answeredAt.toISOString(),
          }
        : null,
    escalateBy: iso(d.escalateBy),
    escalatedAt: iso(d.escalatedAt),
    decideBy: iso(d.decideBy),
    decision: d.decidedAt ? { reason: d.decisionReason, decidedAt: d.decidedAt.toISOString() } : null,
    refundedUsd: refunded,
    caseId: d.caseId,
    createdAt: d.createdAt.toISOString(),
    resolvedAt: iso(d.resolvedAt),
  };
}

const LINK_WINDOW =
  'A dispute about the live link can be opened while the article is published and under its publication guarantee';

/** POST /api/brand/projects/{id}/disputes → 201 {id, status: "open", respondBy} */
export async function openDispute(
  db: Db,
  member: Member,
  paymentId: string,
  input: DisputeRequest,
  now: Date = clockNow(),
  terms: DisputeTerms = DEFAULT_TERMS,
): Promise<Dispute> {
  const kind = LINK_DISPUTE_REASONS.includes(input.reason) ? 'link' : 'content';
  // a link dispute is decided by the checks, not by the team's answer
  const respondBy = kind === 'content' ? new Date(now.getTime() + terms.responseDays * DAY_MS) : null;
  const event = kind === 'content' ? 'open_dispute' : 'open_link_dispute';
  const actor = memberActor(member);
  const row = await db.transaction(async (tx) =>
    transition(tx, paymentId, event, actor, () => insertDispute(tx), (d) => ({
      reason: input.reason, outcome: input.outcome, amount: d.askedAmount, text: input.text,
    }), now, { by: member, respondBy }),
  );
  if (!row) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  // a dispute just opened gave nothing back yet
  return disputeJson(row, '0.00');

  /** The placement's own checks (refunded, the windows, the amount), then the dispute's row. */
  async function insertDispute(tx: Tx): Promise<DisputeRow> {
    const [p] = await tx
      .select({ placement: placements, payment: payments })
      .from(placements)
      .innerJoin(payments, eq(payments.id, placements.paymentId))
      .where(and(eq(placements.id, paymentId), eq(placements.organisationId, member.organisationId)))
      .for('update', { of: placements });
    if (!p) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
    const { payment } = p;
    if (payment.status === 'refunded' || payment.refundRequestedAt) throw conflict('placement_refunded', 'This placement was refunded');
    // the windows are the table's guards (content_window, link_window), said in the service's words
    const refused = await tableRefusal(tx, paymentId, event, actor, now);
    if (kind === 'content' && (refused === 'state' || refused === 'content_window')) {
      throw conflict(
        'dispute_content_window', `A dispute about the content can be opened from the first draft until ${terms.disputeDays} days after release`,
      );
    }
    if (kind === 'link' && (refused === 'state' || refused === 'link_window')) throw conflict('link_window', LINK_WINDOW);
    const left = input.outcome === 'refund_partial' ? refundableCents(payment, await paymentMoney(tx, payment.id)) : 0;
    if (input.outcome === 'refund_partial' && toCents(input.amountUsd!) > left) {
      throw conflict('dispute_amount_too_high', `You can ask for at most ${formatUsd(fromCents(left))}`, {
        amountUsd: 'More than is left of the payment',
      });
    }
    let inserted: DisputeRow;
    try {
      [inserted] = await tx
        .insert(disputes)
        .values({
          placementId: paymentId,
          kind,
          reason: input.reason,
          asked: input.outcome,
          askedAmount: input.outcome === 'refund_partial' ? fromCents(toCents(input.amountUsd!)) : null,
          text: input.text,
          respondBy,
          requestedBy: member.userId,
          createdAt: now,
        })
        .returning();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('dispute_already_open', 'A dispute about this placement is already open');
      throw err;
    }
    // the link is checked at once; a failure is confirmed by a second check an hour later (watch.ts)
    if (kind === 'link')
      await tx.update(publications).set({ nextCheckAt: now }).where(eq(publications.placementId, paymentId));
    return inserted;
  }
}

/** The money a resolution moves, claimed in the resolving transaction; made by `settleMoney` after it. */
interface Claimed {
  full?: PaymentRow;
  part?: PartialRefundRow;
  cents: number;
}

/**
 * Claims a refund of what was asked (`null`: in full, else that many cents, in full when it is all
 * that is left), in the caller's transaction. Nothing left to give: nothing claimed.
 */
async function claimRefund(tx: Tx, paymentId: string, cents: number | null, now: Date): Promise<Claimed> {
  const { payment: pay, money } = (await lockPaymentMoney(tx, paymentId))!;
  const left = refundableCents(pay, money);
  if (left === 0) return { cents: 0 };
  if (cents !== null && cents > left) {
    throw moreThanLeft(pay, left);
  }
  if (cents === null || cents === left) {
    if (pay.status === 'released') {
      const claimed = await claimPublishedRefund(tx, paymentId, now, 'dispute');
      return claimed ? { full: claimed, cents: left } : { cents: 0 };
    }
    const [claimed] = await tx
      .update(payments)
      .set({ refundRequestedAt: now, refundReason: 'dispute' })
      .where(eq(payments.id, paymentId))
      .returning();
    return { full: claimed, cents: left };
  }
  const part = await claimPartialRefund(tx, paymentId, cents, 'dispute', now);
  return part ? { part, cents } : { cents: 0 };
}

/** Makes the claimed refund through the provider (a failure is finished by the guarantee job). */
async function settleMoney(db: Db, provider: PaymentProvider, money: Claimed, now: Date, actor: Actor) {
  if (money.full) await completeRefund(db, provider, money.full, now, actor).catch(() => undefined);
  if (money.part) await completePartialRefund(db, provider, money.part, now).catch(() => undefined);
}

/** Byline's own jobs (the deadlines, the link checks) as the table's mover. */
const BYLINE: TransitionActor = { type: 'system' };
const actorOf = (a: TransitionActor): Actor => (a.type === 'system' ? a : { type: a.type, id: a.id });

/**
 * Resolves a dispute by `event` in the caller's transaction (the table checks it and appends
 * dispute_resolved: the brand is told), with its money claimed.
 */
async function resolve(
  tx: Tx,
  d: DisputeRow,
  event: LifeEvent,
  grant: { outcome: 'refund_full' | 'refund_partial' | 'correction' | 'reject'; cents?: number },
  actor: TransitionActor,
  now: Date,
  extra: Partial<typeof disputes.$inferInsert> = {},
  why: string | null = null,
): Promise<Claimed> {
  const money = await transition(
    tx,
    d.placementId,
    event,
    actor,
    () => resolveRow(tx, d, grant, now, extra),
    ({ money, resolution }) => ({ resolution, amount: money.cents ? fromCents(money.cents) : null, reason: why }),
    now,
  );
  return money!.money;
}

/** The dispute's row resolved as granted, with its refund claimed. */
async function resolveRow(
  tx: Tx,
  d: DisputeRow,
  grant: { outcome: 'refund_full' | 'refund_partial' | 'correction' | 'reject'; cents?: number },
  now: Date,
  extra: Partial<typeof disputes.$inferInsert>,
): Promise<{ money: Claimed; resolution: DisputeResolution }> {
  let money: Claimed = { cents: 0 };
  let resolution: DisputeResolution;
  if (grant.outcome === 'refund_full' || grant.outcome === 'refund_partial') {
    money = await claimRefund(tx, d.placementId, grant.outcome === 'refund_full' ? null : grant.cents!, now);
    // nothing left to give (refunded meanwhile) reads as refunded in full
    resolution = money.part ? 'refunded_partial' : 'refunded_full';
  } else {
    resolution = grant.outcome === 'correction' ? 'corrected' : 'rejected';
  }
  await tx
    .update(disputes)
    .set({
      ...extra,
      status: 'resolved',
      resolution,
      // what it gave back is its movement's amount (decision 050): a part's movement now; a full refund's when it is recorded (ledger.ts linkFullRefund)
      ...(money.part ? { movementId: await movementOfRefund(tx, money.part.id) } : {}),
      resolvedAt: now,
    })
    .where(eq(disputes.id, d.id));
  return { money, resolution };
}

/**
 * Whether a member's scope reaches a dispute's placement (decision 035): its organisation's, and for
 * a member limited to clients one bought for one of them; otherwise the dispute is not found.
 */
const inScope = (placement: { organisationId: string; clientId: string | null }, scope: Scope) =>
  placement.organisationId === scope.organisationId &&
  (scope.clientIds === null || (placement.clientId !== null && scope.clientIds.includes(placement.clientId)));

/** Locks a dispute, checks its status, and runs `step` in one transaction; then moves the money. */
async function step(
  db: Db,
  provider: PaymentProvider,
  disputeId: string,
  expected: DisputeStatus[],
  actor: TransitionActor,
  now: Date,
  run: (tx: Tx, d: DisputeRow) => Promise<Claimed | void>,
  /** a member's step: its scope (null: the editorial team's or the job's) */
  scope: Scope | null = null,
): Promise<Dispute> {
  const money = await db.transaction(async (tx) => {
    const [found] = await tx
      .select({ d: disputes, organisationId: placements.organisationId, clientId: placements.clientId })
      .from(disputes)
      .innerJoin(placements, eq(placements.id, disputes.placementId))
      .where(eq(disputes.id, disputeId))
      .for('update', { of: disputes });
    if (!found || (scope && !inScope(found, scope))) throw notFound('dispute_not_found', 'Dispute not found');
    if (!expected.includes(found.d.status))
      throw conflict(
        'dispute_wrong_status', `This dispute is ${found.d.status}: it cannot be ${expected.includes('open') ? 'answered' : expected.includes('escalated') ? 'decided' : 'changed'} now`,
      );
    return run(tx, found.d);
  });
  if (money) await settleMoney(db, provider, money, now, actorOf(actor));
  const [after] = await db.select(withRefunded).from(disputes).where(eq(disputes.id, disputeId));
  return disputeJson(after.d, after.refunded);
}

/** POST /api/admin/disputes/{id}/answer: accept (the brand gets what it asked), offer, or reject with a reason. */
export function answerDispute(
  db: Db,
  provider: PaymentProvider,
  disputeId: string,
  answer: DisputeAnswer,
  admin: Actor & { type: 'admin' },
  now: Date = clockNow(),
) {
  return step(db, provider, disputeId, ['open'], { type: 'admin', id: admin.id }, now, async (tx, d) => {
    if (d.kind === 'link' && answer.action !== 'accept') {
      throw conflict('live_link_dispute_accept_only', 'Byline’s checks decide a dispute about the live link: the editorial team can only accept it');
    }
    const answered = {
      answerAction: answer.action,
      answerReason: answer.reason ?? null,
      answeredBy: admin.id,
      answeredAt: now,
    };
    const entry = { action: answer.action, amount: answer.amountUsd ?? null, reason: answer.reason ?? null };
    if (answer.action === 'accept') {
      // answered, then resolved as asked: two moves, two entries, in this order
      await transition(tx, d.placementId, 'answer_dispute', admin, async () => {
        await tx.update(disputes).set(answered).where(eq(disputes.id, d.id));
        return entry;
      }, () => entry, now);
      return resolve(tx, d, 'accept_dispute', asked(d), admin, now, answered, answer.reason ?? null);
    }
    const escalateBy = new Date(now.getTime() + ESCALATE_DAYS * DAY_MS);
    await transition(tx, d.placementId, 'answer_dispute', admin, async () => {
      const offerAmount = answer.action === 'offer' && answer.amountUsd ? fromCents(toCents(answer.amountUsd)) : null;
      if (offerAmount) {
        const [pay] = await tx.select().from(payments).where(eq(payments.id, d.placementId));
        const left = refundableCents(pay, await paymentMoney(tx, d.placementId));
        if (toCents(offerAmount) > left) throw moreThanLeft(pay, left);
      }
      await tx
        .update(disputes)
        .set({ ...answered, offerAmount, status: 'offered', escalateBy })
        .where(eq(disputes.id, d.id));
      return entry;
    }, () => entry, now, { escalateBy });
  });
}

/** What the team offered: a part refund of its amount, or (no amount) a correction. */
const offered = (d: DisputeRow) =>
  d.offerAmount
    ? { outcome: 'refund_partial' as const, cents: toCents(d.offerAmount) }
    : { outcome: 'correction' as const };

/** POST /api/brand/disputes/{id}/accept-offer */
export function acceptOffer(
  db: Db,
  provider: PaymentProvider,
  member: Member,
  disputeId: string,
  now: Date = clockNow(),
) {
  const actor = memberActor(member);
  return step(
    db,
    provider,
    disputeId,
    ['offered'],
    actor,
    now,
    async (tx, d) => {
      if ((await tableRefusal(tx, d.placementId, 'accept_dispute_offer', actor, now)) === 'dispute_offer_stands')
        throw conflict('dispute_rejected_no_offer', 'The editorial team rejected this dispute: there is no offer to accept (you may escalate it)');
      return resolve(tx, d, 'accept_dispute_offer', offered(d), actor, now);
    },
    { organisationId: member.organisationId, clientIds: member.clientIds },
  );
}

/** POST /api/brand/disputes/{id}/escalate: to an admin who neither released the placement nor answered, within ESCALATE_DAYS. */
export function escalateDispute(
  db: Db,
  provider: PaymentProvider,
  member: Member,
  disputeId: string,
  now: Date = clockNow(),
) {
  const actor = memberActor(member);
  return step(
    db,
    provider,
    disputeId,
    ['offered'],
    actor,
    now,
    async (tx, d) => {
      if ((await tableRefusal(tx, d.placementId, 'escalate_dispute', actor, now)) === 'escalation_open') throw conflict('escalation_window_passed', 'The time to escalate this dispute has passed');
      const decideBy = new Date(now.getTime() + DECIDE_DAYS * DAY_MS);
      await transition(tx, d.placementId, 'escalate_dispute', actor, async () => {
        await tx.update(disputes).set({ status: 'escalated', escalatedAt: now, decideBy }).where(eq(disputes.id, d.id));
        return true;
      }, () => ({ decideBy: decideBy.toISOString() }), now, { by: member });
    },
    { organisationId: member.organisationId, clientIds: member.clientIds },
  );
}

/** The admins who may not decide a dispute: whoever answered it and whoever released its placement. */
async function conflicted(tx: Tx, d: DisputeRow): Promise<Set<string>> {
  const released = await tx
    .select({ id: placementEvents.actorId })
    .from(placementEvents)
    .where(
      and(
        eq(placementEvents.placementId, d.placementId),
        inArray(placementEvents.kind, ['released', 'published']),
        eq(placementEvents.actorType, 'admin'),
      ),
    );
  return new Set([...released.map((r) => r.id), d.answeredBy].filter((x): x is string => Boolean(x)));
}

/** POST /api/admin/disputes/{id}/decide: an escalated dispute, by an admin who is neither side of it (403 otherwise). */
export function decideDispute(
  db: Db,
  provider: PaymentProvider,
  disputeId: string,
  decision: DisputeDecisionRequest,
  admin: Actor & { type: 'admin' },
  now: Date = clockNow(),
) {
  return step(db, provider, disputeId, ['escalated'], { type: 'admin', id: admin.id }, now, async (tx, d) => {
    if ((await conflicted(tx, d)).has(admin.id)) {
      throw forbidden(
        'decider_not_independent', 'An admin who released this placement or answered the dispute cannot decide it: another admin must',
      );
    }
    const decided = { decidedBy: admin.id, decidedAt: now, decisionReason: decision.reason };
    return resolve(
      tx,
      d,
      'decide_dispute',
      decision.outcome === 'reject'
        ? { outcome: 'reject' }
        : { outcome: decision.outcome, cents: decision.amountUsd ? toCents(decision.amountUsd) : undefined },
      { type: 'admin', id: admin.id },
      now,
      decided,
      decision.reason,
    );
  });
}

/** The grant of what the brand asked for, when a deadline of the team passed. */
const asked = (d: DisputeRow) => ({ outcome: d.asked, cents: d.askedAmount ? toCents(d.askedAmount) : undefined });

/**
 * The deadlines, run by the job queue with the clock `now`; each dispute once, whatever the number
 * of instances (its row is locked and its status checked again). Returns the disputes it moved.
 * - open content disputes past `respond_by`: the brand gets what it asked for;
 * - offered past `escalate_by`: an offer is taken as accepted (it is what the team agreed to give),
 *   a rejection stands;
 * - escalated past `decide_by`: the brand gets what it asked for;
 * - open link disputes: the publication case the checks opened is linked and its outcome resolves
 *   the dispute (restored, or refunded by the watch); two passing checks an hour apart with no case
 *   answer it as rejected, with the checks as evidence.
 */
export async function runDisputeDeadlines(
  db: Db,
  provider: PaymentProvider,
  now: Date = clockNow(),
): Promise<string[]> {
  const due = await db
    .select({ id: disputes.id, status: disputes.status, kind: disputes.kind })
    .from(disputes)
    .where(
      sql`${disputeDue('dispute_answer', now)} OR ${disputeDue('dispute_escalate', now)} OR ${disputeDue('dispute_decide', now)}
        OR (${disputes.status} = 'open' AND ${disputes.kind} = 'link')`,
    )
    .orderBy(asc(disputes.createdAt))
    .limit(200);
  const moved: string[] = [];
  for (const { id, status, kind } of due) {
    try {
      let changed = false;
      await step(db, provider, id, [status], BYLINE, now, async (tx, d) => {
        if (status === 'open' && kind === 'link') {
          const money = await linkEvidence(tx, d, now);
          changed = money !== null;
          return money ?? undefined;
        }
        changed = true;
        if (status === 'offered') {
          if (d.answerAction === 'offer')
            return resolve(tx, d, 'grant_dispute_by_deadline', offered(d), BYLINE, now, {}, 'The offer was not escalated in time: it stands');
          return resolve(tx, d, 'grant_dispute_by_deadline', { outcome: 'reject' }, BYLINE, now, {}, 'Not escalated in time: the rejection stands');
        }
        const missed =
          status === 'open' ? 'The editorial team did not answer in time' : 'The escalation was not decided in time';
        return resolve(tx, d, 'grant_dispute_by_deadline', asked(d), BYLINE, now, {}, `${missed}: you get what you asked for`);
      });
      if (changed) moved.push(id);
    } catch (err) {
      // moved by an admin, the brand or another instance meanwhile: theirs stands
      if (!(err instanceof DomainError && err.kind === 'conflict')) throw err;
    }
  }
  return moved;
}

/**
 * A link dispute and Byline's checks since it opened (in the sweep's transaction): linked to the
 * publication case they confirmed, resolved by its outcome, or answered as rejected when two
 * passing checks at least an hour apart found nothing. Null: nothing to do yet.
 */
async function linkEvidence(tx: Tx, d: DisputeRow, now: Date): Promise<Claimed | null> {
  const [c] = await tx
    .select()
    .from(publicationCases)
    .where(
      and(
        eq(publicationCases.placementId, d.placementId),
        sql`(${publicationCases.closedAt} IS NULL OR ${publicationCases.closedAt} >= ${d.createdAt.toISOString()}::timestamptz)`,
      ),
    )
    .orderBy(desc(publicationCases.openedAt))
    .limit(1);
  if (c) {
    if (!d.caseId) await tx.update(disputes).set({ caseId: c.id }).where(eq(disputes.id, d.id));
    if (!c.closedAt) return d.caseId ? null : { cents: 0 };
    // the case decided it: restored in time, or refunded in full by the watch (its money moved there)
    const [pay] = await tx.select({ status: payments.status }).from(payments).where(eq(payments.id, d.placementId));
    const refunded = c.outcome === 'refunded' || pay.status === 'refunded';
    const resolution = refunded ? 'refunded_full' : 'restored';
    // its money is the payment's full refund (the watch's): its movement when recorded already,
    // else linked when it is (ledger.ts linkFullRefund)
    const movementId = refunded ? await fullRefundMovement(tx, d.placementId) : null;
    await transition(tx, d.placementId, 'settle_link_dispute', BYLINE, async () => {
      await tx
        .update(disputes)
        .set({ caseId: c.id, status: 'resolved', resolution, movementId, resolvedAt: now })
        .where(eq(disputes.id, d.id));
      return true;
    }, () => ({ resolution, caseId: c.id }), now);
    return { cents: 0 };
  }
  const passes = await tx
    .select({ checkedAt: publicationChecks.checkedAt })
    .from(publicationChecks)
    .where(
      and(
        eq(publicationChecks.placementId, d.placementId),
        gte(publicationChecks.checkedAt, d.createdAt),
        ne(publicationChecks.result, 'fail'),
      ),
    )
    .orderBy(asc(publicationChecks.checkedAt));
  const [{ fails }] = await tx
    .select({ fails: sql<number>`count(*)::int` })
    .from(publicationChecks)
    .where(
      and(
        eq(publicationChecks.placementId, d.placementId),
        gte(publicationChecks.checkedAt, d.createdAt),
        eq(publicationChecks.result, 'fail'),
      ),
    );
  const spanned =
    passes.length >= 2 && passes[passes.length - 1].checkedAt.getTime() - passes[0].checkedAt.getTime() >= 3_600_000;
  if (fails > 0 || !spanned) return null;
  const escalateBy = new Date(now.getTime() + ESCALATE_DAYS * DAY_MS);
  const reason = 'Byline’s checks found the article live, with its link, at least an hour apart';
  await transition(tx, d.placementId, 'answer_dispute', BYLINE, async () => {
    await tx
      .update(disputes)
      .set({ status: 'offered', answerAction: 'reject', answerReason: reason, answeredAt: now, escalateBy })
      .where(eq(disputes.id, d.id));
    return true;
  }, () => ({ action: 'reject', reason }), now, { escalateBy });
  return { cents: 0 };
}

/**
 * The admins who may decide an escalated dispute (all but those `conflicted`), by name, and whether
 * `adminId` is one of them (issue 57: the page says who may, and warns when nobody can).
 */
async function decidersOf(db: Db, d: DisputeRow, adminId: string): Promise<NonNullable<DisputeDetail['deciders']>> {
  const excluded = await conflicted(db, d);
  const admins = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.role, 'admin'))
    .orderBy(asc(users.name), asc(users.email));
  const may = admins.filter((a) => !excluded.has(a.id));
  // the e-mail beside the name: two admins may share one ("Admin", made at start)
  return { you: may.some((a) => a.id === adminId), names: may.map((a) => (a.name?.trim() ? `${a.name.trim()} (${a.email})` : a.email)) };
}

/**
 * GET /api/brand/disputes/{id} (the member's scope) and the admins' view: the dispute, its placement
 * with its life for `viewer` (what they may do to the dispute now), the checks since it opened.
 */
export async function disputeDetail(
  db: Db,
  disputeId: string,
  scope: Scope | null,
  viewer: Viewer,
  adminId?: string,
): Promise<DisputeDetail> {
  const [row] = await db
    .select({
      ...withRefunded,
      title: opportunities.title,
      outletName: opportunities.outletName,
      amount: payments.amount,
      refundedAmount: refundedSql(payments.id),
      brandName: sql<string>`COALESCE(${users.brandName}, ${users.name}, ${users.email})`,
      org: placements.organisationId,
      client: placements.clientId,
      life: sql<string>`${lifeInputsSql}`,
    })
    .from(disputes)
    .innerJoin(placements, eq(placements.id, disputes.placementId))
    .leftJoin(briefs, eq(briefs.placementId, placements.id))
    .innerJoin(payments, eq(payments.id, placements.paymentId))
    .innerJoin(opportunities, eq(opportunities.id, placements.opportunityId))
    .innerJoin(users, eq(users.id, placements.brandId))
    .where(eq(disputes.id, disputeId));
  if (!row || (scope && !inScope({ organisationId: row.org, clientId: row.client }, scope))) throw notFound('dispute_not_found', 'Dispute not found');
  const checks = await db
    .select({
      url: publicationChecks.url,
      result: publicationChecks.result,
      check: publicationChecks.check,
      checkedAt: publicationChecks.checkedAt,
    })
    .from(publicationChecks)
    .where(
      and(
        eq(publicationChecks.placementId, row.d.placementId),
        gte(publicationChecks.checkedAt, new Date(row.d.createdAt.getTime() - DAY_MS)),
      ),
    )
    .orderBy(desc(publicationChecks.checkedAt))
    .limit(20);
  // a link dispute waits on Byline's next check of the live article (opening it asked for one now)
  const [pending] =
    row.d.kind === 'link' && row.d.status === 'open'
      ? await db.select({ at: publications.nextCheckAt }).from(publications).where(eq(publications.placementId, row.d.placementId))
      : [];
  const deciders = adminId && row.d.status === 'escalated' ? await decidersOf(db, row.d, adminId) : undefined;
  return {
    ...disputeJson(row.d, row.refunded),
    title: row.title,
    outletName: row.outletName,
    amount: row.amount,
    refundedAmount: row.refundedAmount,
    brandName: row.brandName,
    evidence: checks.map((c) => ({
      url: c.url,
      result: c.result,
      problems: (c.check.problems ?? []).map((p) => p.message),
      checkedAt: c.checkedAt.toISOString(),
    })),
    nextCheckAt: pending?.at?.toISOString() ?? null,
    ...(deciders ? { deciders } : {}),
    life: lifeFor(row.life, viewer),
  };
}

/** GET /api/admin/disputes?status=: counts by status, and the disputes (of one status), soonest due first. */
export async function adminDisputes(db: Db, status: DisputeStatus | undefined) {
  const counted = await db
    .select({ status: disputes.status, n: sql<number>`count(*)::int` })
    .from(disputes)
    .groupBy(disputes.status);
  const counts = { open: 0, offered: 0, escalated: 0, resolved: 0 };
  for (const c of counted) counts[c.status] = c.n;
  const dueAt = sql<Date | null>`CASE ${disputes.status} WHEN 'open' THEN ${disputes.respondBy} WHEN 'offered' THEN ${disputes.escalateBy} WHEN 'escalated' THEN ${disputes.decideBy} END`;
  const rows = await db
    .select({
      ...withRefunded,
      title: opportunities.title,
      outletName: opportunities.outletName,
      brandName: sql<string>`COALESCE(${users.brandName}, ${users.name}, ${users.email})`,
      dueAt,
    })
    .from(disputes)
    .innerJoin(placements, eq(placements.id, disputes.placementId))
    .innerJoin(opportunities, eq(opportunities.id, placements.opportunityId))
    .innerJoin(users, eq(users.id, placements.brandId))
    .where(status ? eq(disputes.status, status) : undefined)
    .orderBy(sql`${dueAt} ASC NULLS LAST`, desc(disputes.createdAt))
    .limit(200);
  return {
    counts,
    items: rows.map((r) => ({
      ...disputeJson(r.d, r.refunded),
      title: r.title,
      outletName: r.outletName,
      brandName: r.brandName,
      dueAt: r.dueAt ? new Date(r.dueAt).toISOString() : null,
    })),
  };
}
