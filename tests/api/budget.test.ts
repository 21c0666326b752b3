/**
 * Budgets and purchase approval (issue 45, decision 034): this month's spend against the
 * organisation's and the member's caps (open checkouts counted), the refusal over a cap naming it
 * and what is left, 50 concurrent checkouts at the cap of which only what fits passes, and purchase
 * requests above a buyer's threshold: approved or declined by someone else, paid once, expiring.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkouts, mailOutbox, organisations, purchaseRequests, users } from '../../src/server/db/schema';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, sessionIdOf } from '../support/payments';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LIMIT_CHECKOUTS: { max: 1000, windowMs: 3_600_000 } });
});
afterAll(() => t.close());

type Signed = Awaited<ReturnType<typeof signedIn>>;

/** An owner, and members of its organisation with the given roles. */
async function team(...roles: ('admin' | 'buyer')[]) {
  const owner = await signedIn(t.app, t.db, kinds.approvedBrand);
  const orgId = owner.user.organisationId!;
  const members: Signed[] = [];
  for (const [i, role] of roles.entries()) {
    members.push(await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: `Member ${i}`, organisationId: orgId, orgRole: role }));
  }
  return { owner, orgId, members };
}

const buy = async (agent: Agent, opportunityId: string, purchaseRequestId?: string) =>
  agent.post('/api/payments/checkout', { opportunityId, ...(purchaseRequestId ? { purchaseRequestId } : {}) });
const pay = async (agent: Agent, url: string) => (await agent.post(`/api/payments/checkout/${sessionIdOf(url)}/pay`)).body.paymentId as string;

describe('budgets', () => {
  it('spend counts this month’s payments and open checkouts; over the cap is 422 naming the cap and what is left', async () => {
    const { owner, members } = await team('buyer');
    const [buyer] = members;
    const a = await createOpportunity(t.db, { priceUsd: '1250.00' });
    const b = await createOpportunity(t.db, { priceUsd: '1250.00' });
    const c = await createOpportunity(t.db, { priceUsd: '1250.00' });
    expect((await owner.agent.put('/api/org/budget', { monthlyCapUsd: '3000' })).body).toMatchObject({ capUsd: '3000.00', leftUsd: '3000.00' });

    await pay(buyer.agent, (await buy(buyer.agent, a.id)).body.url);
    expect((await buy(owner.agent, b.id)).status).toBe(200); // open, not paid
    const spend = (await buyer.agent.get('/api/org/spend')).body;
    expect(spend).toMatchObject({ spentUsd: '1250.00', openUsd: '1250.00', capUsd: '3000.00', leftUsd: '500.00' });
    expect(spend.month).toBe(new Date().toISOString().slice(0, 7));
    expect(spend.member).toMatchObject({ spentUsd: '1250.00', openUsd: '0.00', capUsd: null, leftUsd: null });

    const over = await buy(buyer.agent, c.id);
    expect(over.status).toBe(422);
    expect(over.body.message).toBe('This purchase of $1,250.00 is over your organisation’s monthly budget of $3,000.00: $500.00 is left this month.');
    // nothing was held
    expect(await t.db.$count(checkouts, and(eq(checkouts.opportunityId, c.id), eq(checkouts.status, 'open')))).toBe(0);

    // no cap, no limit
    expect((await owner.agent.put('/api/org/budget', { monthlyCapUsd: null })).body.leftUsd).toBeNull();
    expect((await buy(buyer.agent, c.id)).status).toBe(200);
    expect((await owner.agent.put('/api/org/budget', { monthlyCapUsd: '-5' })).status).toBe(400);
    expect((await buyer.agent.put('/api/org/budget', { monthlyCapUsd: '10' })).status).toBe(403);
  });

  it('a member’s own cap applies within the organisation’s', async () => {
    const { owner, members } = await team('buyer');
    const [buyer] = members;
    const opp = await createOpportunity(t.db, { priceUsd: '400.00' });
    expect((await owner.agent.put(`/api/org/members/${buyer.user.id}/limits`, { monthlyCapUsd: '300', approvalThresholdUsd: null })).status).toBe(204);
    const res = await buy(buyer.agent, opp.id);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('This purchase of $400.00 is over your own monthly budget of $300.00: $300.00 is left this month.');
    // the owner has no cap of its own
    expect((await buy(owner.agent, opp.id)).status).toBe(200);
    const listed = (await owner.agent.get('/api/org/members')).body.find((m: { id: string }) => m.id === buyer.user.id);
    expect(listed).toMatchObject({ monthlyCapUsd: '300.00', approvalThresholdUsd: null });
  });

  it('50 concurrent checkouts at the edge of the cap: exactly what fits passes', async () => {
    const { owner, orgId, members } = await team('buyer', 'buyer', 'buyer', 'buyer', 'buyer', 'buyer', 'buyer', 'buyer', 'buyer', 'buyer');
    await t.db.update(organisations).set({ monthlyCapUsd: '500.00' }).where(eq(organisations.id, orgId));
    const opps = [];
    for (let i = 0; i < 50; i++) opps.push(await createOpportunity(t.db, { priceUsd: '100.00', maxSlots: 1 }));
    const results = await Promise.all(opps.map((o, i) => buy(members[i % 10].agent, o.id)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 422)).toHaveLength(45);
    expect((await owner.agent.get('/api/org/spend')).body).toMatchObject({ openUsd: '500.00', leftUsd: '0.00' });
  });
});

describe('purchase approval', () => {
  it('over the threshold: a request (202), approvers told, approved by another, paid once', async () => {
    const { owner, members } = await team('buyer', 'admin');
    const [buyer, admin] = members;
    const opp = await createOpportunity(t.db, { priceUsd: '1250.00', maxSlots: 3 });
    await owner.agent.put(`/api/org/members/${buyer.user.id}/limits`, { monthlyCapUsd: null, approvalThresholdUsd: '1000' });

    const asked = await buy(buyer.agent, opp.id);
    expect(asked.status).toBe(202);
    expect(asked.body.purchaseRequest).toMatchObject({ status: 'pending', opportunityId: opp.id, amountUsd: '1250.00' });
    const id = asked.body.purchaseRequest.id as string;
    // no slot held while it waits
    expect(await t.db.$count(checkouts, eq(checkouts.opportunityId, opp.id))).toBe(0);
    // the owner and the admin are told
    const told = await t.db.select({ to: mailOutbox.toAddress }).from(mailOutbox).where(eq(mailOutbox.kind, 'purchase_request'));
    expect(told.map((m) => m.to)).toEqual(expect.arrayContaining([owner.user.email, admin.user.email]));

    // the buyer sees its own request; paying before approval is refused
    expect((await buyer.agent.get('/api/org/purchase-requests')).body.map((r: { id: string }) => r.id)).toEqual([id]);
    const early = await buy(buyer.agent, opp.id, id);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('This purchase is still waiting for approval');

    // over the budget, a purchase is refused at once rather than sent for approval
    const expensive = await createOpportunity(t.db, { priceUsd: '9000.00' });
    await owner.agent.put('/api/org/budget', { monthlyCapUsd: '5000' });
    const refused = await buy(buyer.agent, expensive.id);
    expect(refused.status).toBe(422);
    expect(await t.db.$count(purchaseRequests, eq(purchaseRequests.opportunityId, expensive.id))).toBe(0);

    const approved = await admin.agent.post(`/api/org/purchase-requests/${id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', decidedBy: { id: admin.user.id } });
    expect((await owner.agent.post(`/api/org/purchase-requests/${id}/approve`)).status).toBe(409);

    const checkout = await buy(buyer.agent, opp.id, id);
    expect(checkout.status).toBe(200);
    await pay(buyer.agent, checkout.body.url);
    expect((await owner.agent.get('/api/org/purchase-requests?status=paid')).body[0]).toMatchObject({ id, status: 'paid' });
    const again = await buy(buyer.agent, opp.id, id);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This approved purchase has already been paid');
    const actions = (await owner.agent.get('/api/org/audit?limit=10')).body.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['purchase_requested', 'purchase_approved', 'paid']));
  });

  it('only its requester pays an approved request: another member naming it, at a checkout or a cart’s, gets 404 and holds nothing', async () => {
    const { owner, members } = await team('buyer', 'buyer', 'admin');
    const [asker, other, admin] = members;
    for (const b of [asker, other]) await owner.agent.put(`/api/org/members/${b.user.id}/limits`, { monthlyCapUsd: null, approvalThresholdUsd: '1000' });
    const opp = await createOpportunity(t.db, { priceUsd: '1250.00', maxSlots: 3 });
    const single = (await buy(asker.agent, opp.id)).body.purchaseRequest.id as string;
    const cartOpp = await createOpportunity(t.db, { priceUsd: '1100.00', maxSlots: 3 });
    expect((await asker.agent.put(`/api/cart/lines/${cartOpp.id}`)).status).toBe(200);
    const cart = await asker.agent.post('/api/cart/checkout', {});
    expect(cart.status).toBe(202);
    const cartRequest = cart.body.purchaseRequest.id as string;
    for (const id of [single, cartRequest]) expect((await admin.agent.post(`/api/org/purchase-requests/${id}/approve`)).status).toBe(200);

    // the other buyer, and the owner, name them with exactly what was approved
    expect((await other.agent.put(`/api/cart/lines/${cartOpp.id}`)).status).toBe(200);
    expect((await owner.agent.put(`/api/cart/lines/${cartOpp.id}`)).status).toBe(200);
    for (const who of [other, owner]) {
      const one = await buy(who.agent, opp.id, single);
      expect(one.status).toBe(404);
      expect(one.body.message).toBe('Purchase request not found');
      const order = await who.agent.post('/api/cart/checkout', { purchaseRequestId: cartRequest });
      expect(order.status).toBe(404);
      expect(order.body.message).toBe('Purchase request not found');
    }
    expect(await t.db.$count(checkouts, sql`${checkouts.opportunityId} IN (${opp.id}, ${cartOpp.id})`)).toBe(0);
    expect((await owner.agent.get('/api/org/purchase-requests?status=approved')).body.map((r: { id: string }) => r.id).sort()).toEqual([single, cartRequest].sort());
    // its requester pays each
    expect((await buy(asker.agent, opp.id, single)).status).toBe(200);
    expect((await asker.agent.post('/api/cart/checkout', { purchaseRequestId: cartRequest })).status).toBe(200);
  });

  it('nobody decides their own request; a decline needs a reason and tells the requester; a pending request expires', async () => {
    const { owner, members } = await team('admin', 'buyer');
    const [admin, buyer] = members;
    const opp = await createOpportunity(t.db, { priceUsd: '800.00', maxSlots: 3 });
    await owner.agent.put(`/api/org/members/${admin.user.id}/limits`, { monthlyCapUsd: null, approvalThresholdUsd: '500' });
    const mine = (await buy(admin.agent, opp.id)).body.purchaseRequest.id as string;
    const own = await admin.agent.post(`/api/org/purchase-requests/${mine}/approve`);
    expect(own.status).toBe(403);
    expect(own.body.message).toBe('You cannot decide your own purchase request');
    // a buyer cannot decide at all
    expect((await buyer.agent.post(`/api/org/purchase-requests/${mine}/approve`)).status).toBe(403);

    expect((await owner.agent.post(`/api/org/purchase-requests/${mine}/decline`, { reason: '' })).body.errors).toHaveProperty('reason');
    const declined = await owner.agent.post(`/api/org/purchase-requests/${mine}/decline`, { reason: 'Not this quarter' });
    expect(declined.body).toMatchObject({ status: 'declined', reason: 'Not this quarter' });
    const [mail] = await t.db.select().from(mailOutbox).where(and(eq(mailOutbox.kind, 'purchase_decided'), eq(mailOutbox.toAddress, admin.user.email)));
    expect(mail.data).toMatchObject({ approved: false, reason: 'Not this quarter' });
    expect((await buy(admin.agent, opp.id, mine)).body.message).toBe('This purchase was declined');

    const later = (await buy(admin.agent, opp.id)).body.purchaseRequest.id as string;
    await t.db.update(purchaseRequests).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(purchaseRequests.id, later));
    expect((await owner.agent.get('/api/org/purchase-requests')).body.find((r: { id: string }) => r.id === later).status).toBe('expired');
    expect((await owner.agent.post(`/api/org/purchase-requests/${later}/approve`)).status).toBe(409);
    // another organisation's request is a 404
    const stranger = await signedIn(t.app, t.db, kinds.approvedBrand);
    expect((await stranger.agent.post(`/api/org/purchase-requests/${later}/approve`)).status).toBe(404);
    expect(await t.db.$count(users, sql`${users.id} = ${buyer.user.id}`)).toBe(1);
  });
});
