import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkouts, payments } from '../../src/server/db/schema';
import { placedPaymentRow } from '../support/placements';
import { expireCheckouts } from '../../src/server/modules/payments/slots';
import { fulfilCheckout } from '../../src/server/modules/payments/fulfil';
import type { RefundRequest } from '../../src/server/providers/provider';
import { CHECKOUT_HOLD_SECONDS } from '../../src/shared/payment';
import { Agent } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import {
  createOpportunity,
  createPaymentsTestApp,
  checkoutsOf,
  opportunityRow,
  paymentsOf,
  quickBrands,
  sessionIdOf,
  spyingLocalProvider,
  type PaymentsTestApp,
} from '../support/payments';

let t: PaymentsTestApp;
const refunds: RefundRequest[] = [];
beforeAll(async () => {
  t = await createPaymentsTestApp({ provider: spyingLocalProvider(refunds) });
});
afterAll(() => t.close());

const later = (ms: number) => new Date(Date.now() + ms);
const HOLD_MS = CHECKOUT_HOLD_SECONDS * 1000;

describe('POST /api/payments/checkout (built-in provider)', () => {
  it('reserves a slot, records the hold and answers the built-in checkout address', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 2, priceUsd: '1250.50' });
    const [{ agent, user }] = await quickBrands(t.app, t.db, 1);
    const res = await agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: expect.stringMatching(/^\/checkout\/cs_local_[0-9a-f]{32}$/) });

    const [hold] = await checkoutsOf(t.db, opp.id);
    expect(hold).toMatchObject({ brandId: user.id, status: 'open', amount: '1250.50', url: res.body.url, providerSessionId: sessionIdOf(res.body.url) });
    const holdMs = hold.expiresAt.getTime() - hold.createdAt.getTime();
    expect(holdMs).toBe(HOLD_MS);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'available' });

    const view = await agent.get(`/api/payments/checkout/${sessionIdOf(res.body.url)}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      sessionId: sessionIdOf(res.body.url),
      paymentId: hold.id,
      status: 'open',
      amount: '1250.50',
      title: opp.title,
      outletName: opp.outletName,
      opportunityId: opp.id,
    });
  });

  it('gives the same checkout back to a brand that claims again (no second hold)', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 3 });
    const [{ agent }] = await quickBrands(t.app, t.db, 1);
    const first = await agent.post('/api/payments/checkout', { opportunityId: opp.id });
    const again = await Promise.all([1, 2, 3].map(() => agent.post('/api/payments/checkout', { opportunityId: opp.id })));
    for (const r of again) expect(r.body).toEqual(first.body);
    expect(await checkoutsOf(t.db, opp.id)).toHaveLength(1);
    expect((await opportunityRow(t.db, opp.id)).filledSlots).toBe(1);
  });

  it('10 simultaneous clicks by one brand → one hold, one slot, the same address for all', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 5 });
    const [{ agent }] = await quickBrands(t.app, t.db, 1);
    const results = await Promise.all(Array.from({ length: 10 }, () => agent.post('/api/payments/checkout', { opportunityId: opp.id })));
    for (const r of results) expect(r.status).toBe(200);
    expect(new Set(results.map((r) => r.body.url)).size).toBe(1);
    expect(await checkoutsOf(t.db, opp.id)).toHaveLength(1);
    expect((await opportunityRow(t.db, opp.id)).filledSlots).toBe(1);
  });

  it('takes the last slot and marks the opportunity full; the next brand gets 409 "This opportunity is sold out"', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 1 });
    const [a, b] = await quickBrands(t.app, t.db, 2);
    expect((await a.agent.post('/api/payments/checkout', { opportunityId: opp.id })).status).toBe(200);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'full' });
    const res = await b.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'This opportunity is sold out', code: 'opportunity_sold_out' });
    expect(await checkoutsOf(t.db, opp.id)).toHaveLength(1);
  });

  it.each([
    [{ status: 'published' as const }, 'This opportunity is no longer available'],
    [{ status: 'in_progress' as const }, 'This opportunity is no longer available'],
    [{ deadlineDate: new Date(Date.now() - 2 * 86_400_000) }, 'The deadline to purchase this opportunity has passed'],
    [{ maxSlots: 2, filledSlots: 2 }, 'This opportunity is sold out'],
  ])('refuses %j with 409 and a message a person understands, changing nothing', async (overrides, message) => {
    const opp = await createOpportunity(t.db, overrides);
    const [{ agent }] = await quickBrands(t.app, t.db, 1);
    const res = await agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(message);
    expect(await checkoutsOf(t.db, opp.id)).toHaveLength(0);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: opp.filledSlots, status: opp.status });
  });

  it('accepts a claim on the deadline day itself (UTC)', async () => {
    const today = new Date();
    today.setUTCHours(0, 0, 0, 0);
    const opp = await createOpportunity(t.db, { deadlineDate: today });
    const [{ agent }] = await quickBrands(t.app, t.db, 1);
    expect((await agent.post('/api/payments/checkout', { opportunityId: opp.id })).status).toBe(200);
  });

  it('answers 404 for an unknown opportunity and 400 for a malformed body', async () => {
    const [{ agent }] = await quickBrands(t.app, t.db, 1);
    const missing = await agent.post('/api/payments/checkout', { opportunityId: '00000000-0000-4000-8000-000000000000' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Opportunity not found');
    for (const body of [{}, { opportunityId: 'nope' }, { opportunityId: 42 }]) {
      const res = await agent.post('/api/payments/checkout', body);
      expect(res.status).toBe(400);
      expect(res.body.errors.opportunityId).toBeTruthy();
    }
  });

  it('[PERMISSIONS] only approved brands can claim: visitor 401, admin 403, pending brand 403', async () => {
    const opp = await createOpportunity(t.db);
    const visitor = await new Agent(t.app).post('/api/payments/checkout', { opportunityId: opp.id });
    expect(visitor.status).toBe(401);
    const admin = await signedIn(t.app, t.db, kinds.admin);
    expect((await admin.agent.post('/api/payments/checkout', { opportunityId: opp.id })).status).toBe(403);
    const [pending] = await quickBrands(t.app, t.db, 1, { approved: false });
    expect((await pending.agent.post('/api/payments/checkout', { opportunityId: opp.id })).status).toBe(403);
    expect(await checkoutsOf(t.db, opp.id)).toHaveLength(0);
  });
});

describe('concurrency: never oversell', () => {
  it('50 brands claiming the last slot at the same moment → exactly one hold', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 3, filledSlots: 2 });
    const brands = await quickBrands(t.app, t.db, 50);
    const results = await Promise.all(brands.map((b) => b.agent.post('/api/payments/checkout', { opportunityId: opp.id })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(49);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.message).toBe('This opportunity is sold out');
    expect(await checkoutsOf(t.db, opp.id)).toHaveLength(1);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 3, status: 'full' });
  });

  it('200 claims on 50 slots → exactly 50 holds', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 50 });
    const brands = await quickBrands(t.app, t.db, 200);
    const results = await Promise.all(brands.map((b) => b.agent.post('/api/payments/checkout', { opportunityId: opp.id })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(50);
    expect(results.filter((r) => r.status === 409)).toHaveLength(150);
    const holds = await checkoutsOf(t.db, opp.id);
    expect(holds).toHaveLength(50);
    expect(new Set(holds.map((h) => h.brandId)).size).toBe(50);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 50, status: 'full' });
  });
});

describe('expiry and cancel give the slot back', () => {
  it('expireCheckouts closes holds past their time only, and full → available', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 2 });
    const [a, b] = await quickBrands(t.app, t.db, 2);
    await a.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    await b.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 2, status: 'full' });

    await expireCheckouts(t.db, later(HOLD_MS - 60_000));
    expect((await opportunityRow(t.db, opp.id)).filledSlots).toBe(2);

    await expireCheckouts(t.db, later(HOLD_MS + 1000));
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 0, status: 'available' });
    expect((await checkoutsOf(t.db, opp.id)).map((h) => h.status)).toEqual(['expired', 'expired']);
    // a rerun changes nothing
    await expireCheckouts(t.db, later(HOLD_MS + 2000));
    expect((await opportunityRow(t.db, opp.id)).filledSlots).toBe(0);
  });

  it('cancel on the built-in checkout gives the slot back at once; the brand can claim again', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 1 });
    const [{ agent }, other] = await quickBrands(t.app, t.db, 2);
    const { body } = await agent.post('/api/payments/checkout', { opportunityId: opp.id });
    const sid = sessionIdOf(body.url);

    // another brand cannot see or cancel it
    expect((await other.agent.get(`/api/payments/checkout/${sid}`)).status).toBe(404);
    expect((await other.agent.post(`/api/payments/checkout/${sid}/cancel`)).status).toBe(404);
    expect((await opportunityRow(t.db, opp.id)).status).toBe('full');

    const res = await agent.post(`/api/payments/checkout/${sid}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: '/brand/opportunities?checkout=cancelled' });
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 0, status: 'available' });
    expect((await checkoutsOf(t.db, opp.id))[0].status).toBe('cancelled');
    // cancelling twice is harmless; paying a cancelled checkout is refused
    expect((await agent.post(`/api/payments/checkout/${sid}/cancel`)).status).toBe(200);
    const pay = await agent.post(`/api/payments/checkout/${sid}/pay`);
    expect(pay.status).toBe(409);
    expect(pay.body.message).toBe('This checkout was cancelled');
    expect((await opportunityRow(t.db, opp.id)).filledSlots).toBe(0);

    const again = await agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(again.status).toBe(200);
    expect(again.body.url).not.toBe(body.url);
  });

  it('a brand whose own hold timed out (not yet swept) gets a fresh checkout', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 1 });
    const [{ agent }] = await quickBrands(t.app, t.db, 1);
    const first = await agent.post('/api/payments/checkout', { opportunityId: opp.id });
    await t.db.update(checkouts).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(checkouts.opportunityId, opp.id));
    const second = await agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(second.status).toBe(200);
    expect(second.body.url).not.toBe(first.body.url);
    expect((await checkoutsOf(t.db, opp.id)).map((h) => h.status).sort()).toEqual(['expired', 'open']);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'full' });
  });
});

describe('paying on the built-in checkout', () => {
  it('turns the hold into a paid payment; ×10 double clicks and fulfilment reruns → one payment', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 1, priceUsd: '99.99' });
    const [{ agent, user }] = await quickBrands(t.app, t.db, 1);
    const { body } = await agent.post('/api/payments/checkout', { opportunityId: opp.id });
    const sid = sessionIdOf(body.url);
    const pays = await Promise.all(Array.from({ length: 10 }, () => agent.post(`/api/payments/checkout/${sid}/pay`)));
    for (const p of pays) {
      expect(p.status).toBe(200);
      expect(p.body).toMatchObject({ url: '/brand/my-articles?checkout=success', status: 'paid' });
    }
    for (let i = 0; i < 10; i++) await fulfilCheckout(t.db, t.provider, sid);

    const rows = await paymentsOf(t.db, opp.id);
    expect(rows).toHaveLength(1);
    const [hold] = await checkoutsOf(t.db, opp.id);
    expect(rows[0]).toMatchObject({
      id: hold.id,
      brandId: user.id,
      amount: '99.99',
      status: 'paid',
      providerSessionId: sid,
      holdsSlot: true,
    });
    // and the placement it paid for, with its id, waiting for the brief
    expect(await placedPaymentRow(t.db, hold.id)).toMatchObject({ state: 'in_progress', draftReviewStatus: 'awaiting_brand_brief' });
    expect(rows[0].stripePaymentId).toMatch(/^pi_local_[0-9a-f]{24}$/);
    expect(hold.status).toBe('completed');
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'full' });
    expect((await agent.get(`/api/payments/checkout/${sid}`)).body.status).toBe('completed');
    const cancel = await agent.post(`/api/payments/checkout/${sid}/cancel`);
    expect(cancel.status).toBe(409);
    expect(cancel.body.message).toBe('This checkout has already been paid');

    // the sweep never touches a paid hold
    await expireCheckouts(t.db, later(HOLD_MS * 2));
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'full' });
  });

  it('refuses to pay an expired checkout', async () => {
    const opp = await createOpportunity(t.db);
    const [{ agent }] = await quickBrands(t.app, t.db, 1);
    const { body } = await agent.post('/api/payments/checkout', { opportunityId: opp.id });
    await t.db.update(checkouts).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(checkouts.opportunityId, opp.id));
    const res = await agent.post(`/api/payments/checkout/${sessionIdOf(body.url)}/pay`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This checkout has expired. Please claim the opportunity again.');
    expect(await paymentsOf(t.db, opp.id)).toHaveLength(0);
  });

  it('late completion after expiry takes a free slot when there is one (no refund)', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 2 });
    const [{ agent }] = await quickBrands(t.app, t.db, 1);
    const { body } = await agent.post('/api/payments/checkout', { opportunityId: opp.id });
    const sid = sessionIdOf(body.url);
    // the hold ran out and the sweep gave its slot back...
    await t.db.update(checkouts).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(checkouts.providerSessionId, sid));
    await expireCheckouts(t.db, new Date());
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 0, status: 'available' });
    // ...but the provider reports the card charged after all
    await t.db.update(checkouts).set({ testProviderRef: 'pi_local_late_free_slot_0001' }).where(eq(checkouts.providerSessionId, sid));

    const before = refunds.length;
    const out = await fulfilCheckout(t.db, t.provider, sid);
    expect(out.outcome).toBe('paid');
    expect(refunds.length).toBe(before);
    const [p] = await paymentsOf(t.db, opp.id);
    expect(p).toMatchObject({ status: 'paid', holdsSlot: true, stripePaymentId: 'pi_local_late_free_slot_0001' });
    expect((await opportunityRow(t.db, opp.id)).filledSlots).toBe(1);
  });

  it('late completion when sold out meanwhile → refunded in full automatically (sold_out), exactly once', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 1 });
    const [late, winner] = await quickBrands(t.app, t.db, 2);
    const { body } = await late.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    const sid = sessionIdOf(body.url);
    await t.db.update(checkouts).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(checkouts.providerSessionId, sid));
    await expireCheckouts(t.db, new Date());
    // another brand takes the freed slot and pays
    const w = await winner.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect((await winner.agent.post(`/api/payments/checkout/${sessionIdOf(w.body.url)}/pay`)).status).toBe(200);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'full' });
    // the first brand's card was charged after all (the provider reports the session paid)
    await t.db.update(checkouts).set({ testProviderRef: 'pi_local_sold_out_000000001' }).where(eq(checkouts.providerSessionId, sid));

    const before = refunds.length;
    const outs = await Promise.all(Array.from({ length: 5 }, () => fulfilCheckout(t.db, t.provider, sid)));
    expect(outs.every((o) => o.outcome === 'refunded')).toBe(true);
    const mine = (await paymentsOf(t.db, opp.id)).filter((p) => p.brandId === late.user.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: 'refunded', refundReason: 'sold_out', holdsSlot: false });
    const calls = refunds.slice(before);
    expect(calls.length).toBeGreaterThanOrEqual(1);
    // every call is the same refund: same payment, full amount, idempotency key = payment id
    for (const c of calls) expect(c).toEqual({ providerRef: 'pi_local_sold_out_000000001', amountCents: 125000, idempotencyKey: mine[0].id });
    // the winner's slot is untouched
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'full' });
    const history = await late.agent.get('/api/brand/payments');
    expect(history.body.map((p: { status: string }) => p.status)).toEqual(['refunded']);
    expect(await t.db.$count(payments, eq(payments.brandId, late.user.id))).toBe(1);
  });
});
