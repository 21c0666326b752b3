import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { TimelineEntry, TimelineKind } from '../../../shared/timeline';
import type { Db } from '../../db/client';
import { payments, placementEvents, users } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { isUuid } from '../../lib/route-params';
import type { Tx } from '../../mail/outbox';
import { PAYMENT_NOT_FOUND } from '../payments/service';

/**
 * A placement's timeline (shared/timeline.ts): one row of `placement_events` per change, inserted
 * by the change itself inside its own transaction, so the history can never disagree with the
 * data: a change that rolls back takes its entry with it. Rows are never updated or deleted.
 */

/** Who did it: a user (brand or admin, named from the users table as they are called then) or Byline. */
export type Actor = { type: 'brand' | 'admin'; id: string } | { type: 'system' };
export const SYSTEM: Actor = { type: 'system' };
/** What Byline calls itself on a timeline. */
const SYSTEM_NAME = 'Byline';

/** Appends one entry. `tx`: the transaction of the change it records. */
export async function recordEvent(tx: Tx, paymentId: string, kind: TimelineKind, actor: Actor, details: Record<string, unknown> = {}, at?: Date) {
  const actorId = actor.type === 'system' ? null : actor.id;
  // the brand by its brand name, an admin by name; the e-mail when there is no name
  const name = actorId
    ? sql`coalesce((SELECT coalesce(nullif(${users.brandName}, ''), nullif(${users.name}, ''), ${users.email}) FROM ${users} WHERE ${users.id} = ${actorId}), ${SYSTEM_NAME})`
    : sql`${SYSTEM_NAME}`;
  await tx.insert(placementEvents).values({
    paymentId,
    kind,
    actorType: actor.type,
    actorId,
    actorName: name,
    details,
    ...(at ? { at } : {}),
  });
}

/**
 * Appends a reminder once: a second instance (or a second run) finds the step recorded and adds
 * nothing. Answers whether this call recorded it.
 */
export async function recordReminderOnce(tx: Tx, paymentId: string, kind: 'brief_reminder' | 'review_reminder', step: string, details: Record<string, unknown>, at: Date) {
  const rows = await tx.execute<{ id: number }>(sql`INSERT INTO ${placementEvents} (payment_id, kind, actor_type, actor_name, details, at)
    VALUES (${paymentId}, ${kind}, 'system', ${SYSTEM_NAME}, ${JSON.stringify({ ...details, step })}::jsonb, ${at.toISOString()}::timestamptz)
    ON CONFLICT (payment_id, kind, (details ->> 'step')) WHERE kind IN ('brief_reminder', 'review_reminder') DO NOTHING
    RETURNING id`);
  const list = Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows;
  return list.length > 0;
}

/** The round a draft or an edit request belongs to: 1, then one more after each request for edits. */
export async function currentRound(tx: Tx, paymentId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(placementEvents)
    .where(and(eq(placementEvents.paymentId, paymentId), eq(placementEvents.kind, 'edits_requested')));
  return row.n + 1;
}

export const TIMELINE_LIMIT_DEFAULT = 100;

/**
 * One page of a placement's timeline, oldest first: `after` is the id of the last entry already
 * shown. A brand sees its own placements only (another's is a 404, like a missing one).
 */
export async function timelinePage(
  db: Db,
  paymentId: string,
  opts: { brandId?: string; after?: number; limit: number },
): Promise<{ entries: TimelineEntry[]; more: boolean }> {
  if (!isUuid(paymentId)) throw notFound(PAYMENT_NOT_FOUND);
  const [owner] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.id, paymentId), opts.brandId ? eq(payments.brandId, opts.brandId) : undefined));
  if (!owner) throw notFound(PAYMENT_NOT_FOUND);
  const rows = await db
    .select()
    .from(placementEvents)
    .where(and(eq(placementEvents.paymentId, paymentId), opts.after !== undefined ? gt(placementEvents.id, opts.after) : undefined))
    .orderBy(asc(placementEvents.id))
    .limit(opts.limit + 1);
  const entries = rows.slice(0, opts.limit).map((r) => ({
    id: String(r.id),
    kind: r.kind,
    actor: { type: r.actorType, name: r.actorName },
    at: r.at.toISOString(),
    details: r.details,
  }));
  return { entries, more: rows.length > opts.limit };
}
