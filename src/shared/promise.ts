import { addBusinessDays, nextBusinessDay } from './business-days';
import { DAY_MS } from './constants';

/**
 * A promise at purchase (issue 59, decision 047): "Live by" the P90 date of the outlet's record
 * (its days from brief to publication), "usually by" the P50 one, from the moment of purchase plus
 * the BRIEF_DAYS the brand has to send its brief. Below PROMISE_MIN_DELIVERIES deliveries the
 * record is empty and the listed turnaround (calendar days, moved to the next business day)
 * stands in. The database fixes the same promise on a placement when it is made
 * (drizzle/0047 promise_at, promise_json, which the answers read); this TS copy lets the tests check it.
 */
export const PROMISE_BASES = ['record', 'listed'] as const;

/** The settings' defaults. */
export const PROMISE_MIN_DELIVERIES_DEFAULT = 5;
export const BRIEF_DAYS_DEFAULT = 3;

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
