import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { cartLines, opportunities } from '../../db/schema';
import { notFound, conflict } from '../../lib/errors';
import type { Member } from '../../lib/contract';
import { startOfUtcDay } from '../../lib/dates';
import { fromCents, toCents } from '../../../shared/money';
import { CART_MAX_LINES, CART_UNAVAILABLE, type Cart } from '../../../shared/schemas/cart';
import { clientsLeft, pendingRequestFor, spendOf } from '../org/budget';
import type { Tx } from './slots';
import { promiseOn } from '../opportunities/claimable';
import { now as clockNow } from '../../lib/clock';

/**
 * A member's cart (issue 46): up to CART_MAX_LINES opportunities, one line (one slot) each, with
 * the price each had when it was added. Read from the database every time: availability and the
 * current price are the opportunity's of the moment.
 */

export type CartLine = Cart['lines'][number];

/** Why an opportunity cannot be bought now, as SQL over `opportunities` (null: it can). */
const unavailableReason = (since: Date) => sql<keyof typeof CART_UNAVAILABLE | null>`CASE
    WHEN ${opportunities.status} = 'full' OR (${opportunities.status} = 'available' AND ${opportunities.filledSlots} >= ${opportunities.maxSlots}) THEN 'sold_out'
    WHEN ${opportunities.status} <> 'available' THEN 'unavailable'
    WHEN ${opportunities.deadlineDate} IS NOT NULL AND ${opportunities.deadlineDate} < ${since.toISOString()}::timestamptz THEN 'deadline_passed'
    ELSE NULL END`;

/** The member's lines, oldest first, with each opportunity's price and availability now. */
export async function cartLinesOf(db: Db | Tx, userId: string, now: Date = clockNow()): Promise<CartLine[]> {
  const rows = await db
    .select({
      opportunityId: cartLines.opportunityId,
      title: opportunities.title,
      outletName: opportunities.outletName,
      priceUsd: sql<string>`${cartLines.priceUsd}::text`,
      currentPriceUsd: sql<string>`${opportunities.priceUsd}::text`,
      deadlineDate: opportunities.deadlineDate,
      reason: unavailableReason(startOfUtcDay(now)),
      addedAt: cartLines.addedAt,
      // "Live by", as the opportunity's card has it today
      promise: promiseOn(startOfUtcDay(now).toISOString()),
    })
    .from(cartLines)
    .innerJoin(opportunities, eq(opportunities.id, cartLines.opportunityId))
    .where(eq(cartLines.userId, userId))
    .orderBy(cartLines.addedAt, cartLines.opportunityId);
  return rows.map((r) => ({
    ...r,
    deadlineDate: r.deadlineDate?.toISOString() ?? null,
    addedAt: r.addedAt.toISOString(),
    available: r.reason === null,
    reason: r.reason === null ? null : CART_UNAVAILABLE[r.reason],
  }));
}

/** The sum of the lines' prices as added, in cents. */
const cartTotalCents = (lines: Pick<CartLine, 'priceUsd'>[]) => lines.reduce((sum, l) => sum + toCents(l.priceUsd), 0);

/** GET /api/cart: the lines, their total, the budget left and whether the total needs approval. */
export async function cartOf(db: Db, member: Member, now: Date = clockNow()): Promise<Cart> {
  const [lines, spend, clients] = await Promise.all([
    cartLinesOf(db, member.userId, now),
    spendOf(db, member, now),
    clientsLeft(db, member.organisationId, member.clientIds, now),
  ]);
  const threshold = spend.member.approvalThresholdUsd;
  const total = cartTotalCents(lines);
  const lefts = [spend.leftUsd, spend.member.leftUsd].filter((v): v is string => v !== null).map(toCents);
  // the tightest cap, never below nothing (a cap lowered, refunds)
  const tightest = (more: number[]) => fromCents(Math.max(0, Math.min(...more)));
  const requested = await pendingRequestFor(db, member, lines.map((l) => l.opportunityId), true, now);
  return {
    lines,
    totalUsd: fromCents(total),
    maxLines: CART_MAX_LINES,
    budgetLeftUsd: lefts.length ? tightest(lefts) : null,
    needsApproval: threshold !== null && total > toCents(threshold),
    clientBudgetLeftUsd: Object.fromEntries([...clients].map(([id, left]) => [id, tightest([...lefts, toCents(left)])])),
    approvalRequested: requested ? { id: requested.id, createdAt: requested.createdAt.toISOString() } : null,
  };
}

/**
 * PUT /api/cart/lines/{opportunityId}: adds the opportunity at its price of now (a line already in
 * the cart stays as it is). 409 when the cart is full or the opportunity cannot be bought now.
 * The count and the insert are one statement, so two tabs cannot pass 50 together.
 */
export async function addToCart(db: Db, member: Member, opportunityId: string, now: Date = clockNow()): Promise<void> {
  const [opp] = await db
    .select({ id: opportunities.id, reason: unavailableReason(startOfUtcDay(now)) })
    .from(opportunities)
    .where(eq(opportunities.id, opportunityId));
  if (!opp) throw notFound('opportunity_not_found', 'Opportunity not found');
  const [already] = await db
    .select({ id: cartLines.opportunityId })
    .from(cartLines)
    .where(and(eq(cartLines.userId, member.userId), eq(cartLines.opportunityId, opportunityId)));
  if (already) return;
  if (opp.reason) throw conflict('opportunity_not_addable', `This opportunity cannot be added: ${CART_UNAVAILABLE[opp.reason].toLowerCase()}`);
  const result = await db.execute(sql`
    INSERT INTO ${cartLines} (user_id, opportunity_id, price_usd, added_at)
    SELECT ${member.userId}::uuid, o.id, o.price_usd, ${now.toISOString()}::timestamptz
    FROM ${opportunities} o
    WHERE o.id = ${opportunityId}::uuid
      AND (SELECT count(*) FROM ${cartLines} WHERE user_id = ${member.userId}::uuid) < ${CART_MAX_LINES}
    ON CONFLICT DO NOTHING
    RETURNING opportunity_id`);
  const inserted = (result as unknown as { rows: unknown[] }).rows.length;
  if (inserted === 0) {
    const [again] = await db
      .select({ id: cartLines.opportunityId })
      .from(cartLines)
      .where(and(eq(cartLines.userId, member.userId), eq(cartLines.opportunityId, opportunityId)));
    if (!again) throw conflict('cart_full', `Your cart is full: it holds at most ${CART_MAX_LINES} opportunities`);
  }
}

/** DELETE /api/cart/lines/{opportunityId} (a line not in the cart: nothing to do). */
export async function removeFromCart(db: Db, member: Member, opportunityId: string): Promise<void> {
  await db.delete(cartLines).where(and(eq(cartLines.userId, member.userId), eq(cartLines.opportunityId, opportunityId)));
}

/** DELETE /api/cart, or `?unavailable=1`: only the lines that cannot be bought now. */
export async function clearCart(db: Db, member: Member, opts: { unavailableOnly?: boolean } = {}, now: Date = clockNow()): Promise<void> {
  if (!opts.unavailableOnly) {
    await db.delete(cartLines).where(eq(cartLines.userId, member.userId));
    return;
  }
  await db.execute(sql`
    DELETE FROM ${cartLines} c USING ${opportunities}
    WHERE c.user_id = ${member.userId}::uuid AND ${opportunities.id} = c.opportunity_id
      AND ${unavailableReason(startOfUtcDay(now))} IS NOT NULL`);
}

/**
 * Puts opportunities back in the cart (order again), each at its price of now; those that cannot be
 * bought now, or beyond the cart's room, are skipped and said.
 */
export async function addAllToCart(db: Db, member: Member, opportunityIds: string[], now: Date = clockNow()) {
  const skipped: { opportunityId: string; title: string; reason: string }[] = [];
  for (const opportunityId of opportunityIds) {
    try {
      await addToCart(db, member, opportunityId, now);
    } catch (err) {
      const [opp] = await db.select({ title: opportunities.title }).from(opportunities).where(eq(opportunities.id, opportunityId));
      skipped.push({ opportunityId, title: opp?.title ?? '', reason: err instanceof Error ? err.message : 'Not added' });
    }
  }
  return skipped;
}
