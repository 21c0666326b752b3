/**
 * What a new agency team met (issue 57, "Minor"): saving is not buying (a reviewer saves, a viewer
 * does not); "Ask for approval" asked twice is refused (409) and the cart says it was asked; the
 * cart's budget counts the chosen client's cap; "Order again" keeps the order's client and
 * options; an order says its next step (briefs to write) and its open disputes.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disputes, payments, purchaseRequests } from '../../src/server/db/schema';
import { createTestApp, type Res, type TestApp } from '../support/app';
import { submittedBrief } from '../support/content';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, sessionIdOf } from '../support/payments';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LIMIT_CHECKOUTS: { max: 1000, windowMs: 3_600_000 } });
});
afterAll(() => t.close());

type Signed = Awaited<ReturnType<typeof signedIn>>;
const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

/** An owner and members of its organisation with the given roles. */
async function team<R extends 'admin' | 'buyer' | 'reviewer' | 'viewer'>(...roles: R[]) {
  const owner = await signedIn(t.app, t.db, kinds.approvedBrand);
  const organisationId = owner.user.organisationId!;
  const members = {} as Record<R, Signed>;
  for (const role of roles) {
    members[role] = await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: `The ${role}`, organisationId, orgRole: role });
  }
  return { owner, organisationId, members };
}

describe('the shortlist', () => {
  it('a reviewer saves and unsaves (saving is not buying); a viewer may not; neither may buy', async () => {
    const { owner, members } = await team('reviewer', 'viewer');
    const opp = await createOpportunity(t.db);
    expect((await members.reviewer.agent.put(`/api/brand/saved/${opp.id}`)).status).toBe(204);
    expect((await owner.agent.get('/api/brand/saved')).text).toContain(opp.id);
    const viewer = await members.viewer.agent.put(`/api/brand/saved/${opp.id}`);
    expect(viewer.status).toBe(403);
    expect(viewer.body.message).toBe('Your role in this organisation is read only');
    expect((await members.viewer.agent.request('DELETE', `/api/brand/saved/${opp.id}`)).status).toBe(403);
    expect((await owner.agent.get('/api/brand/saved')).text).toContain(opp.id);
    expect((await members.reviewer.agent.request('DELETE', `/api/brand/saved/${opp.id}`)).status).toBe(204);
    expect((await owner.agent.get('/api/brand/saved')).text).not.toContain(opp.id);
    expect((await members.reviewer.agent.put(`/api/cart/lines/${opp.id}`)).status).toBe(403);
  });
});

describe('asking for approval', () => {
  it('a cart asked for once: the cart says so, asking again is 409 and writes nothing; a changed cart asks anew', async () => {
    const { owner, members } = await team('buyer');
    const { buyer } = members;
    ok(await owner.agent.put(`/api/org/members/${buyer.user.id}/limits`, { monthlyCapUsd: null, approvalThresholdUsd: '100' }), 'limits');
    const a = await createOpportunity(t.db, { priceUsd: '150.00', maxSlots: 3 });
    const b = await createOpportunity(t.db, { priceUsd: '75.00', maxSlots: 3 });
    ok(await buyer.agent.put(`/api/cart/lines/${a.id}`), 'add');
    expect(ok(await buyer.agent.get('/api/cart'), 'cart')).toMatchObject({ needsApproval: true, approvalRequested: null });
    const first = await buyer.agent.post('/api/cart/checkout', {});
    expect(first.status).toBe(202);
    const cart = ok(await buyer.agent.get('/api/cart'), 'cart');
    expect(cart.approvalRequested).toMatchObject({ id: first.body.purchaseRequest.id });

    const again = await buyer.agent.post('/api/cart/checkout', {});
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('You already asked for approval of this cart: an owner or admin answers it in Purchase requests.');
    // two at once: one request in all
    const raced = await Promise.all([buyer.agent.post('/api/cart/checkout', {}), buyer.agent.post('/api/cart/checkout', {})]);
    expect(raced.map((r) => r.status)).toEqual([409, 409]);
    expect(await t.db.$count(purchaseRequests, eq(purchaseRequests.requestedBy, buyer.user.id))).toBe(1);

    // another cart is another purchase
    ok(await buyer.agent.put(`/api/cart/lines/${b.id}`), 'add');
    expect(ok(await buyer.agent.get('/api/cart'), 'cart').approvalRequested).toBeNull();
    expect((await buyer.agent.post('/api/cart/checkout', {})).status).toBe(202);

    // one opportunity's request too, through the single checkout
    const single = await buyer.agent.post('/api/payments/checkout', { opportunityId: a.id });
    expect(single.status).toBe(202);
    const twice = await buyer.agent.post('/api/payments/checkout', { opportunityId: a.id });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('You already asked for approval of this purchase: an owner or admin answers it in Purchase requests.');
    // declined, it may be asked again
    ok(await owner.agent.post(`/api/org/purchase-requests/${single.body.purchaseRequest.id}/decline`, { reason: 'Not now' }), 'decline');
    expect((await buyer.agent.post('/api/payments/checkout', { opportunityId: a.id })).status).toBe(202);
  });
});

describe('the cart’s budget', () => {
  it('for each capped client: the lowest of its cap, the organisation’s and the member’s left', async () => {
    const { owner } = await team();
    const acme = ok(await owner.agent.post('/api/org/clients', { name: 'Acme Foods' }), 'client');
    const bolt = ok(await owner.agent.post('/api/org/clients', { name: 'Bolt Bikes' }), 'client');
    ok(await owner.agent.patch(`/api/org/clients/${acme.id}`, { monthlyCapUsd: '300' }), 'cap');
    ok(await owner.agent.put('/api/org/budget', { monthlyCapUsd: '5000' }), 'budget');
    const opp = await createOpportunity(t.db, { priceUsd: '120.00', maxSlots: 5 });
    // 120 spent for Acme this month
    const bought = ok(await owner.agent.post('/api/payments/checkout', { opportunityId: opp.id, clientId: acme.id }), 'checkout');
    ok(await owner.agent.post(`/api/payments/checkout/${sessionIdOf(bought.url)}/pay`), 'pay');
    ok(await owner.agent.put(`/api/cart/lines/${opp.id}`), 'add');
    const cart = ok(await owner.agent.get('/api/cart'), 'cart');
    expect(cart.budgetLeftUsd).toBe('4880.00');
    expect(cart.clientBudgetLeftUsd).toEqual({ [acme.id]: '180.00' });
    expect(cart.clientBudgetLeftUsd).not.toHaveProperty(bolt.id);
    // the organisation's cap, lower than the client's: that one
    ok(await owner.agent.put('/api/org/budget', { monthlyCapUsd: '200' }), 'budget');
    expect(ok(await owner.agent.get('/api/cart'), 'cart').clientBudgetLeftUsd).toEqual({ [acme.id]: '80.00' });
  });
});

describe('orders', () => {
  it('order again keeps the client and options; the order says its briefs to write and its open disputes', async () => {
    const { owner } = await team();
    const acme = ok(await owner.agent.post('/api/org/clients', { name: 'Acme Foods' }), 'client');
    const opps = [
      await createOpportunity(t.db, { priceUsd: '100.00', maxSlots: 5, outletName: 'A Outlet' }),
      await createOpportunity(t.db, { priceUsd: '110.00', maxSlots: 5, outletName: 'B Outlet' }),
      await createOpportunity(t.db, { priceUsd: '120.00', maxSlots: 5, outletName: 'C Outlet' }),
    ];
    for (const o of opps) ok(await owner.agent.put(`/api/cart/lines/${o.id}`), 'add');
    const started = ok(await owner.agent.post('/api/cart/checkout', { clientId: acme.id, autoSwap: true }), 'checkout');
    ok(await owner.agent.post(`/api/payments/checkout/${sessionIdOf(started.url)}/pay`), 'pay');
    let order = ok(await owner.agent.get(`/api/brand/orders/${started.orderId}`), 'order');
    expect(order).toMatchObject({ briefsToWrite: 3, openDisputes: 0 });
    expect(order.lines.every((l: { briefSubmitted: boolean; disputeOpen: boolean }) => !l.briefSubmitted && !l.disputeOpen)).toBe(true);

    // one brief in, one line disputed
    const rows = await t.db.select().from(payments).where(eq(payments.orderId, started.orderId));
    const [first, second] = rows.sort((x, y) => Number(x.amount) - Number(y.amount));
    await submittedBrief(t.db, { id: first.id, brandId: first.brandId, organisationId: first.organisationId!, opportunityId: first.opportunityId });
    await t.db.insert(disputes).values({ placementId: second.id, kind: 'content', reason: 'not_as_briefed', asked: 'correction', text: 'Wrong product' });
    order = ok(await owner.agent.get(`/api/brand/orders/${started.orderId}`), 'order');
    expect(order).toMatchObject({ briefsToWrite: 2, openDisputes: 1 });
    expect(order.lines.find((l: { paymentId: string }) => l.paymentId === first.id).briefSubmitted).toBe(true);
    expect(order.lines.find((l: { paymentId: string }) => l.paymentId === second.id).disputeOpen).toBe(true);
    const listed = ok(await owner.agent.get('/api/brand/orders'), 'orders').find((o: { id: string }) => o.id === started.orderId);
    expect(listed.openDisputes).toBe(1);

    // order again: the lines back, with the order's client and options
    const again = ok(await owner.agent.post(`/api/brand/orders/${started.orderId}/reorder`), 'reorder');
    expect(again.lines).toHaveLength(3);
    expect(again.reorder).toEqual({ clientId: acme.id, autoSwap: true });
  });
});
