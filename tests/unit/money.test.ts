import { describe, expect, it } from 'vitest';
import { formatUsd, fromCents, toCents } from '../../src/shared/money';

describe('money', () => {
  it.each([
    ['1234.50', 123450],
    ['0.1', 10],
    ['0.01', 1],
    [19.99, 1999],
    ['1000000', 100000000],
    ['9999999999.99', 999999999999],
    // three purchases at the highest price: a total, not a price
    ['29999999999.97', 2999999999997],
  ])('toCents(%j) = %d', (input, cents) => expect(toCents(input)).toBe(cents));

  it.each(['1.234', 'abc', '', '1e3', 'NaN', '1,000.00', '12345678901234.00'])('refuses %j', (bad) =>
    expect(() => toCents(bad)).toThrow(),
  );

  it('round-trips and never drifts when summing', () => {
    const amounts = Array.from({ length: 1000 }, () => '0.10');
    expect(fromCents(amounts.reduce((s, a) => s + toCents(a), 0))).toBe('100.00');
    expect(fromCents(5)).toBe('0.05');
    expect(fromCents(-150)).toBe('-1.50');
  });

  it('formats US dollars with exactly two decimals', () => {
    expect(formatUsd('1234.5')).toBe('$1,234.50');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(99)).toBe('$0.99');
    expect(formatUsd('2500000.00')).toBe('$2,500,000.00');
    expect(formatUsd('0')).toBe('$0.00');
    expect(formatUsd('-1.5')).toBe('-$1.50');
    expect(formatUsd('-0.00')).toBe('$0.00');
    // a total beyond any one price (and beyond a safe number of cents) is still exact
    expect(formatUsd('29999999999.97')).toBe('$29,999,999,999.97');
    expect(formatUsd('123456789012345678.90')).toBe('$123,456,789,012,345,678.90');
  });
});
