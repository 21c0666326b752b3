import { and, eq, gte, isNull, lt, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { checkouts, opportunities } from '../../db/schema';
import { startOfUtcDay } from '../../lib/dates';

/** A database handle or a transaction: both run the same queries. */
export type Tx = Pick<Db, 'select' | 'insert' | 'update' | 'execute'>;

/**
 * The condition under which a slot can be taken: available, not full, and no deadline or one on or
 * after `since` (the start of today in UTC; null ignores the deadline). Values or placeholders of a
 * prepared statement.
 */
export function slotIsFree(opportunityId: string | Placeholder, since: Date | Placeholder | null): SQL {
  return and(
    eq(opportunities.id, opportunityId),
    eq(opportunities.status, 'available'),
    lt(opportunities.filledSlots, opportunities.maxSlots),
    since === null ? undefined : or(isNull(opportunities.deadlineDate), gte(opportunities.deadlineDate, since)),
  )!;
}

/** The change that takes a slot; the last one makes the opportunity full. */
export const takeSlot = {
  filledSlots: sql`${opportunities.filledSlots} + 1`,
  status: sql`CASE WHEN ${opportunities.filledSlots} + 1 >= ${opportunities.maxSlots} THEN 'full' ELSE ${opportunities.status} END`,
};

/**
 * Takes one slot in ONE conditional UPDATE (never read-then-write): the row lock makes concurrent
 * claims queue, and each re-checks `filled_slots < max_slots` after the one before it commits.
 * Returns the opportunity, or undefined when it is sold out, not available or past its deadline.
 * `ignoreDeadline` is for a payment that completes after its hold expired: the brand started
 * paying before the deadline.
 */
export async function reserveSlot(tx: Tx, opportunityId: string, now: Date, opts: { ignoreDeadline?: boolean } = {}) {
  const [row] = await tx
    .update(opportunities)
    .set(takeSlot)
    .where(slotIsFree(opportunityId, opts.ignoreDeadline ? null : startOfUtcDay(now)))
    .returning({
      id: opportunities.id,
      title: opportunities.title,
      outletName: opportunities.outletName,
      priceUsd: opportunities.priceUsd,
    });
  return row;
}

/** Gives one slot back; a full opportunity becomes available again. */
export async function releaseSlot(tx: Tx, opportunityId: string): Promise<void> {
  await tx
    .update(opportunities)
    .set({
      filledSlots: sql`GREATEST(${opportunities.filledSlots} - 1, 0)`,
      status: sql`CASE WHEN ${opportunities.status} = 'full' AND ${opportunities.filledSlots} - 1 < ${opportunities.maxSlots} THEN 'available' ELSE ${opportunities.status} END`,
    })
    .where(eq(opportunities.id, opportunityId));
}

/**
 * Closes the open holds matching `where` (as expired or cancelled) and gives their slots back, in
 * one statement. A hold the built-in checkout has already charged is never closed: it is about to
 * become a payment. Returns how many holds were closed.
 */
export async function closeCheckouts(tx: Tx, where: SQL, status: 'expired' | 'cancelled', now: Date): Promise<number> {
  const result = await tx.execute(sql`
    WITH closed AS (
      UPDATE ${checkouts}
      SET status = ${status}, closed_at = ${now.toISOString()}::timestamptz
      WHERE status = 'open' AND test_provider_ref IS NULL AND (${where})
      RETURNING opportunity_id
    ), counts AS (
      SELECT opportunity_id, count(*)::int AS n FROM closed GROUP BY opportunity_id
    ), released AS (
      UPDATE ${opportunities} o
      SET filled_slots = GREATEST(o.filled_slots - c.n, 0),
          status = CASE WHEN o.status = 'full' AND o.filled_slots - c.n < o.max_slots THEN 'available' ELSE o.status END
      FROM counts c
      WHERE o.id = c.opportunity_id
      RETURNING o.id
    )
    SELECT coalesce(sum(n), 0)::int AS closed FROM counts
  `);
  const rows = (result as unknown as { rows: { closed: number }[] }).rows;
  return Number(rows[0]?.closed ?? 0);
}

/** Expires every open hold whose time is up (the every-minute job); an order's lines end with their order (orders.ts). */
export function expireCheckouts(db: Db, now: Date): Promise<number> {
  return closeCheckouts(db, sql`expires_at <= ${now.toISOString()}::timestamptz AND order_id IS NULL`, 'expired', now);
}

export const checkoutById = (id: string) => sql`${checkouts.id} = ${id}`;
