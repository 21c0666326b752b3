import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../src/server/db/schema';
import { refundOverduePayments } from '../../src/server/modules/payments/refunds';
import type { RefundRequest } from '../../src/server/payments/provider';
import { createOpportunity, createPaymentsTestApp, makePayment, opportunityRow, quickBrands, spyingLocalProvider, type PaymentsTestApp } from '../support/payments';

// its own database: the sweep is global, and other files' payments would be "due" on a far-future clock
let t: PaymentsTestApp;
const refunds: RefundRequest[] = [];
beforeAll(async () => {
  t = await createPaymentsTestApp({ provider: spyingLocalProvider(refunds) });
});
afterAll(() => t.close());

describe('90-day guarantee sweep (controllable clock)', () => {
  it('day 89 nothing; day 90 one full refund and the slot back; rerun no second refund; released payments untouched', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    const opp = await createOpportunity(t.db, { maxSlots: 2, priceUsd: '500.00' });
    const paidAt = new Date('2030-03-01T12:00:00Z');
    const p = await makePayment(t.db, brand.user.id, opp.id, { amount: '500.00', paidAt });
    const released = await makePayment(t.db, brand.user.id, opp.id, { amount: '500.00', paidAt, status: 'released' });
    const day = (n: number) => new Date(paidAt.getTime() + n * 86_400_000);
    const before = refunds.length;

    expect(await refundOverduePayments(t.db, t.provider, day(89))).toEqual([]);
    expect(await refundOverduePayments(t.db, t.provider, new Date(day(90).getTime() - 1000))).toEqual([]);
    expect(refunds.length).toBe(before);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 2, status: 'full' });

    expect(await refundOverduePayments(t.db, t.provider, day(90))).toEqual([p.id]);
    expect(refunds.slice(before)).toEqual([{ paymentRef: p.stripePaymentId, amountCents: 50000, idempotencyKey: p.id }]);
    const [row] = await t.db.select().from(payments).where(eq(payments.id, p.id));
    expect(row).toMatchObject({ status: 'refunded', refundReason: 'guarantee', refundedAt: day(90), holdsSlot: false });
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'available' });

    expect(await refundOverduePayments(t.db, t.provider, day(91))).toEqual([]);
    expect(await refundOverduePayments(t.db, t.provider, day(400))).toEqual([]);
    expect(refunds.length).toBe(before + 1);
    const [rel] = await t.db.select().from(payments).where(eq(payments.id, released.id));
    expect(rel.status).toBe('released');
  });

  it('two sweeps at once (two app instances) refund once', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    const opp = await createOpportunity(t.db, { maxSlots: 1 });
    const paidAt = new Date('2031-01-01T00:00:00Z');
    const p = await makePayment(t.db, brand.user.id, opp.id, { paidAt });
    const now = new Date(paidAt.getTime() + 90 * 86_400_000);
    const before = refunds.length;
    const [a, b] = await Promise.all([refundOverduePayments(t.db, t.provider, now), refundOverduePayments(t.db, t.provider, now)]);
    expect([...a, ...b]).toEqual([p.id]);
    // any repeated provider call carries the same idempotency key: still one refund at the provider
    for (const r of refunds.slice(before)) expect(r.idempotencyKey).toBe(p.id);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 0, status: 'available' });
  });
});
