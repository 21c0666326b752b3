import { sql } from 'drizzle-orm';
import { fromDrizzle, type PgBoss } from 'pg-boss';
import type { Db } from '../db/client';
import { deliverMail, pendingMailIds, setDeliveryQueue, type DeliveryOptions, type Tx } from '../mail/outbox';

export const MAIL_JOBS = {
  /** One job per outbox mail, queued in the transaction that wrote the mail. */
  send: 'mail-send',
  /** Every minute: queues a job for any mail still pending without one (written without the queue, or out of retries). */
  sweep: 'mail-sweep',
} as const;

const MAIL_BATCH = 20;
const MAIL_PARALLEL = 5;

export interface MailJobOptions extends DeliveryOptions {
  db: Db;
  /** seconds before the first retry of a failed delivery; doubled each time (with jitter) */
  retryDelaySeconds?: number;
  retryDelayMaxSeconds?: number;
  retryLimit?: number;
  pollingIntervalSeconds?: number;
  /** false (BYLINE_ROLE=web): mail is queued in its transaction here and delivered by a worker */
  work?: boolean;
}

/**
 * E-mail delivery on the app's pg-boss instance (jobs/boss.ts). `mail-send` is an `exclusive`
 * queue keyed by the mail id: at most one live job per mail, however often it is queued. An SMTP
 * failure fails the job, which pg-boss retries with exponential backoff; the user's request that
 * queued it has long succeeded.
 */
export async function startMailJobs(boss: PgBoss, opts: MailJobOptions): Promise<void> {
  const retry = {
    retryLimit: opts.retryLimit ?? 12,
    retryDelay: opts.retryDelaySeconds ?? 30,
    retryBackoff: true,
    retryDelayMax: opts.retryDelayMaxSeconds ?? 3600,
    expireInSeconds: 300,
  };
  if (!(await boss.getQueue(MAIL_JOBS.send))) await boss.createQueue(MAIL_JOBS.send, { policy: 'exclusive', ...retry });
  if (!(await boss.getQueue(MAIL_JOBS.sweep))) await boss.createQueue(MAIL_JOBS.sweep);
  const queue = async (mailId: string, tx?: Tx) => {
    const onTx = tx ? { db: fromDrizzle(tx as unknown as Parameters<typeof fromDrizzle>[0], sql) } : {};
    await boss.send(MAIL_JOBS.send, { mailId }, { singletonKey: mailId, ...onTx });
  };
  // from now on enqueueMail puts the job on the caller's transaction
  setDeliveryQueue((tx, mailId) => queue(mailId, tx));
  if (opts.work === false) return;
  await boss.schedule(MAIL_JOBS.sweep, '* * * * *', null, { tz: 'UTC' });

  const polling = { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 };
  // Up to 20 mails per fetch, and the next fetch at once while fetches come back full: a backlog
  // (a burst of purchases, SMTP back after an outage) drains in seconds, and a password-reset mail
  // is not queued behind it for minutes. Each mail succeeds or fails on its own.
  await boss.work<{ mailId: string }>(
    MAIL_JOBS.send,
    { ...polling, batchSize: MAIL_BATCH, burstWhenBatchFull: true, perJobResults: true },
    async (jobs) => {
      const results: { id: string; status: 'completed' | 'failed'; output?: { message: string } }[] = [];
      // a few SMTP conversations at a time, each mail on its own
      for (let i = 0; i < jobs.length; i += MAIL_PARALLEL) {
        await Promise.all(
          jobs.slice(i, i + MAIL_PARALLEL).map(async (job) => {
            try {
              await deliverMail(opts.db, opts, job.data.mailId);
              results.push({ id: job.id, status: 'completed' });
            } catch (err) {
              results.push({ id: job.id, status: 'failed', output: { message: err instanceof Error ? err.message : String(err) } });
            }
          }),
        );
      }
      return results;
    },
  );
  await boss.work(MAIL_JOBS.sweep, polling, async () => {
    // fresh mails have their own job; anything older than three days is left for a person to look at
    const now = Date.now();
    const ids = await pendingMailIds(opts.db, { olderThan: new Date(now - 60_000), newerThan: new Date(now - 3 * 86_400_000) });
    for (const id of ids) await queue(id);
  });
}

export function stopMailJobs() {
  setDeliveryQueue(null);
}
