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

export interface MailJobOptions extends DeliveryOptions {
  db: Db;
  /** seconds before the first retry of a failed delivery; doubled each time (with jitter) */
  retryDelaySeconds?: number;
  retryDelayMaxSeconds?: number;
  retryLimit?: number;
  pollingIntervalSeconds?: number;
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
  await boss.schedule(MAIL_JOBS.sweep, '* * * * *', null, { tz: 'UTC' });

  const queue = async (mailId: string, tx?: Tx) => {
    const onTx = tx ? { db: fromDrizzle(tx as unknown as Parameters<typeof fromDrizzle>[0], sql) } : {};
    await boss.send(MAIL_JOBS.send, { mailId }, { singletonKey: mailId, ...onTx });
  };
  // from now on enqueueMail puts the job on the caller's transaction
  setDeliveryQueue((tx, mailId) => queue(mailId, tx));

  const polling = { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 };
  await boss.work<{ mailId: string }>(MAIL_JOBS.send, polling, async ([job]) => {
    await deliverMail(opts.db, opts, job!.data.mailId);
  });
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
