/**
 * The cart and its orders (issue 46): up to 50 lines; one checkout holds every line's slot or none;
 * changed prices are confirmed; paid, every line is its own placement with its own escrow, the
 * order has one invoice listing them and each line's refund its own credit note; two carts racing
 * for the last slots never oversell and never leave a partial hold.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkouts, mailOutbox, opportunities, orders, payments, placements, taxDocuments } from '../../src/server/db/schema';
import { expireOrders } from '../../src/server/modules/payments/orders';
import { createTestApp, type Res, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, opportunityRow, sessionIdOf } from '../support/payments';
import { pdfText } from '../support/pdf';

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

async function download(agent: Signed['agent'], url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: { host: 'localhost:80', ...(agent.cookie ? { cookie: agent.cookie } : {}) } });
  return { status: res.statusCode, bytes: res.rawPayload };
}

/** n opportunities at distinct prices, each with `slots` slots. */
async function catalogue(n: number, opts: { slots?: number; base?: number } = {}) {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push(await createOpportunity(t.db, { maxSlots: opts.slots ?? 3, priceUsd: `${(opts.base ?? 100) + i}.25`, title: `Story ${i + 1}`, outletName: `Outlet ${String(i + 1).padStart(2, '0')}` }));
  }
  return out;
}

async function fill(who: Signed, ids: string[]) {
  for (const id of ids) ok(await who.agent.put(`/api/cart/lines/${id}`), 'add');
}

async function payOrder(who: Signed, body: Record<string, unknown> = {}) {
  const started = ok(await who.agent.post('/api/cart/checkout', body), 'checkout') as { url: string; orderId: string };
  const paid = ok(await who.agent.post(`/api/payments/checkout/${sessionIdOf(started.url)}/pay`), 'pay');
  return { ...started, paid };
}

describe('the cart', () => {
  it('adds, lists with prices and availability, removes, and marks and clears what became unavailable', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const [a, b, c] = await catalogue(3);
    const first = ok(await brand.agent.put(`/api/cart/lines/${a.id}`), 'add');
    expect(first.lines).toHaveLength(1);
    expect(first.lines[0]).toMatchObject({ opportunityId: a.id, title: 'Story 1', outletName: 'Outlet 01', priceUsd: '100.25', currentPriceUsd: '100.25', available: true, reason: null });
    await fill(brand, [b.id, c.id, a.id]);
    let cart = ok(await brand.agent.get('/api/cart'), 'cart');
    expect(cart.lines.map((l: { opportunityId: string }) => l.opportunityId)).toEqual([a.id, b.id, c.id]);
    expect(cart).toMatchObject({ totalUsd: '303.75', maxLines: 50, budgetLeftUsd: null, needsApproval: false });

    // b sells out, c is paused: marked with why; the total still counts the lines as added
    await t.db.update(opportunities).set({ filledSlots: 3, status: 'full' }).where(eq(opportunities.id, b.id));
    await t.db.update(opportunities).set({ status: 'paused' as never }).where(eq(opportunities.id, c.id));
    cart = ok(await brand.agent.get('/api/cart'), 'cart');
    expect(cart.lines.map((l: { available: boolean; reason: string | null }) => [l.available, l.reason])).toEqual([
      [true, null],
      [false, 'Sold out'],
      [false, 'No longer available'],
    ]);
    cart = ok(await brand.agent.delete('/api/cart?unavailable=1'), 'remove unavailable');
    expect(cart.lines.map((l: { opportunityId: string }) => l.opportunityId)).toEqual([a.id]);
    // a sold-out opportunity cannot be added
    const refused = await brand.agent.put(`/api/cart/lines/${b.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This opportunity cannot be added: sold out');
    expect((await brand.agent.put('/api/cart/lines/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    cart = ok(await brand.agent.delete(`/api/cart/lines/${a.id}`), 'remove');
    expect(cart).toMatchObject({ lines: [], totalUsd: '0.00' });
    // another member's cart is its own
    const other = await signedIn(t.app, t.db, kinds.approvedBrand);
    await fill(other, [a.id]);
    expect(ok(await brand.agent.get('/api/cart'), 'cart').lines).toEqual([]);
  });

  it('holds at most 50 lines', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const opps = await catalogue(51, { base: 10 });
    await fill(
      brand,
      opps.slice(0, 50).map((o) => o.id),
    );
    const full = await brand.agent.put(`/api/cart/lines/${opps[50].id}`);
    expect(full.status).toBe(409);
    expect(full.body.message).toBe('Your cart is full: it holds at most 50 opportunities');
    expect(ok(await brand.agent.get('/api/cart'), 'cart').lines).toHaveLength(50);
    expect(ok(await brand.agent.delete('/api/cart'), 'empty').lines).toEqual([]);
  });

  it('a viewer has no cart; the checkout of an empty cart is refused', async () => {
    const owner = await signedIn(t.app, t.db, kinds.approvedBrand);
    const viewer = await signedIn(t.app, t.db, { ...kinds.approvedBrand, organisationId: owner.user.organisationId!, orgRole: 'viewer' });
    expect((await viewer.agent.get('/api/cart')).status).toBe(403);
    const empty = await owner.agent.post('/api/cart/checkout', {});
    expect(empty.status).toBe(409);
    expect(empty.body.message).toBe('Your cart is empty');
  });
});

describe('checking out a cart', () => {
  it('a second click (or tab) on the same cart gets the same order back, with no second hold', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const opps = await catalogue(3);
    await fill(
      brand,
      opps.map((o) => o.id),
    );
    const answers = await Promise.all([0, 1, 2].map(() => brand.agent.post('/api/cart/checkout', {})));
    expect(answers.map((a) => `${a.status} ${a.status === 200 ? '' : a.body.message}`)).toEqual(['200 ', '200 ', '200 ']);
    expect(new Set(answers.map((a) => a.body.orderId)).size).toBe(1);
    expect(await t.db.$count(checkouts, eq(checkouts.brandId, brand.user.id))).toBe(3);
    for (const o of opps) expect((await opportunityRow(t.db, o.id)).filledSlots).toBe(1);
    // a cart changed since is a new order (the lines already held refuse it until that one ends)
    const more = await catalogue(1, { base: 900 });
    await fill(brand, [more[0].id]);
    expect((await brand.agent.post('/api/cart/checkout', {})).status).toBe(409);
  });

  it('refuses while a line cannot be bought, naming it, and holds nothing', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const opps = await catalogue(4);
    await fill(
      brand,
      opps.map((o) => o.id),
    );
    await t.db.update(opportunities).set({ filledSlots: 3, status: 'full' }).where(eq(opportunities.id, opps[2].id));
    const res = await brand.agent.post('/api/cart/checkout', {});
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: '“Story 3” cannot be bought now: remove it from your cart to check out the rest.', code: 'cart_lines_unavailable', soldOut: [opps[2].id] });
    expect(await t.db.$count(checkouts, eq(checkouts.brandId, brand.user.id))).toBe(0);
    for (const o of [opps[0], opps[1], opps[3]]) expect((await opportunityRow(t.db, o.id)).filledSlots).toBe(0);
  });

  it("cancelled a second time, an order's checkout answers the cart, not the catalogue", async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const [a, b] = await catalogue(2);
    await fill(brand, [a.id, b.id]);
    const started = ok(await brand.agent.post('/api/cart/checkout', {}), 'checkout') as { url: string; orderId: string };
    const sid = sessionIdOf(started.url);
    expect(ok(await brand.agent.post(`/api/payments/checkout/${sid}/cancel`), 'cancel')).toEqual({ url: '/brand/cart?checkout=cancelled' });
    // the order is closed now: a second cancel (another tab, a double click) lands in the same place
    expect(ok(await brand.agent.post(`/api/payments/checkout/${sid}/cancel`), 'cancel again')).toEqual({ url: '/brand/cart?checkout=cancelled' });
    expect((await t.db.select({ status: orders.status }).from(orders).where(eq(orders.id, started.orderId)))[0].status).toBe('cancelled');
  });

  it('asks to confirm changed prices, then charges the new ones', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const [a, b] = await catalogue(2);
    await fill(brand, [a.id, b.id]);
    await t.db.update(opportunities).set({ priceUsd: '150.00' }).where(eq(opportunities.id, b.id));
    const res = await brand.agent.post('/api/cart/checkout', {});
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      message: 'Prices changed since you added this opportunity: the total is now $250.25. Confirm the new total to check out.',
      code: 'cart_prices_changed',
      priceChanges: [{ opportunityId: b.id, oldPriceUsd: '101.25', newPriceUsd: '150.00' }],
      totalUsd: '250.25',
    });
    expect(await t.db.$count(checkouts, eq(checkouts.brandId, brand.user.id))).toBe(0);
    // a stale total is refused too
    expect((await brand.agent.post('/api/cart/checkout', { confirmTotalUsd: '201.50' })).status).toBe(409);
    const { orderId } = await payOrder(brand, { confirmTotalUsd: '250.25' });
    const order = ok(await brand.agent.get(`/api/brand/orders/${orderId}`), 'order');
    expect(order).toMatchObject({ totalUsd: '250.25', paidUsd: '250.25', status: 'completed' });
    expect(order.lines.map((l: { amountUsd: string }) => l.amountUsd).sort()).toEqual(['100.25', '150.00']);
  });

  it('paid: one placement per line with its own escrow, the cart emptied, one invoice listing every line, one receipt', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const admin = await signedIn(t.app, t.db, kinds.admin);
    const opps = await catalogue(5);
    await fill(
      brand,
      opps.map((o) => o.id),
    );
    const { orderId, url, paid } = await payOrder(brand);
    expect(url).toMatch(/^\/checkout\/cs_local_/);
    expect(paid).toMatchObject({ status: 'paid', paymentId: orderId });
    const rows = await t.db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((r) => r.providerSessionId)).size).toBe(1);
    expect(rows.every((r) => r.status === 'paid' && r.holdsSlot)).toBe(true);
    expect(await t.db.$count(placements, inArray(placements.paymentId, rows.map((r) => r.id)))).toBe(5);
    for (const o of opps) expect((await opportunityRow(t.db, o.id)).filledSlots).toBe(1);
    expect(ok(await brand.agent.get('/api/cart'), 'cart').lines).toEqual([]);
    expect(ok(await brand.agent.get('/api/brand/wallet'), 'wallet').balance).toBe('511.25');
    const articles = ok(await brand.agent.get('/api/brand/my-articles'), 'my articles');
    expect(articles).toHaveLength(5);

    const order = ok(await brand.agent.get(`/api/brand/orders/${orderId}`), 'order');
    expect(order).toMatchObject({ id: orderId, totalUsd: '511.25', refundedUsd: '0.00', heldUsd: '511.25', releasedUsd: '0.00', client: null });
    expect(order.lines.map((l: { title: string }) => l.title)).toEqual(['Story 1', 'Story 2', 'Story 3', 'Story 4', 'Story 5']);
    expect(order.invoiceNumber).toMatch(/^BYL-\d{4}-\d{6}$/);
    expect(await t.db.$count(taxDocuments, eq(taxDocuments.orderId, orderId))).toBe(1);
    const list = ok(await brand.agent.get('/api/brand/orders'), 'orders');
    expect(list).toEqual([expect.objectContaining({ id: orderId, lineCount: 5, totalUsd: '511.25', invoiceNumber: order.invoiceNumber })]);

    // every line's invoice route answers the order's one invoice, listing every line
    const pdfs = await Promise.all(rows.map((r) => download(brand.agent, `/api/brand/payments/${r.id}/invoice`)));
    for (const p of pdfs) expect(Buffer.compare(p.bytes, pdfs[0].bytes)).toBe(0);
    const text = await pdfText(pdfs[0].bytes);
    expect(text).toContain(order.invoiceNumber);
    for (const o of opps) expect(text).toContain(o.title);
    expect(text).toContain('$511.25');

    const mails = await t.db.select().from(mailOutbox).where(sql`${mailOutbox.data}->>'orderId' = ${orderId}`);
    expect(mails.filter((m) => m.toAddress === brand.user.email).map((m) => m.kind)).toEqual(['order_received']);
    expect(mails.filter((m) => m.toAddress === admin.user.email).map((m) => m.kind)).toEqual(['admin_new_order']);
  });

  it('a refund of one line gives back that line alone, with its own credit note', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const admin = await signedIn(t.app, t.db, kinds.admin);
    const opps = await catalogue(3);
    await fill(
      brand,
      opps.map((o) => o.id),
    );
    const { orderId } = await payOrder(brand);
    const order = ok(await brand.agent.get(`/api/brand/orders/${orderId}`), 'order');
    const line = order.lines[1];
    ok(await admin.agent.post(`/api/admin/payments/${line.paymentId}/refund`), 'refund');
    const after = ok(await brand.agent.get(`/api/brand/orders/${orderId}`), 'order');
    expect(after).toMatchObject({ refundedUsd: '101.25', heldUsd: '202.50', totalUsd: '303.75' });
    expect(after.lines[1]).toMatchObject({ status: 'refunded', refundedUsd: '101.25' });
    const note = await download(brand.agent, `/api/brand/payments/${line.paymentId}/credit-note`);
    expect(note.status).toBe(200);
    const text = await pdfText(note.bytes);
    expect(text).toContain(`Credits invoice ${order.invoiceNumber}`);
    expect(text).toContain('Story 2');
    expect(text).not.toContain('Story 1');
    expect(text).toContain('$101.25');
    // the other lines have none
    expect((await download(brand.agent, `/api/brand/payments/${order.lines[0].paymentId}/credit-note`)).status).toBe(404);
  });

  it('an order is its organisation’s: another brand gets 404, order again puts back what can be bought', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const stranger = await signedIn(t.app, t.db, kinds.approvedBrand);
    const opps = await catalogue(3, { slots: 1 });
    await fill(
      brand,
      opps.map((o) => o.id),
    );
    const { orderId } = await payOrder(brand);
    expect((await stranger.agent.get(`/api/brand/orders/${orderId}`)).status).toBe(404);
    expect((await stranger.agent.post(`/api/brand/orders/${orderId}/reorder`)).status).toBe(404);
    // one slot each, all taken: one opportunity gets a second slot
    await t.db.update(opportunities).set({ maxSlots: 2, status: 'available' }).where(eq(opportunities.id, opps[0].id));
    const cart = ok(await brand.agent.post(`/api/brand/orders/${orderId}/reorder`), 'reorder');
    expect(cart.lines.map((l: { opportunityId: string }) => l.opportunityId)).toEqual([opps[0].id]);
    expect(cart.skipped).toEqual([
      { opportunityId: opps[1].id, title: 'Story 2', reason: 'This opportunity cannot be added: sold out' },
      { opportunityId: opps[2].id, title: 'Story 3', reason: 'This opportunity cannot be added: sold out' },
    ]);
  });

  it('the organisation’s monthly cap applies to the order’s total; above the approval threshold the cart is approved first', async () => {
    const owner = await signedIn(t.app, t.db, kinds.approvedBrand);
    ok(await owner.agent.put('/api/org/budget', { monthlyCapUsd: '250' }), 'cap');
    const opps = await catalogue(3);
    await fill(
      owner,
      opps.map((o) => o.id),
    );
    expect(ok(await owner.agent.get('/api/cart'), 'cart')).toMatchObject({ budgetLeftUsd: '250.00', totalUsd: '303.75' });
    const res = await owner.agent.post('/api/cart/checkout', {});
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('This purchase of $303.75 is over your organisation’s monthly budget of $250.00: $250.00 is left this month.');
    expect(await t.db.$count(checkouts, eq(checkouts.brandId, owner.user.id))).toBe(0);

    const buyer = await signedIn(t.app, t.db, { ...kinds.approvedBrand, organisationId: owner.user.organisationId!, orgRole: 'buyer', approvalThresholdUsd: '150.00' });
    await fill(buyer, [opps[0].id, opps[1].id]);
    expect(ok(await buyer.agent.get('/api/cart'), 'cart').needsApproval).toBe(true);
    // above the buyer's threshold: the cart becomes a purchase request, nothing is held
    const asked = await buyer.agent.post('/api/cart/checkout', {});
    expect(asked.status).toBe(202);
    expect(asked.body.purchaseRequest).toMatchObject({ status: 'pending', amountUsd: '201.50' });
    expect(await t.db.$count(checkouts, eq(checkouts.brandId, buyer.user.id))).toBe(0);
    const requestId = asked.body.purchaseRequest.id as string;
    const [listed] = ok(await owner.agent.get('/api/org/purchase-requests'), 'requests');
    expect(listed).toMatchObject({ id: requestId, title: '2 placements', amountUsd: '201.50', status: 'pending' });
    expect(listed.lines.map((l: { opportunityId: string }) => l.opportunityId)).toEqual([opps[0].id, opps[1].id]);
    // not before it is approved
    expect((await buyer.agent.post('/api/cart/checkout', { purchaseRequestId: requestId })).body.message).toBe('This purchase is still waiting for approval');
    ok(await owner.agent.post(`/api/org/purchase-requests/${requestId}/approve`), 'approve');
    // a cart changed since is refused
    await fill(buyer, [opps[2].id]);
    const changed = await buyer.agent.post('/api/cart/checkout', { purchaseRequestId: requestId });
    expect(changed.status).toBe(409);
    expect(changed.body.message).toMatch(/^Your cart has changed since this purchase was approved/);
    ok(await buyer.agent.delete(`/api/cart/lines/${opps[2].id}`), 'remove');
    const { url, orderId } = ok(await buyer.agent.post('/api/cart/checkout', { purchaseRequestId: requestId }), 'approved checkout');
    ok(await buyer.agent.post(`/api/payments/checkout/${sessionIdOf(url)}/pay`), 'pay');
    const [o] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    expect(o).toMatchObject({ status: 'completed', purchaseRequestId: requestId });
    const [after] = ok(await owner.agent.get('/api/org/purchase-requests'), 'requests');
    expect(after.status).toBe('paid');
    // paid once
    await fill(buyer, [opps[0].id, opps[1].id]);
    expect((await buyer.agent.post('/api/cart/checkout', { purchaseRequestId: requestId })).body.message).toBe('This approved purchase has already been paid');
  });

  it('an unpaid order expires with every line’s slot given back', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const opps = await catalogue(2);
    await fill(
      brand,
      opps.map((o) => o.id),
    );
    const { orderId } = ok(await brand.agent.post('/api/cart/checkout', {}), 'checkout');
    for (const o of opps) expect((await opportunityRow(t.db, o.id)).filledSlots).toBe(1);
    expect(await expireOrders(t.db, new Date(Date.now() + 32 * 60_000))).toBeGreaterThanOrEqual(1);
    const [o] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    expect(o.status).toBe('expired');
    for (const x of opps) expect((await opportunityRow(t.db, x.id)).filledSlots).toBe(0);
    expect(await t.db.$count(checkouts, and(eq(checkouts.orderId, orderId), eq(checkouts.status, 'open')))).toBe(0);
  });

  it('two carts racing for the last slots of the same opportunities: one wins whole, the other holds nothing', async () => {
    for (let round = 0; round < 5; round++) {
      const opps = await catalogue(4, { slots: 1 });
      const [x, y] = await Promise.all([signedIn(t.app, t.db, kinds.approvedBrand), signedIn(t.app, t.db, kinds.approvedBrand)]);
      // the same opportunities, added in opposite orders
      await fill(
        x,
        opps.map((o) => o.id),
      );
      await fill(
        y,
        [...opps].reverse().map((o) => o.id),
      );
      const results = await Promise.all([x.agent.post('/api/cart/checkout', {}), y.agent.post('/api/cart/checkout', {})]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const loser = results.find((r) => r.status === 409)!;
      expect(loser.body.soldOut.length).toBeGreaterThan(0);
      for (const o of opps) expect(await opportunityRow(t.db, o.id)).toMatchObject({ filledSlots: 1, status: 'full' });
      const held = await t.db.select({ brandId: checkouts.brandId }).from(checkouts).where(inArray(checkouts.opportunityId, opps.map((o) => o.id)));
      expect(held).toHaveLength(4);
      expect(new Set(held.map((h) => h.brandId)).size).toBe(1);
    }
  });

  it('two carts sharing only one opportunity: the loser is told which one, and holds no slot at all (never a partial order)', async () => {
    for (let round = 0; round < 3; round++) {
      const [shared, ...rest] = await catalogue(5, { slots: 1 });
      const mineOnly = rest.slice(0, 2);
      const theirsOnly = rest.slice(2);
      const [x, y] = await Promise.all([signedIn(t.app, t.db, kinds.approvedBrand), signedIn(t.app, t.db, kinds.approvedBrand)]);
      await fill(x, [mineOnly[0].id, shared.id, mineOnly[1].id]);
      await fill(y, [theirsOnly[0].id, shared.id, theirsOnly[1].id]);
      const results = await Promise.all([x.agent.post('/api/cart/checkout', {}), y.agent.post('/api/cart/checkout', {})]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = results[0].status === 200 ? x : y;
      const loser = results[0].status === 200 ? y : x;
      const refused = results.find((r) => r.status === 409)!;
      expect(refused.body).toEqual({ message: `“${shared.title}” cannot be bought now: remove it from your cart to check out the rest.`, code: 'cart_lines_unavailable', soldOut: [shared.id] });
      // the loser's own opportunities were given back (or never taken): nothing held, no order
      const losersOwn = loser === x ? mineOnly : theirsOnly;
      for (const o of losersOwn) expect(await opportunityRow(t.db, o.id)).toMatchObject({ filledSlots: 0, status: 'available' });
      expect(await t.db.$count(checkouts, eq(checkouts.brandId, loser.user.id))).toBe(0);
      expect(await t.db.$count(orders, eq(orders.brandId, loser.user.id))).toBe(0);
      expect(await t.db.$count(checkouts, eq(checkouts.brandId, winner.user.id))).toBe(3);
      expect(await opportunityRow(t.db, shared.id)).toMatchObject({ filledSlots: 1, status: 'full' });
    }
  });
});
