/**
 * A process that runs one deadline sweep of the job queue with a moved clock, for the kill -9 tests
 * (tests/api/deadlines.test.ts): the parent kills it with SIGKILL while the card provider (the
 * Stripe stand-in on loopback) holds its answer, then checks that the next run finishes the work
 * exactly once. Env: DEADLINE_DB_URL, STRIPE_PORT, NOW (ISO), JOB.
 */
import { openPostgres } from '../../src/server/db/client';
import { grantUnansweredCancellations } from '../../src/server/modules/payments/cancel';
import { runDisputeDeadlines } from '../../src/server/modules/disputes/service';
import { creditLatePlacements } from '../../src/server/modules/lateness/late-credit';
import { childStripeProvider } from './child-stripe';

const JOBS = {
  cancellations: grantUnansweredCancellations,
  disputes: runDisputeDeadlines,
  // issue 59: the late credit's sweep, with the default terms
  lateCredits: (db: Parameters<typeof creditLatePlacements>[0], p: Parameters<typeof creditLatePlacements>[1], at: Date) =>
    creditLatePlacements(db, p, { percent: 2, maxPercent: 20, cancelDays: 10 }, at),
} as const;

const handle = openPostgres(process.env.DEADLINE_DB_URL!, 2);
const provider = childStripeProvider();
const job = JOBS[process.env.JOB as keyof typeof JOBS];
await job(handle.db, provider, new Date(process.env.NOW!));
process.stdout.write('finished\n');
await handle.close();
