/**
 * One purchase path (issue 58, decision 046): a 50-line cart and a one-line "Pay now" are both paid
 * through the Stripe stand-in's webhook and booked by the same functions (payments/purchase.ts):
 * a payment, a placement, a ledger charge and a `paid` entry per line. On PostgreSQL also: two
 * instances handling the same delivery at once book each line once, and an instance killed with
 * SIGKILL in the middle of booking 50 lines leaves nothing, which a redelivery then books once.
 */
import { spawn } from 'node:child_process';
import Stripe from 'stripe';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkouts, mailOutbox, moneyMovements, orders, payments, placementEvents, placements, processedWebhookEvents, taxDocuments } from '../../src/server/db/schema';
import { stripeProvider } from '../../src/server/providers/stripe';
import { dbKind } from '../support/db';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, opportunityRow, type PaymentsTestApp } from '../support/payments';
import { startStripeStandIn } from '../support/stripe-stand-in';

const SECRET = 'whsec_test_one_purchase';
const signer = new Stripe('sk_test_signer');

let t: PaymentsTestApp;
let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
let dbUrl = '';
beforeAll(async () => {
  stripe = await startStripeStandIn();
  t = await createPaymentsTestApp({
    config: { PUBLIC_URL: 'https://byline.example.com', LIMIT_CHECKOUTS: { max: 1000, windowMs: 3_600_000 } },
    provider: () => stripeProvider({ secretKey: 'sk_test_byline', webhookSecret: SECRET, host: '127.0.0.1', port: stripe.port, protocol: 'http' }),
  });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});
afterEach(() => {
  expect(stripe.unexpected).toEqual([]);
});

let seq = 0;
function deliver(sessionId: string, id = `evt_one_${++seq}`) {
  const payload = JSON.stringify({ id, object: 'event', type: 'checkout.session.completed', data: { object: { id: sessionId, object: 'checkout.session' } } });
  const header = signer.webhooks.generateTestHeaderString({ payload, secret: SECRET });
  return t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': header }, payload });
}

/** A brand's cart of n opportunities checked out: its order, open, with a Stripe session. */
async function checkedOutCart(n: number) {
  const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
  const opps = [];
  for (let i = 0; i < n; i++) opps.push(await createOpportunity(t.db, { maxSlots: 2, priceUsd: `${100 + i}.25`, title: `Line ${i + 1}` }));
  for (const o of opps) expect((await brand.agent.put(`/api/cart/lines/${o.id}`)).status).toBe(200);
  const res = await brand.agent.post('/api/cart/checkout', {});
  expect(res.status).toBe(200);
  const [order] = await t.db.select().from(orders).where(eq(orders.id, res.body.orderId));
  return { brand, opps, order, sessionId: order.providerSessionId! };
}

/** What a paid purchase left: its payments, placements, ledger charges and `paid` entries. */
async function booked(paymentIds: string[]) {
  const ids = paymentIds.length ? paymentIds : ['00000000-0000-4000-8000-000000000000'];
  const rows = ((await t.db.execute(
    sql`SELECT count(*)::int AS n, coalesce(sum(amount), 0)::text AS total FROM ${moneyMovements} WHERE kind = 'charge' AND payment_id IN ${ids}`,
  )) as unknown as { rows: { n: number; total: string }[] }).rows;
  return {
    placements: await t.db.$count(placements, inArray(placements.paymentId, ids)),
    charges: rows[0].n,
    charged: rows[0].total,
    paidEntries: await t.db.$count(placementEvents, and(inArray(placementEvents.placementId, ids), eq(placementEvents.kind, 'paid'))),
  };
}

const orderPayments = (orderId: string) => t.db.select().from(payments).where(eq(payments.orderId, orderId));
const mailsTo = async (email: string, kind: string) =>
  (await t.db.select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, kind)))).length;

/** Every line of the order booked exactly once, with the order's one invoice and one receipt. */
async function expectBookedOnce(c: Awaited<ReturnType<typeof checkedOutCart>>) {
  const paid = await orderPayments(c.order.id);
  expect(paid).toHaveLength(c.opps.length);
  expect(new Set(paid.map((p) => p.opportunityId))).toEqual(new Set(c.opps.map((o) => o.id)));
  expect(paid.every((p) => p.status === 'paid' && p.holdsSlot && p.providerSessionId === c.sessionId)).toBe(true);
  expect(await booked(paid.map((p) => p.id))).toEqual({ placements: c.opps.length, charges: c.opps.length, charged: c.order.amount, paidEntries: c.opps.length });
  const [order] = await t.db.select().from(orders).where(eq(orders.id, c.order.id));
  expect(order.status).toBe('completed');
  expect(await t.db.$count(taxDocuments, and(eq(taxDocuments.orderId, c.order.id), eq(taxDocuments.kind, 'invoice')))).toBe(1);
  expect(await mailsTo(c.brand.user.email, 'order_received')).toBe(1);
  expect(await mailsTo(c.brand.user.email, 'payment_received')).toBe(0);
  for (const o of c.opps) expect((await opportunityRow(t.db, o.id)).filledSlots).toBe(1);
}

describe('one purchase path', () => {
  it('a 50-line cart paid through the webhook: 50 payments, placements and ledger charges, one invoice, one receipt; a redelivery adds nothing', async () => {
    const c = await checkedOutCart(50);
    // 50 × $100.25 + $0 + $1 + … + $49
    expect(c.order.amount).toBe('6237.50');
    stripe.pay(c.sessionId);
    expect((await deliver(c.sessionId)).statusCode).toBe(200);
    await expectBookedOnce(c);
    // the same charge told again under another event id
    expect((await deliver(c.sessionId)).statusCode).toBe(200);
    await expectBookedOnce(c);
    expect((await c.brand.agent.get('/api/cart')).body.lines).toEqual([]);
  });

  it('"Pay now" on one opportunity is booked by the same path: its payment, placement, ledger charge, paid entry, invoice and receipt', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const opp = await createOpportunity(t.db, { maxSlots: 1, priceUsd: '250.00' });
    expect((await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id })).status).toBe(200);
    const [hold] = await t.db.select().from(checkouts).where(eq(checkouts.opportunityId, opp.id));
    stripe.pay(hold.providerSessionId!);
    expect((await deliver(hold.providerSessionId!)).statusCode).toBe(200);
    expect((await deliver(hold.providerSessionId!)).statusCode).toBe(200);

    const paid = await t.db.select().from(payments).where(eq(payments.opportunityId, opp.id));
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ id: hold.id, orderId: null, amount: '250.00', status: 'paid', holdsSlot: true });
    expect(await booked([hold.id])).toEqual({ placements: 1, charges: 1, charged: '250.00', paidEntries: 1 });
    const [entry] = await t.db.select().from(placementEvents).where(and(eq(placementEvents.placementId, hold.id), eq(placementEvents.kind, 'paid')));
    expect(entry.details).toEqual({ amount: '250.00' });
    expect(await t.db.$count(taxDocuments, and(eq(taxDocuments.paymentId, hold.id), eq(taxDocuments.kind, 'invoice')))).toBe(1);
    expect(await mailsTo(brand.user.email, 'payment_received')).toBe(1);
    expect(await mailsTo(brand.user.email, 'order_received')).toBe(0);
    const [after] = await t.db.select().from(checkouts).where(eq(checkouts.id, hold.id));
    expect(after.status).toBe('completed');
  });
});

/** Another instance handling one delivery (tests/support/purchase-child.ts); resolves with how it ended. */
function instance(eventId: string, sessionId: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/purchase-child.ts'], {
    env: { ...process.env, PURCHASE_DB_URL: dbUrl, STRIPE_PORT: String(stripe.port), EVENT_ID: eventId, SESSION_ID: sessionId },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, out })),
  );
  return { child, exited };
}

describe.skipIf(dbKind !== 'postgres')('one purchase path across instances (PostgreSQL)', () => {
  beforeAll(async () => {
    const rows = ((await t.db.execute(sql`SELECT current_database() AS d`)) as unknown as { rows: { d: string }[] }).rows;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${rows[0].d}`;
    dbUrl = url.toString();
  });

  it('two instances receiving the same webhook at once book each of 50 lines exactly once', async () => {
    const c = await checkedOutCart(50);
    stripe.pay(c.sessionId);
    const eventId = `evt_twice_${c.order.id}`;
    const ends = await Promise.all([instance(eventId, c.sessionId).exited, instance(eventId, c.sessionId).exited]);
    for (const end of ends) expect(end).toMatchObject({ code: 0, signal: null });
    expect(ends.map((e) => e.out).join('')).toMatch(/handled/);
    await expectBookedOnce(c);
  }, 60_000);

  it('an instance killed with SIGKILL while booking a 50-line order leaves nothing; the redelivery books it once', async () => {
    const c = await checkedOutCart(50);
    stripe.pay(c.sessionId);
    const year = new Date().getUTCFullYear();
    await t.db.execute(sql`INSERT INTO document_counters (series, year, last) VALUES ('BYL', ${year}, 0) ON CONFLICT DO NOTHING`);
    let killed: { code: number | null; signal: NodeJS.Signals | null; out: string } | undefined;
    let waiter = 0;
    // the invoice number is taken after every line is booked: holding its counter pauses the instance there
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT last FROM document_counters WHERE series = 'BYL' AND year = ${year} FOR UPDATE`);
      const run = instance(`evt_killed_${c.order.id}`, c.sessionId);
      const deadline = Date.now() + 30_000;
      while (!waiter) {
        if (Date.now() > deadline) throw new Error('the instance never reached the invoice number');
        await new Promise((r) => setTimeout(r, 50));
        const rows = ((await t.db.execute(
          sql`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%document_counters%'`,
        )) as unknown as { rows: { pid: number }[] }).rows;
        waiter = rows[0]?.pid ?? 0;
      }
      run.child.kill('SIGKILL');
      killed = await run.exited;
    });
    expect(killed).toMatchObject({ signal: 'SIGKILL' });
    expect(killed!.out).not.toContain('handled');
    // its server process notices the lost connection once the lock is free, and rolls back
    for (let i = 0; i < 200; i++) {
      const rows = ((await t.db.execute(sql`SELECT 1 FROM pg_stat_activity WHERE pid = ${waiter}`)) as unknown as { rows: unknown[] }).rows;
      if (!rows.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // nothing of the interrupted fulfilment stayed
    expect(await orderPayments(c.order.id)).toHaveLength(0);
    expect(await t.db.$count(placements, inArray(placements.opportunityId, c.opps.map((o) => o.id)))).toBe(0);
    expect(await t.db.$count(taxDocuments, eq(taxDocuments.orderId, c.order.id))).toBe(0);
    expect(await t.db.$count(processedWebhookEvents, eq(processedWebhookEvents.id, `evt_killed_${c.order.id}`))).toBe(0);
    const [open] = await t.db.select().from(orders).where(eq(orders.id, c.order.id));
    expect(open.status).toBe('open');
    expect(await t.db.$count(checkouts, and(eq(checkouts.orderId, c.order.id), eq(checkouts.status, 'open')))).toBe(50);

    // Stripe redelivers the event: booked once
    expect((await deliver(c.sessionId, `evt_killed_${c.order.id}`)).statusCode).toBe(200);
    await expectBookedOnce(c);
    expect((await deliver(c.sessionId, `evt_killed_${c.order.id}`)).statusCode).toBe(200);
    await expectBookedOnce(c);
  }, 60_000);
});
