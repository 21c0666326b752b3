import { describe, expect, it } from 'vitest';
import { PARTLY_REFUNDED, isPartlyRefunded, leftToRefund, placementStatus } from '../../src/shared/payment';
import { briefToText } from '../../src/client/features/placements/components/projects/brief-text';

/** Issue 47: a part refund is told apart from a full one, in cents (never a float compare). */
describe('part refunds', () => {
  it.each([
    ['500.00', '0.00', false],
    ['500.00', '100.00', true],
    ['500.00', '499.99', true],
    ['500.00', '500.00', false],
    // 0.1 + 0.2 is not 0.3 in floats; in cents it is
    ['0.30', '0.1', true],
    ['1000000.00', '999999.99', true],
  ])('isPartlyRefunded(%s, refunded %s) = %s', (amount, refundedAmount, expected) =>
    expect(isPartlyRefunded({ amount, refundedAmount })).toBe(expected),
  );

  it('leaves what is left to refund in cents', () => {
    expect(leftToRefund({ amount: '500.00', refundedAmount: '120.50' })).toBe(37950);
    expect(leftToRefund({ amount: '500.00', refundedAmount: '500.00' })).toBe(0);
  });

  it('reads "Partially refunded" for a refunded payment of which only a part went back', () => {
    const base = { draftReviewStatus: 'awaiting_brand_brief', amount: '400.00' } as const;
    expect(placementStatus({ ...base, status: 'refunded', refundedAmount: '150.00' })).toBe(PARTLY_REFUNDED);
    expect(placementStatus({ ...base, status: 'refunded', refundedAmount: '400.00' })).toBe('Refunded');
    // held with a part refunded: still Pending (the badge beside it says the rest)
    expect(placementStatus({ ...base, status: 'paid', refundedAmount: '150.00' })).toBe('Pending');
  });
});

/**
 * Issue 57: a client reviewer's answer carries no amount (decision 035); its screens read the status
 * of a refunded or part-refunded payment without them, and never throw (the page crashed:
 * "Couldn't open this page").
 */
describe('a payment read without its amounts (a client reviewer’s)', () => {
  it('has a status, and nothing says a part went back', () => {
    const draftReviewStatus = 'awaiting_brand_brief' as const;
    expect(placementStatus({ status: 'refunded', draftReviewStatus })).toBe('Refunded');
    expect(placementStatus({ status: 'paid', draftReviewStatus })).toBe('Pending');
    expect(isPartlyRefunded({})).toBe(false);
    expect(isPartlyRefunded({ refundedAmount: '17.35' })).toBe(false);
  });

  it('keeps its amounts out of the brief copied to the clipboard', () => {
    const item = { title: 'T', outletName: 'O', type: ['listicle'], brief: null };
    expect(briefToText(item)).not.toContain('Price');
    expect(briefToText({ ...item, priceUsd: '1250.50' })).toContain('Price: $1,250.50');
  });
});
