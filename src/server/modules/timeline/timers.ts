import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { briefs, cancellations, disputes, payments, placementEvents, placements } from '../../db/schema';
import { cancellationDue, cancellationDueAt, DISPUTE_DEADLINES, disputeDue, guaranteeDue, guaranteeDueAt, swapDue, swapDueAt } from './deadlines';
import type { DeadlineStep } from '../../mail/templates';
import { currentRound, recordEvent, recordReminderOnce, SYSTEM } from './service';
import { now as clockNow } from '../../lib/clock';

/**
 * The workflow's timers (issue 19), run every 15 minutes by pg-boss (jobs/boss.ts) and safe with
 * any number of instances: a reminder is an entry of the timeline with a unique step, inserted
 * with ON CONFLICT DO NOTHING, and mailed only by the run that inserted it; an automatic approval
 * is one conditional UPDATE. Each change and its entry and mail share one transaction.
 *
 * - A brief not submitted BRIEF_REMINDER_DAYS after payment (3 and 7): a reminder to the brand
 *   (the latest step due only, so a server that was down does not send two at once).
 * - A draft waiting for the brand's review REVIEW_REMINDER_DAYS (5): a reminder naming the day it
 *   will be approved; AUTO_APPROVE_DAYS (7; 0 = never): approved by Byline, both sides told.
 *   A draft waits from when it was attached or its edits were marked complete.
 * - REMINDER_HOURS (24) before an automatic step (issue 59), a reminder to the side that can still
 *   act, once per step and due time: the guarantee's refund of a placement not published (the
 *   team), a cancellation request granted for want of an answer (the team), a declined placement
 *   refunded for want of a chosen alternative (the brand); the first late credit (the team: "publish
 *   by … or the brand is credited"); a dispute answered, accepted or decided for want of an answer
 *   (the team, the brand, every admin). A due time that moves (a swap deadline set anew, a promise
 *   moved by the brand's delay) is a new step.
 */

export interface TimerTerms {
  briefReminderDays: number[];
  reviewReminderDays: number;
  autoApproveDays: number;
  /** REMINDER_HOURS: how long before an automatic step its reminder goes (issue 59) */
  reminderHours: number;
}

const DAY = 86_400_000;
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY);
const BATCH = 500;

async function sendBriefReminders(db: Db, terms: TimerTerms, now: Date): Promise<number> {
  const days = terms.briefReminderDays;
  if (days.length === 0) return 0;
  // reminders matter near their days: a week after the last one, a payment is no longer looked at
  const rows = await db
    .select({ id: placements.id, paidAt: payments.paidAt })
    .from(placements)
    .innerJoin(payments, eq(payments.id, placements.paymentId))
    .where(
      and(
        eq(placements.state, 'in_progress'),
        eq(placements.draftReviewStatus, 'awaiting_brand_brief'),
        sql`${payments.paidAt} <= ${daysBefore(now, days[0]).toISOString()}::timestamptz`,
        sql`${payments.paidAt} > ${daysBefore(now, days[days.length - 1] + 7).toISOString()}::timestamptz`,
        sql`NOT EXISTS (SELECT 1 FROM ${briefs} WHERE ${briefs.placementId} = ${placements.id} AND ${briefs.submittedAt} IS NOT NULL)`,
      ),
    )
    .limit(BATCH);
  let sent = 0;
  for (const row of rows) {
    const age = now.getTime() - row.paidAt.getTime();
    const step = days.filter((d) => age >= d * DAY).at(-1)!;
    // the reminder's mail is sent by the run that records it (timeline/effects.ts brief_reminder)
    const recorded = await db.transaction((tx) => recordReminderOnce(tx, row.id, 'brief_reminder', `day${step}`, { day: step }, now));
    if (recorded) sent++;
  }
  return sent;
}

/** Drafts waiting for the brand: since when (the last attach or edits-complete; else the payment). */
async function waitingDrafts(db: Db, olderThan: Date) {
  const since = sql<Date>`coalesce((SELECT max(${placementEvents.at}) FROM ${placementEvents}
    WHERE ${placementEvents.placementId} = ${placements.id} AND ${placementEvents.kind} IN ('draft_attached', 'edits_completed')), ${payments.paidAt})`;
  const rows = await db
    .select({ id: placements.id, since: sql<string>`to_char(${since} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` })
    .from(placements)
    .innerJoin(payments, eq(payments.id, placements.paymentId))
    .where(
      and(
        eq(placements.state, 'in_progress'),
        inArray(placements.draftReviewStatus, ['pending_brand_review', 'edits_complete']),
        sql`${since} <= ${olderThan.toISOString()}::timestamptz`,
      ),
    )
    .limit(BATCH);
  return rows.map((r) => ({ id: r.id, since: new Date(r.since) }));
}

async function sendReviewReminders(db: Db, terms: TimerTerms, now: Date): Promise<number> {
  let sent = 0;
  for (const draft of await waitingDrafts(db, daysBefore(now, terms.reviewReminderDays))) {
    const recorded = await db.transaction(async (tx) => {
      const round = await currentRound(tx, draft.id);
      const autoApproveOn = terms.autoApproveDays > 0 ? new Date(draft.since.getTime() + terms.autoApproveDays * DAY).toISOString() : null;
      return recordReminderOnce(tx, draft.id, 'review_reminder', `round${round}`, { round, autoApproveOn }, now);
    });
    if (recorded) sent++;
  }
  return sent;
}

async function autoApproveDrafts(db: Db, terms: TimerTerms, now: Date): Promise<number> {
  if (terms.autoApproveDays <= 0) return 0;
  let approved = 0;
  for (const draft of await waitingDrafts(db, daysBefore(now, terms.autoApproveDays))) {
    const done = await db.transaction(async (tx) => {
      // the brand may have answered meanwhile, or another instance approved it: only a waiting draft moves
      const [moved] = await tx
        .update(placements)
        .set({ draftReviewStatus: 'approved' })
        .where(
          and(eq(placements.id, draft.id), eq(placements.state, 'in_progress'), inArray(placements.draftReviewStatus, ['pending_brand_review', 'edits_complete'])),
        )
        .returning({ id: placements.id });
      if (!moved) return false;
      // both sides are told (timeline/effects.ts approved, automatic)
      await recordEvent(tx, draft.id, 'approved', SYSTEM, { round: await currentRound(tx, draft.id), automatic: true, waitingSince: draft.since.toISOString() }, now);
      return true;
    });
    if (done) approved++;
  }
  return approved;
}

/**
 * The automatic steps due within the reminder's window (after now, at most REMINDER_HOURS ahead):
 * each step's condition and due time are its job's (deadlines.ts: the guarantee's refund, a
 * cancellation granted, a swap's refund, a dispute's three deadlines),
 * each read from its index (payments_status_paid_at_idx, cancellations_due_idx, placements_swap_by_idx).
 */
async function dueSoon(db: Db, now: Date, until: Date) {
  const [from, to] = [now.toISOString(), until.toISOString()];
  const dispute = (step: keyof typeof DISPUTE_DEADLINES) =>
    sql`SELECT ${disputes.placementId}, ${sql.raw(`'${step}'`)}, ${DISPUTE_DEADLINES[step].at} FROM ${disputes} WHERE ${disputeDue(step, until, now)}`;
  const result = await db.execute(sql`
    SELECT ${placements.id} AS id, 'guarantee' AS step, ${guaranteeDueAt} AS at
      FROM ${payments} JOIN ${placements} ON ${placements.paymentId} = ${payments.id}
      WHERE ${guaranteeDue(until, now)}
    UNION ALL
    SELECT ${cancellations.placementId}, 'cancellation', ${cancellationDueAt} FROM ${cancellations} WHERE ${cancellationDue(until, now)}
    UNION ALL
    SELECT ${placements.id}, 'swap', ${swapDueAt} FROM ${placements} WHERE ${swapDue(until, now)}
    UNION ALL
    ${dispute('dispute_answer')}
    UNION ALL
    ${dispute('dispute_escalate')}
    UNION ALL
    ${dispute('dispute_decide')}
    UNION ALL
    SELECT x.id, 'late_credit', x.at FROM (
      -- the first late credit (payments/late-credit.ts): due at the start (UTC) of the first business day after Live by
      SELECT pl.id, date_trunc('day', add_business_days(live_by(pl.promised_by, pl.promise_moved_days), 1) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS at
      FROM placements pl JOIN payments p ON p.id = pl.payment_id
      WHERE pl.state = 'in_progress' AND pl.promised_by IS NOT NULL AND pl.promised_by < ${to}::timestamptz
        AND p.status = 'paid' AND p.refund_requested_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM late_credits lc WHERE lc.placement_id = pl.id)
    ) x WHERE x.at > ${from}::timestamptz AND x.at <= ${to}::timestamptz
    LIMIT ${BATCH}`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { id: string; step: DeadlineStep; at: Date | string }[];
  return rows.map((r) => ({ id: r.id, step: r.step, at: new Date(r.at) }));
}

async function sendDeadlineReminders(db: Db, terms: TimerTerms, now: Date): Promise<number> {
  let sent = 0;
  for (const due of await dueSoon(db, now, new Date(now.getTime() + terms.reminderHours * 3_600_000))) {
    const at = due.at.toISOString();
    // the mail goes with the entry (timeline/effects.ts deadline_reminder), from the run that records it
    const recorded = await db.transaction((tx) => recordReminderOnce(tx, due.id, 'deadline_reminder', `${due.step}@${at}`, { deadline: due.step, at }, now));
    if (recorded) sent++;
  }
  return sent;
}

/** One run of every timer (the job). */
export async function runPlacementTimers(db: Db, terms: TimerTerms, now = clockNow()) {
  return {
    briefReminders: await sendBriefReminders(db, terms, now),
    reviewReminders: await sendReviewReminders(db, terms, now),
    autoApproved: await autoApproveDrafts(db, terms, now),
    deadlineReminders: await sendDeadlineReminders(db, terms, now),
  };
}
