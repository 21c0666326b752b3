import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { briefs, opportunities, orders, payments, placements } from '../../db/schema';
import { conflict, notFound } from '../../lib/errors';
import type { Member } from '../../lib/contract';
import { startOfUtcDay } from '../../lib/dates';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import type { PaymentProvider } from '../../providers/provider';
import { DAY_MS, SWAP_DAYS, SWAP_OPTIONS } from '../../../shared/constants';
import { fromCents, toCents } from '../../../shared/money';
import { enqueueMail } from '../../mail/outbox';
import { recordEvent, SYSTEM, type Actor } from '../timeline/service';
import { recordAudit } from '../org/audit';
import { claimPartialRefund, completePartialRefund, refundPayment } from './refunds';
import { releaseSlot, reserveSlot } from './slots';

/**
 * Decline and swap (issue 46). Before writing starts an admin may decline a placement (the outlet
 * refused the topic, the slot fell through): its slot is given back and the brand has SWAP_DAYS to
 * pick one of up to SWAP_OPTIONS alternatives (same type, price within ±20 %, domain authority
 * within ±10, a shared topic, available). The same placement moves to the alternative (its brief and
 * conversation stay); a cheaper one refunds the difference, with its own credit note. Dearer ones
 * are not offered yet (decision 036). No choice by the deadline: refunded in full,
 * exactly once (the claim on the payment's row and the provider's idempotency key). An order checked
 * out with `autoSwap` takes the closest alternative at once.
 */

export interface SwapOption {
  id: string;
  title: string;
  outletName: string;
  priceUsd: string;
  domainAuthority: number | null;
  type: string[];
  topics: string[];
  deadlineDate: string | null;
  /** the placement's held amount minus this price: refunded on swapping (never negative) */
  refundUsd: string;
}

const DECLINE_REFUSAL = 'Only a placement in progress whose writing has not started can be declined';

/** POST /api/admin/payments/{id}/decline: the brand is told and may swap until `swapBy`. */
export async function declinePlacement(db: Db, provider: PaymentProvider, paymentId: string, reason: string, admin: Actor, now: Date = new Date()) {
  const swapBy = new Date(now.getTime() + SWAP_DAYS * DAY_MS);
  const declined = await db.transaction(async (tx) => {
    const [p] = await tx.select().from(placements).where(eq(placements.id, paymentId)).for('update');
    if (!p) throw notFound(PAYMENT_NOT_FOUND);
    if (p.declinedAt) throw conflict('This placement has already been declined');
    const writing = p.draftDocumentUrl !== null || p.draftDocumentFile !== null || p.draftReviewStatus === 'approved';
    if (p.state !== 'in_progress' || writing) throw conflict(DECLINE_REFUSAL);
    const [pay] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    if (pay.status !== 'paid' || pay.refundRequestedAt) throw conflict(DECLINE_REFUSAL);
    await tx.update(placements).set({ declinedAt: now, declineReason: reason, swapBy }).where(eq(placements.id, paymentId));
    // the outlet will not run it: its slot is free for others
    if (pay.holdsSlot) {
      await tx.update(payments).set({ holdsSlot: false }).where(eq(payments.id, paymentId));
      await releaseSlot(tx, pay.opportunityId);
    }
    await recordEvent(tx, paymentId, 'declined', admin, { reason, swapBy: swapBy.toISOString() }, now);
    const [opp] = await tx.select({ title: opportunities.title, outlet: opportunities.outletName }).from(opportunities).where(eq(opportunities.id, pay.opportunityId));
    await enqueueMail(tx, { userId: p.brandId }, { kind: 'placement_declined', paymentId, title: opp.title, outlet: opp.outlet, reason, swapBy: swapBy.toISOString() });
    const [order] = pay.orderId ? await tx.select({ autoSwap: orders.autoSwap }).from(orders).where(eq(orders.id, pay.orderId)) : [];
    return { autoSwap: Boolean(order?.autoSwap) };
  });
  // chosen at checkout: the closest alternative, at once
  if (declined.autoSwap) {
    const [closest] = await optionsFor(db, paymentId, now);
    if (closest) await swapPlacement(db, provider, paymentId, closest.id, SYSTEM, now);
  }
  return { paymentId, declined: { reason, swapBy: swapBy.toISOString() } };
}

/** The declined placement (of the member's organisation), or 404/409. */
async function declinedPlacement(db: Db, paymentId: string, organisationId: string | null) {
  const [row] = await db
    .select({ placement: placements, payment: payments })
    .from(placements)
    .innerJoin(payments, eq(payments.id, placements.paymentId))
    .where(and(eq(placements.id, paymentId), organisationId ? eq(placements.organisationId, organisationId) : undefined));
  if (!row) throw notFound(PAYMENT_NOT_FOUND);
  if (!row.placement.declinedAt || row.placement.state !== 'in_progress') throw conflict('This placement was not declined');
  return row;
}

/** Up to SWAP_OPTIONS alternatives, closest first: by price, then by domain authority. */
async function optionsFor(db: Db, paymentId: string, now: Date): Promise<SwapOption[]> {
  const { payment } = await declinedPlacement(db, paymentId, null);
  const [was] = await db.select().from(opportunities).where(eq(opportunities.id, payment.opportunityId));
  const held = toCents(payment.amount) - toCents(payment.refundedAmount);
  // within 20 % below what the placement holds, up to its price: a dearer one would need a second
  // charge, which is not built yet (decision 036)
  const low = fromCents(Math.ceil((held * 8) / 10));
  const high = fromCents(held);
  const daNear =
    was.domainAuthority === null
      ? sql`true`
      : sql`${opportunities.domainAuthority} BETWEEN ${was.domainAuthority - 10} AND ${was.domainAuthority + 10}`;
  const textArray = (values: string[]) => sql`ARRAY[${sql.join(values.map((v) => sql`${v}`), sql`, `)}]::text[]`;
  const sharedTopic = was.topics.length ? sql`${opportunities.topics} && ${textArray(was.topics)}` : sql`true`;
  const rows = await db
    .select({
      id: opportunities.id,
      title: opportunities.title,
      outletName: opportunities.outletName,
      priceUsd: sql<string>`${opportunities.priceUsd}::text`,
      domainAuthority: opportunities.domainAuthority,
      type: opportunities.type,
      topics: opportunities.topics,
      deadlineDate: opportunities.deadlineDate,
    })
    .from(opportunities)
    .where(
      and(
        sql`${opportunities.id} <> ${was.id}`,
        eq(opportunities.status, 'available'),
        sql`${opportunities.filledSlots} < ${opportunities.maxSlots}`,
        sql`(${opportunities.deadlineDate} IS NULL OR ${opportunities.deadlineDate} >= ${startOfUtcDay(now).toISOString()}::timestamptz)`,
        was.type.length ? sql`${opportunities.type} && ${textArray(was.type)}` : sql`true`,
        sql`${opportunities.priceUsd} BETWEEN ${low}::numeric AND ${high}::numeric`,
        daNear,
        sharedTopic,
      ),
    )
    .orderBy(
      sql`abs(${opportunities.priceUsd} - ${fromCents(held)}::numeric)`,
      sql`abs(coalesce(${opportunities.domainAuthority}, 0) - ${was.domainAuthority ?? 0})`,
      opportunities.id,
    )
    .limit(SWAP_OPTIONS);
  return rows.map((r) => ({
    ...r,
    deadlineDate: r.deadlineDate?.toISOString() ?? null,
    refundUsd: fromCents(Math.max(0, held - toCents(r.priceUsd))),
  }));
}

/** GET /api/brand/projects/{id}/swap-options */
export async function swapOptions(db: Db, member: Member, paymentId: string, now: Date = new Date()) {
  await declinedPlacement(db, paymentId, member.organisationId);
  return optionsFor(db, paymentId, now);
}

/**
 * POST /api/brand/projects/{id}/swap: the placement moves to the alternative in one transaction
 * (a slot of it taken, the brief kept); a cheaper one's difference is refunded after it commits.
 */
export async function swapPlacement(db: Db, provider: PaymentProvider, paymentId: string, opportunityId: string, actor: Actor, now: Date = new Date(), member?: Member) {
  const { placement } = await declinedPlacement(db, paymentId, member?.organisationId ?? null);
  if (placement.swapBy && placement.swapBy <= now) throw conflict('The time to choose an alternative has passed: this placement is being refunded in full');
  const offered = await optionsFor(db, paymentId, now);
  const choice = offered.find((o) => o.id === opportunityId);
  if (!choice) throw conflict('This alternative is no longer offered. Please choose another.');
  const refund = await db.transaction(async (tx) => {
    const [p] = await tx.select().from(placements).where(eq(placements.id, paymentId)).for('update');
    if (!p.declinedAt || p.state !== 'in_progress') throw conflict('This placement was not declined');
    const [pay] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    const held = toCents(pay.amount) - toCents(pay.refundedAmount);
    if (toCents(choice.priceUsd) > held) throw conflict('This alternative costs more than you paid');
    const taken = await reserveSlot(tx, opportunityId, now);
    if (!taken) throw conflict('This alternative has just sold out. Please choose another.');
    const [from] = await tx.select({ outlet: opportunities.outletName, title: opportunities.title }).from(opportunities).where(eq(opportunities.id, pay.opportunityId));
    await tx.update(placements).set({ opportunityId, declinedAt: null, declineReason: null, swapBy: null }).where(eq(placements.id, paymentId));
    await tx.update(payments).set({ opportunityId, holdsSlot: true }).where(eq(payments.id, paymentId));
    await tx.update(briefs).set({ opportunityId }).where(eq(briefs.placementId, paymentId));
    const difference = held - toCents(choice.priceUsd);
    const claimed = difference > 0 ? await claimPartialRefund(tx, paymentId, difference, 'swap', now) : undefined;
    await recordEvent(
      tx,
      paymentId,
      'swapped',
      actor,
      { fromOutlet: from.outlet, fromTitle: from.title, toOutlet: taken.outletName, toTitle: taken.title, ...(difference > 0 ? { amount: fromCents(difference) } : {}) },
      now,
    );
    if (member) await recordAudit(tx, { organisationId: p.organisationId, actor: member, action: 'placement_swapped', subject: paymentId, details: { opportunityId } }, now);
    return claimed;
  });
  if (refund) {
    // the swap stands; a provider that fails now is asked again by the guarantee job (the refund is claimed)
    await completePartialRefund(db, provider, refund, now).catch(() => undefined);
  }
  return { paymentId, opportunityId, refundedUsd: refund?.amount ?? '0.00' };
}

/**
 * Declined placements whose time to choose ran out: each refunded in full (reason `declined`),
 * exactly once however many instances run this (refundPayment claims the row first; the provider
 * call carries the payment id as idempotency key; a claim left by a crash is finished by the
 * guarantee job).
 */
export async function refundUnswapped(db: Db, provider: PaymentProvider, now: Date = new Date()): Promise<string[]> {
  const due = await db
    .select({ id: placements.id })
    .from(placements)
    .where(and(isNotNull(placements.declinedAt), eq(placements.state, 'in_progress'), lte(placements.swapBy, now)))
    .orderBy(placements.swapBy)
    .limit(200);
  const done: string[] = [];
  for (const { id } of due) {
    const after = await refundPayment(db, provider, id, 'declined', now);
    if (after?.changed) done.push(id);
  }
  return done;
}

