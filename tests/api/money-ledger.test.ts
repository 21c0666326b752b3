/**
 * The money ledger (issue 58, decision 041). Every money flow run through the Stripe stand-in (the
 * card provider at its HTTP boundary): single purchase, cart, full and part refunds, swaps cheaper
 * and dearer, cancellations (in full and in part), a dispute's refund, the guarantee's refund and
 * the publication watch's; then, for every payment, what the ledger says was charged and refunded
 * equals what the stand-in charged and refunded, to the cent. Refunds of every kind fired at once
 * never give back more than was charged; the ledger refuses UPDATE, DELETE and TRUNCATE.
 */
import Stripe from 'stripe';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkouts, moneyMovements, paymentRefunds, payments, placements } from '../../src/server/db/schema';
import { stripeProvider } from '../../src/server/providers/stripe';
import { claimRefund } from '../../src/server/modules/ledger/ledger';
import { claimPartialRefund, completePartialRefund, refundOverduePayments, refundPart, refundPayment, refundPublishedPayment } from '../../src/server/modules/payments/refunds';
import { organisationSpent } from '../../src/server/modules/org/budget';
import { DAY_MS, GUARANTEE_DAYS } from '../../src/shared/constants';
import { toCents } from '../../src/shared/money';
import type { Res } from '../support/app';
import { submittedBrief } from '../support/content';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, sessionIdOf, type PaymentsTestApp } from '../support/payments';
import { startStripeStandIn } from '../support/stripe-stand-in';

const SECRET = 'whsec_test_byline_ledger';
const signer = new Stripe('sk_test_signer');

let t: PaymentsTestApp;
let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
type Signed = Awaited<ReturnType<typeof signedIn>>;
let admin: Signed;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  t = await createPaymentsTestApp({
    config: { PUBLIC_URL: 'https://byline.example.com', LIMIT_CHECKOUTS: { max: 1000, windowMs: 3_600_000 } },
    provider: () => stripeProvider({ secretKey: 'sk_test_byline', webhookSecret: SECRET, host: '127.0.0.1', port: stripe.port, protocol: 'http' }),
  });
  admin = await signedIn(t.app, t.db, kinds.admin);
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});
afterEach(() => {
  expect(stripe.unexpected).toEqual([]);
});

const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

let eventSeq = 0;
/** The brand paid on Stripe's page, and Stripe tells us so (the signed webhook). */
async function paid(sessionId: string) {
  stripe.pay(sessionId);
  const payload = JSON.stringify({ id: `evt_ledger_${++eventSeq}`, object: 'event', type: 'checkout.session.completed', data: { object: { id: sessionId } } });
  const header = signer.webhooks.generateTestHeaderString({ payload, secret: SECRET });
  const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': header }, payload });
  expect(res.statusCode).toBe(200);
}

const topic = () => `topic-${Math.random().toString(36).slice(2, 8)}`;
const opportunity = (priceUsd: string, more: Parameters<typeof createOpportunity>[1] = {}) =>
  createOpportunity(t.db, { maxSlots: 3, priceUsd, type: ['profile_article'], topics: ['ledger'], domainAuthority: 50, ...more });

/** "Pay now" on one opportunity: its payment's id. */
async function buy(brand: Signed, priceUsd: string, more: Parameters<typeof createOpportunity>[1] = {}) {
  const opp = await opportunity(priceUsd, more);
  const { url } = ok(await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id }), 'checkout');
  await paid(sessionIdOf(url));
  const [hold] = await t.db.select().from(checkouts).where(eq(checkouts.providerSessionId, sessionIdOf(url)));
  const [p] = await t.db.select().from(payments).where(eq(payments.id, hold.id));
  expect(p).toMatchObject({ status: 'paid', amount: priceUsd });
  return p.id;
}

/** A cart of these prices, paid in one session: its payments' ids. */
async function cart(brand: Signed, prices: string[]) {
  for (const price of prices) ok(await brand.agent.put(`/api/cart/lines/${(await opportunity(price)).id}`), 'add');
  const started = ok(await brand.agent.post('/api/cart/checkout', {}), 'cart checkout');
  await paid(sessionIdOf(started.url));
  const rows = await t.db.select().from(payments).where(eq(payments.orderId, started.orderId));
  expect(rows.map((r) => r.amount).sort()).toEqual([...prices].sort());
  return prices.map((price) => rows.find((r) => r.amount === price)!.id);
}

/** A declined placement with a cheaper (−10 %) and a dearer (+10 %) alternative. */
async function declined(brand: Signed) {
  const t1 = topic();
  const id = await buy(brand, '500.00', { topics: [t1] });
  const alt = (priceUsd: string) => opportunity(priceUsd, { topics: [t1], domainAuthority: 52, outletName: `Alt ${priceUsd}`, title: `Alt ${priceUsd}` });
  const cheaper = await alt('450.00');
  const dearer = await alt('550.00');
  ok(await admin.agent.post(`/api/admin/payments/${id}/decline`, { reason: 'The outlet refused the topic' }), 'decline');
  return { id, cheaper, dearer };
}

interface LedgerLine {
  id: string;
  pi: string;
  amount: string;
  charged: string | null;
  refunded: string | null;
  left: string | null;
}
async function ledger(): Promise<LedgerLine[]> {
  const res = await t.db.execute(sql`
    SELECT p.id, p.stripe_payment_id AS pi, p.amount::text, pm.charged::text, pm.refunded::text, pm.left_to_refund::text AS "left"
    FROM payments p LEFT JOIN payment_money pm ON pm.payment_id = p.id`);
  return (res as unknown as { rows: LedgerLine[] }).rows;
}

/**
 * What the stand-in gave back of each payment, in cents, from the refund calls at its HTTP boundary:
 * one refund per idempotency key (the payment's id for its full refund, `refund-<id>` for a part).
 */
async function standInRefundsByPayment() {
  const parts = new Map((await t.db.select({ id: paymentRefunds.id, paymentId: paymentRefunds.paymentId }).from(paymentRefunds)).map((r) => [`refund-${r.id}`, r.paymentId]));
  const ids = new Set((await t.db.select({ id: payments.id }).from(payments)).map((r) => r.id));
  const byKey = new Map<string, number>();
  for (const c of stripe.calls) {
    if (c.method !== 'POST' || c.path !== '/v1/refunds') continue;
    const amount = Number(c.form.amount);
    // the same refund asked again carries the same key and amount: made once
    if (byKey.has(c.idempotencyKey!)) expect(byKey.get(c.idempotencyKey!)).toBe(amount);
    byKey.set(c.idempotencyKey!, amount);
  }
  const out = new Map<string, number>();
  for (const [key, cents] of byKey) {
    const paymentId = parts.get(key) ?? (ids.has(key) ? key : undefined);
    expect(paymentId, `a refund call no payment explains: ${key}`).toBeDefined();
    out.set(paymentId!, (out.get(paymentId!) ?? 0) + cents);
  }
  return out;
}

/** For every payment, and every payment intent, the ledger equals what the stand-in charged and refunded. */
async function reconcile() {
  const lines = await ledger();
  const refunded = await standInRefundsByPayment();
  for (const l of lines) {
    // every payment was charged, once, its amount
    expect(l.charged, `payment ${l.id}`).toBe(l.amount);
    expect(toCents(l.refunded!), `payment ${l.id}'s refunds`).toBe(refunded.get(l.id) ?? 0);
    expect(toCents(l.left!)).toBe(toCents(l.charged!) - toCents(l.refunded!));
  }
  // what the stand-in charged (each paid session, one payment intent) and refunded of each intent
  const pis = new Set(lines.map((l) => l.pi));
  for (const pi of pis) {
    const mine = lines.filter((l) => l.pi === pi);
    const session = [...stripe.sessions.values()].find((s) => s.payment_intent === pi);
    expect(session, `a paid session for ${pi}`).toBeDefined();
    expect(mine.reduce((s, l) => s + toCents(l.charged!), 0), `charged of ${pi}`).toBe(session!.amount_total);
    expect(mine.reduce((s, l) => s + toCents(l.refunded!), 0), `refunded of ${pi}`).toBe(stripe.refundedOf(pi));
  }
  return lines;
}

const money = async (id: string) => (await ledger()).find((l) => l.id === id)!;
const movements = (id: string) => t.db.select().from(moneyMovements).where(eq(moneyMovements.paymentId, id)).orderBy(moneyMovements.createdAt);

describe('every money flow, reconciled with the provider', () => {
  it('the ledger equals what the Stripe stand-in charged and refunded, for every payment, to the cent', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);

    // a single purchase, held
    const held = await buy(brand, '1250.50');
    expect((await movements(held)).map((m) => [m.kind, m.amount, m.placementId])).toEqual([['charge', '1250.50', held]]);

    // a cart of three; one line refunded in part by an admin, another in full
    const [c1, c2] = await cart(brand, ['200.00', '300.10', '99.99']);
    ok(await admin.agent.post(`/api/admin/payments/${c1}/refund`, { amountUsd: '25.05', reason: 'Late' }), 'cart part refund');
    ok(await admin.agent.post(`/api/admin/payments/${c2}/refund`), 'cart line full refund');
    expect(await money(c1)).toMatchObject({ refunded: '25.05', left: '174.95' });
    expect(await money(c2)).toMatchObject({ refunded: '300.10', left: '0.00' });

    // parts, then the rest in full
    const parts = await buy(brand, '400.00');
    ok(await admin.agent.post(`/api/admin/payments/${parts}/refund`, { amountUsd: '100.00' }), 'part 1');
    ok(await admin.agent.post(`/api/admin/payments/${parts}/refund`, { amountUsd: '50.01' }), 'part 2');
    expect((await admin.agent.post(`/api/admin/payments/${parts}/refund`, { amountUsd: '250.00' })).status).toBe(409);
    // exactly what is left: refunded in full
    ok(await admin.agent.post(`/api/admin/payments/${parts}/refund`, { amountUsd: '249.99' }), 'the rest');
    expect((await movements(parts)).map((m) => [m.kind, m.amount, Boolean(m.refundId)])).toEqual([
      ['charge', '400.00', false],
      ['refund', '100.00', true],
      ['refund', '50.01', true],
      ['refund', '249.99', false],
    ]);

    // a swap for a cheaper alternative: its difference given back
    const cheap = await declined(brand);
    expect(ok(await brand.agent.post(`/api/brand/projects/${cheap.id}/swap`, { opportunityId: cheap.cheaper.id }), 'swap').refundedUsd).toBe('50.00');
    expect((await movements(cheap.id)).map((m) => [m.kind, m.amount, m.reason])).toEqual([
      ['charge', '500.00', null],
      ['swap_difference', '50.00', 'swap'],
    ]);

    // a swap for a dearer one: its difference charged (a top-up of the placement), then all refunded
    const dear = await declined(brand);
    const topupAnswer = ok(await brand.agent.post(`/api/brand/projects/${dear.id}/swap`, { opportunityId: dear.dearer.id }), 'swap dearer');
    await paid(sessionIdOf(topupAnswer.url));
    const [topup] = await t.db.select().from(payments).where(eq(payments.topupOf, dear.id));
    expect((await movements(topup.id)).map((m) => [m.kind, m.amount, m.placementId])).toEqual([['charge', '50.00', dear.id]]);
    ok(await admin.agent.post(`/api/admin/payments/${dear.id}/refund`), 'refund with its top-up');
    expect(await money(topup.id)).toMatchObject({ refunded: '50.00', left: '0.00' });

    // a declined placement left unswapped: refunded in full at its deadline (the guarantee job below)
    await declined(brand);

    // cancelled before writing: refunded in full; after writing started: in part, the rest kept
    const early = await buy(brand, '180.00');
    expect((await brand.agent.post(`/api/brand/projects/${early}/cancel`, {})).status).toBe(200);
    const late = await buy(brand, '400.00');
    ok(await admin.agent.post(`/api/admin/payments/${late}/writing-started`), 'started');
    const asked = await brand.agent.post(`/api/brand/projects/${late}/cancel`, { reason: 'Budget cut' });
    expect(asked.status).toBe(202);
    ok(await admin.agent.post(`/api/admin/cancellations/${asked.body.cancellation.id}/answer`, { outcome: 'refund_partial', amountUsd: '150.00', reason: 'Half done' }), 'answer');
    expect(await money(late)).toMatchObject({ refunded: '150.00', left: '250.00' });
    expect((await t.db.select().from(payments).where(eq(payments.id, late)))[0].status).toBe('refunded');

    // a dispute about the draft, accepted: the part asked for given back
    const disputed = await buy(brand, '600.00');
    const [dp] = await t.db.select().from(payments).where(eq(payments.id, disputed));
    await submittedBrief(t.db, dp);
    await t.db.update(placements).set({ draftReviewStatus: 'pending_brand_review', draftDocumentUrl: 'https://docs.example.com/d/1' }).where(eq(placements.id, disputed));
    const opened = ok(
      await brand.agent.post(`/api/brand/projects/${disputed}/disputes`, { reason: 'not_as_briefed', outcome: 'refund_partial', amountUsd: '200.00', text: 'The article ignores the brief.' }),
      'dispute',
    );
    ok(await admin.agent.post(`/api/admin/disputes/${opened.id}/answer`, { action: 'accept' }), 'accept');
    expect(await money(disputed)).toMatchObject({ refunded: '200.00' });

    // published, then refunded by the publication watch (the article gone and not restored)
    const watched = await buy(brand, '700.00');
    ok(await admin.agent.post(`/api/admin/payments/${watched}/release`), 'release');
    expect((await refundPublishedPayment(t.db, t.provider, watched, new Date(), 'not_restored'))?.changed).toBe(true);
    expect((await movements(watched)).map((m) => [m.kind, m.amount, m.reason])).toEqual([
      ['charge', '700.00', null],
      ['refund', '700.00', 'not_restored'],
    ]);

    // the guarantee: every payment still held after GUARANTEE_DAYS refunded in full (what is left)
    const refundedNow = await refundOverduePayments(t.db, t.provider, new Date(Date.now() + (GUARANTEE_DAYS + 1) * DAY_MS));
    expect(refundedNow).toEqual(expect.arrayContaining([held, c1, cheap.id, disputed]));
    expect(await money(c1)).toMatchObject({ refunded: '200.00', left: '0.00' });

    const lines = await reconcile();
    expect(lines.length).toBeGreaterThanOrEqual(13);
    // every placement's money, the view's: nothing is left to refund anywhere but the cancellation's kept part
    expect(lines.filter((l) => toCents(l.left!) > 0).map((l) => l.id)).toEqual([late]);

    // the cancellations and the dispute refer to their refunds' movements
    const refs = await t.db.execute(sql`
      SELECT c.placement_id AS id, m.amount::text, m.refund_id IS NOT NULL AS part FROM cancellations c JOIN money_movements m ON m.id = c.movement_id
      UNION ALL SELECT d.placement_id, m.amount::text, m.refund_id IS NOT NULL FROM disputes d JOIN money_movements m ON m.id = d.movement_id`);
    expect((refs as unknown as { rows: unknown[] }).rows).toEqual(
      expect.arrayContaining([
        { id: early, amount: '180.00', part: false },
        { id: late, amount: '150.00', part: true },
        { id: disputed, amount: '200.00', part: true },
      ]),
    );
  }, 180_000);
});

describe('amounts shown, from the ledger', () => {
  it('the month spent against a budget is what was charged less what went back', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const orgId = (await t.db.select({ o: payments.organisationId }).from(payments).where(eq(payments.id, await buy(brand, '300.00'))))[0].o;
    const kept = await buy(brand, '200.00');
    const gone = await buy(brand, '150.00');
    expect((await organisationSpent(t.db, orgId)).spent).toBe('650.00');
    ok(await admin.agent.post(`/api/admin/payments/${kept}/refund`, { amountUsd: '20.50' }), 'part');
    ok(await admin.agent.post(`/api/admin/payments/${gone}/refund`), 'full');
    expect((await organisationSpent(t.db, orgId)).spent).toBe('479.50');
    // the payment answers say the same as the ledger
    const history = ok(await brand.agent.get('/api/brand/payments'), 'history') as { id: string; refundedAmount: string }[];
    expect(history.find((h) => h.id === kept)!.refundedAmount).toBe('20.50');
    expect(history.find((h) => h.id === gone)!.refundedAmount).toBe('150.00');
  });
});

describe('refunds of every kind at once', () => {
  it('never give back more than was charged, and the provider gives back exactly what the ledger says', { timeout: 120_000 }, async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    for (let round = 0; round < 3; round++) {
      const id = await buy(brand, '100.00');
      const at = new Date();
      const attempts = await Promise.allSettled([
        // an admin's parts, a cancellation's, a dispute's, a swap's difference …
        ...Array.from({ length: 6 }, () => refundPart(t.db, t.provider, id, 1500, 'admin', { type: 'admin', id: admin.user.id }, at)),
        refundPart(t.db, t.provider, id, 2000, 'cancelled', { type: 'brand', id: brand.user.id }, at),
        refundPart(t.db, t.provider, id, 2500, 'dispute', { type: 'admin', id: admin.user.id }, at),
        t.db
          .transaction((tx) => claimPartialRefund(tx, id, 3000, 'swap', at))
          .then((r) => (r ? completePartialRefund(t.db, t.provider, r, at) : undefined)),
        // … and a full refund (claimed on the row, the rest given back)
        round === 1 ? refundPayment(t.db, t.provider, id, 'admin', at) : Promise.resolve(undefined),
        // the admin's route, as a browser fires it
        admin.agent.post(`/api/admin/payments/${id}/refund`, { amountUsd: '20.00' }),
      ]);
      for (const a of attempts) {
        expect(a.status).toBe('fulfilled');
        if (a.status === 'fulfilled' && a.value && typeof a.value === 'object' && 'status' in a.value) expect([200, 409]).toContain(a.value.status);
      }
      const m = await money(id);
      expect(toCents(m.refunded!)).toBeLessThanOrEqual(10000);
      expect(toCents(m.left!)).toBeGreaterThanOrEqual(0);
      // a part never takes the last cent: only a full refund does
      if (round !== 1) expect(toCents(m.left!)).toBeGreaterThan(0);
    }
    await reconcile();
  });

  it('two claims in their own transactions that together exceed the charge: one is refused', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await buy(brand, '100.00');
    const at = new Date();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.db.transaction((tx) => claimRefund(tx, { paymentId: id, amountCents: 4000, reason: i % 2 ? 'admin' : 'dispute', now: at, part: {} }))),
    );
    // 40 + 40 leave 20: a third 40 would go beyond (and a part never takes all that is left)
    expect(results.filter(Boolean)).toHaveLength(2);
    expect(await money(id)).toMatchObject({ refunded: '80.00', left: '20.00' });
    // the rest in full: exactly what is left, once
    const rest = await Promise.all([0, 1, 2].map(() => t.db.transaction((tx) => claimRefund(tx, { paymentId: id, amountCents: 'rest', reason: 'admin', now: at }))));
    expect(rest.filter(Boolean).map((r) => r!.movement.amount)).toEqual(['20.00']);
    expect(await money(id)).toMatchObject({ refunded: '100.00', left: '0.00' });
  });

  it('the database itself refuses a refund beyond the charge', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await buy(brand, '10.00');
    await expect(t.db.insert(moneyMovements).values({ paymentId: id, kind: 'refund', amount: '10.01' })).rejects.toThrow();
    await t.db.insert(moneyMovements).values({ paymentId: id, kind: 'refund', amount: '10.00', reason: 'admin' });
    await expect(t.db.insert(moneyMovements).values({ paymentId: id, kind: 'swap_difference', amount: '0.01' })).rejects.toThrow();
    await expect(t.db.insert(moneyMovements).values({ paymentId: id, kind: 'refund', amount: '0.00' })).rejects.toThrow();
    await expect(t.db.insert(moneyMovements).values({ paymentId: id, kind: 'charge', amount: '5.00' })).rejects.toThrow();
  });
});

describe('append-only', () => {
  it('UPDATE, DELETE and TRUNCATE of money_movements are refused; the movements stay as they were', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await buy(brand, '75.00');
    const before = await movements(id);
    expect(before).toHaveLength(1);
    const refused = async (statement: ReturnType<typeof sql>) => {
      const err = await t.db.execute(statement).then(
        () => null,
        (e: unknown) => e as { cause?: { message?: string }; message: string },
      );
      expect(err).not.toBeNull();
      expect(String(err!.cause?.message ?? err!.message)).toContain('append-only');
    };
    await refused(sql`UPDATE money_movements SET amount = 1 WHERE payment_id = ${id}`);
    await refused(sql`UPDATE money_movements SET reason = 'admin' WHERE payment_id = ${id}`);
    await refused(sql`DELETE FROM money_movements WHERE payment_id = ${id}`);
    // CASCADE: past the tables that refer to movements (disputes, cancellations), to the trigger
    await refused(sql`TRUNCATE money_movements CASCADE`);
    expect(await movements(id)).toEqual(before);
    // and the payment it is of cannot be deleted from under it
    await expect(t.db.execute(sql`DELETE FROM payments WHERE id = ${id}`)).rejects.toThrow();
  });
});
