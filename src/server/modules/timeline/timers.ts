import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { briefs, payments, placementEvents, placements } from '../../db/schema';
import { currentRound, recordEvent, recordReminderOnce, SYSTEM } from './service';

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
 */

export interface TimerTerms {
  briefReminderDays: number[];
  reviewReminderDays: number;
  autoApproveDays: number;
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

/** One run of every timer (the job). */
export async function runPlacementTimers(db: Db, terms: TimerTerms, now = new Date()) {
  return {
    briefReminders: await sendBriefReminders(db, terms, now),
    reviewReminders: await sendReviewReminders(db, terms, now),
    autoApproved: await autoApproveDrafts(db, terms, now),
  };
}
