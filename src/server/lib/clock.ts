/**
 * Byline's time (issue 59): the wall clock plus the test clock's offset. Every rule that reads the
 * time on the server reads `now()` (and in SQL `clock_now()`, drizzle/0051), so an admin who moves
 * the test clock forward in test mode moves every rule at once. Outside test mode the offset is 0.
 */

let offsetMs = 0;

/** Byline's now: the wall clock moved by the test clock's offset. */
export function now(): Date {
  return new Date(Date.now() + offsetMs);
}

/** The test clock's offset this process applies, in milliseconds. */
export function clockOffsetMs(): number {
  return offsetMs;
}

/** Sets the offset this process applies (read from the database's `test_clock` row). */
export function setClockOffsetMs(ms: number): void {
  offsetMs = ms;
}
