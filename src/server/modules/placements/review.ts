import { and, eq, exists, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { isUnderReview, REVIEW_STATUSES } from '../../../shared/payment';
import { draftAttachSchema, type PlacementPayment } from '../../../shared/schemas/brief';
import type { Db } from '../../db/client';
import { briefs, payments, placements, revisionRequests } from '../../db/schema';
import { badRequest, notFound, conflict } from '../../lib/errors';
import { isUuid } from '../../lib/route-params';
import { parse } from '../../lib/validate';
import type { Tx } from '../../mail/outbox';
import type { FileStore } from '../../storage/file-store';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import { placementPayment } from './item';
import { paymentMoney } from '../ledger/ledger';
import { currentRound, recordEvent, SYSTEM, type Actor, type EffectFacts } from '../timeline/service';
import type { LifeEvent } from '../../../shared/placement-machine';
import { actorAsMover, memberActor, transition, type TransitionActor } from './transition';
import type { Member } from '../../lib/contract';
import { now as clockNow } from '../../lib/clock';

type PlacementRow = typeof placements.$inferSelect;

/**
 * One review-state move as a single conditional UPDATE of the placement, through the table
 * (transition.ts): it changes the row only while the placement is in progress and `allowed` holds,
 * so two clicks or two tabs cannot both succeed. When nothing changed, `refusal` says why (the
 * spec's words, before the table is asked). The transition's timeline entry carries `details`.
 * Answers the card's `payment` object.
 */
async function move(
  db: Db,
  paymentId: string,
  /** the organisation whose placement it must be (null: the editorial team's move) */
  owner: string | null,
  allowed: SQL,
  set: PgUpdateSetSource<typeof placements>,
  refusal: (p: PlacementRow) => string,
  /** `facts`: what its audit entry and mails need beyond the entry (timeline/effects.ts), such as the member who acted */
  step: { event: LifeEvent; actor: TransitionActor; details: (tx: Tx, row: PlacementRow) => Promise<Record<string, unknown>>; facts?: EffectFacts },
): Promise<PlacementPayment> {
  if (!isUuid(paymentId)) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  const mine = owner ? eq(placements.organisationId, owner) : undefined;
  const row = await db.transaction(async (tx) => {
    const moved = await transition(
      tx,
      paymentId,
      step.event,
      step.actor,
      async () =>
        (
          await tx
            .update(placements)
            .set(set)
            .where(and(eq(placements.id, paymentId), mine, eq(placements.state, 'in_progress'), allowed))
            .returning()
        )[0],
      (p) => step.details(tx, p),
      undefined,
      step.facts,
    );
    return moved;
  });
  if (row) {
    const [payment] = await db.select().from(payments).where(eq(payments.id, row.paymentId));
    return placementPayment(row, payment, await paymentMoney(db, row.paymentId));
  }
  const [existing] = await db.select().from(placements).where(and(eq(placements.id, paymentId), mine));
  if (!existing) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  throw conflict('not_in_review', notInProgress(existing) ?? refusal(existing));
}

function notInProgress(p: PlacementRow): string | null {
  if (p.state === 'published') return 'This article has already been published';
  if (p.state === 'refunded') return 'This payment was refunded';
  return null;
}

const draftAttached = or(isNotNull(placements.draftDocumentUrl), isNotNull(placements.draftDocumentFile))!;

function reviewRefusal(p: PlacementRow): string {
  if (p.draftReviewStatus === 'approved') return 'This draft has already been approved';
  return 'There is no draft to review yet';
}

/** POST /api/brand/projects/{paymentId}/approve */
export function approveDraft(db: Db, member: Member, paymentId: string) {
  return move(
    db,
    paymentId,
    member.organisationId,
    and(inArray(placements.draftReviewStatus, REVIEW_STATUSES), draftAttached)!,
    { draftReviewStatus: 'approved' },
    reviewRefusal,
    { event: 'approve', actor: memberActor(member), details: async (tx, p) => ({ round: await currentRound(tx, p.id) }), facts: { by: member } },
  );
}

/**
 * POST /api/brand/projects/{paymentId}/request-edits: the feedback replaces the previous round's on
 * the payment (the spec's field); every round's feedback stays on the timeline. Each placement
 * includes `revisions_included` rounds (REVISIONS_INCLUDED when bought, issue 47); a further request
 * is `requestExtraRevision`'s, which the editorial team accepts or declines.
 */
export function requestEdits(db: Db, member: Member, paymentId: string, feedback: string | undefined) {
  return move(
    db,
    paymentId,
    member.organisationId,
    and(inArray(placements.draftReviewStatus, REVIEW_STATUSES), draftAttached, sql`${placements.revisionsUsed} < ${placements.revisionsIncluded}`)!,
    { draftReviewStatus: 'edits_requested', brandFeedback: feedback ?? null, revisionsUsed: sql`${placements.revisionsUsed} + 1` },
    (p) => (p.revisionsUsed >= p.revisionsIncluded && isUnderReview(p.draftReviewStatus) ? ROUNDS_USED : reviewRefusal(p)),
    {
      event: 'request_edits',
      actor: memberActor(member),
      details: async (tx, p) => ({ round: await currentRound(tx, p.id), feedback: feedback ?? null, revision: p.revisionsUsed, included: p.revisionsIncluded }),
      facts: { by: member },
    },
  );
}

const ROUNDS_USED = 'The included revisions are used: say how the draft departs from the brief to ask for another';

/** Whether the placement's included rounds are used (the brand must then ask for an extra one). */
export async function revisionsLeft(db: Db, member: Member, paymentId: string): Promise<boolean | null> {
  if (!isUuid(paymentId)) return null;
  const [p] = await db
    .select({ used: placements.revisionsUsed, included: placements.revisionsIncluded })
    .from(placements)
    .where(and(eq(placements.id, paymentId), eq(placements.organisationId, member.organisationId)));
  return p ? p.used < p.included : null;
}

/**
 * An edit request beyond the included rounds (issue 47): the feedback and a reason tied to the
 * brief, awaiting the editorial team (one at a time). The draft stays under review meanwhile.
 */
export async function requestExtraRevision(db: Db, member: Member, paymentId: string, feedback: string, reason: string, now: Date = clockNow()) {
  if (!isUuid(paymentId)) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  return db.transaction(async (tx) => {
    const [p] = await tx
      .select()
      .from(placements)
      .where(and(eq(placements.id, paymentId), eq(placements.organisationId, member.organisationId)))
      .for('no key update');
    if (!p) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
    const inReview = p.state === 'in_progress' && isUnderReview(p.draftReviewStatus) && (p.draftDocumentUrl !== null || p.draftDocumentFile !== null);
    if (!inReview) throw conflict('not_in_review', notInProgress(p) ?? reviewRefusal(p));
    if (p.revisionsUsed < p.revisionsIncluded) throw conflict('included_revisions_left', 'This placement still has included revisions: request edits as usual');
    const [pending] = await tx
      .select({ id: revisionRequests.id })
      .from(revisionRequests)
      .where(and(eq(revisionRequests.placementId, paymentId), eq(revisionRequests.status, 'pending')));
    if (pending) throw conflict('extra_revision_pending', 'An extra revision is already awaiting the editorial team');
    const [request] = await tx
      .insert(revisionRequests)
      .values({ placementId: paymentId, feedback, reason, requestedBy: member.userId, createdAt: now })
      .returning();
    await recordEvent(tx, paymentId, 'revision_requested', { type: 'brand', id: member.userId }, { feedback, reason }, now, { by: member });
    return {
      revisions: {
        used: p.revisionsUsed,
        included: p.revisionsIncluded,
        request: {
          id: request.id,
          status: request.status,
          feedback: request.feedback,
          reason: request.reason,
          answer: null,
          createdAt: request.createdAt.toISOString(),
        },
      },
    };
  });
}

/**
 * POST /api/admin/payments/{id}/revision-request/accept | decline: the pending extra request
 * answered. Accepted, it opens the round (edits requested with its feedback, one more used);
 * declined, the brand reads the reason and may dispute it.
 */
export async function answerExtraRevision(db: Db, paymentId: string, accept: boolean, reason: string | null, admin: Actor, now: Date = clockNow()): Promise<PlacementPayment> {
  if (!isUuid(paymentId)) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  await db.transaction(async (tx) => {
    const [p] = await tx.select().from(placements).where(eq(placements.id, paymentId)).for('no key update');
    if (!p) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
    const [request] = await tx
      .select()
      .from(revisionRequests)
      .where(and(eq(revisionRequests.placementId, paymentId), eq(revisionRequests.status, 'pending')))
      .for('no key update');
    if (!request) throw conflict('no_extra_revision_pending', 'No extra revision is awaiting an answer');
    const answeredBy = admin.type === 'system' ? null : admin.id;
    if (!accept) {
      await tx.update(revisionRequests).set({ status: 'declined', answer: reason, answeredBy, answeredAt: now }).where(eq(revisionRequests.id, request.id));
      await recordEvent(tx, paymentId, 'revision_declined', admin, { reason }, now);
      return;
    }
    const inReview = p.state === 'in_progress' && isUnderReview(p.draftReviewStatus);
    if (!inReview) throw conflict('not_in_review', notInProgress(p) ?? 'The draft is no longer under the brand’s review');
    await tx.update(revisionRequests).set({ status: 'accepted', answeredBy, answeredAt: now }).where(eq(revisionRequests.id, request.id));
    const [moved] = await tx
      .update(placements)
      .set({ draftReviewStatus: 'edits_requested', brandFeedback: request.feedback, revisionsUsed: sql`${placements.revisionsUsed} + 1` })
      .where(eq(placements.id, paymentId))
      .returning();
    await recordEvent(tx, paymentId, 'revision_accepted', admin, {}, now);
    await recordEvent(
      tx,
      paymentId,
      'edits_requested',
      request.requestedBy ? { type: 'brand', id: request.requestedBy } : SYSTEM,
      { round: await currentRound(tx, paymentId), feedback: request.feedback, revision: moved.revisionsUsed, included: moved.revisionsIncluded, extra: true },
      now,
    );
  });
  const [row] = await db.select().from(placements).where(eq(placements.id, paymentId));
  const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
  return placementPayment(row, payment, await paymentMoney(db, paymentId));
}

/**
 * POST /api/admin/payments/{id}/writing-started (issue 47): from now a cancellation is a request
 * the team answers. Serialised with a cancellation on the placement's row: a refund claimed first wins.
 */
export async function markWritingStarted(db: Db, paymentId: string, admin: Actor, now: Date = clockNow()): Promise<{ writingStartedAt: string }> {
  if (!isUuid(paymentId)) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  return db.transaction(async (tx) => {
    const [p] = await tx.select().from(placements).where(eq(placements.id, paymentId)).for('no key update');
    if (!p) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
    if (p.writingStartedAt) throw conflict('writing_already_started', 'Writing was already marked as started');
    const [pay] = await tx.select({ status: payments.status, refundRequestedAt: payments.refundRequestedAt }).from(payments).where(eq(payments.id, paymentId));
    if (p.state !== 'in_progress' || pay.status !== 'paid' || pay.refundRequestedAt) throw conflict('placement_not_in_progress', notInProgress(p) ?? 'This placement is being refunded');
    if (p.declinedAt) throw conflict('placement_declined', 'This placement was declined: the brand is choosing an alternative');
    await tx.update(placements).set({ writingStartedAt: now }).where(eq(placements.id, paymentId));
    await recordEvent(tx, paymentId, 'writing_started', admin, {}, now);
    return { writingStartedAt: now.toISOString() };
  });
}

/** POST /api/admin/projects/{id}/mark-edits-complete */
export function markEditsComplete(db: Db, paymentId: string, actor: Actor = SYSTEM) {
  return move(
    db,
    paymentId,
    null,
    eq(placements.draftReviewStatus, 'edits_requested'),
    { draftReviewStatus: 'edits_complete' },
    () => 'Edits can only be marked complete after the brand has requested them',
    // the round whose edits are done (the next request opens the next one)
    { event: 'mark_edits_complete', actor: actorAsMover(actor), details: async (tx, p) => ({ round: (await currentRound(tx, p.id)) - 1 }) },
  );
}

const briefSubmitted = (db: Db) =>
  exists(
    db
      .select({ one: sql`1` })
      .from(briefs)
      .where(and(eq(briefs.placementId, placements.id), isNotNull(briefs.submittedAt))),
  );

/**
 * PATCH /api/admin/payments/{id}/status with {draftDocumentUrl} or {draftDocumentFile}: attaches
 * the draft (awaiting_brand_brief → pending_brand_review) or replaces it while the brand reviews
 * (state kept). One kind at a time: attaching a link clears the file and the other way round.
 * Only once the brand has submitted its brief, and never after approval or release.
 */
async function attachDraft(
  db: Db,
  paymentId: string,
  draft: { draftDocumentUrl: string } | { draftDocumentFile: string },
  actor: Actor,
): Promise<PlacementPayment> {
  if (!isUuid(paymentId)) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  const url = 'draftDocumentUrl' in draft ? draft.draftDocumentUrl : null;
  const file = 'draftDocumentFile' in draft ? draft.draftDocumentFile : null;
  return move(
    db,
    paymentId,
    null,
    and(inArray(placements.draftReviewStatus, ['awaiting_brand_brief', ...REVIEW_STATUSES]), briefSubmitted(db))!,
    {
      draftDocumentUrl: url,
      draftDocumentFile: file,
      // a draft means the writing has started (issue 47: cancelling is then a request)
      writingStartedAt: sql`coalesce(${placements.writingStartedAt}, clock_now())`,
      draftReviewStatus: sql`CASE WHEN ${placements.draftReviewStatus} = 'awaiting_brand_brief' THEN 'pending_brand_review' ELSE ${placements.draftReviewStatus} END`,
    },
    (p) =>
      p.draftReviewStatus === 'approved'
        ? 'The brand has already approved this draft'
        : 'The brand has not submitted the brief yet',
    // the brand is told of a draft it is to review (timeline/effects.ts draft_attached)
    { event: 'attach_draft', actor: actorAsMover(actor), details: async (tx) => ({ round: await currentRound(tx, paymentId), link: url !== null }) },
  );
}

/** GET /api/files/{name}: admins may download any draft; a brand only the current draft of its own placement. */
export async function mayDownloadDraft(
  db: Db,
  user: { id: string; role: string; organisationId: string | null; clientIds?: string[] | null },
  storedPath: string,
): Promise<boolean> {
  if (user.role === 'admin') return true;
  if (!user.organisationId) return false;
  const [own] = await db
    .select({ id: placements.id })
    .from(placements)
    .where(
      and(
        eq(placements.draftDocumentFile, storedPath),
        eq(placements.organisationId, user.organisationId),
        // a member limited to clients: only theirs (decision 035)
        user.clientIds ? inArray(placements.clientId, user.clientIds) : undefined,
      ),
    )
    .limit(1);
  return Boolean(own);
}

/**
 * The draft members of PATCH /api/admin/payments/{id}/status:
 * validates the body, checks an uploaded file really is in the store, then attaches.
 */
export async function attachDraftFromBody(db: Db, files: FileStore, paymentId: string, body: unknown, actor: Actor = SYSTEM): Promise<PlacementPayment> {
  const draft = parse(draftAttachSchema, body);
  if ('draftDocumentFile' in draft) {
    const stored = await files.stat(draft.draftDocumentFile.slice('/api/files/'.length));
    if (!stored) throw badRequest('uploaded_file_not_found', 'The uploaded file was not found. Please upload it again.', { draftDocumentFile: 'No file selected' });
  }
  return attachDraft(db, paymentId, draft, actor);
}
