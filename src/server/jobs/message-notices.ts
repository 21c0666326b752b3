import { sql } from 'drizzle-orm';
import { fromDrizzle, type PgBoss } from 'pg-boss';
import type { Db } from '../db/client';
import type { Tx } from '../mail/outbox';
import { sendMessageNotice, setNoticeQueue, type Notice } from '../modules/messages/service';
import { now as clockNow, refreshClockOffset } from '../lib/clock';

/** One job per conversation and side to tell, queued in the transaction that writes a message. */
export const MESSAGE_NOTICE_JOB = 'message-notice';

const key = (n: Notice) => `${n.paymentId}:${n.side}`;

/**
 * The e-mail notices of new messages (modules/messages/service.ts). The queue is `stately` keyed
 * by conversation and side: while a notice waits for its time, the next messages add no job (the
 * waiting one mails them all); while one runs, one more may wait, so a message written during a
 * send is not lost. A notice that finds itself too early (another instance sent one meanwhile)
 * queues itself again for when it is allowed.
 */
export async function startMessageNoticeJobs(boss: PgBoss, db: Db, opts: { pollingIntervalSeconds?: number; work?: boolean } = {}): Promise<void> {
  if (!(await boss.getQueue(MESSAGE_NOTICE_JOB))) {
    await boss.createQueue(MESSAGE_NOTICE_JOB, {
      policy: 'stately',
      retryLimit: 10,
      retryDelay: 30,
      retryBackoff: true,
      expireInSeconds: 300,
    });
  }
  const queue = async (notice: Notice, startAfter: Date, tx?: Tx) => {
    const onTx = tx ? { db: fromDrizzle(tx as unknown as Parameters<typeof fromDrizzle>[0], sql) } : {};
    await boss.send(MESSAGE_NOTICE_JOB, { ...notice }, { singletonKey: key(notice), startAfter, ...onTx });
  };
  setNoticeQueue((tx, notice, startAfter) => queue(notice, startAfter, tx));
  // BYLINE_ROLE=web: queued here, sent by a worker
  if (opts.work === false) return;

  await boss.work<Notice>(MESSAGE_NOTICE_JOB, { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 }, async ([job]) => {
    await refreshClockOffset(db);
    const result = await sendMessageNotice(db, job.data, clockNow());
    if ('tooSoon' in result) await queue(job.data, result.tooSoon);
  });
}

export function stopMessageNoticeJobs() {
  setNoticeQueue(null);
}
