import { and, eq, sql } from 'drizzle-orm';
import type { TimelineEntry, TimelineKind } from '../../../shared/timeline';
import type { Db } from '../../db/client';
import { item, type Computed, type ItemOf, type Same } from '../../db/item';
import { sessionCheckSql, type SessionCheck } from '../../db/session-check';
import { preparedVariants } from '../../db/statement';
import { placementEvents, users } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { limitedPage } from '../../lib/paging';
import { isUuid } from '../../lib/route-params';
import type { Tx } from '../../mail/outbox';
import { PAYMENT_NOT_FOUND, paymentVisibleSql } from '../../db/payment-access';

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

/** The entry's id as text (a bigint; JSON numbers lose precision past 2^53). */
const entryId: Computed<string> = {
  kind: 'computed',
  sql: sql`${placementEvents.id}::text`,
  tables: [placementEvents],
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

type TimelineShape = { brand: boolean; after: boolean; checked: boolean };
/** A page's rows and whether the caller may see the placement: one row of nulls when the page is empty. */
type OwnedEntryRow = { ok: boolean; json: string | null; id: string | null };

/**
 * The owner check and the page in one statement (one round trip, prepared once per shape): the
 * check is a one-row CTE (materialized: evaluated once, not copied into the page's condition), the
 * page is joined to it laterally and read only when it holds.
 */
const timelineStatement = preparedVariants<TimelineShape, OwnedEntryRow, Record<string, unknown>>(
  'timeline_page',
  (o) => `${o.brand ? 'brand' : 'admin'}.${o.after ? 'c' : 'n'}${o.checked ? '.s' : ''}`,
  (o) => sql`WITH "owner" AS MATERIALIZED (SELECT ${paymentVisibleSql(o.brand)}${o.checked ? sql` AND ${sessionCheckSql}` : sql``} AS "ok")
    SELECT "owner"."ok", "page"."json", "page"."id"
    FROM "owner"
    LEFT JOIN LATERAL (${limitedPage(sql`SELECT ${timelineEntryItem.sql}::text AS "json", ${placementEvents.id}::text AS "id"
      FROM ${placementEvents}
      WHERE "owner"."ok" AND ${placementEvents.paymentId} = ${sql.placeholder('paymentId')}::uuid
        ${o.after ? sql`AND ${placementEvents.id} > ${sql.placeholder('after')}::bigint` : sql``}
      ORDER BY ${placementEvents.id}`)}) AS "page" ON true`,
);

/**
 * One page of a placement's timeline, oldest first: `after` is the id of the last entry already
 * shown. A brand sees its own placements only (another's is a 404, like a missing one). Each
 * entry's JSON is a `TimelineEntry`, built by the database; `limit` is at most PAGE_LIMIT_MAX.
 */
export async function timelinePage(
  db: Db,
  paymentId: string,
  opts: { brandId?: string; after?: number; limit: number; check?: SessionCheck },
): Promise<{ entries: { json: string; id: string }[]; more: boolean }> {
  if (!isUuid(paymentId)) throw notFound(PAYMENT_NOT_FOUND);
  const rows = await timelineStatement(
    db,
    { brand: opts.brandId !== undefined, after: opts.after !== undefined, checked: opts.check !== undefined },
    {
      paymentId,
      ...(opts.brandId !== undefined ? { brandId: opts.brandId } : {}),
      ...(opts.after !== undefined ? { after: opts.after } : {}),
      limit: opts.limit + 1,
      ...opts.check,
    },
  );
  if (!rows[0]?.ok) throw notFound(PAYMENT_NOT_FOUND);
  if (rows[0].json === null) return { entries: [], more: false };
  const entries = rows as { json: string; id: string }[];
  return { entries: entries.slice(0, opts.limit), more: entries.length > opts.limit };
}
