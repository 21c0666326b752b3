import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mailOutbox, users } from '../db/schema';
import type { Mailer } from './mailer';
import { countEvent } from '../ops/events';
import { hidesAmounts } from '../../shared/org';
import { OPTIONAL_KINDS, renderMail, type MailData, type MailReader } from './templates';

/** A database handle or a transaction (`tx` inside db.transaction): both run the same queries. */
export type Tx = Pick<Db, 'select' | 'insert' | 'update' | 'execute'>;

/**
 * Queues the delivery job of one outbox row on the caller's transaction (set by the mail jobs at
 * start-up, see jobs/mail.ts). Without it (tests, CLI scripts) the row alone is written and the
 * sweep picks it up.
 */
type DeliveryQueue = (tx: Tx, mailId: string) => Promise<void>;
let deliveryQueue: DeliveryQueue | null = null;
export function setDeliveryQueue(queue: DeliveryQueue | null) {
  deliveryQueue = queue;
}

export type Recipient = { userId: string } | { email: string };

/**
 * Writes a mail to the outbox with its delivery job, in the caller's transaction: the mail exists
 * exactly when the change that causes it is committed. Call it with the `tx` of that change.
 * Progress mails (OPTIONAL_KINDS) are skipped for a brand that has turned them off.
 * Returns the outbox id, or null when nothing was queued.
 */
export async function enqueueMail(tx: Tx, to: Recipient, data: MailData): Promise<string | null> {
  let address: string;
  if ('userId' in to) {
    const [user] = await tx.select({ email: users.email, emailNotifications: users.emailNotifications }).from(users).where(eq(users.id, to.userId));
    if (!user) return null;
    if (OPTIONAL_KINDS.has(data.kind) && !user.emailNotifications) return null;
    address = user.email;
  } else {
    address = to.email;
  }
  const [row] = await tx
    .insert(mailOutbox)
    .values({ kind: data.kind, toAddress: address, data: data as unknown as Record<string, unknown> })
    .returning({ id: mailOutbox.id });
  if (deliveryQueue) await deliveryQueue(tx, row.id);
  return row.id;
}

/** The same mail to every admin. */
export async function enqueueAdminMail(tx: Tx, data: MailData): Promise<number> {
  const admins = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).orderBy(asc(users.createdAt));
  for (const a of admins) await enqueueMail(tx, { userId: a.id }, data);
  return admins.length;
}

/** A file a mail carries. */
interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/**
 * The files a mail carries, found when it is sent (the receipt's invoice: modules/invoices
 * `receiptAttachments`), as its reader may read them. Given by whoever delivers, as mail/ knows no module.
 */
export type MailAttachments = (db: Db, data: MailData, reader: MailReader) => Promise<MailAttachment[]>;

/**
 * Who an address is, when its mail is sent (issue 57: decided by who receives, not by who queued
 * it): a member who may not see amounts (a client reviewer, decision 035) reads none, even in a
 * mail queued before its role changed; anyone else (a member, an admin, an outside address) does.
 */
async function mailReaderOf(db: Pick<Db, 'select'>, address: string): Promise<MailReader> {
  const [user] = await db
    .select({ role: users.role, orgRole: users.orgRole, clientIds: users.clientIds })
    .from(users)
    .where(eq(users.email, address.trim().toLowerCase()));
  return { seesAmounts: !(user?.role === 'brand' && hidesAmounts(user.orgRole, user.clientIds)) };
}

export interface DeliveryOptions {
  mailer: Mailer;
  from: string;
  /** PUBLIC_URL: links in mails point here */
  baseUrl: string;
  /** the built-in test checkout is the payment provider: every mail says payments are simulated */
  testMode?: boolean;
  /** required, so that no delivery forgets the receipt's invoice */
  attachments: MailAttachments;
}

/**
 * Renders and sends one outbox mail, once: a mail already sent is skipped (a repeated job, the
 * sweep). A failure is recorded on the row and thrown, so the job is retried with backoff.
 */
export async function deliverMail(db: Db, opts: DeliveryOptions, mailId: string): Promise<'sent' | 'skipped'> {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, mailId));
  if (!row || row.status !== 'pending') return 'skipped';
  const data = row.data as unknown as MailData;
  const reader = await mailReaderOf(db, row.toAddress);
  const rendered = renderMail(data, opts.baseUrl, { testMode: opts.testMode, reader });
  await db
    .update(mailOutbox)
    .set({ attempts: sql`${mailOutbox.attempts} + 1`, subject: rendered.subject })
    .where(eq(mailOutbox.id, row.id));
  try {
    const attachments = await opts.attachments(db, data, reader);
    await opts.mailer.send({ id: row.id, from: opts.from, to: row.toAddress, ...rendered, attachments });
  } catch (err) {
    countEvent('mail-failed');
    const message = err instanceof Error ? err.message : String(err);
    await db.update(mailOutbox).set({ lastError: message.slice(0, 1000) }).where(eq(mailOutbox.id, row.id));
    throw err;
  }
  countEvent('mail-sent');
  await db
    .update(mailOutbox)
    // a reset link must not outlive its mail in the log: only the token's hash is kept elsewhere
    .set({ status: 'sent', sentAt: new Date(), lastError: null, ...('token' in row.data ? { data: { ...row.data, token: '(sent)' } } : {}) })
    .where(and(eq(mailOutbox.id, row.id), eq(mailOutbox.status, 'pending')));
  return 'sent';
}

/** Outbox mails not sent yet, oldest first (`olderThan`: leave fresh ones to their own job). */
export async function pendingMailIds(db: Db, opts: { olderThan?: Date; newerThan?: Date; limit?: number } = {}): Promise<string[]> {
  const rows = await db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.status, 'pending'),
        opts.olderThan ? lt(mailOutbox.createdAt, opts.olderThan) : undefined,
        opts.newerThan ? gt(mailOutbox.createdAt, opts.newerThan) : undefined,
      ),
    )
    .orderBy(asc(mailOutbox.createdAt))
    .limit(opts.limit ?? 200);
  return rows.map((r) => r.id);
}

/** Sends every pending mail now (tests, scripts); failures stay pending. */
export async function deliverPending(db: Db, opts: DeliveryOptions): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  for (const id of await pendingMailIds(db)) {
    try {
      if ((await deliverMail(db, opts, id)) === 'sent') sent++;
    } catch {
      failed++;
    }
  }
  return { sent, failed };
}
