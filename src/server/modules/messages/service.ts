import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { MessageSide } from '../../../shared/messages';
import type { UnreadSummary } from '../../../shared/schemas/message';
import type { Db } from '../../db/client';
import {
  conversationNotices,
  conversationReads,
  opportunities,
  placementMessages,
  placements,
  users,
} from '../../db/schema';
import { enqueueAdminMail, enqueueMail, type Tx } from '../../mail/outbox';
import type { MessageDigestEntry } from '../../mail/templates';

/**
 * The public side of the messages module: unread counts (the lists and the sidebar use them) and
 * the e-mail notices the jobs send (jobs/message-notices.ts).
 */

export const otherSide = (side: MessageSide): MessageSide => (side === 'brand' ? 'admin' : 'brand');

/** Which conversations to count: one brand's, some payments', or (admins) every one. */
export type UnreadScope = { organisationId: string; clientIds?: string[] | null } | { paymentIds: string[] } | 'all';

/**
 * Unread messages of `side` per payment: the other side's messages written after the side's read
 * mark (all of them when it has none). Only the conversations with something unread are read:
 * those whose mark row says the other side wrote after it (conversation_reads_unread_idx, kept by
 * a trigger on every message insert, migration 0014), each counted through the (placement_id, side, created_at) index. Placements without
 * unread messages are left out.
 */
export async function unreadByPayment(db: Db, side: MessageSide, scope: UnreadScope): Promise<UnreadSummary> {
  if (scope !== 'all' && 'paymentIds' in scope && scope.paymentIds.length === 0) return { total: 0, byPayment: {} };
  const r = conversationReads;
  const inScope =
    scope === 'all'
      ? undefined
      : 'organisationId' in scope
        ? inArray(
            r.placementId,
            db
              .select({ id: placements.id })
              .from(placements)
              .where(
                and(
                  eq(placements.organisationId, scope.organisationId),
                  // a member limited to clients counts only theirs (decision 035)
                  scope.clientIds ? inArray(placements.clientId, scope.clientIds) : undefined,
                ),
              ),
          )
        : inArray(r.placementId, scope.paymentIds);
  const rows = await db
    .select({
      paymentId: r.placementId,
      // qualified by hand: inside the subquery an unqualified placement_id would be the message's
      n: sql<number>`(SELECT count(*)::int FROM ${placementMessages} m WHERE m.placement_id = conversation_reads.placement_id
        AND m.side = ${otherSide(side)} AND m.created_at > coalesce(conversation_reads.read_at, '-infinity'::timestamptz))`,
    })
    .from(r)
    .where(and(eq(r.side, side), sql`${r.unread}`, inScope));
  const byPayment: Record<string, number> = {};
  let total = 0;
  for (const row of rows) {
    if (row.n === 0) continue;
    byPayment[row.paymentId] = row.n;
    total += row.n;
  }
  return { total, byPayment };
}

// ---------------------------------------------------------------------------------------------
// E-mail notices: at most one mail per conversation and side every 15 minutes, with everything
// that side has not read yet.

/** The first notice waits this long after a message: a burst of messages makes one e-mail, sent within a minute. */
export const NOTICE_GATHER_MS = 45_000;
/** At most one e-mail per conversation and side in this window. */
export const NOTICE_INTERVAL_MS = 15 * 60_000;
/** The unread messages one e-mail quotes (the newest ones); the rest are counted. */
const NOTICE_MAX_MESSAGES = 20;

export interface Notice {
  paymentId: string;
  /** the side to tell (the one that did not write) */
  side: MessageSide;
}

/**
 * Queues the notice job on the caller's transaction, to start at `startAfter` (set by the jobs at
 * start-up, jobs/message-notices.ts). Without it (tests, scripts) nothing is queued: the tests run
 * {@link sendMessageNotice} themselves, with their own clock.
 */
type NoticeQueue = (tx: Tx, notice: Notice, startAfter: Date) => Promise<void>;
let noticeQueue: NoticeQueue | null = null;
export function setNoticeQueue(queue: NoticeQueue | null) {
  noticeQueue = queue;
}

/** When the notice of a message written at `now` is due: after the gathering delay, and 15 minutes after the last e-mail. */
export async function noticeDueAt(tx: Tx, notice: Notice, now: Date): Promise<Date> {
  const [row] = await tx
    .select({ lastSentAt: conversationNotices.lastSentAt })
    .from(conversationNotices)
    .where(and(eq(conversationNotices.placementId, notice.paymentId), eq(conversationNotices.side, notice.side)));
  const gathered = now.getTime() + NOTICE_GATHER_MS;
  const allowed = row?.lastSentAt ? row.lastSentAt.getTime() + NOTICE_INTERVAL_MS : 0;
  return new Date(Math.max(gathered, allowed));
}

/** Called in the transaction that writes a message: the other side's notice job, due when {@link noticeDueAt} says. */
export async function queueNotice(tx: Tx, notice: Notice, now: Date) {
  if (!noticeQueue) return;
  await noticeQueue(tx, notice, await noticeDueAt(tx, notice, now));
}

export type NoticeResult = { sent: number } | { tooSoon: Date } | { nothingUnread: true };

/**
 * The notice job: mails `side` everything it has not read in the conversation (the brand, or
 * every admin), unless it was mailed less than 15 minutes before `now`, or has read it all in
 * the meantime. The notice row is locked, so two workers never both send.
 *
 * Message mail goes out whatever the brand's e-mail preference: that setting turns off progress
 * mails ("E-mail me about my placements' progress"), and a message is a person waiting for an
 * answer; the 15-minute batching keeps it quiet.
 */
export async function sendMessageNotice(db: Db, notice: Notice, now: Date): Promise<NoticeResult> {
  const { paymentId, side } = notice;
  return db.transaction(async (tx) => {
    await tx.insert(conversationNotices).values({ placementId: paymentId, side, lastSentAt: null }).onConflictDoNothing();
    const [mark] = await tx
      .select({ lastSentAt: conversationNotices.lastSentAt })
      .from(conversationNotices)
      .where(and(eq(conversationNotices.placementId, paymentId), eq(conversationNotices.side, side)))
      .for('no key update');
    if (mark?.lastSentAt && now.getTime() - mark.lastSentAt.getTime() < NOTICE_INTERVAL_MS) {
      return { tooSoon: new Date(mark.lastSentAt.getTime() + NOTICE_INTERVAL_MS) };
    }

    const unreadWhere = and(
      eq(placementMessages.placementId, paymentId),
      eq(placementMessages.side, otherSide(side)),
      // the read mark compared in SQL: it keeps its microseconds
      sql`${placementMessages.createdAt} > COALESCE((SELECT ${conversationReads.readAt} FROM ${conversationReads}
        WHERE ${conversationReads.placementId} = ${paymentId}::uuid AND ${conversationReads.side} = ${side}), '-infinity'::timestamptz)`,
    );
    const newest = await tx
      .select({
        at: placementMessages.createdAt,
        text: placementMessages.text,
        attachmentName: placementMessages.attachmentName,
        author: sql<string>`CASE WHEN ${placementMessages.side} = 'brand'
          THEN COALESCE(${users.brandName}, ${users.name}, ${users.email}) ELSE COALESCE(${users.name}, 'Editorial team') END`,
      })
      .from(placementMessages)
      .innerJoin(users, eq(users.id, placementMessages.authorId))
      .where(unreadWhere)
      .orderBy(desc(placementMessages.createdAt), desc(placementMessages.id))
      .limit(NOTICE_MAX_MESSAGES);
    if (newest.length === 0) return { nothingUnread: true };
    const [{ total }] = await tx.select({ total: count() }).from(placementMessages).where(unreadWhere);

    const [p] = await tx
      .select({
        brandId: placements.brandId,
        title: opportunities.title,
        outlet: opportunities.outletName,
        brand: sql<string>`COALESCE(${users.brandName}, ${users.name}, ${users.email})`,
      })
      .from(placements)
      .innerJoin(opportunities, eq(opportunities.id, placements.opportunityId))
      .innerJoin(users, eq(users.id, placements.brandId))
      .where(eq(placements.id, paymentId));
    if (!p) return { nothingUnread: true };

    const messages: MessageDigestEntry[] = newest
      .map((m) => ({ author: m.author, at: m.at.toISOString(), text: m.text, attachmentName: m.attachmentName }))
      .reverse();
    const data = {
      kind: 'message_received' as const,
      paymentId,
      outlet: p.outlet,
      title: p.title,
      brand: p.brand,
      forAdmin: side === 'admin',
      messages,
      unread: total,
    };
    if (side === 'brand') await enqueueMail(tx, { userId: p.brandId }, data);
    else await enqueueAdminMail(tx, data);
    await tx
      .update(conversationNotices)
      .set({ lastSentAt: now })
      .where(and(eq(conversationNotices.placementId, paymentId), eq(conversationNotices.side, side)));
    return { sent: total };
  });
}
