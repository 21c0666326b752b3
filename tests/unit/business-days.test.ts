import { describe, expect, it } from 'vitest';
import { addBusinessDays, businessDaysBetween, nextBusinessDay } from '../support/business-days';

const at = (iso: string) => new Date(iso);

describe('addBusinessDays', () => {
  it('skips the weekend and keeps the time of day', () => {
    // Thursday 2027-01-07 10:30 + 3 → Tuesday 2027-01-12 10:30
    expect(addBusinessDays(at('2027-01-07T10:30:00Z'), 3).toISOString()).toBe('2027-01-12T10:30:00.000Z');
  });

  it('from Friday evening, one day is Monday evening', () => {
    expect(addBusinessDays(at('2027-01-08T22:15:00Z'), 1).toISOString()).toBe('2027-01-11T22:15:00.000Z');
  });

  it('zero days leaves a weekday as it is and moves a weekend to Monday', () => {
    expect(addBusinessDays(at('2027-01-06T08:00:00Z'), 0).toISOString()).toBe('2027-01-06T08:00:00.000Z');
    expect(addBusinessDays(at('2027-01-09T08:00:00Z'), 0).toISOString()).toBe('2027-01-11T08:00:00.000Z');
  });

  it('from a Saturday the count starts on Monday', () => {
    expect(addBusinessDays(at('2027-01-09T12:00:00Z'), 1).toISOString()).toBe('2027-01-12T12:00:00.000Z');
    expect(addBusinessDays(at('2027-01-10T12:00:00Z'), 5).toISOString()).toBe('2027-01-18T12:00:00.000Z');
  });

  it('counts whole weeks for large n', () => {
    // 260 business days = 52 weeks
    expect(addBusinessDays(at('2027-01-06T00:00:00Z'), 260).toISOString()).toBe('2028-01-05T00:00:00.000Z');
    expect(addBusinessDays(at('2027-01-06T00:00:00Z'), 263).toISOString()).toBe('2028-01-10T00:00:00.000Z');
  });
});

describe('businessDaysBetween', () => {
  it('undoes addBusinessDays from any day of the week', () => {
    for (let d = 0; d < 14; d++) {
      const from = new Date(Date.UTC(2027, 0, 4 + d, 9));
      for (const n of [0, 1, 2, 4, 5, 6, 9, 23, 100]) expect(businessDaysBetween(from, addBusinessDays(from, n))).toBe(n);
    }
  });

  it('ignores the time of day and weekends at the end', () => {
    expect(businessDaysBetween(at('2027-01-08T23:00:00Z'), at('2027-01-11T01:00:00Z'))).toBe(1);
    expect(businessDaysBetween(at('2027-01-06T10:00:00Z'), at('2027-01-09T10:00:00Z'))).toBe(2);
  });

  it('is 0 when b is not after a', () => {
    expect(businessDaysBetween(at('2027-01-08T10:00:00Z'), at('2027-01-08T18:00:00Z'))).toBe(0);
    expect(businessDaysBetween(at('2027-01-08T10:00:00Z'), at('2027-01-01T10:00:00Z'))).toBe(0);
  });
});

describe('nextBusinessDay', () => {
  it('moves a weekend to Monday', () => {
    expect(nextBusinessDay(at('2027-01-10T07:00:00Z')).toISOString()).toBe('2027-01-11T07:00:00.000Z');
    expect(nextBusinessDay(at('2027-01-11T07:00:00Z')).toISOString()).toBe('2027-01-11T07:00:00.000Z');
  });
});
