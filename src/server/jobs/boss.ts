import { PgBoss, fromPglite } from 'pg-boss';
import type { DbHandle } from '../db/client';
import type { PaymentProvider } from '../payments/provider';
import { expireHolds } from '../modules/payments/slots';
import { refundOverduePayments } from '../modules/payments/refunds';

export const JOBS = {
  /** Gives back the slots of checkouts whose 30 minutes are up. */
  expireHolds: 'expire-checkout-holds',
  /** The 90-day guarantee: refunds payments still held 90 days after they were paid. */
  guaranteeRefunds: 'escrow-guarantee-refunds',
} as const;

const SCHEDULES: Record<string, string> = {
  [JOBS.expireHolds]: '* * * * *',
  [JOBS.guaranteeRefunds]: '*/15 * * * *',
};

export interface Jobs {
  boss: PgBoss;
  stop(): Promise<void>;
}

/**
 * pg-boss on the app's own database (PGlite through its `pglite` backend, or the PostgreSQL
 * server): the schedules live in the database, so with any number of app instances each run
 * happens once. The work itself is plain functions taking (db, provider, now), tested directly.
 */
export async function startJobs(opts: {
  handle: DbHandle;
  databaseUrl?: string;
  provider: PaymentProvider;
  onError?: (err: Error) => void;
  pollingIntervalSeconds?: number;
}): Promise<Jobs> {
  const { handle, provider } = opts;
  const boss =
    handle.kind === 'pglite'
      ? new PgBoss({ db: fromPglite(handle.pglite!), backend: 'pglite' })
      : new PgBoss({ connectionString: opts.databaseUrl, max: 4 });
  boss.on('error', (err) => opts.onError?.(err));
  await boss.start();

  for (const name of Object.values(JOBS)) {
    if (!(await boss.getQueue(name))) await boss.createQueue(name);
    await boss.schedule(name, SCHEDULES[name], null, { tz: 'UTC' });
  }
  const polling = { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 10 };
  await boss.work(JOBS.expireHolds, polling, async () => {
    await expireHolds(handle.db, new Date());
  });
  await boss.work(JOBS.guaranteeRefunds, polling, async () => {
    await refundOverduePayments(handle.db, provider, new Date());
  });

  return { boss, stop: () => boss.stop({ graceful: true, timeout: 10_000 }) };
}
