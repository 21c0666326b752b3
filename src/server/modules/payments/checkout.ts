import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { RateLimitError, tryAgainIn, type Limit } from '../../lib/rate-limit';
import type { Db } from '../../db/client';
import { checkouts, opportunities, orders } from '../../db/schema';
import { closePurchase, holdsOf, type Purchase } from './purchase';
import { DomainError, notFound, conflict, upstreamFailed } from '../../lib/errors';
import type { CheckoutRequest, PaymentProvider } from '../../providers/provider';
import { toCents } from '../../../shared/money';
import { CART_CANCEL_PATH, CHECKOUT_HOLD_SECONDS, CHECKOUT_CANCEL_PATH, CHECKOUT_SUCCESS_PATH, orderSuccessPath } from '../../../shared/payment';
import { closeCheckouts, checkoutById, slotIsFree, takeSlot, type Tx } from './slots';
import { startOfUtcDay } from '../../lib/dates';
import { isoUtc, preparedStatement } from '../../db/statement';
import { isUniqueViolation } from '../auth/users';
import { fulfilCheckout } from './fulfil';
import { TEST_INVOICING, type InvoiceSettings } from '../invoices/service';
import { approvedRequestFor, claimBudget, hasCap, purchaseLimitsOf, requestPurchase } from '../org/budget';
import { clientForPurchase } from '../org/clients';
import type { Member } from '../../lib/contract';
import { onConnectionOf } from '../../db/transaction-client';
import { now as clockNow } from '../../lib/clock';

export interface CheckoutBrand {
  id: string;
  email: string;
  /** the organisation the placement will belong to */
  organisationId: string;
}

/** What a checkout answers: where to pay, or (202) the purchase request it became. */
export type CheckoutStart = { url: string } | Awaited<ReturnType<typeof requestPurchase>>;

type CheckoutRow = typeof checkouts.$inferSelect;
const h = checkouts;
/** Timestamps travel as ISO text (prepared statements return the driver's rows unmapped). */
export const openHoldStatement = preparedStatement<
  Omit<CheckoutRow, 'expiresAt' | 'closedAt' | 'createdAt'> & { expiresAt: string; closedAt: string | null; createdAt: string },
  { brandId: string; opportunityId: string }
>(
  'open_checkout_hold',
  sql`SELECT ${h.id} AS "id", ${h.providerSessionId} AS "providerSessionId", ${h.brandId} AS "brandId", ${h.opportunityId} AS "opportunityId",
      ${h.amount}::text AS "amount", ${h.status} AS "status", ${h.url} AS "url", ${isoUtc(h.expiresAt)} AS "expiresAt",
      ${h.testProviderRef} AS "testProviderRef", ${isoUtc(h.closedAt)} AS "closedAt", ${isoUtc(h.createdAt)} AS "createdAt"
    FROM ${h}
    WHERE ${h.brandId} = ${sql.placeholder('brandId')} AND ${h.opportunityId} = ${sql.placeholder('opportunityId')}::uuid AND ${h.status} = 'open'`,
);

/** The brand's open hold for the opportunity, if any (at most one: a partial unique index). */
async function openCheckoutFor(db: Db, brandId: string, opportunityId: string): Promise<CheckoutRow | undefined> {
  const [row] = await openHoldStatement(db, { brandId, opportunityId });
  if (!row) return undefined;
  return { ...row, expiresAt: new Date(row.expiresAt), closedAt: row.closedAt ? new Date(row.closedAt) : null, createdAt: new Date(row.createdAt) };
}

/**
 * Reserves the slot and writes the hold in ONE statement: both happen or neither does. Prepared
 * (every claim runs it), so the slot's condition and change (slots.ts) take placeholders. The
 * brand's checkout limit (LIMIT_CHECKOUTS) is counted from its own checkouts in the same statement:
 * a checkout is the record of a checkout started, so the limit costs no write of its own.
 */
const reserveStatement = preparedStatement<{ title: string; outletName: string; priceUsd: string }, Record<string, unknown>>(
  'reserve_checkout_slot',
  sql`
    WITH opp AS (
      UPDATE ${opportunities}
      SET filled_slots = ${takeSlot.filledSlots}, status = ${takeSlot.status}
      WHERE ${slotIsFree(sql.placeholder('opportunityId'), sql.placeholder('since'))}
        AND (SELECT count(*) FROM ${checkouts} started
             WHERE started.brand_id = ${sql.placeholder('brandId')}::uuid AND started.created_at > ${sql.placeholder('limitSince')}::timestamptz)
            < ${sql.placeholder('limitMax')}::int
      RETURNING id, title, outlet_name, price_usd
    ), hold AS (
      INSERT INTO ${checkouts}
        (id, brand_id, organisation_id, purchase_request_id, client_id, opportunity_id, amount, status, expires_at, created_at, provider_session_id, url)
      SELECT ${sql.placeholder('holdId')}::uuid, ${sql.placeholder('brandId')}::uuid, ${sql.placeholder('organisationId')}::uuid,
             ${sql.placeholder('purchaseRequestId')}::uuid, ${sql.placeholder('clientId')}::uuid, opp.id, opp.price_usd, 'open',
             ${sql.placeholder('expiresAt')}::timestamptz, ${sql.placeholder('now')}::timestamptz,
             ${sql.placeholder('sessionId')}::text, ${sql.placeholder('url')}::text
      FROM opp
      RETURNING id
    )
    SELECT opp.title, opp.outlet_name AS "outletName", opp.price_usd::text AS "priceUsd" FROM hold, opp`,
);

/** The brand has started as many checkouts as its limit allows in the window: when it may again. */
async function checkoutLimitRefusal(db: Db, brandId: string, limit: Limit, now: Date): Promise<RateLimitError | null> {
  const since = new Date(now.getTime() - limit.windowMs);
  const started = await db
    .select({ at: checkouts.createdAt })
    .from(checkouts)
    .where(and(eq(checkouts.brandId, brandId), gt(checkouts.createdAt, since)))
    .orderBy(asc(checkouts.createdAt))
    .limit(limit.max);
  if (started.length < limit.max) return null;
  const seconds = Math.max(1, Math.ceil((started[0].at.getTime() + limit.windowMs - now.getTime()) / 1000));
  return new RateLimitError(limit.message(tryAgainIn(seconds)), seconds);
}

/** Why a slot could not be taken, in words the claim dialog can show. */
async function unavailable(tx: Tx, opportunityId: string, now: Date): Promise<DomainError> {
  const [opp] = await tx
    .select({ status: opportunities.status, filled: opportunities.filledSlots, max: opportunities.maxSlots, deadline: opportunities.deadlineDate })
    .from(opportunities)
    .where(eq(opportunities.id, opportunityId));
  if (!opp) return notFound('opportunity_not_found', 'Opportunity not found');
  if (opp.status === 'full' || (opp.status === 'available' && opp.filled >= opp.max)) return conflict('opportunity_sold_out', 'This opportunity is sold out');
  if (opp.status !== 'available') return conflict('opportunity_unavailable', 'This opportunity is no longer available');
  if (opp.deadline && opp.deadline < startOfUtcDay(now)) return conflict('purchase_deadline_passed', 'The deadline to purchase this opportunity has passed');
  return conflict('opportunity_unavailable', 'This opportunity is no longer available');
}

/** A purchase request is only made for what could be bought now. */
async function unavailableUnlessClaimable(db: Db, opportunityId: string, now: Date): Promise<void> {
  const [opp] = await db
    .select({ status: opportunities.status, filled: opportunities.filledSlots, max: opportunities.maxSlots, deadline: opportunities.deadlineDate })
    .from(opportunities)
    .where(eq(opportunities.id, opportunityId));
  const claimable = opp && opp.status === 'available' && opp.filled < opp.max && (!opp.deadline || opp.deadline >= startOfUtcDay(now));
  if (!claimable) throw await unavailable(db, opportunityId, now);
}

/**
 * How long a hold may wait for its provider session before another request resumes it: longer
 * than a provider call normally takes. A request still in flight is harmless: the resumed call
 * carries the same idempotency key, so the provider answers both with the same session.
 */
const RESUME_AFTER_MS = 10_000;

/**
 * Finishes a hold left without its provider session: asks the provider again with the hold's own
 * id, amount, expiry and idempotency key (the provider returns the session it made, if it made
 * one). When the provider refuses (e.g. the expiry is now too close), the hold is closed and its
 * slot given back; null tells the caller to start a fresh checkout.
 */
async function resumeHold(db: Db, provider: PaymentProvider, hold: CheckoutRow, publicUrl: string, brandEmail: string, now: Date) {
  const [opp] = await db
    .select({ title: opportunities.title, outletName: opportunities.outletName })
    .from(opportunities)
    .where(eq(opportunities.id, hold.opportunityId));
  try {
    if (!opp) throw new Error('opportunity gone');
    const created = await provider.createCheckout({
      paymentId: hold.id,
      brandId: hold.brandId,
      opportunityId: hold.opportunityId,
      brandEmail,
      amountCents: toCents(hold.amount),
      productName: `${opp.outletName}: ${opp.title}`,
      expiresAt: hold.expiresAt,
      successUrl: `${publicUrl}${CHECKOUT_SUCCESS_PATH}`,
      cancelUrl: `${publicUrl}${CHECKOUT_CANCEL_PATH}`,
      idempotencyKey: `checkout-${hold.id}`,
    });
    const [recorded] = await db
      .update(checkouts)
      .set({ providerSessionId: created.sessionId, url: created.url })
      .where(and(eq(checkouts.id, hold.id), isNull(checkouts.url), eq(checkouts.status, 'open')))
      .returning({ url: checkouts.url });
    if (recorded?.url) return { url: recorded.url };
    // the original request recorded it meanwhile (same session), or the hold ended
    const [again] = await db.select().from(checkouts).where(eq(checkouts.id, hold.id));
    return again?.status === 'open' && again.url ? { url: again.url } : null;
  } catch {
    await closeCheckouts(db, and(checkoutById(hold.id), isNull(checkouts.url))!, 'cancelled', now);
    return null;
  }
}

/**
 * Reserves a slot and opens a checkout with the provider; returns where the browser goes to pay.
 * A brand that already has an open checkout for the opportunity gets that one back (no second hold).
 */
export async function startCheckout(
  db: Db,
  provider: PaymentProvider,
  args: {
    brand: CheckoutBrand;
    opportunityId: string;
    publicUrl: string;
    limit: Limit;
    now?: Date;
    /** the signed-in member, whose budget and approval threshold apply (decision 034) */
    member?: Member;
    purchaseRequestId?: string;
    /** the organisation's client it is bought for (decision 035) */
    clientId?: string;
  },
): Promise<CheckoutStart> {
  const now = args.now ?? clockNow();
  const { brand, opportunityId } = args;
  // the client: one of the organisation's, and of the member's when it is limited to some
  let clientId = args.member ? await clientForPurchase(db, args.member, args.clientId) : (args.clientId ?? null);

  const existing = await openCheckoutFor(db, brand.id, opportunityId);
  if (existing?.url && existing.expiresAt > now) return { url: existing.url };
  // a hold whose provider session was never recorded (the server stopped while creating it)
  if (existing && !existing.url && existing.expiresAt > now && now.getTime() - existing.createdAt.getTime() >= RESUME_AFTER_MS) {
    const resumed = await resumeHold(db, provider, existing, args.publicUrl, brand.email, now);
    if (resumed) return resumed;
    // it could not be resumed and was closed, its slot given back: start afresh below
  }
  // a hold of this brand whose time ran out but that the sweep has not reached yet
  const stale = existing && existing.expiresAt <= now ? existing : undefined;

  // the organisation's budget and the member's approval threshold (decision 034)
  let limits = await purchaseLimitsOf(db, brand.organisationId, brand.id, clientId);
  let purchaseRequestId: string | null = null;
  let price: string | null = null;
  if (hasCap(limits) || limits.threshold !== null || args.purchaseRequestId) {
    const [opp] = await db
      .select({ id: opportunities.id, title: opportunities.title, outletName: opportunities.outletName, priceUsd: opportunities.priceUsd })
      .from(opportunities)
      .where(eq(opportunities.id, opportunityId));
    if (!opp) throw notFound('opportunity_not_found', 'Opportunity not found');
    price = opp.priceUsd;
    if (args.purchaseRequestId && args.member) {
      const approved = await approvedRequestFor(db, args.member, args.purchaseRequestId, opportunityId, now);
      purchaseRequestId = approved.id;
      // paid for the client it was approved for
      if (approved.clientId !== clientId) {
        clientId = approved.clientId;
        limits = await purchaseLimitsOf(db, brand.organisationId, brand.id, clientId);
      }
    } else if (limits.threshold !== null && toCents(opp.priceUsd) > toCents(limits.threshold) && args.member) {
      await unavailableUnlessClaimable(db, opportunityId, now);
      // a purchase the budget cannot pay is refused now, not after someone approved it
      if (hasCap(limits)) {
        await db.transaction((tx) => claimBudget(tx, { organisationId: brand.organisationId, userId: brand.id, clientId }, opp.priceUsd, now));
      }
      return requestPurchase(db, args.member, opp, clientId, now);
    }
  }

  const holdId = randomUUID();
  const expiresAt = new Date(now.getTime() + CHECKOUT_HOLD_SECONDS * 1000);
  const checkoutRequest = (opp: { title: string; outletName: string; priceUsd: string }): CheckoutRequest => ({
    paymentId: holdId,
    brandId: brand.id,
    opportunityId,
    brandEmail: brand.email,
    amountCents: toCents(opp.priceUsd),
    productName: `${opp.outletName}: ${opp.title}`,
    expiresAt,
    successUrl: `${args.publicUrl}${CHECKOUT_SUCCESS_PATH}`,
    cancelUrl: `${args.publicUrl}${CHECKOUT_CANCEL_PATH}`,
    idempotencyKey: `checkout-${holdId}`,
  });

  if (stale) await closeCheckouts(db, checkoutById(stale.id), 'expired', now);

  // reserve the slot and write the hold in ONE statement: both happen or neither does
  const pre = provider.precomputedCheckout?.(holdId);
  let reserved: { title: string; outletName: string; priceUsd: string } | undefined;
  const values = {
    opportunityId,
    since: startOfUtcDay(now).toISOString(),
    limitSince: new Date(now.getTime() - args.limit.windowMs).toISOString(),
    limitMax: args.limit.max,
    holdId,
    brandId: brand.id,
    organisationId: brand.organisationId,
    purchaseRequestId,
    clientId,
    expiresAt: expiresAt.toISOString(),
    now: now.toISOString(),
    sessionId: pre?.sessionId ?? null,
    url: pre?.url ?? null,
  };
  try {
    const capped = price !== null && hasCap(limits);
    // under a cap, the budget is counted and the slot taken in one transaction holding the
    // organisation's row: two members at the edge of the cap cannot both pass
    [reserved] = capped
      ? await db.transaction(async (tx) => {
          await claimBudget(tx, { organisationId: brand.organisationId, userId: brand.id, clientId }, price!, now);
          return reserveStatement(onConnectionOf(tx as unknown as Db), values);
        })
      : await reserveStatement(db, values);
  } catch (err) {
    // the partial unique index (one open checkout per brand and opportunity) caught a double
    // click; the whole statement, slot included, was undone
    if (!isUniqueViolation(err)) throw err;
    for (let i = 0; i < 20; i++) {
      const other = await openCheckoutFor(db, brand.id, opportunityId);
      if (other?.url) return { url: other.url };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw conflict('checkout_being_prepared', 'A checkout for this opportunity is already being prepared. Please try again.');
  }
  if (!reserved) throw (await checkoutLimitRefusal(db, brand.id, args.limit, now)) ?? (await unavailable(db, opportunityId, now));
  if (pre) return { url: pre.url };

  const request = checkoutRequest(reserved);
  try {
    const created = await provider.createCheckout(request);
    await db
      .update(checkouts)
      .set({ providerSessionId: created.sessionId, url: created.url })
      .where(eq(checkouts.id, holdId));
    return { url: created.url };
  } catch {
    // no session exists for the brand to pay: give the slot straight back
    await closeCheckouts(db, checkoutById(holdId), 'cancelled', now);
    throw upstreamFailed('checkout_session_failed', 'Failed to create checkout session');
  }
}

/** The brand's own checkout (another brand's answers 404), for the built-in checkout page. */
export async function checkoutView(db: Db, brandId: string, sessionId: string, now: Date = clockNow()) {
  const [row] = await db
    .select({
      sessionId: checkouts.providerSessionId,
      paymentId: checkouts.id,
      status: checkouts.status,
      amount: checkouts.amount,
      expiresAt: checkouts.expiresAt,
      opportunityId: opportunities.id,
      title: opportunities.title,
      outletName: opportunities.outletName,
    })
    .from(checkouts)
    .innerJoin(opportunities, eq(opportunities.id, checkouts.opportunityId))
    .where(and(eq(checkouts.providerSessionId, sessionId), eq(checkouts.brandId, brandId)));
  if (!row) return orderCheckoutView(db, brandId, sessionId, now);
  const status = row.status === 'open' && row.expiresAt <= now ? 'expired' : row.status;
  return { ...row, sessionId: row.sessionId!, status, expiresAt: row.expiresAt.toISOString(), lines: undefined };
}

/** A cart's order on the built-in checkout page: its lines, and their total. */
async function orderCheckoutView(db: Db, brandId: string, sessionId: string, now: Date) {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.providerSessionId, sessionId), eq(orders.brandId, brandId)));
  if (!order) throw notFound('checkout_not_found', 'Checkout not found');
  const lines = await db
    .select({ opportunityId: checkouts.opportunityId, title: opportunities.title, outletName: opportunities.outletName, amount: checkouts.amount })
    .from(checkouts)
    .innerJoin(opportunities, eq(opportunities.id, checkouts.opportunityId))
    .where(eq(checkouts.orderId, order.id))
    .orderBy(asc(opportunities.outletName), asc(checkouts.id));
  const status = order.status === 'open' && order.expiresAt <= now ? 'expired' : order.status;
  return {
    sessionId,
    paymentId: order.id,
    status,
    amount: order.amount,
    expiresAt: order.expiresAt.toISOString(),
    opportunityId: lines[0]?.opportunityId ?? order.id,
    title: `${lines.length} placement${lines.length === 1 ? '' : 's'}`,
    outletName: [...new Set(lines.map((l) => l.outletName))].join(', '),
    lines,
  };
}

/** The purchase a checkout page shows: a cart's order (it has lines), else a single hold. */
const purchaseOfView = (view: Awaited<ReturnType<typeof checkoutView>>): Purchase => ({
  kind: view.lines ? 'order' : 'hold',
  id: view.paymentId,
  amount: view.amount,
});

/**
 * Records a local payment reference on an open purchase (what a card provider keeps on its side):
 * on the hold, or on the order and its holds (the expiry sweep never closes a charged hold).
 * Answers whether this call charged it.
 */
async function chargeTestPurchase(db: Db, p: Purchase, brandId: string, providerRef: string, now: Date): Promise<boolean> {
  const open = (t: typeof orders | typeof checkouts) =>
    and(eq(t.id, p.id), eq(t.brandId, brandId), eq(t.status, 'open'), gt(t.expiresAt, now), isNull(t.testProviderRef));
  return db.transaction(async (tx) => {
    const [charged] =
      p.kind === 'order'
        ? await tx.update(orders).set({ testProviderRef: providerRef }).where(open(orders)).returning({ id: orders.id })
        : await tx.update(checkouts).set({ testProviderRef: providerRef }).where(open(checkouts)).returning({ id: checkouts.id });
    if (charged && p.kind === 'order') {
      await tx.update(checkouts).set({ testProviderRef: providerRef }).where(and(holdsOf(p), eq(checkouts.status, 'open')));
    }
    return Boolean(charged);
  });
}

/** Whether the test checkout charged the purchase already (a double click). */
async function chargedBefore(db: Db, p: Purchase): Promise<boolean> {
  const [row] =
    p.kind === 'order'
      ? await db.select({ ref: orders.testProviderRef }).from(orders).where(eq(orders.id, p.id))
      : await db.select({ ref: checkouts.testProviderRef }).from(checkouts).where(eq(checkouts.id, p.id));
  return Boolean(row?.ref);
}

/**
 * The built-in test checkout's "Pay" button: charges the purchase (a hold or a cart's order) and
 * runs the very same fulfilment a Stripe webhook runs.
 */
export async function payTestCheckout(
  db: Db,
  provider: PaymentProvider,
  brandId: string,
  sessionId: string,
  now: Date = clockNow(),
  invoicing: InvoiceSettings = TEST_INVOICING,
) {
  const view = await checkoutView(db, brandId, sessionId, now);
  const purchase = purchaseOfView(view);
  const providerRef = 'pi_local_' + randomBytes(12).toString('hex');
  // paid already (a double click): fulfilment is idempotent, run it again and answer the same
  if (!(await chargeTestPurchase(db, purchase, brandId, providerRef, now)) && !(await chargedBefore(db, purchase))) {
    if (view.status === 'cancelled') throw conflict('checkout_cancelled', 'This checkout was cancelled');
    const again = purchase.kind === 'order' ? 'Please check out your cart again.' : 'Please claim the opportunity again.';
    throw conflict('checkout_expired', `This checkout has expired. ${again}`);
  }
  const result = await fulfilCheckout(db, provider, view.sessionId, now, { invoicing });
  return { url: await paidUrl(db, purchase), paymentId: view.paymentId, outcome: result.outcome };
}

/** Where the browser goes once paid: the order's page, a swap's placement (issue 46), or the opportunities. */
async function paidUrl(db: Db, p: Purchase): Promise<string> {
  if (p.kind === 'order') return orderSuccessPath(p.id);
  const [hold] = await db.select({ swapOf: checkouts.swapOf }).from(checkouts).where(eq(checkouts.id, p.id));
  return hold?.swapOf ? `/brand/my-articles/${hold.swapOf}?checkout=success` : CHECKOUT_SUCCESS_PATH;
}

/** "Cancel" on the checkout page: the purchase ends and its slots are given back at once. */
export async function cancelCheckout(
  db: Db,
  provider: PaymentProvider,
  brandId: string,
  sessionId: string,
  now: Date = clockNow(),
  invoicing: InvoiceSettings = TEST_INVOICING,
) {
  const view = await checkoutView(db, brandId, sessionId, now);
  const alreadyPaid = () => conflict('checkout_already_paid', 'This checkout has already been paid');
  if (view.status === 'completed') throw alreadyPaid();
  const purchase = purchaseOfView(view);
  const cancelledUrl = { url: purchase.kind === 'order' ? CART_CANCEL_PATH : CHECKOUT_CANCEL_PATH };
  // already closed (expired, or cancelled in another tab): back where the purchase began
  if (view.status !== 'open') return cancelledUrl;
  try {
    await provider.expireSession(sessionId);
  } catch {
    // the provider refused: most likely it was paid a moment ago; let fulfilment decide
    await fulfilCheckout(db, provider, sessionId, now, { invoicing });
    const after = await checkoutView(db, brandId, sessionId, now);
    if (after.status === 'completed') throw alreadyPaid();
    if (after.status === 'open') throw upstreamFailed('checkout_cancel_failed', 'Could not cancel the checkout. Please try again.');
  }
  await closePurchase(db, purchase, 'cancelled', now);
  if ((await checkoutView(db, brandId, sessionId, now)).status === 'completed') throw alreadyPaid();
  return cancelledUrl;
}

/**
 * Test checkouts the brand has paid whose fulfilment never ran (the server stopped between Pay and
 * fulfilment): the every-minute job books them, as Stripe's redelivered webhook would for its own.
 * Such a purchase keeps its slots past its expiry (closeCheckouts skips charged holds) until then.
 */
export async function fulfilChargedTestCheckouts(
  db: Db,
  provider: PaymentProvider,
  now: Date = clockNow(),
  invoicing: InvoiceSettings = TEST_INVOICING,
): Promise<number> {
  if (provider.name !== 'test') return 0;
  const before = new Date(now.getTime() - 60_000);
  const stuck = (t: typeof orders | typeof checkouts) =>
    and(eq(t.status, 'open'), isNotNull(t.testProviderRef), isNotNull(t.providerSessionId), lt(t.createdAt, before));
  // a single hold, or an order (its holds carry no session of their own)
  const rows = await db
    .select({ sessionId: checkouts.providerSessionId })
    .from(checkouts)
    .where(stuck(checkouts))
    .unionAll(db.select({ sessionId: orders.providerSessionId }).from(orders).where(stuck(orders)))
    .limit(200);
  for (const { sessionId } of rows) await fulfilCheckout(db, provider, sessionId!, now, { invoicing });
  return rows.length;
}
