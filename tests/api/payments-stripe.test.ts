import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/server/config';
import { checkouts, opportunities, payments, processedWebhookEvents } from '../../src/server/db/schema';
import { paymentProviderFor } from '../../src/server/providers/from-config';
import { stripeProvider } from '../../src/server/providers/stripe';
import { expireCheckouts } from '../../src/server/modules/payments/slots';
import { ORIGIN } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, checkoutsOf, opportunityRow, paymentsOf, quickBrands, type PaymentsTestApp } from '../support/payments';
import { startStripeStandIn } from '../support/stripe-stand-in';

const SECRET = 'whsec_test_byline_secret';
const PUBLIC_URL = 'https://byline.example.com';
const signer = new Stripe('sk_test_signer');

let t: PaymentsTestApp;
let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  t = await createPaymentsTestApp({
    config: { PUBLIC_URL },
    provider: () =>
      stripeProvider({ secretKey: 'sk_test_byline', webhookSecret: SECRET, host: '127.0.0.1', port: stripe.port, protocol: 'http' }),
  });
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});
afterEach(() => {
  // the stand-in answers only the calls Byline is meant to make
  expect(stripe.unexpected).toEqual([]);
});

let eventSeq = 0;
function signedEvent(type: string, object: Record<string, unknown>, opts: { id?: string; secret?: string; timestamp?: number } = {}) {
  const payload = JSON.stringify({ id: opts.id ?? `evt_test_${++eventSeq}`, object: 'event', type, data: { object } });
  const header = signer.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? SECRET, timestamp: opts.timestamp });
  return { payload, header };
}

function deliver(payload: string | Buffer, header?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: { 'content-type': 'application/json; charset=utf-8', ...(header !== undefined ? { 'stripe-signature': header } : {}) },
    payload,
  });
}

async function claim(opts: { maxSlots?: number; priceUsd?: string } = {}) {
  const opp = await createOpportunity(t.db, { maxSlots: opts.maxSlots ?? 1, priceUsd: opts.priceUsd ?? '1250.50' });
  const [brand] = await quickBrands(t.app, t.db, 1);
  const res = await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id });
  expect(res.status).toBe(200);
  const [hold] = await checkoutsOf(t.db, opp.id);
  return { opp, brand, url: res.body.url as string, hold, sessionId: hold.providerSessionId! };
}

describe('a hold left without its Stripe session (the server stopped while creating it)', () => {
  /** A claim whose provider session was never recorded, made `ageMs` ago. */
  async function stranded(ageMs: number) {
    const c = await claim({ maxSlots: 2 });
    await t.db
      .update(checkouts)
      .set({ providerSessionId: null, url: null, createdAt: new Date(Date.now() - ageMs) })
      .where(eq(checkouts.id, c.hold.id));
    return c;
  }

  it('is resumed with the same idempotency key: the brand gets the session Stripe made, no second slot', async () => {
    const { opp, brand, url, hold } = await stranded(60_000);
    const before = stripe.calls.length;
    const res = await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(res.status).toBe(200);
    expect(res.body.url).toBe(url);
    const calls = stripe.calls.slice(before);
    expect(calls.map((c) => [c.path, c.idempotencyKey])).toEqual([['/v1/checkout/sessions', `checkout-${hold.id}`]]);
    const holds = await checkoutsOf(t.db, opp.id);
    expect(holds).toHaveLength(1);
    expect(holds[0]).toMatchObject({ id: hold.id, status: 'open', url });
    expect((await opportunityRow(t.db, opp.id)).filledSlots).toBe(1);
  });

  it('when Stripe refuses to resume it, the hold is closed, its slot given back, and a fresh checkout opens', async () => {
    const { opp, brand, hold } = await stranded(20 * 60_000);
    stripe.refuseNextCreate();
    const res = await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(res.status).toBe(200);
    const holds = await checkoutsOf(t.db, opp.id);
    expect(holds.map((h) => h.status).sort()).toEqual(['cancelled', 'open']);
    expect(holds.find((h) => h.id === hold.id)!.status).toBe('cancelled');
    const fresh = holds.find((h) => h.status === 'open')!;
    expect(res.body.url).toBe(fresh.url);
    expect((await opportunityRow(t.db, opp.id)).filledSlots).toBe(1);
  });

  it('a hold still being created a moment ago is not touched: the second request is told to try again', async () => {
    const { opp, brand, hold } = await stranded(0);
    const before = stripe.calls.length;
    const res = await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A checkout for this opportunity is already being prepared. Please try again.');
    expect(stripe.calls.length).toBe(before);
    expect((await checkoutsOf(t.db, opp.id)).map((h) => [h.id, h.status])).toEqual([[hold.id, 'open']]);
  });
});

describe('Stripe Checkout Session creation', () => {
  it('chooses Stripe only when both keys are configured', async () => {
    const base = configSchema.parse({ NODE_ENV: 'test' });
    expect((await paymentProviderFor(base, t.db)).name).toBe('test');
    expect((await paymentProviderFor({ ...base, STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: SECRET }, t.db)).name).toBe('stripe');
  });

  it('sends the server price in cents, usd, our payment id, metadata, a 30-minute expiry, return URLs and an idempotency key', async () => {
    const before = stripe.calls.length;
    const { opp, brand, url, hold } = await claim({ priceUsd: '1250.50' });
    const calls = stripe.calls.slice(before);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call.method).toBe('POST');
    expect(call.path).toBe('/v1/checkout/sessions');
    expect(call.idempotencyKey).toBe(`checkout-${hold.id}`);
    expect(call.form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '125050',
      'line_items[0][price_data][product_data][name]': `${opp.outletName}: ${opp.title}`,
      client_reference_id: hold.id,
      customer_email: brand.user.email,
      'metadata[paymentId]': hold.id,
      'metadata[opportunityId]': opp.id,
      'metadata[brandId]': brand.user.id,
      'payment_intent_data[metadata][paymentId]': hold.id,
      success_url: `${PUBLIC_URL}/brand/my-articles?checkout=success`,
      cancel_url: `${PUBLIC_URL}/brand/opportunities?checkout=cancelled`,
    });
    const expiresAt = Number(call.form.expires_at);
    expect(expiresAt).toBe(Math.floor(hold.expiresAt.getTime() / 1000));
    const minutes = (expiresAt * 1000 - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(30);
    expect(minutes).toBeLessThanOrEqual(31);
    expect(url).toBe(stripe.sessions.get(hold.providerSessionId!)!.url);

    // the built-in pay button does not exist with Stripe
    const pay = await brand.agent.post(`/api/payments/checkout/${hold.providerSessionId}/pay`);
    expect(pay.status).toBe(404);
  });

  it('a price the client sends is ignored: the amount is the server price', async () => {
    const opp = await createOpportunity(t.db, { priceUsd: '10.00' });
    const [brand] = await quickBrands(t.app, t.db, 1);
    const before = stripe.calls.length;
    await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id, amount: 1, priceUsd: '0.01' });
    expect(stripe.calls[before].form['line_items[0][price_data][unit_amount]']).toBe('1000');
  });

  it('cancel expires the Stripe session and gives the slot back', async () => {
    const { opp, brand, sessionId } = await claim();
    const res = await brand.agent.post(`/api/payments/checkout/${sessionId}/cancel`);
    expect(res.status).toBe(200);
    expect(stripe.calls.at(-1)).toMatchObject({ method: 'POST', path: `/v1/checkout/sessions/${sessionId}/expire` });
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 0, status: 'available' });
  });
});

describe('POST /api/webhooks/stripe', () => {
  it('checkout.session.completed ×10 plus async_payment_succeeded → one payment, one slot, session re-read from Stripe', async () => {
    const { opp, sessionId, hold, brand } = await claim({ maxSlots: 2 });
    const pi = stripe.pay(sessionId);
    // the event body lies about the amount and status: only the session id is used
    const event = signedEvent('checkout.session.completed', { id: sessionId, object: 'checkout.session', amount_total: 1, payment_status: 'paid' });
    const before = stripe.calls.length;
    const results = await Promise.all(Array.from({ length: 10 }, () => deliver(event.payload, event.header)));
    for (const r of results) expect(r.statusCode).toBe(200);
    const more = signedEvent('checkout.session.async_payment_succeeded', { id: sessionId });
    expect((await deliver(more.payload, more.header)).statusCode).toBe(200);

    const rows = await paymentsOf(t.db, opp.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: hold.id, brandId: brand.user.id, stripePaymentId: pi, amount: '1250.50', status: 'paid', providerSessionId: sessionId });
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'available' });
    const reads = stripe.calls.slice(before);
    expect(reads.length).toBeGreaterThanOrEqual(1);
    for (const c of reads) expect(c).toMatchObject({ method: 'GET', path: `/v1/checkout/sessions/${sessionId}` });
    expect(await t.db.$count(processedWebhookEvents, eq(processedWebhookEvents.id, JSON.parse(event.payload).id))).toBe(1);
  });

  it('out of order: an "expired" event for a session Stripe says is paid fulfils it; a later completed changes nothing', async () => {
    const { opp, sessionId } = await claim();
    stripe.pay(sessionId);
    const expired = signedEvent('checkout.session.expired', { id: sessionId });
    expect((await deliver(expired.payload, expired.header)).statusCode).toBe(200);
    const completed = signedEvent('checkout.session.completed', { id: sessionId });
    expect((await deliver(completed.payload, completed.header)).statusCode).toBe(200);
    expect(await paymentsOf(t.db, opp.id)).toHaveLength(1);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'full' });
  });

  it('checkout.session.expired gives the slot back; async_payment_failed cancels the hold', async () => {
    const a = await claim();
    stripe.sessions.get(a.sessionId)!.status = 'expired';
    const ev = signedEvent('checkout.session.expired', { id: a.sessionId });
    expect((await deliver(ev.payload, ev.header)).statusCode).toBe(200);
    expect((await checkoutsOf(t.db, a.opp.id))[0].status).toBe('expired');
    expect(await opportunityRow(t.db, a.opp.id)).toMatchObject({ filledSlots: 0, status: 'available' });

    const b = await claim();
    Object.assign(stripe.sessions.get(b.sessionId)!, { status: 'complete', payment_status: 'unpaid' });
    const pending = signedEvent('checkout.session.completed', { id: b.sessionId });
    expect((await deliver(pending.payload, pending.header)).statusCode).toBe(200);
    expect((await checkoutsOf(t.db, b.opp.id))[0].status).toBe('open');
    const failed = signedEvent('checkout.session.async_payment_failed', { id: b.sessionId });
    expect((await deliver(failed.payload, failed.header)).statusCode).toBe(200);
    expect((await checkoutsOf(t.db, b.opp.id))[0].status).toBe('cancelled');
    expect(await opportunityRow(t.db, b.opp.id)).toMatchObject({ filledSlots: 0, status: 'available' });
    expect(await paymentsOf(t.db, b.opp.id)).toHaveLength(0);
  });

  it('a late completion after expiry with no free slot is refunded through Stripe (idempotency key = payment id)', async () => {
    const { opp, sessionId, hold } = await claim();
    await t.db.update(checkouts).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(checkouts.id, hold.id));
    await expireCheckouts(t.db, new Date());
    await t.db.update(opportunities).set({ status: 'full', filledSlots: 1 }).where(eq(opportunities.id, opp.id));
    const pi = stripe.pay(sessionId);
    const before = stripe.calls.length;
    const ev = signedEvent('checkout.session.completed', { id: sessionId });
    await Promise.all([deliver(ev.payload, ev.header), deliver(ev.payload, ev.header)]);
    const [p] = await paymentsOf(t.db, opp.id);
    expect(p).toMatchObject({ status: 'refunded', refundReason: 'sold_out', stripePaymentId: pi });
    expect(p.providerRefundId).toMatch(/^re_test_/);
    const refundCalls = stripe.calls.slice(before).filter((c) => c.path === '/v1/refunds');
    expect(refundCalls.length).toBeGreaterThanOrEqual(1);
    for (const c of refundCalls) expect(c).toMatchObject({ method: 'POST', idempotencyKey: hold.id, form: { payment_intent: pi, amount: '125050' } });
    expect((await opportunityRow(t.db, opp.id)).filledSlots).toBe(1);
  });

  it('charge.refunded (refund made in the Stripe dashboard) marks the payment refunded after asking Stripe, slot given back', async () => {
    const { opp, sessionId } = await claim();
    const pi = stripe.pay(sessionId);
    const done = signedEvent('checkout.session.completed', { id: sessionId });
    await deliver(done.payload, done.header);
    // not refunded yet on Stripe's side: a charge.refunded claim alone changes nothing
    const early = signedEvent('charge.refunded', { id: `ch_${pi}`, object: 'charge', payment_intent: pi, refunded: true });
    await deliver(early.payload, early.header);
    expect((await paymentsOf(t.db, opp.id))[0].status).toBe('paid');

    stripe.refundOutside(pi);
    const before = stripe.calls.length;
    const ev = signedEvent('charge.refunded', { id: `ch_${pi}`, object: 'charge', payment_intent: pi });
    expect((await deliver(ev.payload, ev.header)).statusCode).toBe(200);
    expect((await paymentsOf(t.db, opp.id))[0]).toMatchObject({ status: 'refunded', refundReason: 'provider' });
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 0, status: 'available' });
    expect(stripe.calls.slice(before).map((c) => `${c.method} ${c.path}`)).toEqual([`GET /v1/payment_intents/${pi}`]);
  });

  it('an event for a session that is not ours is acknowledged and changes nothing', async () => {
    const ev = signedEvent('checkout.session.completed', { id: 'cs_test_not_ours' });
    const res = await deliver(ev.payload, ev.header);
    expect(res.statusCode).toBe(200);
  });

  it('admin refund goes through Stripe with the payment id as idempotency key', async () => {
    const { opp, sessionId } = await claim();
    const pi = stripe.pay(sessionId);
    const ev = signedEvent('checkout.session.completed', { id: sessionId });
    await deliver(ev.payload, ev.header);
    const [p] = await paymentsOf(t.db, opp.id);
    const admin = await signedIn(t.app, t.db, kinds.admin);
    const before = stripe.calls.length;
    const res = await admin.agent.post(`/api/admin/payments/${p.id}/refund`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: p.id, status: 'refunded', refundReason: 'admin' });
    expect(stripe.calls.slice(before)).toEqual([{ method: 'POST', path: '/v1/refunds', idempotencyKey: p.id, form: { payment_intent: pi, amount: '125050' } }]);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 0, status: 'available' });
  });

  it('1,000 tampered deliveries (flipped bytes, wrong secret, stale timestamp, missing or broken header) → all 400, nothing changed', async () => {
    const { opp, sessionId } = await claim();
    stripe.pay(sessionId);
    const snapshot = async () => ({
      payments: await t.db.$count(payments),
      events: await t.db.$count(processedWebhookEvents),
      holds: (await checkoutsOf(t.db, opp.id)).map((h) => h.status),
      opp: await opportunityRow(t.db, opp.id),
    });
    const before = await snapshot();
    const good = signedEvent('checkout.session.completed', { id: sessionId }, { id: 'evt_tamper_target' });

    const cases: { payload: string | Buffer; header?: string }[] = [];
    for (let i = 0; i < 1000; i++) {
      switch (i % 6) {
        case 0: {
          const buf = Buffer.from(good.payload);
          const at = i % buf.length;
          buf[at] = buf[at] ^ (1 + (i % 255));
          cases.push({ payload: buf, header: good.header });
          break;
        }
        case 1:
          cases.push(signedEvent('checkout.session.completed', { id: sessionId }, { secret: `whsec_wrong_${i}` }));
          break;
        case 2:
          cases.push(signedEvent('checkout.session.completed', { id: sessionId }, { timestamp: Math.floor(Date.now() / 1000) - 301 - i }));
          break;
        case 3:
          cases.push({ payload: good.payload });
          break;
        case 4: {
          // the signature itself altered by one character
          const sig = good.header.replace(/v1=([0-9a-f])/, (_m, c: string) => `v1=${c === 'a' ? 'b' : 'a'}`);
          cases.push({ payload: good.payload, header: sig });
          break;
        }
        default:
          cases.push({ payload: good.payload, header: ['', 'garbage', 't=1,v1=00', `t=${Date.now()}`][i % 4] });
      }
    }
    for (const c of cases) {
      const res = await deliver(c.payload, c.header);
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ message: 'Invalid webhook signature', code: 'invalid_webhook_signature' });
    }
    // no Origin, no cookie: webhooks are exempt from the Origin check but not from the signature
    expect(await snapshot()).toEqual(before);

    // the untampered delivery still works
    expect((await deliver(good.payload, good.header)).statusCode).toBe(200);
    expect(await paymentsOf(t.db, opp.id)).toHaveLength(1);
  });

  it('other routes keep the Origin check (the exemption is for /api/webhooks/ only)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/payments/checkout', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, payload: '{}' });
    expect(res.statusCode).toBe(403);
    expect(ORIGIN).toBeTruthy();
  });
});

describe('a cart’s order through Stripe (issue 46)', () => {
  it('one session with a line item per opportunity; the webhook twice books each placement once; a line refunds its own amount', async () => {
    const opps = await Promise.all([
      createOpportunity(t.db, { maxSlots: 2, priceUsd: '300.00', title: 'Cart one' }),
      createOpportunity(t.db, { maxSlots: 2, priceUsd: '450.50', title: 'Cart two' }),
    ]);
    const [brand] = await quickBrands(t.app, t.db, 1);
    for (const o of opps) expect((await brand.agent.put(`/api/cart/lines/${o.id}`)).status).toBe(200);
    const before = stripe.calls.length;
    const res = await brand.agent.post('/api/cart/checkout', {});
    expect(res.status).toBe(200);
    const create = stripe.calls.slice(before).find((c) => c.path === '/v1/checkout/sessions')!;
    expect(create.idempotencyKey).toBe(`order-${res.body.orderId}`);
    expect(create.form).toMatchObject({
      'line_items[0][price_data][unit_amount]': expect.stringMatching(/^(30000|45050)$/),
      'line_items[1][price_data][unit_amount]': expect.stringMatching(/^(30000|45050)$/),
      client_reference_id: res.body.orderId,
    });
    const sessionId = (res.body.url as string).split('/').pop()!;
    expect(stripe.sessions.get(sessionId)!.amount_total).toBe(75050);
    const pi = stripe.pay(sessionId);
    const ev = signedEvent('checkout.session.completed', { id: sessionId });
    await Promise.all([deliver(ev.payload, ev.header), deliver(ev.payload, ev.header)]);
    const again = signedEvent('checkout.session.completed', { id: sessionId });
    expect((await deliver(again.payload, again.header)).statusCode).toBe(200);
    const rows = (await Promise.all(opps.map((o) => paymentsOf(t.db, o.id)))).flat();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.stripePaymentId === pi && r.providerSessionId === sessionId && r.orderId === res.body.orderId)).toBe(true);

    const admin = await signedIn(t.app, t.db, kinds.admin);
    const line = rows.find((r) => r.amount === '450.50')!;
    const mark = stripe.calls.length;
    expect((await admin.agent.post(`/api/admin/payments/${line.id}/refund`)).status).toBe(200);
    expect(stripe.calls.slice(mark)).toEqual([{ method: 'POST', path: '/v1/refunds', idempotencyKey: line.id, form: { payment_intent: pi, amount: '45050' } }]);
    expect(stripe.refundedOf(pi)).toBe(45050);
    // Stripe's charge.refunded for that partial refund: the other line stays paid
    const refunded = signedEvent('charge.refunded', { id: `ch_${pi}`, object: 'charge', payment_intent: pi });
    expect((await deliver(refunded.payload, refunded.header)).statusCode).toBe(200);
    const after = (await Promise.all(opps.map((o) => paymentsOf(t.db, o.id)))).flat();
    expect(after.map((r) => [r.amount, r.status]).sort()).toEqual([
      ['300.00', 'paid'],
      ['450.50', 'refunded'],
    ]);
  });
});
