import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { checkoutSessions, opportunities } from '../../db/schema';
import { HttpError, conflict, notFound } from '../../lib/errors';
import type { CheckoutRequest, PaymentProvider } from '../../payments/provider';
import { toCents } from '../../../shared/money';
import { CHECKOUT_HOLD_SECONDS, CHECKOUT_CANCEL_PATH, CHECKOUT_SUCCESS_PATH } from '../../../shared/payment';
import { closeHolds, holdById, slotIsFree, takeSlot, type Tx } from './slots';
import { startOfUtcDay } from '../../lib/dates';
import { isoUtc, preparedStatement } from '../../db/statement';
import { isUniqueViolation } from '../auth/users';
import { fulfilCheckout } from './fulfil';

export interface CheckoutBrand {
  id: string;
  email: string;
}

type HoldRow = typeof checkoutSessions.$inferSelect;
const h = checkoutSessions;
/** Timestamps travel as ISO text (prepared statements return the driver's rows unmapped). */
const openHoldStatement = preparedStatement<
  Omit<HoldRow, 'expiresAt' | 'closedAt' | 'createdAt'> & { expiresAt: string; closedAt: string | null; createdAt: string },
  { brandId: string; opportunityId: string }
>(
  'open_checkout_hold',
  sql`SELECT ${h.id} AS "id", ${h.providerSessionId} AS "providerSessionId", ${h.brandId} AS "brandId", ${h.opportunityId} AS "opportunityId",
      ${h.amount}::text AS "amount", ${h.status} AS "status", ${h.url} AS "url", ${isoUtc(h.expiresAt)} AS "expiresAt",
      ${h.localPaymentId} AS "localPaymentId", ${isoUtc(h.closedAt)} AS "closedAt", ${isoUtc(h.createdAt)} AS "createdAt"
    FROM ${h}
    WHERE ${h.brandId} = ${sql.placeholder('brandId')} AND ${h.opportunityId} = ${sql.placeholder('opportunityId')}::uuid AND ${h.status} = 'open'`,
);

/** The brand's open hold for the opportunity, if any (at most one: a partial unique index). */
async function openHoldFor(db: Db, brandId: string, opportunityId: string): Promise<HoldRow | undefined> {
  const [row] = await openHoldStatement(db, { brandId, opportunityId });
  if (!row) return undefined;
  return { ...row, expiresAt: new Date(row.expiresAt), closedAt: row.closedAt ? new Date(row.closedAt) : null, createdAt: new Date(row.createdAt) };
}

/**
 * Reserves the slot and writes the hold in ONE statement: both happen or neither does. Prepared
 * (every claim runs it), so the slot's condition and change (slots.ts) take placeholders.
 */
const reserveStatement = preparedStatement<{ title: string; outletName: string; priceUsd: string }, Record<string, unknown>>(
  'reserve_checkout_slot',
  sql`
    WITH opp AS (
      UPDATE ${opportunities}
      SET filled_slots = ${takeSlot.filledSlots}, status = ${takeSlot.status}
      WHERE ${slotIsFree(sql.placeholder('opportunityId'), sql.placeholder('since'))}
      RETURNING id, title, outlet_name, price_usd
    ), hold AS (
      INSERT INTO ${checkoutSessions}
        (id, brand_id, opportunity_id, amount, status, expires_at, created_at, provider_session_id, url)
      SELECT ${sql.placeholder('holdId')}::uuid, ${sql.placeholder('brandId')}::uuid, opp.id, opp.price_usd, 'open',
             ${sql.placeholder('expiresAt')}::timestamptz, ${sql.placeholder('now')}::timestamptz,
             ${sql.placeholder('sessionId')}::text, ${sql.placeholder('url')}::text
      FROM opp
      RETURNING id
    )
    SELECT opp.title, opp.outlet_name AS "outletName", opp.price_usd::text AS "priceUsd" FROM hold, opp`,
);

/** Why a slot could not be taken, in words the claim dialog can show. */
async function unavailable(tx: Tx, opportunityId: string, now: Date): Promise<HttpError> {
  const [opp] = await tx
    .select({ status: opportunities.status, filled: opportunities.filledSlots, max: opportunities.maxSlots, deadline: opportunities.deadlineDate })
    .from(opportunities)
    .where(eq(opportunities.id, opportunityId));
  if (!opp) return notFound('Opportunity not found');
  if (opp.status === 'full' || (opp.status === 'available' && opp.filled >= opp.max)) return conflict('This opportunity is sold out');
  if (opp.status !== 'available') return conflict('This opportunity is no longer available');
  if (opp.deadline && opp.deadline < startOfUtcDay(now)) return conflict('The deadline to purchase this opportunity has passed');
  return conflict('This opportunity is no longer available');
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
async function resumeHold(db: Db, provider: PaymentProvider, hold: HoldRow, publicUrl: string, brandEmail: string, now: Date) {
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
      .update(checkoutSessions)
      .set({ providerSessionId: created.sessionId, url: created.url })
      .where(and(eq(checkoutSessions.id, hold.id), isNull(checkoutSessions.url), eq(checkoutSessions.status, 'open')))
      .returning({ url: checkoutSessions.url });
    if (recorded?.url) return { url: recorded.url };
    // the original request recorded it meanwhile (same session), or the hold ended
    const [again] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, hold.id));
    return again?.status === 'open' && again.url ? { url: again.url } : null;
  } catch {
    await closeHolds(db, and(holdById(hold.id), isNull(checkoutSessions.url))!, 'cancelled', now);
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
  args: { brand: CheckoutBrand; opportunityId: string; publicUrl: string; now?: Date },
): Promise<{ url: string }> {
  const now = args.now ?? new Date();
  const { brand, opportunityId } = args;

  const existing = await openHoldFor(db, brand.id, opportunityId);
  if (existing?.url && existing.expiresAt > now) return { url: existing.url };
  // a hold whose provider session was never recorded (the server stopped while creating it)
  if (existing && !existing.url && existing.expiresAt > now && now.getTime() - existing.createdAt.getTime() >= RESUME_AFTER_MS) {
    const resumed = await resumeHold(db, provider, existing, args.publicUrl, brand.email, now);
    if (resumed) return resumed;
    // it could not be resumed and was closed, its slot given back: start afresh below
  }
  // a hold of this brand whose time ran out but that the sweep has not reached yet
  const stale = existing && existing.expiresAt <= now ? existing : undefined;

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

  if (stale) await closeHolds(db, holdById(stale.id), 'expired', now);

  // reserve the slot and write the hold in ONE statement: both happen or neither does
  const pre = provider.precomputedCheckout?.(holdId);
  let reserved: { title: string; outletName: string; priceUsd: string } | undefined;
  try {
    [reserved] = await reserveStatement(db, {
      opportunityId,
      since: startOfUtcDay(now).toISOString(),
      holdId,
      brandId: brand.id,
      expiresAt: expiresAt.toISOString(),
      now: now.toISOString(),
      sessionId: pre?.sessionId ?? null,
      url: pre?.url ?? null,
    });
  } catch (err) {
    // the partial unique index (one open checkout per brand and opportunity) caught a double
    // click; the whole statement, slot included, was undone
    if (!isUniqueViolation(err)) throw err;
    for (let i = 0; i < 20; i++) {
      const other = await openHoldFor(db, brand.id, opportunityId);
      if (other?.url) return { url: other.url };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw conflict('A checkout for this opportunity is already being prepared. Please try again.');
  }
  if (!reserved) throw await unavailable(db, opportunityId, now);
  if (pre) return { url: pre.url };

  const request = checkoutRequest(reserved);
  try {
    const created = await provider.createCheckout(request);
    await db
      .update(checkoutSessions)
      .set({ providerSessionId: created.sessionId, url: created.url })
      .where(eq(checkoutSessions.id, holdId));
    return { url: created.url };
  } catch {
    // no session exists for the brand to pay: give the slot straight back
    await closeHolds(db, holdById(holdId), 'cancelled', now);
    throw new HttpError(502, 'Failed to create checkout session');
  }
}

/** The brand's own checkout (another brand's answers 404), for the built-in checkout page. */
export async function checkoutView(db: Db, brandId: string, sessionId: string, now: Date = new Date()) {
  const [row] = await db
    .select({
      sessionId: checkoutSessions.providerSessionId,
      paymentId: checkoutSessions.id,
      status: checkoutSessions.status,
      amount: checkoutSessions.amount,
      expiresAt: checkoutSessions.expiresAt,
      opportunityId: opportunities.id,
      title: opportunities.title,
      outletName: opportunities.outletName,
    })
    .from(checkoutSessions)
    .innerJoin(opportunities, eq(opportunities.id, checkoutSessions.opportunityId))
    .where(and(eq(checkoutSessions.providerSessionId, sessionId), eq(checkoutSessions.brandId, brandId)));
  if (!row) throw notFound('Checkout not found');
  const status = row.status === 'open' && row.expiresAt <= now ? 'expired' : row.status;
  return { ...row, sessionId: row.sessionId!, status, expiresAt: row.expiresAt.toISOString() };
}

/**
 * The built-in test checkout's "Pay" button: records a local payment reference on the hold (what
 * a card provider keeps on its side) and runs the very same fulfilment a Stripe webhook runs.
 */
export async function payLocalCheckout(db: Db, provider: PaymentProvider, brandId: string, sessionId: string, now: Date = new Date()) {
  const view = await checkoutView(db, brandId, sessionId, now);
  const paymentRef = 'pi_local_' + randomBytes(12).toString('hex');
  const [charged] = await db
    .update(checkoutSessions)
    .set({ localPaymentId: paymentRef })
    .where(
      and(
        eq(checkoutSessions.providerSessionId, sessionId),
        eq(checkoutSessions.brandId, brandId),
        eq(checkoutSessions.status, 'open'),
        gt(checkoutSessions.expiresAt, now),
        isNull(checkoutSessions.localPaymentId),
      ),
    )
    .returning({ id: checkoutSessions.id });
  if (!charged) {
    const [hold] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.providerSessionId, sessionId));
    // paid already (a double click): fulfilment is idempotent, run it again and answer the same
    if (!hold?.localPaymentId) {
      if (view.status === 'cancelled') throw conflict('This checkout was cancelled');
      throw conflict('This checkout has expired. Please claim the opportunity again.');
    }
  }
  const result = await fulfilCheckout(db, provider, sessionId, now);
  return { url: CHECKOUT_SUCCESS_PATH, paymentId: view.paymentId, outcome: result.outcome };
}

/** "Cancel" on the checkout page: the hold ends and its slot is given back at once. */
export async function cancelCheckout(db: Db, provider: PaymentProvider, brandId: string, sessionId: string, now: Date = new Date()) {
  const view = await checkoutView(db, brandId, sessionId, now);
  if (view.status === 'completed') throw conflict('This checkout has already been paid');
  if (view.status === 'open') {
    try {
      await provider.expireSession(sessionId);
    } catch {
      // the provider refused: most likely it was paid a moment ago; let fulfilment decide
      await fulfilCheckout(db, provider, sessionId, now);
      const after = await checkoutView(db, brandId, sessionId, now);
      if (after.status === 'completed') throw conflict('This checkout has already been paid');
      if (after.status === 'open') throw new HttpError(502, 'Could not cancel the checkout. Please try again.');
    }
    await closeHolds(db, sql`provider_session_id = ${sessionId} AND brand_id = ${brandId}`, 'cancelled', now);
    const after = await checkoutView(db, brandId, sessionId, now);
    if (after.status === 'completed') throw conflict('This checkout has already been paid');
  }
  return { url: CHECKOUT_CANCEL_PATH };
}

