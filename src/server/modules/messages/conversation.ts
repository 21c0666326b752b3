import { and, desc, eq, sql } from 'drizzle-orm';
import type { Message, MessageSide } from '../../../shared/messages';
import type { ConversationAbout } from '../../../shared/schemas/message';
import type { Db } from '../../db/client';
import { conversationReads, opportunities, payments, placementMessages, users } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { after, cursorAt, type Page } from '../../lib/paging';
import { isUuid } from '../../lib/route-params';
import { PAYMENT_NOT_FOUND } from '../payments/service';
import { otherSide, queueNotice, unreadByPayment } from './service';

/** Who is asking: the brand that owns the payment (its id), or the editorial team (any admin). */
export type Caller = { side: 'brand'; brandId: string; userId: string } | { side: 'admin'; userId: string };

/**
 * The placement a conversation belongs to, as the caller may see it: a brand only its own payment;
 * another brand's payment id is answered exactly like one that does not exist.
 */
export async function conversationOf(db: Db, caller: Caller, paymentId: string) {
  if (!isUuid(paymentId)) throw notFound(PAYMENT_NOT_FOUND);
  const [row] = await db
    .select({
      paymentId: payments.id,
      brandId: payments.brandId,
      status: payments.status,
      title: opportunities.title,
      outletName: opportunities.outletName,
      brandName: sql<string>`COALESCE(${users.brandName}, ${users.name}, ${users.email})`,
    })
    .from(payments)
    .innerJoin(opportunities, eq(opportunities.id, payments.opportunityId))
    .innerJoin(users, eq(users.id, payments.brandId))
    .where(and(eq(payments.id, paymentId), caller.side === 'brand' ? eq(payments.brandId, caller.brandId) : undefined));
  if (!row) throw notFound(PAYMENT_NOT_FOUND);
  return row;
}

/** GET …/conversation: the header of the details page, with the caller's unread count. */
export async function conversationAbout(db: Db, caller: Caller, paymentId: string): Promise<ConversationAbout> {
  const c = await conversationOf(db, caller, paymentId);
  const unread = await unreadByPayment(db, caller.side, { paymentIds: [c.paymentId] });
  return {
    paymentId: c.paymentId,
    title: c.title,
    outletName: c.outletName,
    brandName: c.brandName,
    status: c.status,
    unread: unread.total,
  };
}

/** The name the other side sees: the brand's name, or an admin's name (the team when it has none). */
const authorName = sql<string>`CASE WHEN ${placementMessages.side} = 'brand'
  THEN COALESCE(${users.brandName}, ${users.name}, ${users.email})
  ELSE COALESCE(${users.name}, 'Editorial team') END`;

type MessageRow = typeof placementMessages.$inferSelect & { authorName: string };

export function toMessage(m: MessageRow): Message {
  return {
    id: m.id,
    side: m.side,
    authorName: m.authorName,
    text: m.text,
    attachment:
      m.attachmentFile && m.attachmentName && m.attachmentType && m.attachmentSize !== null
        ? { name: m.attachmentName, contentType: m.attachmentType, size: m.attachmentSize }
        : null,
    createdAt: m.createdAt.toISOString(),
  };
}

/**
 * GET …/messages: the newest page first, each page newest first, and `Link: rel="next"` names the
 * page of older messages, as chat apps load a conversation: the latest messages are what a reader
 * opens it for, and scrolling up fetches history. The client shows each page oldest at the top.
 */
export async function listMessages(db: Db, paymentId: string, page: Page) {
  return db
    .select({ row: placementMessages, authorName, cursorAt: cursorAt(placementMessages.createdAt) })
    .from(placementMessages)
    .innerJoin(users, eq(users.id, placementMessages.authorId))
    .where(
      and(
        eq(placementMessages.paymentId, paymentId),
        after(placementMessages.createdAt, placementMessages.id, page.cursor),
      ),
    )
    .orderBy(desc(placementMessages.createdAt), desc(placementMessages.id))
    .limit(page.limit + 1)
    .then((rows) => rows.map((r) => ({ ...r.row, authorName: r.authorName, cursorAt: r.cursorAt })));
}

export interface NewMessage {
  text: string;
  attachment: { file: string; name: string; type: string; size: number } | null;
}

/**
 * Writes a message (never changed afterwards) and, in the same transaction, the other side's
 * notice job (service.ts): the e-mail exists exactly when the message does.
 */
export async function postMessage(
  db: Db,
  caller: Caller,
  paymentId: string,
  input: NewMessage,
  now = new Date(),
): Promise<Message> {
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(placementMessages)
      .values({
        paymentId,
        side: caller.side,
        authorId: caller.userId,
        text: input.text,
        attachmentFile: input.attachment?.file ?? null,
        attachmentName: input.attachment?.name ?? null,
        attachmentType: input.attachment?.type ?? null,
        attachmentSize: input.attachment?.size ?? null,
      })
      .returning();
    // the other side's unread mark moves with the insert (a trigger, migration 0014)
    await queueNotice(tx, { paymentId, side: otherSide(caller.side) }, now);
    return inserted;
  });
  const [author] = await db
    .select({ authorName })
    .from(placementMessages)
    .innerJoin(users, eq(users.id, placementMessages.authorId))
    .where(eq(placementMessages.id, row.id));
  return toMessage({ ...row, authorName: author.authorName });
}

/**
 * POST …/messages/read: the caller's side has read everything the other side wrote so far. The
 * mark is the newest such message's time (not the clock), so a message committed a moment later
 * with an earlier timestamp still counts as unread; it never moves back.
 */
export async function markRead(db: Db, side: MessageSide, paymentId: string): Promise<void> {
  // in SQL: the mark keeps the timestamp's microseconds (a JS Date would round them off)
  await db.execute(sql`
    INSERT INTO ${conversationReads} (payment_id, side, read_at)
    SELECT ${paymentId}::uuid, ${side}, max(${placementMessages.createdAt}) FROM ${placementMessages}
    WHERE ${placementMessages.paymentId} = ${paymentId}::uuid AND ${placementMessages.side} = ${otherSide(side)}
    HAVING max(${placementMessages.createdAt}) IS NOT NULL
    ON CONFLICT (payment_id, side) DO UPDATE SET read_at = GREATEST(${conversationReads.readAt}, excluded.read_at)`);
}

/** The stored file of a message's attachment, when the message belongs to this conversation. */
export async function attachmentOf(db: Db, paymentId: string, messageId: string) {
  if (!isUuid(messageId)) return null;
  const [row] = await db
    .select({
      file: placementMessages.attachmentFile,
      name: placementMessages.attachmentName,
      type: placementMessages.attachmentType,
    })
    .from(placementMessages)
    .where(and(eq(placementMessages.id, messageId), eq(placementMessages.paymentId, paymentId)));
  return row?.file && row.name && row.type ? { file: row.file, name: row.name, type: row.type } : null;
}
