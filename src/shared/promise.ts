/**
 * A promise at purchase (issue 59, decision 047): "Live by" the P90 date of the outlet's record
 * (its days from brief to publication), "usually by" the P50 one, from the moment of purchase plus
 * the BRIEF_DAYS the brand has to send its brief. Below PROMISE_MIN_DELIVERIES deliveries the
 * record is empty and the listed turnaround (calendar days, moved to the next business day)
 * stands in. The database fixes the same promise on a placement when it is made
 * (drizzle/0047 promise_at, promise_json, which the answers read): the rule lives there alone;
 * tests/support/business-days.ts is the tests' own model of it.
 */
export const PROMISE_BASES = ['record', 'listed'] as const;

/** The settings' defaults. */
export const PROMISE_MIN_DELIVERIES_DEFAULT = 5;
export const BRIEF_DAYS_DEFAULT = 3;
