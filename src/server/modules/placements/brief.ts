import { hash } from 'node:crypto';
import { and, desc, eq, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { briefs, placements } from '../../db/schema';
import { notFound, conflict } from '../../lib/errors';
import { isUuid } from '../../lib/route-params';
import {
  compact,
  mapOlderBrief,
  type BriefPart1,
  type BriefPart2,
  type BriefResponse,
  type OlderBriefPart1,
  type OlderBriefPart2,
  type SavedBrief,
} from '../../../shared/schemas/brief';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import { recordEvent } from '../timeline/service';
import type { Member } from '../../lib/contract';
import { memberActor, transition } from './transition';
import { now as clockNow } from '../../lib/clock';

type BriefRow = typeof briefs.$inferSelect;
type PlacementRow = typeof placements.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The version of a placement that has no brief row yet (the form started from a fallback or empty). */
const NO_BRIEF_VERSION = 'new';

/**
 * A brief's opaque version: a hash of its saved time and content, both as read back from the
 * database (jsonb keeps keys in one order). Two saves in the same millisecond still differ unless
 * they stored the same text, and then nothing could be lost. No column needed.
 */
function briefVersion(b: BriefRow | undefined): string {
  if (!b) return NO_BRIEF_VERSION;
  const content = JSON.stringify([b.updatedAt.toISOString(), iso(b.submittedAt), b.part1Json, b.part2Json]);
  return hash('sha256', content, 'base64url').slice(0, 22);
}

function toSavedBrief(b: BriefRow): SavedBrief {
  return {
    paymentId: b.placementId,
    opportunityId: b.opportunityId,
    part1Json: b.part1Json,
    part2Json: b.part2Json,
    submittedAt: iso(b.submittedAt),
    updatedAt: b.updatedAt.toISOString(),
    version: briefVersion(b),
  };
}

const savedResponse = (b: BriefRow): BriefResponse => ({
  part1Json: b.part1Json,
  part2Json: b.part2Json,
  source: 'saved',
  submittedAt: iso(b.submittedAt),
  version: briefVersion(b),
});

/** The organisation's own placement, or 404 (another's id must look exactly like a missing one). */
async function ownPlacement(db: Db | Tx, organisationId: string, paymentId: string, lock = false): Promise<PlacementRow> {
  if (!isUuid(paymentId)) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  const q = db.select().from(placements).where(and(eq(placements.id, paymentId), eq(placements.organisationId, organisationId)));
  const [row] = lock ? await q.for('no key update') : await q;
  if (!row) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  return row;
}

function assertBriefEditable(p: PlacementRow) {
  if (p.state === 'published') throw conflict('brief_locked_published', 'This article has been published; its brief can no longer change');
  if (p.state === 'refunded') throw conflict('brief_locked_refunded', 'This payment was refunded; its brief can no longer change');
  // the brand accepted the article as written: a later brief would change nothing the team does
  if (p.draftReviewStatus === 'approved') throw conflict('brief_locked_approved', 'This draft has been approved; its brief can no longer change');
}

/**
 * What a fresh brief starts from: the latest earlier brief of the same client (submitted ones
 * first), or for a placement bought for no client the latest bought for none: part 1 describes
 * the client, so another client's must never fill it (issue 57). Part 1 is copied whole; from
 * part 2 only what holds for every article (tone and style, social links). The article-specific
 * answers (goal, audience, message, points, keywords) start empty so last article's goal is never
 * submitted for this one by mistake.
 */
async function fallbackBrief(db: Db | Tx, placement: PlacementRow) {
  const [earlier] = await db
    .select({ part1Json: briefs.part1Json, part2Json: briefs.part2Json })
    .from(briefs)
    .innerJoin(placements, eq(placements.id, briefs.placementId))
    .where(
      and(
        eq(briefs.organisationId, placement.organisationId),
        ne(briefs.placementId, placement.id),
        placement.clientId === null ? isNull(placements.clientId) : eq(placements.clientId, placement.clientId),
      ),
    )
    .orderBy(sql`${briefs.submittedAt} IS NULL`, desc(briefs.updatedAt))
    .limit(1);
  if (!earlier) return null;
  const { toneStyleGuidelines, socialMediaLinks } = earlier.part2Json as BriefPart2;
  return { part1Json: earlier.part1Json as BriefPart1, part2Json: compact({ toneStyleGuidelines, socialMediaLinks }) };
}

/** GET /api/brand/brief/{paymentId} */
export async function getBrief(db: Db | Tx, organisationId: string, paymentId: string): Promise<BriefResponse> {
  const placement = await ownPlacement(db, organisationId, paymentId);
  const [saved] = await db.select().from(briefs).where(eq(briefs.placementId, paymentId));
  if (saved) return savedResponse(saved);
  const fallback = await fallbackBrief(db, placement);
  if (fallback) return { ...fallback, source: 'fallback', submittedAt: null, version: NO_BRIEF_VERSION };
  return { part1Json: {}, part2Json: {}, source: 'empty', submittedAt: null, version: NO_BRIEF_VERSION };
}

type BriefParts = { part1Json?: BriefPart1; part2Json?: BriefPart2; baseVersion?: string };

/**
 * Stores the brief of a placement the brand owns, under a lock on the placement so that a release
 * cannot slip in between the check and the write. `submit` sets submittedAt; a draft never touches it.
 * With `baseVersion`, a save based on an older copy than the stored one (another tab saved since)
 * is refused with the stored brief, so the page can merge instead of overwriting it.
 */
async function storeBrief(tx: Tx, placement: PlacementRow, parts: BriefParts, submit: boolean, member: Member): Promise<SavedBrief> {
  assertBriefEditable(placement);
  const now = clockNow();
  const part1Json = parts.part1Json && compact(parts.part1Json);
  const part2Json = parts.part2Json && compact(parts.part2Json);
  // the placement is locked (ownPlacement): nobody else can store or change its brief meanwhile
  const [earlier] = await tx.select().from(briefs).where(eq(briefs.placementId, placement.id));
  if (parts.baseVersion !== undefined && parts.baseVersion !== briefVersion(earlier)) {
    const current = earlier ? savedResponse(earlier) : await getBrief(tx, placement.organisationId, placement.id);
    throw conflict('stale_copy', 'This brief was changed in another window since you opened it', undefined, { current });
  }
  const write = async () =>
    (
      await tx
        .insert(briefs)
        .values({
          brandId: member.userId,
          organisationId: placement.organisationId,
          opportunityId: placement.opportunityId,
          placementId: placement.id,
          part1Json: part1Json ?? {},
          part2Json: part2Json ?? {},
          submittedAt: submit ? now : null,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: briefs.placementId,
          set: {
            ...(part1Json ? { part1Json } : {}),
            ...(part2Json ? { part2Json } : {}),
            ...(submit ? { submittedAt: now } : {}),
            updatedAt: now,
          },
        })
        .returning()
    )[0];
  // a submission is a step of the placement's life (the table says who may, and from where); a
  // draft saved is not, and is recorded the first time only; a submission's mail and audit entry follow its entry
  const row = submit ? await transition(tx, placement.id, 'submit_brief', memberActor(member), write, () => ({}), now, { by: member }) : await write();
  if (!row) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  if (!submit && !earlier) await recordEvent(tx, placement.id, 'brief_saved', { type: 'brand', id: member.userId }, {}, now);
  return toSavedBrief(row);
}

/** POST /api/brand/brief/{paymentId}: autosave, no required fields. */
export async function saveBriefDraft(db: Db, member: Member, paymentId: string, parts: BriefParts) {
  return db.transaction(async (tx) => storeBrief(tx, await ownPlacement(tx, member.organisationId, paymentId, true), parts, false, member));
}

/** POST /api/brand/brief/{paymentId}/submit: parts already checked against the submit schema. */
export async function submitBrief(db: Db, member: Member, paymentId: string, parts: Required<Omit<BriefParts, 'baseVersion'>> & BriefParts) {
  return db.transaction(async (tx) => storeBrief(tx, await ownPlacement(tx, member.organisationId, paymentId, true), parts, true, member));
}

/** GET /api/brand/brief-access: the earlier flow may open only for an opportunity the brand has paid for. */
export async function briefAccess(db: Db, organisationId: string, opportunityId: string | undefined): Promise<boolean> {
  if (!opportunityId || !isUuid(opportunityId)) return false;
  const [row] = await db
    .select({ id: placements.id })
    .from(placements)
    .where(and(eq(placements.organisationId, organisationId), eq(placements.opportunityId, opportunityId), eq(placements.state, 'in_progress')))
    .limit(1);
  return Boolean(row);
}

/**
 * POST /api/briefs (earlier flow, older field names). The older form is keyed by opportunity, so
 * the brief goes to the brand's held payment for it that has no submitted brief yet (the latest
 * such), else to the latest held one; the names are mapped onto the current brief and submitted.
 */
export async function submitOlderBrief(
  db: Db,
  member: Member,
  input: { opportunityId: string; part1: OlderBriefPart1; part2: OlderBriefPart2 },
): Promise<SavedBrief> {
  if (!isUuid(input.opportunityId)) throw notFound('paid_article_not_found', 'No paid article was found for this opportunity');
  return db.transaction(async (tx) => {
    const held = await tx
      .select()
      .from(placements)
      .where(and(eq(placements.organisationId, member.organisationId), eq(placements.opportunityId, input.opportunityId), eq(placements.state, 'in_progress')))
      .orderBy(desc(placements.createdAt), desc(placements.id))
      .for('no key update');
    if (!held.length) throw notFound('paid_article_not_found', 'No paid article was found for this opportunity');
    const submitted = await tx
      .select({ paymentId: briefs.placementId })
      .from(briefs)
      .where(and(eq(briefs.organisationId, member.organisationId), eq(briefs.opportunityId, input.opportunityId), isNotNull(briefs.submittedAt)));
    const done = new Set(submitted.map((b) => b.paymentId));
    // a brief still matters only before the draft is approved (an approved one's brief is refused)
    const open = held.filter((p) => p.draftReviewStatus !== 'approved');
    const target = open.find((p) => !done.has(p.id)) ?? open[0] ?? held[0];
    return storeBrief(tx, target, mapOlderBrief(input.part1, input.part2), true, member);
  });
}
