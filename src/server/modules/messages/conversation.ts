import { and, eq, sql } from 'drizzle-orm';
import type { Message, MessageSide } from '../../../shared/messages';
import type { ConversationAbout } from '../../../shared/schemas/message';
import type { Db } from '../../db/client';
import { conversationReads, opportunities, payments, placementMessages, placements, users } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { item, type Computed, type ItemOf, type Same } from '../../db/item';
import { jsonPages } from '../../lib/json-pages';
import { afterCursor, cursorAt, limitedPage, pageValues, type JsonPageRow, type Page } from '../../lib/paging';
import { PAYMENT_NOT_FOUND, paymentVisible, paymentVisibleSql } from '../../db/payment-access';
import { otherSide, queueNotice, unreadByPayment } from './service';
import { now as clockNow } from '../../lib/clock';

/** Who is asking: the brand that owns the payment (its id), or the editorial team (any admin). */
export type Caller = { side: 'brand'; organisationId: string; userId: string } | { side: 'admin'; userId: string };

/**
 * The placement a conversation belongs to, as the caller may see it: a brand only its own payment;
 * another brand's payment id is answered exactly like one that does not exist.
 */
export async function conversationOf(db: Db, caller: Caller, paymentId: string) {
  const [row] = await db
    .select({
      paymentId: placements.id,
      brandId: placements.brandId,
      status: payments.status,
      title: opportunities.title,
      outletName: opportunities.outletName,
      brandName: sql<string>`COALESCE(${users.brandName}, ${users.name}, ${users.email})`,
    })
    .from(placements)
    .innerJoin(payments, eq(payments.id, placements.paymentId))
    .innerJoin(opportunities, eq(opportunities.id, placements.opportunityId))
    .innerJoin(users, eq(users.id, placements.brandId))
    .where(and(eq(placements.id, paymentId), caller.side === 'brand' ? eq(placements.organisationId, caller.organisationId) : undefined));
  if (!row) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
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
const authorName: Computed<string> = {
  kind: 'computed',
  sql: sql`CASE WHEN ${placementMessages.side} = 'brand'
    THEN COALESCE(${users.brandName}, ${users.name}, ${users.email})
    ELSE COALESCE(${users.name}, 'Editorial team') END`,
  of: (rows) => {
    const author = rows.users as Pick<typeof users.$inferSelect, 'brandName' | 'name' | 'email'>;
    return rows.placement_messages?.side === 'brand' ? (author.brandName ?? author.name ?? author.email) : (author.name ?? 'Editorial team');
  },
};

/** The attachment's name, type and size, when the message has one (all its columns set). */
const attachment: Computed<Message['attachment']> = {
  kind: 'computed',
  sql: sql`CASE WHEN ${placementMessages.attachmentFile} <> '' AND ${placementMessages.attachmentName} <> ''
      AND ${placementMessages.attachmentType} <> '' AND ${placementMessages.attachmentSize} IS NOT NULL
    THEN json_build_object('name', ${placementMessages.attachmentName}, 'contentType', ${placementMessages.attachmentType}, 'size', ${placementMessages.attachmentSize}) END`,
  of: (rows) => {
    const m = rows.placement_messages as typeof placementMessages.$inferSelect;
    return m.attachmentFile && m.attachmentName && m.attachmentType && m.attachmentSize !== null
      ? { name: m.attachmentName, contentType: m.attachmentType, size: m.attachmentSize }
      : null;
  },
};

/**
 * A message as both sides see it (`Message`): built by the database for the pages (`.sql`, from a
 * placement_messages row joined to its author in `users`), by Node for the message just posted (`.of`).
 */
const messageItem = item({
  id: placementMessages.id,
  side: placementMessages.side,
  authorName,
  text: placementMessages.text,
  attachment,
  createdAt: placementMessages.createdAt,
});
const _messageTypeMatches: Same<ItemOf<typeof messageItem>, Message> = true;

type PageShape = { brand: boolean; cursor: boolean };

/**
 * A conversation's page, read from the database every time, so nothing of one viewer's page can
 * reach another's. A brand's page holds only messages of its own payment (found by the payment's
 * primary key, then its brand compared); an empty page says nothing about whether the caller may
 * see the payment, which `messagesPage` then asks.
 */
const messagesPageOf = jsonPages<PageShape, Record<string, unknown>>(
  'conversation_messages',
  (o) => `${o.brand ? 'brand' : 'admin'}.${o.cursor ? 'c' : 'n'}`,
  (o, columns) =>
    limitedPage(sql`SELECT ${columns(messageItem)}, ${placementMessages.id} AS "id", ${cursorAt(placementMessages.createdAt)} AS "cursorAt"
      FROM ${placementMessages}
      JOIN ${users} ON ${users.id} = ${placementMessages.authorId}
      WHERE ${placementMessages.placementId} = ${sql.placeholder('paymentId')}::uuid
        ${o.brand ? sql`AND ${paymentVisibleSql(true)}` : sql``}
        ${o.cursor ? sql`AND ${afterCursor(placementMessages.createdAt, placementMessages.id)}` : sql``}
      ORDER BY ${placementMessages.createdAt} DESC, ${placementMessages.id} DESC`),
);

/**
 * GET …/messages: the newest page first, each page newest first, and `Link: rel="next"` names the
 * page of older messages, as chat apps load a conversation: the latest messages are what a reader
 * opens it for, and scrolling up fetches history. The client shows each page oldest at the top.
 * Each row's JSON is a `Message`, built by the database. Another brand's payment is a 404, like a
 * missing one: asked of the database when the page comes back empty.
 */
export async function messagesPage(db: Db, caller: Caller, paymentId: string, page: Page): Promise<JsonPageRow[]> {
  let values: ReturnType<typeof pageValues>;
  try {
    values = pageValues(page);
  } catch (err) {
    // a cursor of another list: the payment is judged first, as for every other error of the page
    await conversationOf(db, caller, paymentId);
    throw err;
  }
  const rows = await messagesPageOf(
    db,
    { brand: caller.side === 'brand', cursor: Boolean(page.cursor) },
    { paymentId, ...(caller.side === 'brand' ? { organisationId: caller.organisationId } : {}), ...values },
  );
  if (!rows.length && !(await paymentVisible(db, paymentId, caller.side === 'brand' ? caller.organisationId : undefined))) {
    throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  }
  return rows;
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
  now = clockNow(),
): Promise<Message> {
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(placementMessages)
      .values({
        placementId: paymentId,
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
    .select({ brandName: users.brandName, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, row.authorId));
  return messageItem.of({ placement_messages: row, users: author });
}

/**
 * POST …/messages/read: the caller's side has read everything the other side wrote so far. The
 * mark is the newest such message's time (not the clock), so a message committed a moment later
 * with an earlier timestamp still counts as unread; it never moves back.
 */
export async function markRead(db: Db, side: MessageSide, paymentId: string): Promise<void> {
  // in SQL: the mark keeps the timestamp's microseconds (a JS Date would round them off)
  await db.execute(sql`
    INSERT INTO ${conversationReads} (placement_id, side, read_at)
    SELECT ${paymentId}::uuid, ${side}, max(${placementMessages.createdAt}) FROM ${placementMessages}
    WHERE ${placementMessages.placementId} = ${paymentId}::uuid AND ${placementMessages.side} = ${otherSide(side)}
    HAVING max(${placementMessages.createdAt}) IS NOT NULL
    ON CONFLICT (placement_id, side) DO UPDATE SET read_at = GREATEST(${conversationReads.readAt}, excluded.read_at)`);
}

/** The stored file of a message's attachment, when the message belongs to this conversation. */
export async function attachmentOf(db: Db, paymentId: string, messageId: string) {
  const [row] = await db
    .select({
      file: placementMessages.attachmentFile,
      name: placementMessages.attachmentName,
      type: placementMessages.attachmentType,
    })
    .from(placementMessages)
    .where(and(eq(placementMessages.id, messageId), eq(placementMessages.placementId, paymentId)));
  return row?.file && row.name && row.type ? { file: row.file, name: row.name, type: row.type } : null;
}
