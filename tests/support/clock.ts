/**
 * Byline's time in tests (issue 59): the test clock's offset written where every instance reads
 * it (the database's `test_clock` row, which SQL's clock_now() adds) and applied to this process's
 * lib/clock.ts, so SQL and server code read the same moved time.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import { testClock } from '../../src/server/db/schema';
import { setClockOffsetMs } from '../../src/server/lib/clock';

/** Moves Byline's time by `offsetMs` from the wall clock (0: back to the wall clock). */
export async function setTestClock(db: Db, offsetMs: number): Promise<void> {
  await db.update(testClock).set({ offsetMs: Math.round(offsetMs), updatedAt: sql`now()` });
  setClockOffsetMs(Math.round(offsetMs));
}

/** Moves Byline's time so that it reads `at` now (and moves on with the wall clock from there). */
export const setClockTo = (db: Db, at: Date): Promise<void> => setTestClock(db, at.getTime() - Date.now());
