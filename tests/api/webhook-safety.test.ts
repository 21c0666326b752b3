/**
 * Webhook gaps found by the attack of issue 15, each failing on the code before the fix: a signed
 * event without an id, a charge of another amount or currency than the checkout's, a timestamp from
 * the future (also hidden behind a second `t=`, issue 43), and a redelivered event that must not
 * reach Stripe again.
 */
import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkouts, payments, processedWebhookEvents } from '../../src/server/db/schema';
import { stripeProvider } from '../../src/server/providers/stripe';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, checkoutsOf, opportunityRow, paymentsOf, quickBrands, type PaymentsTestApp } from '../support/payments';
import { startStripeStandIn } from '../support/stripe-stand-in';

const SECRET = 'whsec_test_byline_safety';
const signer = new Stripe('sk_test_signer');

let t: PaymentsTestApp;
let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
beforeAll(async () => {
  stripe = await startStripeStandIn();
  t = await createPaymentsTestApp({
    config: { PUBLIC_URL: 'https://byline.example.com' },
    provider: () => stripeProvider({ secretKey: 'sk_test_byline', webhookSecret: SECRET, host: '127.0.0.1', port: stripe.port, protocol: 'http' }),
  });
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});
afterEach(() => {
  expect(stripe.unexpected).toEqual([]);
});

let seq = 0;
function deliver(event: Record<string, unknown>, opts: { timestamp?: number; header?: (signed: string) => string } = {}) {
  const payload = JSON.stringify(event);
  const signed = signer.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp: opts.timestamp });
  const header = opts.header ? opts.header(signed) : signed;
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  });
}
const completed = (sessionId: string, id = `evt_safety_${++seq}`) => ({
  id,
  object: 'event',
  type: 'checkout.session.completed',
  data: { object: { id: sessionId, object: 'checkout.session' } },
});

async function claim(priceUsd = '250.00') {
  const opp = await createOpportunity(t.db, { maxSlots: 1, priceUsd });
  const [brand] = await quickBrands(t.app, t.db, 1);
  expect((await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id })).status).toBe(200);
  const [hold] = await checkoutsOf(t.db, opp.id);
  return { opp, brand, hold, sessionId: hold.providerSessionId! };
}

describe('POST /api/webhooks/stripe', () => {
  it('a correctly signed event without an id is a 400 and changes nothing', async () => {
    const { sessionId, opp } = await claim();
    stripe.pay(sessionId);
    const { id: _id, ...withoutId } = completed(sessionId);
    const res = await deliver(withoutId);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Webhook event has no id or type', code: 'invalid_webhook_payload' });
    expect(await paymentsOf(t.db, opp.id)).toHaveLength(0);
  });

  it('[SECURITY] a charge of another amount is not booked: the slot goes back and admins see it under "Needs attention"', async () => {
    const { sessionId, opp, hold } = await claim('250.00');
    const { agent: admin } = await signedIn(t.app, t.db, kinds.admin);
    const heldBefore = (await admin.get('/api/admin/payments/totals')).body.held;
    stripe.pay(sessionId);
    stripe.sessions.get(sessionId)!.amount_total = 1;
    const res = await deliver(completed(sessionId));
    expect(res.statusCode).toBe(200);
    expect(await paymentsOf(t.db, opp.id)).toHaveLength(0);
    const [row] = await t.db.select().from(checkouts).where(eq(checkouts.id, hold.id));
    expect(row).toMatchObject({ status: 'cancelled', attentionReason: 'Charged $0.01 USD, expected $250.00 USD', chargedAmountCents: 1 });
    expect((await opportunityRow(t.db, opp.id)).filledSlots).toBe(0);

    const list = await admin.get('/api/admin/payments/attention');
    expect(list.status).toBe(200);
    expect(list.body).toContainEqual(
      expect.objectContaining({ id: hold.id, reason: 'Charged $0.01 USD, expected $250.00 USD', expectedAmount: '250.00', providerRef: `pi_test_${sessionId.slice(-12)}` }),
    );
    // nothing was added to the money held (other tests of this file book payments of their own)
    expect((await admin.get('/api/admin/payments/totals')).body.held).toBe(heldBefore);
    // a redelivery of the same charge still books nothing
    expect((await deliver(completed(sessionId))).statusCode).toBe(200);
    expect(await paymentsOf(t.db, opp.id)).toHaveLength(0);
  });

  it('a charge in another currency is not booked either', async () => {
    const { sessionId, opp, hold } = await claim('250.00');
    stripe.pay(sessionId);
    stripe.sessions.get(sessionId)!.currency = 'eur';
    expect((await deliver(completed(sessionId))).statusCode).toBe(200);
    expect(await paymentsOf(t.db, opp.id)).toHaveLength(0);
    const [row] = await t.db.select().from(checkouts).where(eq(checkouts.id, hold.id));
    expect(row.attentionReason).toBe('Charged 25000 minor units of EUR, expected $250.00 USD');
  });

  it('the matching charge is booked as before', async () => {
    const { sessionId, opp } = await claim('250.00');
    stripe.pay(sessionId);
    expect((await deliver(completed(sessionId))).statusCode).toBe(200);
    const [payment] = await paymentsOf(t.db, opp.id);
    expect(payment).toMatchObject({ amount: '250.00', status: 'paid' });
  });

  it('[SECURITY] a signature dated more than 5 minutes off, past or future, is refused; within 5 minutes it is accepted', async () => {
    const { sessionId, opp } = await claim();
    stripe.pay(sessionId);
    const now = Math.floor(Date.now() / 1000);
    // 10 s past the limit: the second `now` was rounded down to, and the time until the server
    // checks, would otherwise let 301 s be 300 s on a loaded machine
    for (const timestamp of [now + 3600, now + 310, now - 310]) {
      const res = await deliver(completed(sessionId), { timestamp });
      expect(res.statusCode, `timestamp ${timestamp - now}`).toBe(400);
    }
    expect(await paymentsOf(t.db, opp.id)).toHaveLength(0);
    expect((await deliver(completed(sessionId), { timestamp: now + 200 })).statusCode).toBe(200);
    expect(await paymentsOf(t.db, opp.id)).toHaveLength(1);
  });

  it('[SECURITY] a Stripe-Signature header with more than one timestamp is refused (the SDK would verify the last)', async () => {
    const { sessionId, opp } = await claim();
    stripe.pay(sessionId);
    const now = Math.floor(Date.now() / 1000);
    // signed an hour ahead, with the current time put in front of it or behind it
    for (const header of [(signed: string) => `t=${now},${signed}`, (signed: string) => `${signed},t=${now}`]) {
      const res = await deliver(completed(sessionId), { timestamp: now + 3600, header });
      expect(res.statusCode, header('…')).toBe(400);
      expect(res.json()).toEqual({ message: 'Invalid webhook signature', code: 'invalid_webhook_signature' });
    }
    expect(await paymentsOf(t.db, opp.id)).toHaveLength(0);
    // the same event signed once, now, is booked
    expect((await deliver(completed(sessionId))).statusCode).toBe(200);
    expect(await paymentsOf(t.db, opp.id)).toHaveLength(1);
  });

  it('a redelivered event is recognised: no second call to Stripe at all', async () => {
    const { sessionId, opp } = await claim();
    stripe.pay(sessionId);
    const event = completed(sessionId);
    expect((await deliver(event)).statusCode).toBe(200);
    const before = stripe.calls.length;
    for (let i = 0; i < 3; i++) expect((await deliver(event)).statusCode).toBe(200);
    expect(stripe.calls.slice(before)).toEqual([]);
    expect(await t.db.$count(processedWebhookEvents, eq(processedWebhookEvents.id, event.id))).toBe(1);
    expect(await t.db.$count(payments, eq(payments.opportunityId, opp.id))).toBe(1);
  });
});
