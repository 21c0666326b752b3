import { DAY_MS } from '../../src/shared/constants';
import type { PROMISE_BASES } from '../../src/shared/promise';

/**
 * Business days (issue 59) as the tests expect them: Monday to Friday, in UTC, no holidays. The
 * rule itself is the database's (drizzle/0047: add_business_days, business_days_between), which
 * fixes the placements' promise; tests/api/promise.test.ts checks it against this model.
 */

// 1970-01-05 was a Monday: days since it, mod 7, is the weekday (0 Monday … 6 Sunday)
const MONDAY_EPOCH_DAY = 4;

const dayNumber = (d: Date): number => Math.floor(d.getTime() / DAY_MS);
const weekday = (day: number): number => (((day - MONDAY_EPOCH_DAY) % 7) + 7) % 7;

/** Days to move a moment on a Saturday or Sunday to the Monday after (0 on a weekday). */
function toWeekday(day: number): number {
  const w = weekday(day);
  return w >= 5 ? 7 - w : 0;
}

/** `days` business days after `from`, at the same time of day; from a weekend the count starts on Monday. */
export function addBusinessDays(from: Date, days: number): Date {
  const start = dayNumber(from) + toWeekday(dayNumber(from));
  const rest = days % 5;
  // the remaining days cross a weekend when they pass Friday
  const crossesWeekend = weekday(start) + rest >= 5 ? 2 : 0;
  const offset = start - dayNumber(from) + Math.floor(days / 5) * 7 + rest + crossesWeekend;
  return new Date(from.getTime() + offset * DAY_MS);
}

/** The moment itself on a weekday, else the Monday after at the same time. */
export const nextBusinessDay = (d: Date): Date => new Date(d.getTime() + toWeekday(dayNumber(d)) * DAY_MS);

// weekdays from the Monday of the epoch up to and including `day`
function weekdaysThrough(day: number): number {
  const m = day - MONDAY_EPOCH_DAY;
  return 5 * Math.floor(m / 7) + Math.min(weekday(day) + 1, 5);
}

/**
 * Whole business days from `a` to `b`, by their UTC dates (the time of day does not count), `a`
 * on a weekend counting from the Monday after: so businessDaysBetween(a, addBusinessDays(a, n)) = n.
 * 0 when `b` is not after `a`.
 */
export function businessDaysBetween(a: Date, b: Date): number {
  const start = dayNumber(a) + toWeekday(dayNumber(a));
  const end = dayNumber(b);
  if (end <= start) return 0;
  return weekdaysThrough(end) - weekdaysThrough(start);
}

// The promise at purchase as the tests expect it (issue 59, decision 047): the database fixes it
// (drizzle/0047 promise_at); tests/api/promise.test.ts checks the database against this model.

export interface PromiseInput {
  /** the outlet's record: null below the minimum of deliveries */
  p50Days: number | null;
  p90Days: number | null;
  /** the opportunity's listed turnaround in days */
  tatDays: number | null;
}

export interface DeliveryPromise {
  liveBy: Date;
  usuallyBy: Date | null;
  basis: (typeof PROMISE_BASES)[number];
}

/** The promise of an opportunity bought at `at`; null when it has neither a record nor a listed turnaround. */
export function promiseOf(input: PromiseInput, at: Date, briefDays: number): DeliveryPromise | null {
  const briefBy = addBusinessDays(at, briefDays);
  if (input.p90Days !== null && input.p50Days !== null) {
    return { liveBy: addBusinessDays(briefBy, input.p90Days), usuallyBy: addBusinessDays(briefBy, input.p50Days), basis: 'record' };
  }
  if (input.tatDays === null) return null;
  return { liveBy: nextBusinessDay(new Date(briefBy.getTime() + input.tatDays * DAY_MS)), usuallyBy: null, basis: 'listed' };
}
