/**
 * The hourly prune of counted events (jobs/boss.ts `rate-limit-prune`, decision 013), run by pg-boss
 * with the keep the server gives it (main.ts: the longest window of its limits): events older than
 * every window are deleted, and those still inside a window stay, so no limit resets when it runs.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitHits } from '../../src/server/db/schema';
import { JOBS, startJobs, type Jobs } from '../../src/server/jobs/boss';
import { limitsFor, longestWindowMs } from '../../src/server/limits';
import { testCheckoutProvider } from '../../src/server/providers/test-checkout';
import { diskFileStore } from '../../src/server/storage/file-store';
import { createTestApp, type Agent, type TestApp } from '../support/app';
import { signedIn } from '../support/factories';

const DAY = 86_400_000;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let t: TestApp;
let jobs: Jobs;
const errors: Error[] = [];
beforeAll(async () => {
  // three files a day: the day is the longest window, as by default
  t = await createTestApp({ LIMIT_UPLOADS: { max: 3, windowMs: DAY } });
  jobs = await startJobs({
    handle: t.handle,
    databaseUrl: t.handle.pool?.options.connectionString,
    provider: testCheckoutProvider(t.db),
    files: diskFileStore(t.uploadsDir),
    rateLimitKeepMs: longestWindowMs(limitsFor(t.config)),
    onError: (err) => errors.push(err),
    pollingIntervalSeconds: 0.5,
  });
}, 60_000);
afterAll(async () => {
  await jobs?.stop();
  await t?.close();
});

async function until(check: () => Promise<boolean>, ms = 20_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

const upload = (agent: Agent) => agent.upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png');
const hitsOf = (subject: string) => t.db.$count(rateLimitHits, eq(rateLimitHits.subject, subject));
/** Moves a subject's counted events `ms` into the past, as if they had been counted then. */
const age = (subject: string, ms: number) =>
  t.db.execute(sql`UPDATE rate_limit_hits SET at = at - ${`${ms} milliseconds`}::interval WHERE subject = ${subject}`);

describe('the hourly prune of counted events', () => {
  it('deletes the events older than every window and keeps those inside one: a limit used up stays used up', async () => {
    const recent = await signedIn(t.app, t.db, { role: 'brand' });
    const old = await signedIn(t.app, t.db, { role: 'brand' });
    for (const { agent } of [recent, old]) for (let i = 0; i < 3; i++) expect((await upload(agent)).status).toBe(200);
    // one used up its day 23 hours ago (counted until the day is over); the other 25 hours ago
    await age(recent.user.id, 23 * 3_600_000);
    await age(old.user.id, 25 * 3_600_000);
    expect((await upload(recent.agent)).status).toBe(429);
    const counted = await hitsOf(recent.user.id);
    expect(counted).toBeGreaterThan(0);
    expect(await hitsOf(old.user.id)).toBeGreaterThan(0);

    await jobs.boss.send(JOBS.rateLimitPrune);
    expect(await until(async () => (await hitsOf(old.user.id)) === 0)).toBe(true);
    expect(await hitsOf(recent.user.id)).toBe(counted);
    const refused = await upload(recent.agent);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(
      /^You have uploaded too many files today\. Please try again in (an hour|\d+ minutes)\.$/,
    );
    expect((await upload(old.agent)).status).toBe(200);
    expect(errors).toEqual([]);
  });
});
