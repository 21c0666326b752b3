import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, payments } from '../../src/server/db/schema';
import { refundOverduePayments } from '../../src/server/modules/payments/refunds';
import type { PaymentProvider, RefundRequest } from '../../src/server/providers/provider';
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
    expect(refunds.slice(before)).toEqual([{ providerRef: p.stripePaymentId, amountCents: 50000, idempotencyKey: p.id }]);
    const [row] = await t.db.select().from(payments).where(eq(payments.id, p.id));
    expect(row).toMatchObject({ status: 'refunded', refundReason: 'guarantee', refundedAt: day(90), holdsSlot: false });
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'available' });

    expect(await refundOverduePayments(t.db, t.provider, day(91))).toEqual([]);
    expect(await refundOverduePayments(t.db, t.provider, day(400))).toEqual([]);
    expect(refunds.length).toBe(before + 1);
    const [rel] = await t.db.select().from(payments).where(eq(payments.id, released.id));
    expect(rel.status).toBe('released');
  });

  it('two sweeps at once (two app instances) refund once, even when both reach the provider before either records it', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    const opp = await createOpportunity(t.db, { maxSlots: 2 });
    const paidAt = new Date('2031-01-01T00:00:00Z');
    const p = await makePayment(t.db, brand.user.id, opp.id, { paidAt });
    // a second placement on the same opportunity, paid later and not due: its slot stays taken, so a
    // slot given back twice shows (filled 0 instead of 1)
    await makePayment(t.db, brand.user.id, opp.id, { paidAt: new Date(paidAt.getTime() + 60 * 86_400_000) });
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 2, status: 'full' });
    const now = new Date(paidAt.getTime() + 90 * 86_400_000);

    // Both sweeps claim the refund (the claim lets a second claimer through on purpose: the provider
    // call is idempotent), then each waits at the provider until the other has arrived too, so both
    // record the refund after both claimed: only the row lock and the status check keep it single.
    const calls: RefundRequest[] = [];
    const barrier = arrivals(2);
    const provider: PaymentProvider = {
      ...t.provider,
      async refund(req) {
        calls.push(req);
        await barrier.arrive();
        return t.provider.refund(req);
      },
    };
    const [a, b] = await Promise.all([refundOverduePayments(t.db, provider, now), refundOverduePayments(t.db, provider, now)]);
    expect(barrier.arrived()).toBe(2);
    expect([...a, ...b]).toEqual([p.id]);
    // every provider call is the same refund: one refund at the provider
    expect(calls).toEqual([
      { providerRef: p.stripePaymentId, amountCents: 125000, idempotencyKey: p.id },
      { providerRef: p.stripePaymentId, amountCents: 125000, idempotencyKey: p.id },
    ]);
    const [row] = await t.db.select().from(payments).where(eq(payments.id, p.id));
    expect(row).toMatchObject({ status: 'refunded', refundReason: 'guarantee', holdsSlot: false, refundedAt: now });
    expect(await t.db.$count(payments, and(eq(payments.opportunityId, opp.id), eq(payments.status, 'refunded')))).toBe(1);
    // one slot given back, one refund e-mail
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'available' });
    expect(await t.db.$count(mailOutbox, and(eq(mailOutbox.kind, 'refund_issued'), sql`${mailOutbox.data}->>'paymentId' = ${p.id}`))).toBe(1);
  });
});

/**
 * A barrier for `parties` callers: each `arrive()` resolves once all have arrived. Not bound to
 * time: the sweeps above always both reach the provider. The long fallback only ends a wait that
 * would otherwise hang a test (a change that stops the second sweep before the provider), and
 * `arrived()` tells whether it was used.
 */
function arrivals(parties: number) {
  let count = 0;
  let open!: () => void;
  const all = new Promise<void>((resolve) => (open = resolve));
  return {
    async arrive() {
      if (++count >= parties) open();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, 10_000)))]);
      clearTimeout(timer);
    },
    arrived: () => count,
  };
}
