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
import { now, refreshClockOffset } from '../lib/clock';
import type { Db } from '../db/client';
import type { Config } from '../config';
import { creditLatePlacements } from '../modules/lateness/late-credit';
import { remindExpiringPurchaseRequests } from '../modules/org/budget';
import type { LateCreditTerms } from '../../shared/late-credit';

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

/** What the sweeps that come due with time need (startJobs' options, and the test clock's route). */
export interface SweepDeps {
  db: Db;
  provider: PaymentProvider;
  invoicing?: InvoiceSettings;
  timers?: TimerTerms;
  publication?: PublicationDeps;
  lateCredit?: LateCreditTerms;
}

/** The workflow's timers' settings, from the configuration. */
export function timerTermsOf(config: Config): TimerTerms {
  return {
    briefReminderDays: config.BRIEF_REMINDER_DAYS,
    reviewReminderDays: config.REVIEW_REMINDER_DAYS,
    autoApproveDays: config.AUTO_APPROVE_DAYS,
    reminderHours: config.REMINDER_HOURS,
  };
}

/** The late credit's terms (issue 59), from the configuration. */
export function lateCreditTermsOf(config: Config): LateCreditTerms {
  return { percent: config.LATE_CREDIT_PERCENT, maxPercent: config.LATE_CREDIT_MAX_PERCENT, cancelDays: config.LATE_CANCEL_DAYS };
}

/** The publication watch's terms, from the configuration. */
export function publicationTermsOf(config: Config): PublicationDeps['terms'] {
  return { guaranteeDays: config.PUBLICATION_GUARANTEE_DAYS, restoreDays: config.RESTORE_DAYS, checkIntervalHours: config.LINK_CHECK_INTERVAL_HOURS };
}

/** Checkouts whose hold ran out, orders with them, test checkouts charged but not yet fulfilled. */
async function sweepCheckouts(d: SweepDeps, at: Date) {
  await expireCheckouts(d.db, at);
  await expireOrders(d.db, at);
  await fulfilChargedTestCheckouts(d.db, d.provider, at, d.invoicing);
}

/** Every deadline that refunds or grants on its own. */
async function sweepDeadlines(d: SweepDeps, at: Date) {
  await refundOverduePayments(d.db, d.provider, at);
  // issue 46: declined placements whose time to swap ran out, and part refunds a crash left
  await refundUnswapped(d.db, d.provider, at);
  await completePendingPartialRefunds(d.db, d.provider, at);
  // issue 47: cancellations the editorial team left unanswered past RESPONSE_DAYS, granted in full
  await grantUnansweredCancellations(d.db, d.provider, at);
  // disputes: the team's and the deciding admin's deadlines, and link disputes read against the checks
  await runDisputeDeadlines(d.db, d.provider, at);
}

/**
 * Every sweep that comes due with time, once, in the jobs' order, at `at` (the test clock's route
 * runs them after moving Byline's time, before it answers; issue 59). The reminders run before the
 * automatic steps they warn of, so a step and its reminder due in one move go out in that order.
 */
export async function runDueSweeps(d: SweepDeps, at: Date): Promise<void> {
  await sweepCheckouts(d, at);
  if (d.timers) {
    await runPlacementTimers(d.db, d.timers, at);
    await remindExpiringPurchaseRequests(d.db, d.timers.reminderHours, at);
  }
  await sweepDeadlines(d, at);
  if (d.lateCredit) await creditLatePlacements(d.db, d.provider, d.lateCredit, at);
  await runScheduledReports(d.db, at);
  // a batch at a time until nothing is due (bounded: a move never waits on an endless watch)
  for (let batch = 0; d.publication && batch < 50 && (await runDueChecks(d.publication, at)) > 0; batch++) {
    // next batch
  }
}

/** Byline's now, the test clock's offset read afresh from the database (every instance's). */
async function bylineNow(db: Db): Promise<Date> {
  await refreshClockOffset(db);
  return now();
}

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
  const sweeps: SweepDeps = { db: handle.db, provider, invoicing: opts.invoicing };
  await boss.work(JOBS.expireCheckouts, polling, async () => {
    await sweepCheckouts(sweeps, await bylineNow(handle.db));
  });
  await boss.work(JOBS.guaranteeRefunds, polling, async () => {
    await sweepDeadlines(sweeps, await bylineNow(handle.db));
  });
  await boss.work(JOBS.scheduledReports, polling, async () => {
    await runScheduledReports(handle.db, await bylineNow(handle.db));
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
      const at = await bylineNow(handle.db);
      await runPlacementTimers(handle.db, timers, at);
      // issue 59: a purchase request about to expire (it has no placement, so no timeline)
      await remindExpiringPurchaseRequests(handle.db, timers.reminderHours, at);
    });
  }
  const lateCredit = opts.lateCredit;
  if (lateCredit) {
    await boss.work(JOBS.lateCredits, polling, async () => {
      await creditLatePlacements(handle.db, provider, lateCredit, await bylineNow(handle.db));
    });
  }
  const publication = opts.publication;
  if (publication) {
    // asked for every 2 s (one small query): a sweep starts within moments of its schedule, not 10 s later
    await boss.work(JOBS.publicationChecks, { pollingIntervalSeconds: Math.min(2, polling.pollingIntervalSeconds) }, async () => {
      // a batch at a time until nothing is due (10,000 articles due at once are worked through in one
      // run); when shutting down, the batch under way is the last (the rest stays due for the next run)
      const at = await bylineNow(handle.db);
      while (!stopping && (await runDueChecks(publication, at)) > 0) {
        // next batch
      }
    });
  }

  await startMessageNoticeJobs(boss, handle.db, { pollingIntervalSeconds: Math.min(2, polling.pollingIntervalSeconds) });

  return { boss, stop };
}
