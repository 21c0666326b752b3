import { and, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { briefs, opportunities, payments } from '../../db/schema';
import { conflict, notFound } from '../../lib/errors';
import { isUuid } from '../../../shared/schemas/payment';
import {
  compact,
  mapOlderBrief,
  type BriefPart1,
  type BriefPart2,
  type BriefResponse,
  type ArticleTab,
  type ArticleTabCounts,
  type MyArticleItem,
  type ProjectPayment,
  type MyArticlesQuery,
  type OlderBriefPart1,
  type OlderBriefPart2,
  type SavedBrief,
} from '../../../shared/schemas/brief';
import { notifyPlacement } from '../../mail/notify';
import { afterCursor, afterRankedCursor, cursorAt, limitedPage, pageValues, type JsonPageRow, type Page } from '../../lib/paging';
import { jsonObject } from '../../db/json';
import { isoUtc } from '../../db/statement';
import { itemPages, rowVersions, xminOf } from '../../db/item-pages';
import { ARTICLE_TAB_SQL } from '../payments/tabs';

type BriefRow = typeof briefs.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const PAYMENT_NOT_FOUND = 'Payment not found';

/** Spec §4: a draft the brand may approve or ask edits for. */
const UNDER_REVIEW = ['pending_brand_review', 'edits_requested', 'edits_complete'] as const;

/** The payment fields a project card needs (no internal columns). */
export function projectPayment(p: PaymentRow) {
  return {
    id: p.id,
    status: p.status,
    draftReviewStatus: p.draftReviewStatus,
    draftDocumentUrl: p.draftDocumentUrl,
    draftDocumentFile: p.draftDocumentFile,
    brandFeedback: p.brandFeedback,
    stripePaymentId: p.stripePaymentId,
    amount: p.amount,
    createdAt: p.createdAt.toISOString(),
  };
}

function toSavedBrief(b: BriefRow): SavedBrief {
  return {
    paymentId: b.paymentId,
    opportunityId: b.opportunityId,
    part1Json: b.part1Json,
    part2Json: b.part2Json,
    submittedAt: iso(b.submittedAt),
    updatedAt: b.updatedAt.toISOString(),
  };
}

/** `projectPayment` written in SQL, for lists built by the database (same keys, same order). */
export const projectPaymentJson = jsonObject<ProjectPayment>({
  id: payments.id,
  status: payments.status,
  draftReviewStatus: payments.draftReviewStatus,
  draftDocumentUrl: payments.draftDocumentUrl,
  draftDocumentFile: payments.draftDocumentFile,
  brandFeedback: payments.brandFeedback,
  stripePaymentId: payments.stripePaymentId,
  amount: sql`${payments.amount}::text`,
  createdAt: isoUtc(payments.createdAt),
});

/** The opportunity members of a project card (My Articles, Admin Projects), for lists built by the database. */
export const opportunityCardJson = {
  id: opportunities.id,
  title: opportunities.title,
  type: opportunities.type,
  outletName: opportunities.outletName,
  priceUsd: sql`${opportunities.priceUsd}::text`,
};

type MyArticlesShape = { tab?: ArticleTab; byPayment: boolean; byOpportunity: boolean; cursor: boolean };
/** Needs Review puts the drafts waiting for the brand before the approved ones waiting for publication. */
const needsActionRank = sql`(${payments.draftReviewStatus} <> 'approved')::int`;

const myArticlesPage = itemPages<MyArticlesShape, Record<string, unknown>>(
  'my_articles',
  (o) => `${o.tab ?? 'all'}.${o.byPayment ? 'p' : ''}${o.byOpportunity ? 'o' : ''}${o.cursor ? 'c' : 'n'}`,
  (o, columns) => {
    const ranked = o.tab === 'needs-review';
    const item = jsonObject<MyArticleItem>({
      ...opportunityCardJson,
      payment: projectPaymentJson,
      brief: sql`CASE WHEN ${briefs.id} IS NOT NULL THEN ${jsonObject({ submittedAt: isoUtc(briefs.submittedAt) })} END`,
    });
    const versions = rowVersions(xminOf(payments), xminOf(opportunities), xminOf(briefs));
    return limitedPage(sql`SELECT ${columns(item, versions, payments.id)}, ${payments.id} AS "id", ${cursorAt(payments.createdAt)} AS "cursorAt"
        ${ranked ? sql`, ${needsActionRank} AS "cursorRank"` : sql``}
      FROM ${payments}
      JOIN ${opportunities} ON ${opportunities.id} = ${payments.opportunityId}
      LEFT JOIN ${briefs} ON ${briefs.paymentId} = ${payments.id}
      WHERE ${and(
        sql`${payments.brandId} = ${sql.placeholder('brandId')}`,
        o.tab ? ARTICLE_TAB_SQL[o.tab] : undefined,
        o.byPayment ? sql`${payments.id} = ${sql.placeholder('paymentId')}::uuid` : undefined,
        o.byOpportunity ? sql`${payments.opportunityId} = ${sql.placeholder('opportunityId')}::uuid` : undefined,
        o.cursor
          ? ranked
            ? afterRankedCursor(needsActionRank, payments.createdAt, payments.id)
            : afterCursor(payments.createdAt, payments.id)
          : undefined,
      )}
      ORDER BY ${ranked ? sql`${needsActionRank} DESC, ` : sql``}${payments.createdAt} DESC, ${payments.id} DESC`);
  },
);

/**
 * GET /api/brand/my-articles: the brand's purchases with their opportunity and brief state, newest
 * first, one page at a time; filtered by tab (spec §4) or to one purchase (by payment or opportunity).
 * Each row's JSON is a `MyArticleItem`, built by the database.
 */
export function myArticles(db: Db, brandId: string, filter: MyArticlesQuery, page: Page): Promise<JsonPageRow[]> {
  const shape = {
    tab: filter.tab,
    byPayment: Boolean(filter.paymentId),
    byOpportunity: Boolean(filter.opportunityId),
    cursor: Boolean(page.cursor),
  };
  return myArticlesPage(db, shape, {
    brandId,
    ...(filter.paymentId ? { paymentId: filter.paymentId } : {}),
    ...(filter.opportunityId ? { opportunityId: filter.opportunityId } : {}),
    ...pageValues(page, filter.tab === 'needs-review'),
  });
}

/** The tab counts of My Articles, counted by the database over all of the brand's purchases. */
export async function myArticleCounts(db: Db, brandId: string): Promise<ArticleTabCounts> {
  const count = (tab: ArticleTab) => sql<number>`count(*) FILTER (WHERE ${ARTICLE_TAB_SQL[tab]})::int`;
  const [row] = await db
    .select({
      pending: count('pending'),
      needsReview: count('needs-review'),
      completed: count('completed'),
      toReview: sql<number>`count(*) FILTER (WHERE ${payments.status} = 'paid' AND ${inArray(payments.draftReviewStatus, UNDER_REVIEW)})::int`,
    })
    .from(payments)
    .where(eq(payments.brandId, brandId));
  return { pending: row.pending, 'needs-review': row.needsReview, completed: row.completed, toReview: row.toReview };
}

/** The brand's own payment, or 404 (another brand's id must look exactly like a missing one). */
async function ownPayment(db: Db | Tx, brandId: string, paymentId: string, lock = false): Promise<PaymentRow> {
  if (!isUuid(paymentId)) throw notFound(PAYMENT_NOT_FOUND);
  const q = db.select().from(payments).where(and(eq(payments.id, paymentId), eq(payments.brandId, brandId)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound(PAYMENT_NOT_FOUND);
  return row;
}

function assertBriefEditable(p: PaymentRow) {
  if (p.status === 'released') throw conflict('This article has been published; its brief can no longer change');
  if (p.status === 'refunded') throw conflict('This payment was refunded; its brief can no longer change');
}

/**
 * What a fresh brief starts from: the brand's latest earlier brief (submitted ones first). Part 1 is
 * about the brand and is copied whole; from part 2 only what holds for every article (tone and
 * style, social links). The article-specific answers (goal, audience, message, points, keywords)
 * start empty so last article's goal is never submitted for this one by mistake.
 */
async function fallbackBrief(db: Db, brandId: string, paymentId: string) {
  const [earlier] = await db
    .select()
    .from(briefs)
    .where(and(eq(briefs.brandId, brandId), ne(briefs.paymentId, paymentId)))
    .orderBy(sql`${briefs.submittedAt} IS NULL`, desc(briefs.updatedAt))
    .limit(1);
  if (!earlier) return null;
  const { toneStyleGuidelines, socialMediaLinks } = earlier.part2Json as BriefPart2;
  return { part1Json: earlier.part1Json as BriefPart1, part2Json: compact({ toneStyleGuidelines, socialMediaLinks }) };
}

/** GET /api/brand/brief/{paymentId} */
export async function getBrief(db: Db, brandId: string, paymentId: string): Promise<BriefResponse> {
  await ownPayment(db, brandId, paymentId);
  const [saved] = await db.select().from(briefs).where(eq(briefs.paymentId, paymentId));
  if (saved) return { part1Json: saved.part1Json, part2Json: saved.part2Json, source: 'saved', submittedAt: iso(saved.submittedAt) };
  const fallback = await fallbackBrief(db, brandId, paymentId);
  if (fallback) return { ...fallback, source: 'fallback', submittedAt: null };
  return { part1Json: {}, part2Json: {}, source: 'empty', submittedAt: null };
}

/**
 * Stores the brief of a payment the brand owns, under a lock on the payment so that a release
 * cannot slip in between the check and the write. `submit` sets submittedAt; a draft never touches it.
 */
async function storeBrief(
  tx: Tx,
  payment: PaymentRow,
  parts: { part1Json?: BriefPart1; part2Json?: BriefPart2 },
  submit: boolean,
): Promise<SavedBrief> {
  assertBriefEditable(payment);
  const now = new Date();
  const part1Json = parts.part1Json && compact(parts.part1Json);
  const part2Json = parts.part2Json && compact(parts.part2Json);
  const [row] = await tx
    .insert(briefs)
    .values({
      brandId: payment.brandId,
      opportunityId: payment.opportunityId,
      paymentId: payment.id,
      part1Json: part1Json ?? {},
      part2Json: part2Json ?? {},
      submittedAt: submit ? now : null,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: briefs.paymentId,
      set: {
        ...(part1Json ? { part1Json } : {}),
        ...(part2Json ? { part2Json } : {}),
        ...(submit ? { submittedAt: now } : {}),
        updatedAt: now,
      },
    })
    .returning();
  if (submit) await notifyPlacement(tx, payment.id, 'admin_brief_submitted');
  return toSavedBrief(row);
}

/** POST /api/brand/brief/{paymentId}: autosave, no required fields. */
export async function saveBriefDraft(db: Db, brandId: string, paymentId: string, parts: { part1Json?: BriefPart1; part2Json?: BriefPart2 }) {
  return db.transaction(async (tx) => storeBrief(tx, await ownPayment(tx, brandId, paymentId, true), parts, false));
}

/** POST /api/brand/brief/{paymentId}/submit: parts already checked against the submit schema. */
export async function submitBrief(db: Db, brandId: string, paymentId: string, parts: { part1Json: BriefPart1; part2Json: BriefPart2 }) {
  return db.transaction(async (tx) => storeBrief(tx, await ownPayment(tx, brandId, paymentId, true), parts, true));
}

/** GET /api/brand/brief-access: the earlier flow may open only for an opportunity the brand has paid for. */
export async function briefAccess(db: Db, brandId: string, opportunityId: string | undefined): Promise<boolean> {
  if (!opportunityId || !isUuid(opportunityId)) return false;
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.brandId, brandId), eq(payments.opportunityId, opportunityId), eq(payments.status, 'paid')))
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
  brandId: string,
  input: { opportunityId: string; part1: OlderBriefPart1; part2: OlderBriefPart2 },
): Promise<SavedBrief> {
  if (!isUuid(input.opportunityId)) throw notFound('No paid article was found for this opportunity');
  return db.transaction(async (tx) => {
    const held = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.brandId, brandId), eq(payments.opportunityId, input.opportunityId), eq(payments.status, 'paid')))
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .for('update');
    if (!held.length) throw notFound('No paid article was found for this opportunity');
    const submitted = await tx
      .select({ paymentId: briefs.paymentId })
      .from(briefs)
      .where(and(eq(briefs.brandId, brandId), eq(briefs.opportunityId, input.opportunityId), isNotNull(briefs.submittedAt)));
    const done = new Set(submitted.map((b) => b.paymentId));
    const target = held.find((p) => !done.has(p.id)) ?? held[0];
    return storeBrief(tx, target, mapOlderBrief(input.part1, input.part2), true);
  });
}
