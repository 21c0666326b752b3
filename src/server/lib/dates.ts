/**
 * 00:00 UTC of the day `now` falls in. Deadlines are days, stored as 00:00 UTC of that day: a
 * deadline on this day or later can still be claimed.
 */
export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
