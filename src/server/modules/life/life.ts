import { sql } from 'drizzle-orm';
import { lifeOf, type LifeInputs, type Viewer } from '../../../shared/placement-machine';
import { hidesAmounts } from '../../../shared/org';
import type { Member } from '../../lib/contract';
import type { Life } from '../../../shared/schemas/brief';
import { briefs, cancellations, disputes, payments, placements, publications, revisionRequests } from '../../db/schema';
import { clockNowSql, isoUtc } from '../../db/statement';
import { now } from '../../lib/clock';
import { clockOf, type ClockInputs } from '../../../shared/stage-clock';
import type { JsonPageRow } from '../../lib/paging';

/**
 * A placement's life in its answers (issue 58, decision 042): what the table of
 * shared/placement-machine.ts makes of its columns for the viewer. The list statements read the
 * inputs beside each item's JSON (`lifeInputsSql`, as "life"); `withLife` appends `life` to the
 * item. The state and whose turn are the same for every viewer; `actions` are the viewer's. Its
 * stage clock (`clock`, decision 048) is read from the placement's columns against `now()`.
 */

/**
 * The inputs of the life, as JSON text, over a placement list's joins (placements, briefs).
 * `lateDays`: business days late past "Live by", counted only once the promise itself has passed
 * (live_by is never before promised_by: the lists read this for every row); `cancelDays` beside it
 * (LATE_CANCEL_DAYS, one read a statement), so that the guard very_late is lateDays >= cancelDays.
 * The dispute windows' ends beside Byline's time (`now`): the content's (release + DISPUTE_DAYS, from
 * dispute_settings), the live link's (its guarantee, while published) and the latest dispute's `escalate_by`.
 */
export const lifeInputsSql = sql`json_build_object(
    'state', ${placements.state},
    'draftReviewStatus', ${placements.draftReviewStatus},
    'briefSubmitted', ${briefs.submittedAt} IS NOT NULL,
    'hasDraft', (${placements.draftDocumentUrl} IS NOT NULL OR ${placements.draftDocumentFile} IS NOT NULL),
    'declined', ${placements.declinedAt} IS NOT NULL,
    'writingStarted', (${placements.writingStartedAt} IS NOT NULL OR ${placements.draftDocumentUrl} IS NOT NULL OR ${placements.draftDocumentFile} IS NOT NULL),
    'revisionsUsed', ${placements.revisionsUsed},
    'revisionsIncluded', ${placements.revisionsIncluded},
    'extraRevisionPending', EXISTS (SELECT 1 FROM ${revisionRequests} WHERE ${revisionRequests.placementId} = ${placements.id} AND ${revisionRequests.status} = 'pending'),
    'cancellationPending', EXISTS (SELECT 1 FROM ${cancellations} WHERE ${cancellations.placementId} = ${placements.id} AND ${cancellations.status} = 'requested'),
    'disputeStatus', (SELECT ${disputes.status} FROM ${disputes} WHERE ${disputes.placementId} = ${placements.id} ORDER BY ${disputes.createdAt} DESC LIMIT 1),
    'disputeOffer', COALESCE((SELECT ${disputes.answerAction} = 'offer' FROM ${disputes} WHERE ${disputes.placementId} = ${placements.id} ORDER BY ${disputes.createdAt} DESC LIMIT 1), false),
    'lateDays', CASE WHEN ${placements.state} = 'in_progress' AND ${placements.promisedBy} < ${clockNowSql}
      THEN late_days(${placements.promisedBy}, ${placements.promiseMovedDays}, ${clockNowSql}) ELSE 0 END,
    'cancelDays', (SELECT cancel_days FROM late_credit_settings),
    'now', ${isoUtc(clockNowSql)},
    'disputeContentUntil', ${isoUtc(sql`(SELECT ${payments.releasedAt} + (SELECT dispute_days FROM dispute_settings) * interval '1 day' FROM ${payments} WHERE ${payments.id} = ${placements.paymentId})`)},
    'disputeLinkUntil', CASE WHEN ${placements.state} = 'published' THEN ${isoUtc(sql`(SELECT ${publications.guaranteeEndsAt} FROM ${publications} WHERE ${publications.placementId} = ${placements.id})`)} END,
    'disputeEscalateBy', ${isoUtc(sql`(SELECT ${disputes.escalateBy} FROM ${disputes} WHERE ${disputes.placementId} = ${placements.id} ORDER BY ${disputes.createdAt} DESC LIMIT 1)`)},
    'since', ${isoUtc(placements.stateSince)},
    'clock', json_build_object(
      'stage', ${placements.clockStage},
      'startedAt', ${isoUtc(placements.clockStartedAt)},
      'dueAt', ${isoUtc(placements.clockDueAt)},
      'pausedAt', ${isoUtc(placements.clockPausedAt)},
      'liveBy', ${isoUtc(sql`live_by(${placements.promisedBy}, ${placements.promiseMovedDays})`)},
      'movedDays', ${placements.promiseMovedDays},
      'moves', ${placements.promiseMoves}
    )
  )::text`;

/** A member as the table's viewer: its role, and whether it is a client reviewer (decision 035). */
export const memberViewer = (member: Pick<Member, 'role' | 'clientIds'>): Viewer => ({
  side: 'brand',
  role: member.role,
  clientReviewer: hidesAmounts(member.role, member.clientIds),
});

type LifeRow = JsonPageRow & { life?: string };

/** The life of the inputs `lifeInputsSql` read, for this viewer, with its stage clock read against Byline's time (decision 048). */
export function lifeFor(inputs: string, viewer: Viewer): Life {
  const parsed = JSON.parse(inputs) as LifeInputs & { since: string; clock: ClockInputs };
  return { ...lifeOf(parsed, viewer), clock: clockOf(parsed.clock, now()) };
}

/** The item's JSON with its `life` appended (a member after the database's last one). */
function appendLife(json: string, inputs: string, viewer: Viewer): string {
  const life = lifeFor(inputs, viewer);
  return `${json.slice(0, json.lastIndexOf('}'))},"life":${JSON.stringify(life)}}`;
}

/** The rows of a placement list, each item with its life for this viewer. */
export function withLife(rows: JsonPageRow[], viewer: Viewer): JsonPageRow[] {
  return rows.map((row) => {
    const { life, ...rest } = row as LifeRow;
    if (life === undefined) throw new Error('a placement list must read the life inputs (lifeInputsSql AS "life")');
    return { ...rest, json: appendLife(row.json, life, viewer) };
  });
}
