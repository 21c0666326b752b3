import { and, eq, exists, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { REVIEW_STATUSES } from '../../../shared/payment';
import { draftAttachSchema, type PlacementPayment } from '../../../shared/schemas/brief';
import type { Db } from '../../db/client';
import { briefs, payments, placements } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { isUuid } from '../../lib/route-params';
import { parse } from '../../lib/validate';
import { notifyPlacement } from '../../mail/notify';
import type { Tx } from '../../mail/outbox';
import type { FileStore } from '../../storage/file-store';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import { placementPayment } from './item';
import { currentRound, recordEvent, SYSTEM, type Actor } from '../timeline/service';
import { recordAudit } from '../org/audit';
import type { Member } from '../../lib/contract';

type PlacementRow = typeof placements.$inferSelect;

/**
 * One review-state move as a single conditional UPDATE of the placement: it changes the row only
 * while the placement is in progress and `allowed` holds, so two clicks or two tabs cannot both
 * succeed. When nothing changed, `refusal` says why. Answers the card's `payment` object.
 */
async function move(
  db: Db,
  paymentId: string,
  /** the organisation whose placement it must be (null: the editorial team's move) */
  owner: string | null,
  allowed: SQL,
  set: PgUpdateSetSource<typeof placements>,
  refusal: (p: PlacementRow) => string,
  /** the mail the move causes, queued in the same transaction */
  notify?: (tx: Tx, row: PlacementRow) => Promise<void>,
): Promise<PlacementPayment> {
  if (!isUuid(paymentId)) throw notFound(PAYMENT_NOT_FOUND);
  const mine = owner ? eq(placements.organisationId, owner) : undefined;
  const row = await db.transaction(async (tx) => {
    const [moved] = await tx
      .update(placements)
      .set(set)
      .where(and(eq(placements.id, paymentId), mine, eq(placements.state, 'in_progress'), allowed))
      .returning();
    if (moved && notify) await notify(tx, moved);
    return moved;
  });
  if (row) {
    const [payment] = await db.select().from(payments).where(eq(payments.id, row.paymentId));
    return placementPayment(row, payment);
  }
  const [existing] = await db.select().from(placements).where(and(eq(placements.id, paymentId), mine));
  if (!existing) throw notFound(PAYMENT_NOT_FOUND);
  throw conflict(notInProgress(existing) ?? refusal(existing));
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
    async (tx, p) => {
      await notifyPlacement(tx, p.id, 'admin_draft_approved');
      await recordEvent(tx, p.id, 'approved', { type: 'brand', id: member.userId }, { round: await currentRound(tx, p.id) });
      await recordAudit(tx, { organisationId: p.organisationId, actor: member, action: 'draft_approved', subject: p.id });
    },
  );
}

/**
 * POST /api/brand/projects/{paymentId}/request-edits: the feedback replaces the previous round's on
 * the payment (the spec's field); every round's feedback stays on the timeline.
 */
export function requestEdits(db: Db, member: Member, paymentId: string, feedback: string | undefined) {
  return move(
    db,
    paymentId,
    member.organisationId,
    and(inArray(placements.draftReviewStatus, REVIEW_STATUSES), draftAttached)!,
    { draftReviewStatus: 'edits_requested', brandFeedback: feedback ?? null },
    reviewRefusal,
    async (tx, p) => {
      await notifyPlacement(tx, p.id, 'admin_edits_requested');
      await recordEvent(tx, p.id, 'edits_requested', { type: 'brand', id: member.userId }, { round: await currentRound(tx, p.id), feedback: feedback ?? null });
      await recordAudit(tx, { organisationId: p.organisationId, actor: member, action: 'edits_requested', subject: p.id });
    },
  );
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
    async (tx, p) => {
      await notifyPlacement(tx, p.id, 'edits_complete');
      // the round whose edits are done (the next request opens the next one)
      await recordEvent(tx, p.id, 'edits_completed', actor, { round: (await currentRound(tx, p.id)) - 1 });
    },
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
  if (!isUuid(paymentId)) throw notFound(PAYMENT_NOT_FOUND);
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
      draftReviewStatus: sql`CASE WHEN ${placements.draftReviewStatus} = 'awaiting_brand_brief' THEN 'pending_brand_review' ELSE ${placements.draftReviewStatus} END`,
    },
    (p) =>
      p.draftReviewStatus === 'approved'
        ? 'The brand has already approved this draft'
        : 'The brand has not submitted the brief yet',
    // a draft the brand is to review (first attached, or replaced before it answered); a draft
    // replaced after an edit request is announced by "mark edits complete"
    async (tx, p) => {
      if (p.draftReviewStatus === 'pending_brand_review') await notifyPlacement(tx, p.id, 'draft_ready');
      await recordEvent(tx, p.id, 'draft_attached', actor, { round: await currentRound(tx, p.id), link: url !== null });
    },
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
    if (!stored) throw badRequest('The uploaded file was not found. Please upload it again.', { draftDocumentFile: 'No file selected' });
  }
  return attachDraft(db, paymentId, draft, actor);
}
