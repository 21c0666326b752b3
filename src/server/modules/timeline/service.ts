import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TimelineEntry, TimelineKind } from '../../../shared/timeline';
import type { Db } from '../../db/client';
import { item, type Computed, type ItemOf, type Same } from '../../db/item';
import { jsonPages } from '../../lib/json-pages';
import { placementEvents, placements, users } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { limitedPage, type JsonPageRow } from '../../lib/paging';
import type { Tx } from '../../mail/outbox';
import { PAYMENT_NOT_FOUND, paymentVisible, paymentVisibleSql } from '../../db/payment-access';
import { runEffects, type EffectFacts } from './effects';

export type { EffectFacts } from './effects';

/**
 * A placement's timeline (shared/timeline.ts): one row of `placement_events` per change, inserted
 * by the change itself inside its own transaction, so the history can never disagree with the
 * data: a change that rolls back takes its entry with it. Rows are never updated or deleted.
 */

/** Who did it: a user (a member or an admin, named from the users table as they are called then) or Byline. */
export type Actor = { type: 'brand' | 'admin'; id: string } | { type: 'system' };
export const SYSTEM: Actor = { type: 'system' };
/** What Byline calls itself on a timeline. */
const SYSTEM_NAME = 'Byline';

/**
 * Appends one entry, then what follows it (effects.ts: the audit entry and the mails of its kind,
 * from its details and `facts`). `tx`: the transaction of the change it records.
 */
export async function recordEvent(
  tx: Tx,
  paymentId: string,
  kind: TimelineKind,
  actor: Actor,
  details: Record<string, unknown> = {},
  at?: Date,
  facts: EffectFacts = {},
) {
  const actorId = actor.type === 'system' ? null : actor.id;
  // the member who acted by name, not their organisation (issue 57), and an admin by name; the
  // e-mail when there is no name
  const name = actorId
    ? sql`coalesce((SELECT coalesce(nullif(${users.name}, ''), ${users.email}) FROM ${users} WHERE ${users.id} = ${actorId}), ${SYSTEM_NAME})`
    : sql`${SYSTEM_NAME}`;
  await tx.insert(placementEvents).values({
    placementId: paymentId,
    kind,
    actorType: actor.type,
    actorId,
    actorName: name,
    details,
    ...(at ? { at } : {}),
  });
  await runEffects(tx, { placementId: paymentId, kind, actor, details, facts }, at);
  // the first admin who acts on it becomes its editor (issue 59), unless one was assigned before
  if (actor.type === 'admin') {
    await tx.update(placements).set({ assigneeId: actor.id }).where(and(eq(placements.id, paymentId), isNull(placements.assigneeId)));
  }
}

/**
 * Appends a reminder once, and its mail (effects.ts): a second instance (or a second run) finds the
 * step recorded and adds nothing. Answers whether this call recorded it.
 */
export async function recordReminderOnce(
  tx: Tx,
  paymentId: string,
  kind: 'brief_reminder' | 'review_reminder' | 'deadline_reminder',
  step: string,
  details: Record<string, unknown>,
  at: Date,
) {
  const rows = await tx.execute<{ id: number }>(sql`INSERT INTO ${placementEvents} (placement_id, kind, actor_type, actor_name, details, at)
    VALUES (${paymentId}, ${kind}, 'system', ${SYSTEM_NAME}, ${JSON.stringify({ ...details, step })}::jsonb, ${at.toISOString()}::timestamptz)
    ON CONFLICT (placement_id, kind, (details ->> 'step')) WHERE kind IN ('brief_reminder', 'review_reminder', 'deadline_reminder') DO NOTHING
    RETURNING id`);
  const list = Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows;
  if (!list.length) return false;
  await runEffects(tx, { placementId: paymentId, kind, actor: SYSTEM, details: { ...details, step }, facts: {} }, at);
  return true;
}

/** The round a draft or an edit request belongs to: 1, then one more after each request for edits. */
export async function currentRound(tx: Tx, paymentId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(placementEvents)
    .where(and(eq(placementEvents.placementId, paymentId), eq(placementEvents.kind, 'edits_requested')));
  return row.n + 1;
}

export const TIMELINE_LIMIT_DEFAULT = 100;

/** The entry's id as text (a bigint; JSON numbers lose precision past 2^53). */
const entryId: Computed<string> = {
  kind: 'computed',
  sql: sql`${placementEvents.id}::text`,
  of: (rows) => String(rows.placement_events?.id),
};

/** A timeline entry (`TimelineEntry`), its JSON built by the database from a placement_events row. */
const timelineEntryItem = item({
  id: entryId,
  kind: placementEvents.kind,
  actor: item({ type: placementEvents.actorType, name: placementEvents.actorName }),
  at: placementEvents.at,
  details: placementEvents.details,
});
const _timelineEntryTypeMatches: Same<ItemOf<typeof timelineEntryItem>, TimelineEntry> = true;

type TimelineShape = { brand: boolean; after: boolean };

/**
 * A timeline's page, read from the database every time. A brand's page holds only entries of its
 * own payment (found by the payment's primary key, then its brand compared); an empty page says
 * nothing about whether the caller may see the payment, which `timelinePage` then asks.
 */
const timelinePageOf = jsonPages<TimelineShape, Record<string, unknown>>(
  'timeline_page',
  (o) => `${o.brand ? 'brand' : 'admin'}.${o.after ? 'c' : 'n'}`,
  (o, columns) =>
    limitedPage(sql`SELECT ${columns(timelineEntryItem)}, ${placementEvents.id}::text AS "id"
      FROM ${placementEvents}
      WHERE ${placementEvents.placementId} = ${sql.placeholder('paymentId')}::uuid
        ${o.brand ? sql`AND ${paymentVisibleSql(true)}` : sql``}
        ${o.after ? sql`AND ${placementEvents.id} > ${sql.placeholder('after')}::bigint` : sql``}
      ORDER BY ${placementEvents.id}`),
);

/**
 * One page of a placement's timeline, oldest first: `after` is the id of the last entry already
 * shown. A brand sees its own placements only (another's is a 404, like a missing one). Each
 * entry's JSON is a `TimelineEntry`, built by the database; `limit` is at most PAGE_LIMIT_MAX.
 */
export async function timelinePage(
  db: Db,
  paymentId: string,
  opts: { organisationId?: string; after?: number; limit: number },
): Promise<{ rows: JsonPageRow[]; entries: JsonPageRow[]; more: boolean }> {
  const rows = await timelinePageOf(
    db,
    { brand: opts.organisationId !== undefined, after: opts.after !== undefined },
    {
      paymentId,
      ...(opts.organisationId !== undefined ? { organisationId: opts.organisationId } : {}),
      ...(opts.after !== undefined ? { after: opts.after } : {}),
      limit: opts.limit + 1,
    },
  );
  if (!rows.length && !(await paymentVisible(db, paymentId, opts.organisationId))) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  return { rows, entries: rows.slice(0, opts.limit), more: rows.length > opts.limit };
}
