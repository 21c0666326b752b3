import { sql } from 'drizzle-orm';
import {
  ATTENTION_LIMIT,
  GUARANTEE_NEAR_DAYS,
  type AttentionItem,
  type AttentionList,
  type AttentionReason,
} from '../../../shared/attention';
import { DAY_MS, DRAFT_DUE_DAYS_DEFAULT, GUARANTEE_DAYS } from '../../../shared/constants';
import type { Db } from '../../db/client';
import { clockStateSql } from '../../db/stage-clock';
import { clockOf, type ClockInputs } from '../../../shared/stage-clock';
import {
  briefs,
  cancellations,
  conversationReads,
  disputes,
  opportunities,
  payments,
  placementEvents,
  placementMessages,
  placements,
  publicationCases,
  revisionRequests,
  users,
} from '../../db/schema';
import { now as clockNow } from '../../lib/clock';

interface Row extends Record<string, unknown> {
  payment_id: string;
  title: string;
  outlet_name: string;
  brand_id: string;
  brand_name: string | null;
  brand_brand_name: string | null;
  brand_email: string;
  amount: string;
  paid_at: Date | string;
  unread: number | null;
  overdue_at: Date | string | null;
  review: 'edits_requested' | 'approved' | null;
  answer_what: 'cancellation' | 'dispute' | 'decision' | 'extra_revision' | null;
  answer_due: Date | string | null;
  refund_at: Date | string | null;
  restore_by: Date | string | null;
  since: Date | string;
  total: number | string;
  mine: boolean;
  clock: string;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/**
 * What waits on the editorial team (issue 19), one row per placement with every reason it has:
 * - `unread_messages`: the brand's messages after the team's read mark (messages/service.ts
 *   `unreadByPayment`, the same rule);
 * - `overdue`: held, still awaiting a draft, the brief submitted more than the opportunity's
 *   `tat_days` (else DRAFT_DUE_DAYS_DEFAULT) ago (placements/item.ts `overdue`, the same rule);
 * - `edits_requested` / `approved_unpublished`: held, with that review status;
 * - `guarantee_near`: held, no refund started, and the guarantee job (payments/refunds.ts
 *   `refundOverduePayments`: GUARANTEE_DAYS after `paid_at`) refunds it within GUARANTEE_NEAR_DAYS;
 * - `open_case`: an open `publication_cases` row.
 *
 * The signed-in admin's own placements (its editor's, issue 59) come first; each item carries its
 * stage clock (decision 048), and the list the counts of clocks at risk and late.
 *
 * Order, most urgent first: placements with a deadline that costs money (an open case's
 * `restore_by`, the guarantee refund) by that deadline; then overdue drafts by how long overdue;
 * then the rest oldest first (`since`: when the oldest present reason began: the oldest unread
 * message, the review status's timeline entry, else the payment). Ties by payment id.
 *
 * One statement (in a transaction, for SET LOCAL). Each reason's candidates come from their own
 * index: the open cases from publication_cases_open_unique, the overdue from
 * placements_tab_awaiting_idx, the placements in progress in review, the held payments near the
 * refund from payments_status_paid_at_idx (the old held ones); the unread conversations from
 * conversation_reads_unread_idx (the team's marks older than the brand's last message). Then each candidate's reasons are looked up by its id
 * (payment, opportunity, brief, unread count through placement_messages_unread_idx, timeline entry
 * through placement_events_placement_idx, open case), all counted (`total`, exact), top-N sorted, and
 * only the first `limit` joined to their outlet and brand.
 *
 * Its cost grows with the placements that need attention and with the brand messages, not with the
 * payments; JIT is off for it, since compiling it cost more than running it (figures: decision 027).
 */
export async function attentionList(db: Db, now: Date = clockNow(), limit = ATTENTION_LIMIT, adminId?: string): Promise<AttentionList> {
  const guaranteeCutoff = new Date(now.getTime() - (GUARANTEE_DAYS - GUARANTEE_NEAR_DAYS) * DAY_MS);
  const at = now.toISOString();
  const cutoff = guaranteeCutoff.toISOString();
  // p: the placement (its work), m: its payment (its money)
  const inProgress = sql`p.state = 'in_progress'`;
  const inReview = sql`${inProgress} AND p.draft_review_status IN ('edits_requested', 'approved')`;
  const nearRefund = sql`m.status = 'paid' AND m.refund_requested_at IS NULL AND m.paid_at <= ${cutoff}::timestamptz`;
  const dueAt = sql`b.submitted_at + make_interval(days => coalesce(o.tat_days, ${DRAFT_DUE_DAYS_DEFAULT}::int))`;
  const awaiting = sql`${inProgress} AND p.draft_review_status = 'awaiting_brand_brief' AND b.submitted_at IS NOT NULL`;
  // a read-only statement: JIT compilation (on by default in PostgreSQL) costs more than the query itself
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL jit = off`);
    const result = await tx.execute(sql`
    -- the placements with at least one reason, each set read through its own index
    WITH candidates AS (
      -- the conversations the team has not read up to the brand's last message (a partial index)
      SELECT r.placement_id FROM ${conversationReads} r
        WHERE r.side = 'admin' AND r.unread
      UNION SELECT placement_id FROM ${publicationCases} WHERE closed_at IS NULL
      UNION SELECT p.id FROM ${placements} p JOIN ${briefs} b ON b.placement_id = p.id JOIN ${opportunities} o ON o.id = p.opportunity_id
        WHERE ${awaiting} AND ${dueAt} < ${at}::timestamptz
      UNION SELECT p.id FROM ${placements} p WHERE ${inReview}
      UNION SELECT p.id FROM ${payments} m JOIN ${placements} p ON p.payment_id = m.id WHERE ${nearRefund}
      -- issue 47: a cancellation, a dispute, an escalation or an extra revision awaiting an answer
      UNION SELECT placement_id FROM ${cancellations} WHERE status = 'requested'
      UNION SELECT placement_id FROM ${disputes} WHERE (status = 'open' AND kind = 'content') OR status = 'escalated'
      UNION SELECT placement_id FROM ${revisionRequests} WHERE status = 'pending'
    ),
    -- each candidate's reasons, looked up by its id (OFFSET 0 keeps the planner from turning the
    -- lookups into scans of whole tables when it overestimates the candidates)
    listed AS (
      SELECT x.placement_id, p.opportunity_id, p.brand_id, p.amount, p.paid_at, p.review, p.review_since, p.refund_at, p.overdue_at, p.mine, p.clock,
        un.n AS unread, un.oldest AS unread_since, c.restore_by, c.opened_at AS case_since,
        ans.what AS answer_what, ans.due AS answer_due, ans.since AS answer_since
      FROM candidates x
      CROSS JOIN LATERAL (
        SELECT p.opportunity_id, p.brand_id, m.amount::text AS amount, m.paid_at,
          CASE WHEN ${inReview} THEN p.draft_review_status END AS review,
          CASE WHEN ${inReview} THEN coalesce((SELECT max(e.at) FROM ${placementEvents} e
            WHERE e.placement_id = p.id AND e.kind = p.draft_review_status), m.paid_at) END AS review_since,
          CASE WHEN ${nearRefund} THEN m.paid_at + make_interval(days => ${GUARANTEE_DAYS}::int) END AS refund_at,
          CASE WHEN ${awaiting} AND ${dueAt} < ${at}::timestamptz THEN ${dueAt} END AS overdue_at,
          -- the signed-in admin's own placements come first (issue 59, an editor per placement)
          (p.assignee_id = ${adminId ?? null}::uuid) IS TRUE AS mine,
          json_build_object('stage', p.clock_stage, 'startedAt', iso_utc(p.clock_started_at), 'dueAt', iso_utc(p.clock_due_at),
            'pausedAt', iso_utc(p.clock_paused_at), 'liveBy', iso_utc(live_by(p.promised_by, p.promise_moved_days)),
            'movedDays', p.promise_moved_days, 'moves', p.promise_moves)::text AS clock
        FROM ${placements} p
        JOIN ${payments} m ON m.id = p.payment_id
        JOIN ${opportunities} o ON o.id = p.opportunity_id
        LEFT JOIN ${briefs} b ON b.placement_id = p.id
        WHERE p.id = x.placement_id OFFSET 0
      ) p
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS n, min(m.created_at) AS oldest FROM ${placementMessages} m
        WHERE m.placement_id = x.placement_id AND m.side = 'brand' AND m.created_at > coalesce((SELECT r.read_at FROM ${conversationReads} r
          WHERE r.placement_id = x.placement_id AND r.side = 'admin'), '-infinity'::timestamptz)
      ) un
      LEFT JOIN LATERAL (
        SELECT restore_by, opened_at FROM ${publicationCases} pc WHERE pc.placement_id = x.placement_id AND pc.closed_at IS NULL OFFSET 0
      ) c ON true
      -- the answer the brand waits for, the soonest due first (an extra revision has no deadline)
      LEFT JOIN LATERAL (
        SELECT what, due, since FROM (
          SELECT 'cancellation' AS what, respond_by AS due, created_at AS since FROM ${cancellations}
            WHERE placement_id = x.placement_id AND status = 'requested'
          UNION ALL SELECT CASE WHEN status = 'open' THEN 'dispute' ELSE 'decision' END,
            CASE WHEN status = 'open' THEN respond_by ELSE decide_by END, coalesce(escalated_at, created_at) FROM ${disputes}
            WHERE placement_id = x.placement_id AND ((status = 'open' AND kind = 'content') OR status = 'escalated')
          UNION ALL SELECT 'extra_revision', NULL::timestamptz, created_at FROM ${revisionRequests}
            WHERE placement_id = x.placement_id AND status = 'pending'
        ) a ORDER BY due NULLS LAST LIMIT 1
      ) ans ON true
    ),
    keyed AS (
      SELECT *,
        least(unread_since, overdue_at, review_since, refund_at - make_interval(days => ${GUARANTEE_NEAR_DAYS}::int), case_since, answer_since) AS since,
        CASE WHEN restore_by IS NOT NULL OR refund_at IS NOT NULL OR answer_due IS NOT NULL THEN 0 WHEN overdue_at IS NOT NULL THEN 1 ELSE 2 END AS tier
      FROM listed
    ),
    -- the most urgent, counted before the cut; only those are joined to their outlet and brand
    ranked AS (
      SELECT *, count(*) OVER () AS total,
        CASE tier WHEN 0 THEN least(restore_by, refund_at, answer_due) WHEN 1 THEN overdue_at ELSE since END AS urgency
      FROM keyed
      ORDER BY mine DESC, tier, urgency, placement_id
      LIMIT ${limit}
    )
    SELECT r.placement_id AS payment_id, o.title, o.outlet_name, u.id AS brand_id, u.name AS brand_name, u.brand_name AS brand_brand_name,
      u.email AS brand_email, r.amount, r.paid_at, r.unread, r.overdue_at, r.review, r.refund_at, r.restore_by, r.answer_what, r.answer_due, r.since, r.total,
      r.mine, r.clock
    FROM ranked r
    JOIN ${opportunities} o ON o.id = r.opportunity_id
    JOIN ${users} u ON u.id = r.brand_id
    ORDER BY r.mine DESC, r.tier, r.urgency, r.placement_id`);
    return (result as unknown as { rows: Row[] }).rows;
  });
  return { total: rows.length ? Number(rows[0].total) : 0, items: rows.map((r) => toItem(r, now)), clocks: await clockCounts(db) };
}

/**
 * The stage clocks at risk and late (the admin dashboard's counts, decision 048), over the
 * placements with a clock running (placements_clock_due_idx), against clock_now().
 */
async function clockCounts(db: Db): Promise<AttentionList['clocks']> {
  const [row] = await db
    .select({
      atRisk: sql<number>`(count(*) FILTER (WHERE ${clockStateSql.at_risk}))::int`,
      late: sql<number>`(count(*) FILTER (WHERE ${clockStateSql.late}))::int`,
    })
    .from(placements)
    .where(sql`${placements.clockDueAt} IS NOT NULL`);
  return { atRisk: Number(row?.atRisk ?? 0), late: Number(row?.late ?? 0) };
}

function toItem(r: Row, now: Date): AttentionItem {
  const reasons: AttentionReason[] = [];
  if (r.answer_what) reasons.push({ kind: 'answer_due', what: r.answer_what, dueAt: r.answer_due ? iso(r.answer_due) : null });
  if (r.restore_by) reasons.push({ kind: 'open_case', restoreBy: iso(r.restore_by) });
  if (r.refund_at) reasons.push({ kind: 'guarantee_near', refundAt: iso(r.refund_at) });
  if (r.overdue_at) reasons.push({ kind: 'overdue', dueAt: iso(r.overdue_at) });
  if (r.unread) reasons.push({ kind: 'unread_messages', count: r.unread });
  if (r.review === 'edits_requested') reasons.push({ kind: 'edits_requested' });
  if (r.review === 'approved') reasons.push({ kind: 'approved_unpublished' });
  return {
    paymentId: r.payment_id,
    title: r.title,
    outletName: r.outlet_name,
    brand: { id: r.brand_id, name: r.brand_name, brandName: r.brand_brand_name, email: r.brand_email },
    amount: r.amount,
    paidAt: iso(r.paid_at),
    reasons,
    since: iso(r.since),
    mine: r.mine === true,
    clock: clockOf(JSON.parse(r.clock) as ClockInputs, now),
  };
}
