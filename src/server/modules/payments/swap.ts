import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { briefs, checkouts, opportunities, orders, payments, placements } from '../../db/schema';
import { notFound, conflict, upstreamFailed } from '../../lib/errors';
import type { Member } from '../../lib/contract';
import { startOfUtcDay } from '../../lib/dates';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import type { PaymentProvider } from '../../providers/provider';
import { DAY_MS, SWAP_DAYS, SWAP_OPTIONS } from '../../../shared/constants';
import { fromCents, toCents } from '../../../shared/money';
import { swapDue } from '../timeline/deadlines';
import { recordEvent, SYSTEM, type Actor } from '../timeline/service';
import { issueInvoice, type InvoiceSettings } from '../invoices/service';
import { isUniqueViolation } from '../auth/users';
import { CHECKOUT_HOLD_SECONDS } from '../../../shared/payment';
import { claimPartialRefund, completePartialRefund, refundPayment } from './refunds';
import { closeCheckouts, releaseSlot, reserveSlot } from './slots';
import { appendCharge, lockPaymentMoney, paymentMoney } from '../ledger/ledger';
import { now as clockNow } from '../../lib/clock';

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
  /** this price minus what the placement holds: paid through a checkout on swapping (never negative) */
  payUsd: string;
}

const DECLINE_REFUSAL = 'Only a placement in progress whose writing has not started can be declined';

/** POST /api/admin/payments/{id}/decline: the brand is told and may swap until `swapBy`. */
export async function declinePlacement(
  db: Db,
  provider: PaymentProvider,
  paymentId: string,
  reason: string,
  admin: Actor,
  now: Date = clockNow(),
  /** the SWAP_DAYS setting */
  swapDays: number = SWAP_DAYS,
) {
  const swapBy = new Date(now.getTime() + swapDays * DAY_MS);
  const declined = await db.transaction(async (tx) => {
    // the payment's row, then the placement's: the order a refund's record takes them in (no deadlock with one)
    const [pay] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('no key update');
    const [p] = pay ? await tx.select().from(placements).where(eq(placements.id, paymentId)).for('no key update') : [];
    if (!p) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
    if (p.declinedAt) throw conflict('placement_already_declined', 'This placement has already been declined');
    const writing = p.draftDocumentUrl !== null || p.draftDocumentFile !== null || p.draftReviewStatus === 'approved' || p.writingStartedAt !== null;
    if (p.state !== 'in_progress' || writing) throw conflict('not_declinable', DECLINE_REFUSAL);
    if (pay.status !== 'paid' || pay.refundRequestedAt) throw conflict('not_declinable', DECLINE_REFUSAL);
    await tx.update(placements).set({ declinedAt: now, declineReason: reason, swapBy }).where(eq(placements.id, paymentId));
    // the outlet will not run it: its slot is free for others
    if (pay.holdsSlot) {
      await tx.update(payments).set({ holdsSlot: false }).where(eq(payments.id, paymentId));
      await releaseSlot(tx, pay.opportunityId);
    }
    // the brand is told, with the day its choice is due (timeline/effects.ts declined)
    await recordEvent(tx, paymentId, 'declined', admin, { reason, swapBy: swapBy.toISOString() }, now);
    const [order] = pay.orderId ? await tx.select({ autoSwap: orders.autoSwap }).from(orders).where(eq(orders.id, pay.orderId)) : [];
    return { autoSwap: Boolean(order?.autoSwap) };
  });
  // chosen at checkout: the closest alternative the placement's money covers, at once
  if (declined.autoSwap) {
    const [closest] = (await optionsFor(db, paymentId, now)).filter((o) => toCents(o.payUsd) === 0);
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
  if (!row) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  if (!row.placement.declinedAt || row.placement.state !== 'in_progress') throw conflict('placement_not_declined', 'This placement was not declined');
  return row;
}

/** Up to SWAP_OPTIONS alternatives, closest first: by price, then by domain authority. */
async function optionsFor(db: Db, paymentId: string, now: Date): Promise<SwapOption[]> {
  const { payment } = await declinedPlacement(db, paymentId, null);
  const [was] = await db.select().from(opportunities).where(eq(opportunities.id, payment.opportunityId));
  const held = toCents(payment.amount) - toCents((await paymentMoney(db, payment.id)).refunded);
  // within 20 % of what the placement holds, either way: a cheaper one refunds the difference, a
  // dearer one asks for it through a checkout
  const low = fromCents(Math.ceil((held * 8) / 10));
  const high = fromCents(Math.floor((held * 12) / 10));
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
    payUsd: fromCents(Math.max(0, toCents(r.priceUsd) - held)),
  }));
}

/** GET /api/brand/projects/{id}/swap-options */
export async function swapOptions(db: Db, member: Member, paymentId: string, now: Date = clockNow()) {
  await declinedPlacement(db, paymentId, member.organisationId);
  return optionsFor(db, paymentId, now);
}

/**
 * POST /api/brand/projects/{id}/swap: the placement moves to the alternative in one transaction
 * (a slot of it taken, the brief kept); a cheaper one's difference is refunded after it commits.
 */
export async function swapPlacement(
  db: Db,
  provider: PaymentProvider,
  paymentId: string,
  opportunityId: string,
  actor: Actor,
  now: Date = clockNow(),
  member?: Member,
  /** for a dearer alternative: where the browser comes back to after paying the difference */
  deps?: { publicUrl: string },
) {
  const { placement } = await declinedPlacement(db, paymentId, member?.organisationId ?? null);
  if (placement.swapBy && placement.swapBy <= now) throw conflict('swap_window_passed', 'The time to choose an alternative has passed: this placement is being refunded in full');
  // a second click on a dearer one: its checkout is still open (holding the alternative's slot)
  const [openTopup] = await db
    .select({ url: checkouts.url, amount: checkouts.amount })
    .from(checkouts)
    .where(and(eq(checkouts.swapOf, paymentId), eq(checkouts.opportunityId, opportunityId), eq(checkouts.status, 'open'), sql`${checkouts.expiresAt} > ${now.toISOString()}::timestamptz`));
  if (openTopup?.url) return { paymentId, opportunityId, refundedUsd: '0.00', url: openTopup.url, payUsd: openTopup.amount };
  const offered = await optionsFor(db, paymentId, now);
  const choice = offered.find((o) => o.id === opportunityId);
  if (!choice) throw conflict('alternative_not_offered', 'This alternative is no longer offered. Please choose another.');
  if (toCents(choice.payUsd) > 0) {
    if (!member || !deps) throw conflict('alternative_too_expensive', 'This alternative costs more than the placement holds');
    return { paymentId, opportunityId, refundedUsd: '0.00', ...(await startTopup(db, { publicUrl: deps.publicUrl, provider }, placement, choice, member, now)) };
  }
  const refund = await db.transaction(async (tx) => {
    const [p] = await tx.select().from(placements).where(eq(placements.id, paymentId)).for('no key update');
    if (!p.declinedAt || p.state !== 'in_progress') throw conflict('placement_not_declined', 'This placement was not declined');
    const { payment: pay, money } = (await lockPaymentMoney(tx, paymentId))!;
    const held = toCents(pay.amount) - toCents(money.refunded);
    if (toCents(choice.priceUsd) > held) throw conflict('alternative_price_changed', 'The price of this alternative changed. Please choose again.');
    const taken = await reserveSlot(tx, opportunityId, now);
    if (!taken) throw conflict('alternative_sold_out', 'This alternative has just sold out. Please choose another.');
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
      // a member's swap is on its organisation's audit log (Byline's automatic one is not)
      member ? { by: member } : {},
    );
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
export async function refundUnswapped(db: Db, provider: PaymentProvider, now: Date = clockNow()): Promise<string[]> {
  const due = await db
    .select({ id: placements.id })
    .from(placements)
    .where(swapDue(now))
    .orderBy(placements.swapBy)
    .limit(200);
  const done: string[] = [];
  for (const { id } of due) {
    const after = await refundPayment(db, provider, id, 'declined', now);
    if (after?.changed) done.push(id);
  }
  return done;
}


/**
 * A dearer alternative (issue 46): a checkout of the difference, holding a slot of the alternative
 * for 31 minutes like any checkout (the expiry sweep gives it back). Paid, fulfilSwapTopup moves
 * the placement; a second click gets the same checkout back.
 */
async function startTopup(
  db: Db,
  deps: { publicUrl: string; provider: PaymentProvider },
  placement: typeof placements.$inferSelect,
  choice: SwapOption,
  member: Member,
  now: Date,
): Promise<{ url: string; payUsd: string }> {
  const { provider } = deps;
  const id = randomUUID();
  const expiresAt = new Date(now.getTime() + CHECKOUT_HOLD_SECONDS * 1000);
  const pre = provider.precomputedCheckout?.(id);
  try {
    await db.transaction(async (tx) => {
      const [p] = await tx.select().from(placements).where(eq(placements.id, placement.id)).for('no key update');
      if (!p.declinedAt || p.state !== 'in_progress') throw conflict('placement_not_declined', 'This placement was not declined');
      const taken = await reserveSlot(tx, choice.id, now);
      if (!taken) throw conflict('alternative_sold_out', 'This alternative has just sold out. Please choose another.');
      await tx.insert(checkouts).values({
        id,
        brandId: member.userId,
        organisationId: p.organisationId,
        clientId: p.clientId,
        opportunityId: choice.id,
        swapOf: p.id,
        amount: choice.payUsd,
        status: 'open',
        expiresAt,
        createdAt: now,
        providerSessionId: pre?.sessionId ?? null,
        url: pre?.url ?? null,
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('swap_checkout_open', 'A checkout for this alternative is already open. Please try again in a moment.');
    throw err;
  }
  if (pre) return { url: pre.url, payUsd: choice.payUsd };
  try {
    const created = await provider.createCheckout({
      paymentId: id,
      brandId: member.userId,
      opportunityId: choice.id,
      brandEmail: member.email,
      amountCents: toCents(choice.payUsd),
      productName: `Swap to ${choice.outletName}: ${choice.title} (difference)`,
      expiresAt,
      successUrl: `${deps.publicUrl}/brand/my-articles/${placement.id}?checkout=success`,
      cancelUrl: `${deps.publicUrl}/brand/my-articles/${placement.id}?checkout=cancelled`,
      idempotencyKey: `checkout-${id}`,
    });
    await db.update(checkouts).set({ providerSessionId: created.sessionId, url: created.url }).where(eq(checkouts.id, id));
    return { url: created.url, payUsd: choice.payUsd };
  } catch {
    await closeCheckouts(db, sql`${checkouts.id} = ${id}`, 'cancelled', now);
    throw upstreamFailed('checkout_session_failed', 'Failed to create checkout session');
  }
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * The difference of a dearer swap, paid (in bookPurchase's transaction, the hold locked): a
 * payment of its own (`topup_of` the placement's payment, its own invoice, released and refunded
 * with it), and the placement moves to the alternative. When the placement is no longer declined
 * (refunded by its deadline, swapped meanwhile) or the slot is gone, the difference is refunded.
 */
export async function fulfilSwapTopup(
  tx: Tx,
  h: typeof checkouts.$inferSelect,
  session: { id: string; providerRef: string | null },
  holdsSlot: boolean,
  now: Date,
  invoicing: InvoiceSettings,
) {
  const [p] = await tx.select().from(placements).where(eq(placements.id, h.swapOf!)).for('no key update');
  const [main] = await tx.select().from(payments).where(eq(payments.id, p.paymentId)).for('no key update');
  const movable = Boolean(p.declinedAt) && p.state === 'in_progress' && main.status === 'paid' && !main.refundRequestedAt && holdsSlot;
  await tx.update(checkouts).set({ status: 'completed', closedAt: now, providerSessionId: session.id }).where(eq(checkouts.id, h.id));
  const [topup] = await tx
    .insert(payments)
    .values({
      id: h.id,
      topupOf: main.id,
      brandId: h.brandId,
      organisationId: main.organisationId,
      clientId: main.clientId,
      opportunityId: h.opportunityId,
      stripePaymentId: session.providerRef ?? session.id,
      providerSessionId: session.id,
      amount: h.amount,
      status: 'paid',
      holdsSlot: false,
      paidAt: now,
      createdAt: now,
      ...(movable ? {} : { refundRequestedAt: now, refundReason: 'swap' as const }),
    })
    .returning();
  // the difference that came in, on the ledger: a charge of the top-up, of the placement it tops up
  await appendCharge(tx, topup.id, now, topup.brandId);
  if (!movable) {
    // the slot it held goes back; the difference is refunded after this commits
    if (holdsSlot) await releaseSlot(tx, h.opportunityId);
    return topup;
  }
  const [from] = await tx.select({ outlet: opportunities.outletName, title: opportunities.title }).from(opportunities).where(eq(opportunities.id, main.opportunityId));
  const [to] = await tx.select({ outlet: opportunities.outletName, title: opportunities.title }).from(opportunities).where(eq(opportunities.id, h.opportunityId));
  await tx.update(placements).set({ opportunityId: h.opportunityId, declinedAt: null, declineReason: null, swapBy: null }).where(eq(placements.id, p.id));
  await tx.update(payments).set({ opportunityId: h.opportunityId, holdsSlot: true }).where(eq(payments.id, main.id));
  await tx.update(briefs).set({ opportunityId: h.opportunityId }).where(eq(briefs.placementId, p.id));
  await issueInvoice(tx, topup.id, invoicing, now);
  await recordEvent(
    tx,
    p.id,
    'swapped',
    { type: 'brand', id: h.brandId },
    { fromOutlet: from.outlet, fromTitle: from.title, toOutlet: to.outlet, toTitle: to.title, amount: topup.amount, paid: true },
    now,
  );
  return topup;
}
