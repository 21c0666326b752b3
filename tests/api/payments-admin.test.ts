import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefundRequest } from '../../src/server/providers/provider';
import { Agent } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, makePayment, opportunityRow, quickBrands, spyingLocalProvider, type PaymentsTestApp } from '../support/payments';

let t: PaymentsTestApp;
const refunds: RefundRequest[] = [];
let admin: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  t = await createPaymentsTestApp({ provider: spyingLocalProvider(refunds) });
  admin = await signedIn(t.app, t.db, kinds.admin);
});
afterAll(() => t.close());

describe('brand wallet and history', () => {
  it('GET /api/brand/wallet sums the brand’s held payments exactly (3 × 0.10 = 0.30), ignoring released, refunded and other brands', async () => {
    const [me, other] = await quickBrands(t.app, t.db, 2);
    expect((await me.agent.get('/api/brand/wallet')).body).toEqual({ balance: '0.00' });
    const opp = await createOpportunity(t.db, { maxSlots: 10, priceUsd: '0.10' });
    for (let i = 0; i < 3; i++) await makePayment(t.db, me.user.id, opp.id, { amount: '0.10' });
    await makePayment(t.db, me.user.id, opp.id, { amount: '0.10', status: 'released' });
    await makePayment(t.db, me.user.id, opp.id, { amount: '0.10', status: 'refunded' });
    await makePayment(t.db, other.user.id, opp.id, { amount: '0.10' });
    const res = await me.agent.get('/api/brand/wallet');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ balance: '0.30' });
    expect((await other.agent.get('/api/brand/wallet')).body).toEqual({ balance: '0.10' });
    expect((await new Agent(t.app).get('/api/brand/wallet')).status).toBe(401);
    expect((await admin.agent.get('/api/brand/wallet')).status).toBe(403);
  });

  it('GET /api/brand/payments lists only the brand’s own payments, newest first, with opportunity title and outlet', async () => {
    const [me, other] = await quickBrands(t.app, t.db, 2);
    const a = await createOpportunity(t.db, { title: 'First', outletName: 'Outlet A', priceUsd: '100.00' });
    const b = await createOpportunity(t.db, { title: 'Second', outletName: 'Outlet B', priceUsd: '200.00' });
    const p1 = await makePayment(t.db, me.user.id, a.id, { amount: '100.00', createdAt: new Date('2026-01-02T00:00:00Z') });
    const p2 = await makePayment(t.db, me.user.id, b.id, { amount: '200.00', status: 'released', createdAt: new Date('2026-02-03T00:00:00Z') });
    await makePayment(t.db, other.user.id, b.id);
    const res = await me.agent.get('/api/brand/payments');
    expect(res.status).toBe(200);
    expect(res.body.map((p: { id: string }) => p.id)).toEqual([p2.id, p1.id]);
    expect(res.body[0]).toEqual({
      id: p2.id,
      brandId: me.user.id,
      opportunityId: b.id,
      stripePaymentId: p2.stripePaymentId,
      amount: '200.00',
      refundedAmount: '0.00',
      status: 'released',
      draftReviewStatus: 'awaiting_brand_brief',
      draftDocumentUrl: null,
      draftDocumentFile: null,
      brandFeedback: null,
      refundReason: null,
      paidAt: p2.paidAt.toISOString(),
      releasedAt: null,
      refundedAt: null,
      createdAt: '2026-02-03T00:00:00.000Z',
      opportunity: { id: b.id, title: 'Second', outletName: 'Outlet B', type: ['profile_article'], priceUsd: '200.00' },
      client: null,
    });
    expect((await new Agent(t.app).get('/api/brand/payments')).status).toBe(401);
  });
});

describe('admin payments list and totals', () => {
  it('GET /api/admin/payments returns every payment with opportunity and user; filters by opportunity and status', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    const opp = await createOpportunity(t.db, { maxSlots: 3, priceUsd: '300.00' });
    const held = await makePayment(t.db, brand.user.id, opp.id, { amount: '300.00' });
    await makePayment(t.db, brand.user.id, opp.id, { amount: '300.00', status: 'released' });
    const all = await admin.agent.get('/api/admin/payments');
    expect(all.status).toBe(200);
    const mine = all.body.find((p: { id: string }) => p.id === held.id);
    expect(mine).toMatchObject({
      status: 'paid',
      stripePaymentId: held.stripePaymentId,
      opportunity: { id: opp.id, title: opp.title, outletName: opp.outletName, priceUsd: '300.00' },
      user: { id: brand.user.id, name: brand.user.name, brandName: brand.user.brandName, email: brand.user.email },
    });
    expect(mine.user).not.toHaveProperty('password');
    const filtered = await admin.agent.get(`/api/admin/payments?opportunityId=${opp.id}&status=paid`);
    expect(filtered.body.map((p: { id: string }) => p.id)).toEqual([held.id]);
    expect((await admin.agent.get('/api/admin/payments?status=lost')).status).toBe(400);
    expect((await brand.agent.get('/api/admin/payments')).status).toBe(403);
    expect((await new Agent(t.app).get('/api/admin/payments')).status).toBe(401);
  });

  it('GET /api/admin/payments/totals sums the opportunity price over paid (held) and released payments, in the database', async () => {
    const before = (await admin.agent.get('/api/admin/payments/totals')).body;
    const [brand] = await quickBrands(t.app, t.db, 1);
    const cheap = await createOpportunity(t.db, { maxSlots: 10, priceUsd: '0.10' });
    const dear = await createOpportunity(t.db, { maxSlots: 10, priceUsd: '12345.67' });
    for (let i = 0; i < 3; i++) await makePayment(t.db, brand.user.id, cheap.id, { amount: '0.10' });
    await makePayment(t.db, brand.user.id, dear.id, { amount: '12345.67', status: 'released' });
    await makePayment(t.db, brand.user.id, dear.id, { amount: '12345.67', status: 'refunded' });
    const res = await admin.agent.get('/api/admin/payments/totals');
    expect(res.status).toBe(200);
    const cents = (s: string) => Math.round(Number(s) * 100);
    expect(cents(res.body.held) - cents(before.held)).toBe(30);
    expect(cents(res.body.released) - cents(before.released)).toBe(1234567);
    expect(res.body.held).toMatch(/^\d+\.\d{2}$/);
    expect((await brand.agent.get('/api/admin/payments/totals')).status).toBe(403);
  });
});

describe('Admin Payments by status pages through its index', () => {
  it('each status is listed newest first from payments_status_created_idx, without reading newer payments or sorting', async () => {
    for (const status of ['paid', 'released', 'refunded']) {
      const plan = await t.db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
        const result = await tx.execute(
          sql`EXPLAIN SELECT payments.id FROM payments WHERE payments.status = ${status} ORDER BY payments.created_at DESC, payments.id DESC LIMIT 51`,
        );
        return (result as unknown as { rows: Record<string, string>[] }).rows.map((r) => Object.values(r)[0]).join('\n');
      });
      expect(plan, status).toContain('payments_status_created_idx');
      expect(plan, status).not.toContain('Sort');
      expect(plan, status).not.toContain('Filter');
    }
  });
});

describe('the payment lists read the database', () => {
  it('a change made elsewhere (another server, plain SQL) shows in the very next page of both lists: the payment, its opportunity, its brand; a deleted one is gone', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    const opp = await createOpportunity(t.db, { title: 'Before', outletName: 'Old Outlet', maxSlots: 3 });
    // no money movements: a payment whose money moved cannot be deleted (the ledger keeps it, decision 041)
    const p = await makePayment(t.db, brand.user.id, opp.id, {}, { ledger: false });
    const adminUrl = `/api/admin/payments?opportunityId=${opp.id}`;
    expect((await admin.agent.get(adminUrl)).body).toMatchObject([{ id: p.id, brandFeedback: null, opportunity: { title: 'Before' }, user: { brandName: brand.user.brandName } }]);
    expect((await brand.agent.get('/api/brand/payments')).body).toMatchObject([{ id: p.id, brandFeedback: null, opportunity: { title: 'Before', outletName: 'Old Outlet' } }]);

    await t.db.execute(sql`UPDATE placements SET brand_feedback = 'Shorter, please' WHERE id = ${p.id}`);
    await t.db.execute(sql`UPDATE opportunities SET title = 'After', outlet_name = 'New Outlet' WHERE id = ${opp.id}`);
    await t.db.execute(sql`UPDATE users SET brand_name = 'Renamed Co' WHERE id = ${brand.user.id}`);
    expect((await admin.agent.get(adminUrl)).body).toMatchObject([
      { id: p.id, brandFeedback: 'Shorter, please', opportunity: { title: 'After', outletName: 'New Outlet' }, user: { brandName: 'Renamed Co' } },
    ]);
    expect((await brand.agent.get('/api/brand/payments')).body).toMatchObject([
      { id: p.id, brandFeedback: 'Shorter, please', opportunity: { title: 'After', outletName: 'New Outlet' } },
    ]);

    await t.db.execute(sql`DELETE FROM placements WHERE payment_id = ${p.id}`);
    await t.db.execute(sql`DELETE FROM payments WHERE id = ${p.id}`);
    expect((await admin.agent.get(adminUrl)).body).toEqual([]);
    expect((await brand.agent.get('/api/brand/payments')).body).toEqual([]);
  });
});

describe('release and refund', () => {
  it('POST /api/admin/payments/:id/release: paid → released; then 409; unknown 404; brand 403; visitor 401', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    const opp = await createOpportunity(t.db);
    const p = await makePayment(t.db, brand.user.id, opp.id);
    expect((await brand.agent.post(`/api/admin/payments/${p.id}/release`)).status).toBe(403);
    expect((await new Agent(t.app).post(`/api/admin/payments/${p.id}/release`)).status).toBe(401);
    expect((await admin.agent.post('/api/admin/payments/00000000-0000-4000-8000-000000000000/release')).status).toBe(404);
    expect((await admin.agent.post('/api/admin/payments/not-an-id/release')).status).toBe(404);

    const res = await admin.agent.post(`/api/admin/payments/${p.id}/release`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: p.id, status: 'released', releasedAt: expect.any(String) });
    const again = await admin.agent.post(`/api/admin/payments/${p.id}/release`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Only a payment held in escrow can be released (this one is released)');
    // a released payment keeps its slot; an admin may still refund the placement (issue 17: Placements' Refund)
    expect((await opportunityRow(t.db, opp.id)).filledSlots).toBe(1);
    const refund = await admin.agent.post(`/api/admin/payments/${p.id}/refund`);
    expect(refund.status).toBe(200);
    expect(refund.body.status).toBe('refunded');
    expect((await admin.agent.post(`/api/admin/payments/${p.id}/refund`)).status).toBe(409);
  });

  it('PATCH /api/admin/payments/:id/status {status: "released"} follows the same rule; anything else is 400', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    const opp = await createOpportunity(t.db);
    const p = await makePayment(t.db, brand.user.id, opp.id);
    for (const body of [{}, { status: 'paid' }, { status: 'refunded' }]) {
      const bad = await admin.agent.patch(`/api/admin/payments/${p.id}/status`, body);
      expect(bad.status).toBe(400);
    }
    expect((await brand.agent.patch(`/api/admin/payments/${p.id}/status`, { status: 'released' })).status).toBe(403);
    const res = await admin.agent.patch(`/api/admin/payments/${p.id}/status`, { status: 'released' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('released');
    expect((await admin.agent.patch(`/api/admin/payments/${p.id}/status`, { status: 'released' })).status).toBe(409);
  });

  it('POST /api/admin/payments/:id/refund: paid → refunded through the provider, slot given back (full → available); then 409', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    const opp = await createOpportunity(t.db, { maxSlots: 1, priceUsd: '1250.00' });
    const p = await makePayment(t.db, brand.user.id, opp.id);
    expect((await opportunityRow(t.db, opp.id)).status).toBe('full');
    expect((await brand.agent.post(`/api/admin/payments/${p.id}/refund`)).status).toBe(403);
    const before = refunds.length;
    const res = await admin.agent.post(`/api/admin/payments/${p.id}/refund`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: p.id, status: 'refunded', refundReason: 'admin', refundedAt: expect.any(String) });
    expect(refunds.slice(before)).toEqual([{ providerRef: p.stripePaymentId, amountCents: 125000, idempotencyKey: p.id }]);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 0, status: 'available' });
    expect((await admin.agent.post(`/api/admin/payments/${p.id}/refund`)).status).toBe(409);
    expect((await admin.agent.post(`/api/admin/payments/${p.id}/release`)).status).toBe(409);
    expect((await brand.agent.get('/api/brand/wallet')).body).toEqual({ balance: '0.00' });
  });

  it('a payment whose refund has started cannot be released', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    const opp = await createOpportunity(t.db);
    const p = await makePayment(t.db, brand.user.id, opp.id, { refundRequestedAt: new Date(), refundReason: 'guarantee' });
    const res = await admin.agent.post(`/api/admin/payments/${p.id}/release`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A refund is in progress for this payment');
  });
});

