import { PgBoss, fromPglite } from 'pg-boss';
import type { DbHandle } from '../db/client';
import { maintainEmbeddedDatabase } from '../db/maintenance';
import type { PaymentProvider } from '../providers/provider';
import { expireCheckouts } from '../modules/payments/slots';
import { expireOrders } from '../modules/payments/orders';
import { refundUnswapped } from '../modules/payments/swap';
import { grantUnansweredCancellations } from '../modules/payments/cancel';
import { runDisputeDeadlines } from '../modules/disputes/service';
import { runScheduledReports } from '../modules/reports/service';
import { completePendingPartialRefunds, refundOverduePayments } from '../modules/payments/refunds';
import { fulfilChargedTestCheckouts } from '../modules/payments/checkout';
import type { InvoiceSettings } from '../modules/invoices/service';
import type { FileStore } from '../storage/file-store';
import { sweepUnreferencedUploads } from '../storage/uploads';
import { pruneRateLimitHits } from '../lib/rate-limit';
import { runDueChecks, type PublicationDeps } from '../modules/placements/watch';
import { startMessageNoticeJobs, stopMessageNoticeJobs } from './message-notices';
import { runPlacementTimers, type TimerTerms } from '../modules/timeline/timers';
import { creditLatePlacements } from '../modules/lateness/late-credit';
import { remindExpiringPurchaseRequests } from '../modules/org/budget';
import type { LateCreditTerms } from '../../shared/late-credit';
import { now } from '../lib/clock';

export const JOBS = {
  /** Gives back the slots of checkouts whose 30 minutes are up. */
  expireCheckouts: 'expire-checkout-holds',
  /** The guarantee: refunds payments still held GUARANTEE_DAYS after they were paid. */
  guaranteeRefunds: 'escrow-guarantee-refunds',
  /** Deletes uploaded files nothing has referred to for a day. */
  uploadsSweep: 'uploads-sweep',
  /** Drops counted events (sign-in failures, sign-ups, uploads...) older than every limit's window. */
  rateLimitPrune: 'rate-limit-prune',
  /** Checks the live articles that are due (the publication guarantee's watch). */
  publicationChecks: 'publication-checks',
  /** The workflow's reminders and automatic approvals (modules/timeline/timers.ts). */
  placementTimers: 'placement-timers',
  /** Late credit (issue 59): each business day a placement is late past its "Live by", credited once. */
  lateCredits: 'late-credits',
  /** Scheduled reports whose week or month began: each period once, sent when they changed (issue 48). */
  scheduledReports: 'scheduled-reports',
  /** The embedded database only: VACUUM and ANALYZE, which a PostgreSQL server's autovacuum does. */
  embeddedMaintenance: 'embedded-database-maintenance',
} as const;

const SCHEDULES: Record<string, string> = {
  [JOBS.expireCheckouts]: '* * * * *',
  [JOBS.guaranteeRefunds]: '*/15 * * * *',
  [JOBS.uploadsSweep]: '17 * * * *',
  [JOBS.rateLimitPrune]: '47 * * * *',
  [JOBS.publicationChecks]: '*/5 * * * *',
  [JOBS.placementTimers]: '*/15 * * * *',
  [JOBS.lateCredits]: '7 * * * *',
  [JOBS.scheduledReports]: '*/15 * * * *',
  [JOBS.embeddedMaintenance]: '23 * * * *',
};

export interface Jobs {
  boss: PgBoss;
  /** Stops fetching jobs and waits up to `timeoutMs` for the running ones' current step (then pg-boss fails them, to be retried). */
  stop(timeoutMs?: number): Promise<void>;
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
  files: FileStore;
  /** counted events older than this are dropped (the longest limit window) */
  rateLimitKeepMs: number;
  /** the publication watch; absent: no live articles are checked by this process */
  publication?: PublicationDeps;
  /** the workflow's timers (BRIEF_REMINDER_DAYS, REVIEW_REMINDER_DAYS, AUTO_APPROVE_DAYS); absent: not run here */
  timers?: TimerTerms;
  /** LATE_CREDIT_PERCENT, LATE_CREDIT_MAX_PERCENT, LATE_CANCEL_DAYS; absent: no late credits are made here */
  lateCredit?: LateCreditTerms;
  /** the seller and tax on invoices of test checkouts fulfilled by the sweep */
  invoicing?: InvoiceSettings;
  onError?: (err: Error) => void;
  pollingIntervalSeconds?: number;
  /**
   * false (BYLINE_ROLE=web): this process only queues jobs (mail and message notices, in the
   * transactions that write them); it runs none, keeps no schedule and supervises nothing.
   */
  work?: boolean;
}): Promise<Jobs> {
  const { handle, provider } = opts;
  const works = opts.work !== false;
  // a process that only queues neither supervises the queues nor keeps the cron schedules
  const role = works ? {} : { supervise: false, schedule: false };
  const boss =
    handle.kind === 'pglite'
      ? new PgBoss({ db: fromPglite(handle.pglite!), backend: 'pglite', ...role })
      : new PgBoss({ connectionString: opts.databaseUrl, max: works ? 4 : 2, ...role });
  boss.on('error', (err) => opts.onError?.(err));
  await boss.start();

  const pglite = handle.kind === 'pglite' ? handle.pglite : undefined;
  for (const name of Object.values(JOBS)) {
    if (name === JOBS.embeddedMaintenance && !pglite) continue;
    if (!(await boss.getQueue(name))) await boss.createQueue(name);
    if (works) await boss.schedule(name, SCHEDULES[name], null, { tz: 'UTC' });
  }
  let stopping = false;
  const stop = (timeoutMs = 10_000) => {
    stopping = true;
    stopMessageNoticeJobs();
    return boss.stop({ graceful: true, timeout: timeoutMs });
  };
  if (!works) {
    await startMessageNoticeJobs(boss, handle.db, { work: false });
    return { boss, stop };
  }
  const polling = { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 10 };
  await boss.work(JOBS.expireCheckouts, polling, async () => {
    await expireCheckouts(handle.db, new Date());
    await expireOrders(handle.db, new Date());
    await fulfilChargedTestCheckouts(handle.db, provider, new Date(), opts.invoicing);
  });
  await boss.work(JOBS.guaranteeRefunds, polling, async () => {
    await refundOverduePayments(handle.db, provider, new Date());
    // issue 46: declined placements whose time to swap ran out, and part refunds a crash left
    await refundUnswapped(handle.db, provider, new Date());
    await completePendingPartialRefunds(handle.db, provider, new Date());
    // issue 47: cancellations the editorial team left unanswered past RESPONSE_DAYS, granted in full
    await grantUnansweredCancellations(handle.db, provider, new Date());
    // disputes: the team's and the deciding admin's deadlines, and link disputes read against the checks
    await runDisputeDeadlines(handle.db, provider, new Date());
  });
  await boss.work(JOBS.scheduledReports, polling, async () => {
    await runScheduledReports(handle.db, new Date());
  });
  await boss.work(JOBS.uploadsSweep, polling, async () => {
    await sweepUnreferencedUploads(handle.db, opts.files, new Date());
  });
  await boss.work(JOBS.rateLimitPrune, polling, async () => {
    await pruneRateLimitHits(handle.db, new Date(), opts.rateLimitKeepMs);
  });
  if (pglite) {
    await boss.work(JOBS.embeddedMaintenance, polling, async () => {
      await maintainEmbeddedDatabase(pglite);
    });
  }
  const timers = opts.timers;
  if (timers) {
    await boss.work(JOBS.placementTimers, polling, async () => {
      await runPlacementTimers(handle.db, timers, new Date());
      // issue 59: a purchase request about to expire (it has no placement, so no timeline)
      await remindExpiringPurchaseRequests(handle.db, timers.reminderHours, now());
    });
  }
  const lateCredit = opts.lateCredit;
  if (lateCredit) {
    await boss.work(JOBS.lateCredits, polling, async () => {
      await creditLatePlacements(handle.db, provider, lateCredit, now());
    });
  }
  const publication = opts.publication;
  if (publication) {
    // asked for every 2 s (one small query): a sweep starts within moments of its schedule, not 10 s later
    await boss.work(JOBS.publicationChecks, { pollingIntervalSeconds: Math.min(2, polling.pollingIntervalSeconds) }, async () => {
      // a batch at a time until nothing is due (10,000 articles due at once are worked through in one
      // run); when shutting down, the batch under way is the last (the rest stays due for the next run)
      while (!stopping && (await runDueChecks(publication, new Date())) > 0) {
        // next batch
      }
    });
  }

  await startMessageNoticeJobs(boss, handle.db, { pollingIntervalSeconds: Math.min(2, polling.pollingIntervalSeconds) });

  return { boss, stop };
}
