import type { TestClock } from '../../../shared/schemas/test-clock';
import type { Db } from '../../db/client';
import { advanceClock, now, refreshClockOffset } from '../../lib/clock';

const HOUR_MS = 3_600_000;

const answer = (offsetMs: number): TestClock => ({ now: now().toISOString(), offsetHours: Math.round((offsetMs / HOUR_MS) * 1000) / 1000 });

/** GET /api/admin/test-clock: Byline's time, the offset read from the database. */
export async function readTestClock(db: Db): Promise<TestClock> {
  return answer(await refreshClockOffset(db));
}

/**
 * POST /api/admin/test-clock: the offset moved forward in the database (every instance reads it),
 * then every sweep due at the new time, before the answer (issue 59).
 */
export async function moveTestClock(db: Db, hours: number, runDueSweeps: (at: Date) => Promise<void>): Promise<TestClock> {
  const offsetMs = await advanceClock(db, hours * HOUR_MS);
  await runDueSweeps(now());
  return answer(offsetMs);
}
