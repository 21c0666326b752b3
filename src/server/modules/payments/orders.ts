import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { briefs, cartLines, checkouts, disputes, opportunities, orders, orgClients, payments, placements, taxDocuments } from '../../db/schema';
import { isoUtc } from '../../db/statement';
import { notFound, conflict, upstreamFailed } from '../../lib/errors';
import type { Member, Scope } from '../../lib/contract';
import { cursorAt, encodeCursor, type Cursor } from '../../lib/paging';
import { RateLimitError, tryAgainIn, type Limit } from '../../lib/rate-limit';
import { startOfUtcDay } from '../../lib/dates';
import type { PaymentProvider } from '../../providers/provider';
import { formatUsd, fromCents, toCents } from '../../../shared/money';
import { CART_CANCEL_PATH, CHECKOUT_HOLD_SECONDS, orderSuccessPath } from '../../../shared/payment';
import type { CartCheckout, Order } from '../../../shared/schemas/cart';
import { approvedCartRequestFor, claimBudget, hasCap, purchaseLimitsOf, requestPurchase } from '../org/budget';
import { clientForPurchase } from '../org/clients';
import { isUniqueViolation } from '../auth/users';
import { addAllToCart, cartLinesOf } from './cart';
import { moneyBackLateral, refundedSql } from '../ledger/ledger';
import { closeCheckouts, takeSlot, type Tx } from './slots';
import { now as clockNow } from '../../lib/clock';

/**
 * Orders (issue 46): a cart checked out at once. Every line's slot is held, or none: one
 * transaction locks the opportunities in id order, takes a slot of each in one UPDATE and rolls
 * back when any is missing. One provider session carries a line item per opportunity; paid, each
 * line becomes its own payment and placement (its own escrow, brief, draft, publication and
 * guarantee) in one transaction, the order gets one invoice listing them, and a line sold out while
 * the brand paid is refunded alone, with its own credit note: the purchase path (purchase.ts).
 */

const ORDER_NOT_FOUND = 'Order not found';

/** A cart checkout refused because some lines cannot be bought now: nothing was held. */
const soldOutError = (ids: string[], titles: string[]) =>
  conflict('cart_lines_unavailable', ids.length === 1
      ? `“${titles[0]}” cannot be bought now: remove it from your cart to check out the rest.`
      : `${ids.length} opportunities in your cart cannot be bought now: remove them to check out the rest.`,
    undefined,
    { soldOut: ids },
  );

/** POST /api/cart/checkout: holds a slot on every line and opens one provider session. */
export async function startCartCheckout(
  db: Db,
  provider: PaymentProvider,
  args: { member: Member; body: CartCheckout; publicUrl: string; limit: Limit; now?: Date },
): Promise<{ url: string; orderId: string } | Awaited<ReturnType<typeof requestPurchase>>> {
  const now = args.now ?? clockNow();
  const { member, body } = args;
  const lines = await cartLinesOf(db, member.userId, now);
  if (!lines.length) throw conflict('cart_empty', 'Your cart is empty');
  const unavailable = lines.filter((l) => !l.available);
  if (unavailable.length)
    throw soldOutError(
      unavailable.map((l) => l.opportunityId),
      unavailable.map((l) => l.title),
    );
  const newTotal = lines.reduce((sum, l) => sum + toCents(l.currentPriceUsd), 0);
  const changed = lines.filter((l) => l.priceUsd !== l.currentPriceUsd);
  const confirmed = body.confirmTotalUsd !== undefined && toCents(body.confirmTotalUsd) === newTotal;
  if ((changed.length && !confirmed) || (body.confirmTotalUsd !== undefined && !confirmed)) {
    throw conflict('cart_prices_changed', `Prices changed since you added ${changed.length === 1 ? 'this opportunity' : 'these opportunities'}: the total is now ${formatUsd(fromCents(newTotal))}. Confirm the new total to check out.`,
      undefined,
      {
        priceChanges: changed.map((l) => ({ opportunityId: l.opportunityId, oldPriceUsd: l.priceUsd, newPriceUsd: l.currentPriceUsd })),
        totalUsd: fromCents(newTotal),
      },
    );
  }
  let clientId = await clientForPurchase(db, member, body.clientId);
  let purchaseRequestId: string | null = null;
  if (body.purchaseRequestId) {
    // approved for exactly these lines: paid for the client it was approved for
    const approved = await approvedCartRequestFor(
      db,
      member,
      body.purchaseRequestId,
      lines.map((l) => ({ opportunityId: l.opportunityId, priceUsd: l.currentPriceUsd })),
      now,
    );
    purchaseRequestId = approved.id;
    clientId = approved.clientId;
  }
  const limits = await purchaseLimitsOf(db, member.organisationId, member.userId, clientId);
  if (!purchaseRequestId && limits.threshold !== null && newTotal > toCents(limits.threshold)) {
    // above the buyer's approval threshold: the cart becomes a purchase request (202); a budget
    // that cannot pay it is refused now, not after someone approved it
    if (hasCap(limits)) {
      await db.transaction((tx) => claimBudget(tx, { organisationId: member.organisationId, userId: member.userId, clientId }, fromCents(newTotal), now));
    }
    const requested = await requestPurchase(
      db,
      member,
      { id: lines[0].opportunityId, title: `${lines.length} placements`, outletName: lines.map((l) => l.outletName).join(', '), priceUsd: fromCents(newTotal) },
      clientId,
      now,
      lines.map((l) => ({ opportunityId: l.opportunityId, title: l.title, outletName: l.outletName, priceUsd: l.currentPriceUsd })),
    );
    if (changed.length) await confirmPrices(db, member.userId, changed);
    return requested;
  }
  // a second click, or a second tab: the open order of this very cart is given back, not a second hold
  const open = await openOrderOf(db, member.userId, lines.map((l) => l.opportunityId), now);
  if (open) return open;
  const refusal = await orderLimitRefusal(db, member.userId, args.limit, now);
  if (refusal) throw refusal;

  const orderId = randomUUID();
  const expiresAt = new Date(now.getTime() + CHECKOUT_HOLD_SECONDS * 1000);
  const ids = lines.map((l) => l.opportunityId).sort();
  const pre = provider.precomputedCheckout?.(orderId);
  let held: { id: string; title: string; outletName: string; priceUsd: string }[];
  try {
    held = await db.transaction(async (tx) => {
      if (hasCap(limits)) await claimBudget(tx, { organisationId: member.organisationId, userId: member.userId, clientId }, fromCents(newTotal), now);
      // the brand's own holds of these opportunities whose time ran out: closed, their slots back
      await closeCheckouts(
        tx,
        sql`brand_id = ${member.userId} AND opportunity_id IN ${ids} AND expires_at <= ${now.toISOString()}::timestamptz`,
        'expired',
        now,
      );
      // locks in one order (by id), so that two carts sharing opportunities queue, never deadlock
      await tx.execute(sql`SELECT 1 FROM ${opportunities} WHERE id IN ${ids} ORDER BY id FOR UPDATE`);
      const taken = await tx
        .update(opportunities)
        .set(takeSlot)
        .where(
          and(
            inArray(opportunities.id, ids),
            eq(opportunities.status, 'available'),
            sql`${opportunities.filledSlots} < ${opportunities.maxSlots}`,
            sql`(${opportunities.deadlineDate} IS NULL OR ${opportunities.deadlineDate} >= ${startOfUtcDay(now).toISOString()}::timestamptz)`,
          ),
        )
        .returning({ id: opportunities.id, title: opportunities.title, outletName: opportunities.outletName, priceUsd: sql<string>`${opportunities.priceUsd}::text` });
      if (taken.length < ids.length) {
        const missing = lines.filter((l) => !taken.some((t) => t.id === l.opportunityId));
        throw soldOutError(
          missing.map((l) => l.opportunityId),
          missing.map((l) => l.title),
        );
      }
      // a price changed between the read above and the lock: refused like any price change
      const moved = lines.filter((l) => taken.find((t) => t.id === l.opportunityId)!.priceUsd !== l.currentPriceUsd);
      if (moved.length) throw conflict('prices_changed_during_checkout', 'Prices changed while you were checking out. Please review your cart and try again.');
      await tx.insert(orders).values({
        id: orderId,
        brandId: member.userId,
        organisationId: member.organisationId,
        clientId,
        amount: fromCents(newTotal),
        status: 'open',
        expiresAt,
        autoSwap: body.autoSwap ?? false,
        purchaseRequestId,
        providerSessionId: pre?.sessionId ?? null,
        url: pre?.url ?? null,
        createdAt: now,
      });
      await tx.insert(checkouts).values(
        lines.map((l) => ({
          id: randomUUID(),
          brandId: member.userId,
          organisationId: member.organisationId,
          clientId,
          orderId,
          opportunityId: l.opportunityId,
          amount: l.currentPriceUsd,
          status: 'open' as const,
          expiresAt,
          createdAt: now,
        })),
      );
      // the prices confirmed are the cart's from now on
      if (changed.length) await confirmPrices(tx, member.userId, changed);
      return taken;
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      // the same cart checked out twice at once: the other request's order, once it has its page
      for (let i = 0; i < 20; i++) {
        const other = await openOrderOf(db, member.userId, lines.map((l) => l.opportunityId), now);
        if (other) return other;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw conflict('checkout_already_open', 'You already have a checkout open for one of these opportunities: finish or cancel it first.');
    }
    throw err;
  }
  if (pre) return { url: pre.url, orderId };

  const byId = new Map(held.map((h) => [h.id, h]));
  try {
    const created = await provider.createCheckout({
      paymentId: orderId,
      brandId: member.userId,
      opportunityId: lines[0].opportunityId,
      brandEmail: member.email,
      amountCents: newTotal,
      productName: `${lines.length} placements`,
      lines: lines.map((l) => {
        const h = byId.get(l.opportunityId)!;
        return { name: `${h.outletName}: ${h.title}`, amountCents: toCents(l.currentPriceUsd) };
      }),
      expiresAt,
      successUrl: `${args.publicUrl}${orderSuccessPath(orderId)}`,
      cancelUrl: `${args.publicUrl}${CART_CANCEL_PATH}`,
      idempotencyKey: `order-${orderId}`,
    });
    await db.update(orders).set({ providerSessionId: created.sessionId, url: created.url }).where(eq(orders.id, orderId));
    return { url: created.url, orderId };
  } catch {
    // no session to pay: every slot goes straight back
    await closeOrder(db, orderId, 'cancelled', now);
    throw upstreamFailed('checkout_session_failed', 'Failed to create checkout session');
  }
}

/** The brand's open order (its time not run out, its payment page made) for exactly these opportunities. */
async function openOrderOf(db: Db, brandId: string, opportunityIds: string[], now: Date) {
  const wanted = [...opportunityIds].sort().join(',');
  const open = await db
    .select({ id: orders.id, url: orders.url, lines: sql<string>`(SELECT string_agg(c.opportunity_id::text, ',' ORDER BY c.opportunity_id) FROM ${checkouts} c WHERE c.order_id = "orders"."id")` })
    .from(orders)
    .where(and(eq(orders.brandId, brandId), eq(orders.status, 'open'), gt(orders.expiresAt, now), isNotNull(orders.url)));
  const same = open.find((o) => o.lines === wanted);
  return same?.url ? { url: same.url, orderId: same.id } : undefined;
}

/** The prices a brand confirmed become its cart's. */
async function confirmPrices(db: Db | Tx, userId: string, changed: { opportunityId: string; currentPriceUsd: string }[]) {
  for (const l of changed) {
    await db
      .update(cartLines)
      .set({ priceUsd: l.currentPriceUsd })
      .where(and(eq(cartLines.userId, userId), eq(cartLines.opportunityId, l.opportunityId)));
  }
}

/** The brand has started as many orders as its checkout limit allows in the window. */
async function orderLimitRefusal(db: Db, brandId: string, limit: Limit, now: Date): Promise<RateLimitError | null> {
  const since = new Date(now.getTime() - limit.windowMs);
  const started = await db
    .select({ at: orders.createdAt })
    .from(orders)
    .where(and(eq(orders.brandId, brandId), gt(orders.createdAt, since)))
    .orderBy(asc(orders.createdAt))
    .limit(limit.max);
  if (started.length < limit.max) return null;
  const seconds = Math.max(1, Math.ceil((started[0].at.getTime() + limit.windowMs - now.getTime()) / 1000));
  return new RateLimitError(limit.message(tryAgainIn(seconds)), seconds);
}

/**
 * Ends an unpaid order: its lines' holds are closed and their slots given back, in one transaction.
 * An order the built-in checkout has charged is never closed: it is about to be fulfilled.
 */
export async function closeOrder(db: Db, orderId: string, status: 'expired' | 'cancelled', now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [closed] = await tx
      .update(orders)
      .set({ status, closedAt: now })
      .where(and(eq(orders.id, orderId), eq(orders.status, 'open'), sql`${orders.testProviderRef} IS NULL`))
      .returning({ id: orders.id });
    if (closed) await closeCheckouts(tx, sql`order_id = ${orderId}`, status, now);
    return Boolean(closed);
  });
}

/** Expires every open order whose time is up, its lines with it (the every-minute job). */
export async function expireOrders(db: Db, now: Date): Promise<number> {
  const due = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, 'open'), sql`${orders.testProviderRef} IS NULL`, sql`${orders.expiresAt} <= ${now.toISOString()}::timestamptz`))
    .limit(500);
  let n = 0;
  for (const { id } of due) if (await closeOrder(db, id, 'expired', now)) n++;
  return n;
}

/** One order of the organisation (in the member's scope), its lines and money; 404 otherwise. */
export async function orderOf(db: Db, scope: Scope, orderId: string): Promise<Order> {
  const [o] = await db
    .select({ order: orders, client: { id: orgClients.id, name: orgClients.name }, invoiceId: taxDocuments.id, invoiceNumber: taxDocuments.number })
    .from(orders)
    .leftJoin(orgClients, eq(orgClients.id, orders.clientId))
    .leftJoin(taxDocuments, and(eq(taxDocuments.orderId, orders.id), eq(taxDocuments.kind, 'invoice')))
    .where(and(eq(orders.id, orderId), eq(orders.organisationId, scope.organisationId), inScope(scope)));
  if (!o) throw notFound('order_not_found', ORDER_NOT_FOUND);
  const paid = await db
    .select({
      paymentId: payments.id,
      opportunityId: payments.opportunityId,
      title: opportunities.title,
      outletName: opportunities.outletName,
      amountUsd: sql<string>`${payments.amount}::text`,
      partlyRefundedUsd: refundedSql(payments.id),
      status: payments.status,
      // issue 57: what the order waits on, said on its page
      briefSubmitted: sql<boolean>`EXISTS (SELECT 1 FROM ${briefs} WHERE ${briefs.placementId} = ${payments.id} AND ${briefs.submittedAt} IS NOT NULL)`,
      disputeOpen: sql<boolean>`EXISTS (SELECT 1 FROM ${disputes} WHERE ${disputes.placementId} = ${payments.id} AND ${disputes.status} <> 'resolved')`,
      // issue 59: its promise, fixed at payment and moved by the brand's own delays
      liveBy: sql<string | null>`${isoUtc(sql`live_by(${placements.promisedBy}, ${placements.promiseMovedDays})`)}`,
      usuallyBy: sql<string | null>`${isoUtc(placements.usuallyBy)}`,
    })
    .from(payments)
    .innerJoin(opportunities, eq(opportunities.id, payments.opportunityId))
    .leftJoin(placements, eq(placements.paymentId, payments.id))
    .where(eq(payments.orderId, o.order.id))
    .orderBy(asc(opportunities.outletName), asc(payments.id));
  // before it is paid, the lines are its holds
  const lines = paid.length
    ? paid.map(({ partlyRefundedUsd, ...l }) => ({ ...l, refundedUsd: partlyRefundedUsd }))
    : (
        await db
          .select({
            id: checkouts.id,
            opportunityId: checkouts.opportunityId,
            title: opportunities.title,
            outletName: opportunities.outletName,
            amount: sql<string>`${checkouts.amount}::text`,
            // issue 59: the promise of a purchase now, as the cart shows it
            promise: sql<{ liveBy: string; usuallyBy: string | null } | null>`promise_json(${opportunities.tatDays}, ${opportunities.outletId}, ${startOfUtcDay(clockNow()).toISOString()}::timestamptz)`,
          })
          .from(checkouts)
          .innerJoin(opportunities, eq(opportunities.id, checkouts.opportunityId))
          .where(eq(checkouts.orderId, o.order.id))
          .orderBy(asc(opportunities.outletName), asc(checkouts.id))
      ).map((l) => ({
        paymentId: l.id,
        opportunityId: l.opportunityId,
        title: l.title,
        outletName: l.outletName,
        amountUsd: l.amount,
        status: 'paid' as const,
        refundedUsd: '0.00',
        briefSubmitted: false,
        disputeOpen: false,
        liveBy: l.promise?.liveBy ?? null,
        usuallyBy: l.promise?.usuallyBy ?? null,
      }));
  // what each line still holds or released: its amount less the parts refunded
  const sum = (pick: (l: (typeof lines)[number]) => boolean) =>
    fromCents(lines.filter(pick).reduce((s, l) => s + toCents(l.amountUsd) - (l.status === 'refunded' ? 0 : toCents(l.refundedUsd)), 0));
  const refunded = fromCents(lines.reduce((s, l) => s + toCents(l.refundedUsd), 0));
  return {
    id: o.order.id,
    createdAt: o.order.createdAt.toISOString(),
    paidAt: paid.length ? (o.order.closedAt?.toISOString() ?? null) : null,
    status: o.order.status,
    totalUsd: o.order.amount,
    paidUsd: paid.length ? o.order.amount : '0.00',
    refundedUsd: paid.length ? refunded : '0.00',
    releasedUsd: paid.length ? sum((l) => l.status === 'released') : '0.00',
    heldUsd: paid.length ? sum((l) => l.status === 'paid') : '0.00',
    client: o.client?.id ? { id: o.client.id, name: o.client.name } : null,
    autoSwap: o.order.autoSwap,
    lines,
    invoiceId: o.invoiceId,
    invoiceNumber: o.invoiceNumber,
    // a brief is written for a placement still held in escrow (not for one refunded or published)
    briefsToWrite: paid.length ? lines.filter((l) => l.status === 'paid' && !l.briefSubmitted).length : 0,
    openDisputes: lines.filter((l) => l.disputeOpen).length,
  };
}

/** A member limited to clients sees the orders for them. */
const inScope = (scope: Scope) =>
  scope.clientIds === null ? undefined : scope.clientIds.length ? inArray(orders.clientId, scope.clientIds) : sql`false`;

/** GET /api/brand/orders: the organisation's paid orders (in the member's scope), newest first, at most 200, in one statement. */
/**
 * GET /api/brand/orders: the organisation's paid orders, newest first, at most `limit` (LIST_MAX,
 * decision 039) after the cursor `after`; `next` names the page after it when there is one.
 */
export async function ordersOf(db: Db, scope: Scope, limit: number, after?: Cursor) {
  // what each line gave back (the ledger's refunds), read once per line: all of it once refunded in
  // full, else the parts refunded (issue 47)
  const back = moneyBackLateral(db, payments.id);
  const money = (status: string) =>
    status === 'refunded'
      ? sql<string>`coalesce(sum(${back.amount}), 0)::numeric(14, 2)::text`
      : sql<string>`coalesce(sum(${payments.amount} - ${back.amount}) FILTER (WHERE ${payments.status} = ${status}), 0)::numeric(14, 2)::text`;
  const rows = await db
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      closedAt: orders.closedAt,
      status: orders.status,
      totalUsd: sql<string>`${orders.amount}::text`,
      autoSwap: orders.autoSwap,
      clientId: orgClients.id,
      clientName: orgClients.name,
      invoiceId: taxDocuments.id,
      invoiceNumber: taxDocuments.number,
      lineCount: sql<number>`count(${payments.id})::int`,
      refundedUsd: money('refunded'),
      releasedUsd: money('released'),
      heldUsd: money('paid'),
      openDisputes: sql<number>`count(*) FILTER (WHERE EXISTS (SELECT 1 FROM ${disputes} WHERE ${disputes.placementId} = ${payments.id} AND ${disputes.status} <> 'resolved'))::int`,
      cursorAt: cursorAt(orders.createdAt),
    })
    .from(orders)
    .innerJoin(payments, eq(payments.orderId, orders.id))
    .leftJoinLateral(back, sql`true`)
    .leftJoin(orgClients, eq(orgClients.id, orders.clientId))
    .leftJoin(taxDocuments, and(eq(taxDocuments.orderId, orders.id), eq(taxDocuments.kind, 'invoice')))
    .where(
      and(
        eq(orders.organisationId, scope.organisationId),
        eq(orders.status, 'completed'),
        inScope(scope),
        after ? sql`(${orders.createdAt}, ${orders.id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
      ),
    )
    .groupBy(orders.id, orgClients.id, taxDocuments.id)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(({ clientId, clientName, closedAt, cursorAt: _at, ...o }) => ({
      ...o,
      createdAt: o.createdAt.toISOString(),
      paidAt: closedAt?.toISOString() ?? null,
      paidUsd: o.totalUsd,
      client: clientId ? { id: clientId, name: clientName! } : null,
    })),
    next: rows.length > limit ? encodeCursor({ at: last.cursorAt, id: last.id }) : undefined,
  };
}

/** POST /api/brand/orders/{id}/reorder: the order's opportunities back in the cart, those unavailable said. */
export async function reorder(db: Db, member: Member, scope: Scope, orderId: string, now: Date = clockNow()) {
  const order = await orderOf(db, scope, orderId);
  const skipped = await addAllToCart(
    db,
    member,
    order.lines.map((l) => l.opportunityId),
    now,
  );
  // the order's client and options come back with its lines (issue 57): the checkout starts from them
  return { skipped, reorder: { clientId: order.client?.id ?? null, autoSwap: order.autoSwap } };
}

