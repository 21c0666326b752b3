import { sql, type SQL } from 'drizzle-orm';
import { DAY_MS, GUARANTEE_DAYS } from '../../../shared/constants';
import { cancellations, disputes, payments, placements } from '../../db/schema';

/**
 * When each automatic step of a placement falls due (issue 59), stated once: the step's own job
 * takes what is due by now (`…Due(now)`), and its reminder (timers.ts `dueSoon`) what falls due
 * within its window (`…Due(until, now)`, with the due time `…DueAt`). Each reads its index.
 */

/**
 * The payments the guarantee refunds whose refund falls due after `after` (if given) and by `until`:
 * held, no refund claimed, not a swap's top-up, due GUARANTEE_DAYS after payment (`guaranteeDueAt`).
 * Read by its job and by its reminder (timers.ts), on payments_status_paid_at_idx.
 */
export function guaranteeDue(until: Date, after?: Date): SQL {
  const paidBy = (t: Date) => new Date(t.getTime() - GUARANTEE_DAYS * DAY_MS).toISOString();
  return sql`${payments.status} = 'paid' AND ${payments.refundRequestedAt} IS NULL AND ${payments.topupOf} IS NULL
    AND ${payments.paidAt} <= ${paidBy(until)}::timestamptz${after ? sql` AND ${payments.paidAt} > ${paidBy(after)}::timestamptz` : sql``}`;
}
export const guaranteeDueAt = sql`${payments.paidAt} + make_interval(days => ${GUARANTEE_DAYS}::int)`;

/**
 * Requests granted for want of an answer after `after` (if given) and by `until`: still requested at
 * their `respondBy` (`cancellationDueAt`). Read by its job and by its reminder (timers.ts).
 */
export function cancellationDue(until: Date, after?: Date): SQL {
  return sql`${cancellations.status} = 'requested' AND ${cancellations.respondBy} <= ${until.toISOString()}::timestamptz${
    after ? sql` AND ${cancellations.respondBy} > ${after.toISOString()}::timestamptz` : sql``
  }`;
}
export const cancellationDueAt = cancellations.respondBy;

/**
 * Declined placements refunded for want of a chosen alternative after `after` (if given) and by
 * `until`, at their `swapBy` (`swapDueAt`). Read by its job and by its reminder (timers.ts).
 */
export function swapDue(until: Date, after?: Date): SQL {
  return sql`${placements.declinedAt} IS NOT NULL AND ${placements.state} = 'in_progress' AND ${placements.swapBy} <= ${until.toISOString()}::timestamptz${
    after ? sql` AND ${placements.swapBy} > ${after.toISOString()}::timestamptz` : sql``
  }`;
}
export const swapDueAt = placements.swapBy;

/**
 * A dispute's deadlines that the team or the brand misses (the steps of its reminder, timeline/timers.ts):
 * where the dispute stands, and the column of its due time. Read by its job and by the reminders (timers.ts).
 */
export const DISPUTE_DEADLINES = {
  dispute_answer: { pending: sql`${disputes.status} = 'open' AND ${disputes.kind} = 'content'`, at: disputes.respondBy },
  dispute_escalate: { pending: sql`${disputes.status} = 'offered'`, at: disputes.escalateBy },
  dispute_decide: { pending: sql`${disputes.status} = 'escalated'`, at: disputes.decideBy },
} as const;
/** The disputes whose `step` falls due after `after` (if given) and by `until`. */
export function disputeDue(step: keyof typeof DISPUTE_DEADLINES, until: Date, after?: Date): SQL {
  const { pending, at } = DISPUTE_DEADLINES[step];
  return sql`(${pending} AND ${at} <= ${until.toISOString()}::timestamptz${after ? sql` AND ${at} > ${after.toISOString()}::timestamptz` : sql``})`;
}
