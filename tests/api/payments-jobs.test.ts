import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkouts } from '../../src/server/db/schema';
import { JOBS, startJobs, type Jobs } from '../../src/server/jobs/boss';
import { testCheckoutProvider } from '../../src/server/providers/test-checkout';
import { diskFileStore } from '../../src/server/storage/file-store';
import { dbKind } from '../support/db';
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

  it.runIf(dbKind === 'pglite')('the embedded database is vacuumed and analyzed every hour, as autovacuum does on a server', async () => {
    const schedules = Object.fromEntries((await jobs.boss.getSchedules()).map((s) => [s.name, s.cron]));
    expect(schedules[JOBS.embeddedMaintenance]).toBe('23 * * * *');
    // rows written and rewritten since the last upkeep: statistics that do not know them
    const opps = await Promise.all(Array.from({ length: 5 }, () => createOpportunity(t.db, { maxSlots: 3 })));
    for (const o of opps) await t.db.execute(sql`UPDATE opportunities SET description = 'Rewritten' WHERE id = ${o.id}`);
    const stats = async () => {
      const result = await t.db.execute(sql`
        SELECT s.last_vacuum::text AS vacuumed, s.last_analyze::text AS analyzed, c.reltuples::int AS estimated,
          (SELECT count(*)::int FROM opportunities) AS rows
        FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relname = 'opportunities'`);
      return (result as unknown as { rows: { vacuumed: string | null; analyzed: string | null; estimated: number; rows: number }[] }).rows[0];
    };
    const before = await stats();
    // the planner's row count is not the table's
    expect(before.estimated).not.toBe(before.rows);

    await jobs.boss.send(JOBS.embeddedMaintenance);
    expect(await until(async () => (await stats()).analyzed !== before.analyzed)).toBe(true);
    const after = await stats();
    expect(after.vacuumed).not.toBe(before.vacuumed);
    expect(after.estimated).toBe(after.rows);
    expect(errors).toEqual([]);
  });

  it.runIf(dbKind === 'postgres')('a PostgreSQL server is left to its own autovacuum: no upkeep job', async () => {
    const names = (await jobs.boss.getSchedules()).map((s) => s.name);
    expect(names).toContain(JOBS.expireCheckouts);
    expect(names).not.toContain(JOBS.embeddedMaintenance);
  });
});
