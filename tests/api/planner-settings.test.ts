/**
 * Every connection the server opens plans without Memoize (src/server/db/client.ts NO_MEMOIZE,
 * docs/decisions/025): a list page joins 51 rows to 51 different opportunities and brands, where
 * Memoize's cache never hits and its set-up cost the lists a fifth of their database time.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it('every connection of the pool, and the embedded database, has Memoize off', async () => {
  // several at once, so that the pool opens several connections
  const answers = await Promise.all(
    Array.from({ length: 6 }, () =>
      t.db.execute(sql`SELECT current_setting('enable_memoize') AS memoize, pg_backend_pid() AS pid, pg_sleep(0.05)`),
    ),
  );
  const rows = answers.map((a) => (a as unknown as { rows: { memoize: string; pid: number }[] }).rows[0]);
  expect(rows.map((r) => r.memoize)).toEqual(Array(6).fill('off'));
});
