import { and, eq, exists, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { REVIEW_STATUSES } from '../../../shared/payment';
import { draftAttachSchema, type ProjectPayment } from '../../../shared/schemas/brief';
import type { Db } from '../../db/client';
import { briefs, payments } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { isUuid } from '../../lib/route-params';
import { parse } from '../../lib/validate';
import { notifyPlacement } from '../../mail/notify';
import type { Tx } from '../../mail/outbox';
import type { FileStore } from '../../storage/file-store';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import { placementPayment } from './item';
import { currentRound, recordEvent, SYSTEM, type Actor } from '../timeline/service';

type PaymentRow = typeof payments.$inferSelect;

/**
 * One review-state move as a single conditional UPDATE: it changes the row only when `allowed`
 * holds, so two clicks or two tabs cannot both succeed. When nothing changed, `refusal` says why.
 */
async function move(
  db: Db,
  paymentId: string,
  owner: string | null,
  allowed: SQL,
  set: PgUpdateSetSource<typeof payments>,
  refusal: (p: PaymentRow) => string,
  /** the mail the move causes, queued in the same transaction */
  notify?: (tx: Tx, row: PaymentRow) => Promise<void>,
): Promise<ProjectPayment> {
  if (!isUuid(paymentId)) throw notFound(PAYMENT_NOT_FOUND);
  const mine = owner ? eq(payments.brandId, owner) : undefined;
  const row = await db.transaction(async (tx) => {
    const [moved] = await tx
      .update(payments)
      .set(set)
      .where(and(eq(payments.id, paymentId), mine, eq(payments.status, 'paid'), allowed))
      .returning();
    if (moved && notify) await notify(tx, moved);
    return moved;
  });
  if (row) return placementPayment(row);
  const [existing] = await db.select().from(payments).where(and(eq(payments.id, paymentId), mine));
  if (!existing) throw notFound(PAYMENT_NOT_FOUND);
  throw conflict(notHeld(existing) ?? refusal(existing));
}

function notHeld(p: PaymentRow): string | null {
  if (p.status === 'released') return 'This article has already been published';
  if (p.status === 'refunded') return 'This payment was refunded';
  return null;
}

const draftAttached = or(isNotNull(payments.draftDocumentUrl), isNotNull(payments.draftDocumentFile))!;

function reviewRefusal(p: PaymentRow): string {
  if (p.draftReviewStatus === 'approved') return 'This draft has already been approved';
  return 'There is no draft to review yet';
}

/** POST /api/brand/projects/{paymentId}/approve */
export function approveDraft(db: Db, brandId: string, paymentId: string) {
  return move(
    db,
    paymentId,
    brandId,
    and(inArray(payments.draftReviewStatus, REVIEW_STATUSES), draftAttached)!,
    { draftReviewStatus: 'approved' },
    reviewRefusal,
    async (tx, p) => {
      await notifyPlacement(tx, p.id, 'admin_draft_approved');
      await recordEvent(tx, p.id, 'approved', { type: 'brand', id: brandId }, { round: await currentRound(tx, p.id) });
    },
  );
}

/**
 * POST /api/brand/projects/{paymentId}/request-edits: the feedback replaces the previous round's on
 * the payment (the spec's field); every round's feedback stays on the timeline.
 */
export function requestEdits(db: Db, brandId: string, paymentId: string, feedback: string | undefined) {
  return move(
    db,
    paymentId,
    brandId,
    and(inArray(payments.draftReviewStatus, REVIEW_STATUSES), draftAttached)!,
    { draftReviewStatus: 'edits_requested', brandFeedback: feedback ?? null },
    reviewRefusal,
    async (tx, p) => {
      await notifyPlacement(tx, p.id, 'admin_edits_requested');
      await recordEvent(tx, p.id, 'edits_requested', { type: 'brand', id: brandId }, { round: await currentRound(tx, p.id), feedback: feedback ?? null });
    },
  );
}

/** POST /api/admin/projects/{id}/mark-edits-complete */
export function markEditsComplete(db: Db, paymentId: string, actor: Actor = SYSTEM) {
  return move(
    db,
    paymentId,
    null,
    eq(payments.draftReviewStatus, 'edits_requested'),
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
      .where(and(eq(briefs.paymentId, payments.id), isNotNull(briefs.submittedAt))),
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
): Promise<ProjectPayment> {
  if (!isUuid(paymentId)) throw notFound(PAYMENT_NOT_FOUND);
  const url = 'draftDocumentUrl' in draft ? draft.draftDocumentUrl : null;
  const file = 'draftDocumentFile' in draft ? draft.draftDocumentFile : null;
  return move(
    db,
    paymentId,
    null,
    and(inArray(payments.draftReviewStatus, ['awaiting_brand_brief', ...REVIEW_STATUSES]), briefSubmitted(db))!,
    {
      draftDocumentUrl: url,
      draftDocumentFile: file,
      draftReviewStatus: sql`CASE WHEN ${payments.draftReviewStatus} = 'awaiting_brand_brief' THEN 'pending_brand_review' ELSE ${payments.draftReviewStatus} END`,
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

/** GET /api/files/{name}: admins may download any draft; a brand only the current draft of its own payment. */
export async function mayDownloadDraft(db: Db, user: { id: string; role: string }, storedPath: string): Promise<boolean> {
  if (user.role === 'admin') return true;
  const [own] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.draftDocumentFile, storedPath), eq(payments.brandId, user.id)))
    .limit(1);
  return Boolean(own);
}

/**
 * The draft members of PATCH /api/admin/payments/{id}/status:
 * validates the body, checks an uploaded file really is in the store, then attaches.
 */
export async function attachDraftFromBody(db: Db, files: FileStore, paymentId: string, body: unknown, actor: Actor = SYSTEM): Promise<ProjectPayment> {
  const draft = parse(draftAttachSchema, body);
  if ('draftDocumentFile' in draft) {
    const stored = await files.stat(draft.draftDocumentFile.slice('/api/files/'.length));
    if (!stored) throw badRequest('The uploaded file was not found. Please upload it again.', { draftDocumentFile: 'No file selected' });
  }
  return attachDraft(db, paymentId, draft, actor);
}
