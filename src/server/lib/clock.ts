/**
 * Byline's time (issue 59): the wall clock plus the test clock's offset. Every rule that reads the
 * time on the server reads `now()` (and in SQL `clock_now()`, drizzle/0051), so an admin who moves
 * the test clock forward in test mode moves every rule at once. Outside test mode the offset is 0.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { testClock } from '../db/schema';

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

/**
 * Reads the test clock's offset from the database (the `test_clock` row every instance shares)
 * and applies it to this process: one small query, before each job run and, while the test clock
 * is available, each API request, so every instance reads the same moved time.
 */
export async function refreshClockOffset(db: Db): Promise<number> {
  const [row] = await db.select({ offsetMs: testClock.offsetMs }).from(testClock);
  offsetMs = Number(row?.offsetMs ?? 0);
  return offsetMs;
}

/** Moves Byline's time forward by `ms` for every instance (the row), then applies it here. */
export async function advanceClock(db: Db, ms: number): Promise<number> {
  const [row] = await db
    .update(testClock)
    .set({ offsetMs: sql`${testClock.offsetMs} + ${Math.round(ms)}`, updatedAt: sql`now()` })
    .returning({ offsetMs: testClock.offsetMs });
  offsetMs = Number(row?.offsetMs ?? 0);
  return offsetMs;
}

/** Back to the wall clock for every instance (a database kept from test mode, started without it). */
export async function resetClock(db: Db): Promise<void> {
  await db.update(testClock).set({ offsetMs: 0, updatedAt: sql`now()` });
  offsetMs = 0;
}

/**
 * The test clock may be moved only while the portal runs in test mode (the built-in test checkout)
 * and never in production (issue 59): elsewhere its routes answer 404 and no request reads it.
 */
export function testClockAvailable(nodeEnv: string | undefined, providerName: string): boolean {
  return nodeEnv !== 'production' && providerName === 'test';
}
