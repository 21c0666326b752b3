import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkouts } from '../../src/server/db/schema';
import { JOBS, startJobs, type Jobs } from '../../src/server/jobs/boss';
import { testCheckoutProvider } from '../../src/server/providers/test-checkout';
import { diskFileStore } from '../../src/server/storage/file-store';
import { createOpportunity, createPaymentsTestApp, opportunityRow, quickBrands, type PaymentsTestApp } from '../support/payments';

let t: PaymentsTestApp;
let jobs: Jobs;
const errors: Error[] = [];
beforeAll(async () => {
  t = await createPaymentsTestApp();
  jobs = await startJobs({
    handle: t.handle,
    databaseUrl: t.handle.pool?.options.connectionString,
    provider: testCheckoutProvider(t.db),
    files: diskFileStore(t.uploadsDir),
    rateLimitKeepMs: 86_400_000,
    onError: (err) => errors.push(err),
    pollingIntervalSeconds: 0.5,
  });
}, 60_000);
afterAll(async () => {
  await jobs?.stop();
  await t.close();
});

async function until(check: () => Promise<boolean>, ms = 20_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

describe('pg-boss jobs on this database', () => {
  it('registers both schedules (every minute: expire holds; every 15 minutes: 90-day refunds)', async () => {
    const schedules = await jobs.boss.getSchedules();
    const byName = Object.fromEntries(schedules.map((s) => [s.name, s.cron]));
    expect(byName).toMatchObject({ [JOBS.expireCheckouts]: '* * * * *', [JOBS.guaranteeRefunds]: '*/15 * * * *' });
  });

  it('a queued expire-holds job runs the sweep: the timed-out hold gives its slot back', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 1 });
    const [{ agent }] = await quickBrands(t.app, t.db, 1);
    expect((await agent.post('/api/payments/checkout', { opportunityId: opp.id })).status).toBe(200);
    expect((await opportunityRow(t.db, opp.id)).status).toBe('full');
    await t.db.update(checkouts).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(checkouts.opportunityId, opp.id));

    await jobs.boss.send(JOBS.expireCheckouts);
    expect(await until(async () => (await opportunityRow(t.db, opp.id)).status === 'available')).toBe(true);
    expect((await opportunityRow(t.db, opp.id)).filledSlots).toBe(0);
    expect(errors).toEqual([]);
  });
});
