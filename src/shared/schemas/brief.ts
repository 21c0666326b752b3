import { z } from 'zod';
import { EDIT_FEEDBACK_MAX } from '../constants';
import { nameSchema } from './one-line';
import { ARTICLE_TABS, PROJECT_TABS } from '../enums';
import {
  NAME_MAX,
  TITLE_MAX,
  briefPart1DraftSchema,
  briefPart1Schema,
  briefPart2DraftSchema,
  briefPart2Schema,
  required,
  text,
  type BriefPart1,
  type BriefPart2,
} from './brief-parts';
import type {
  adminPlacementItemSchema,
  articleTabCountsSchema,
  assigneeSchema,
  briefConflictSchema,
  briefResponseSchema,
  brandPlacementItemSchema,
  placementPaymentSchema,
  projectTabCountsSchema,
  savedBriefSchema,
  uploadedDocumentSchema,
} from './responses/placement';
import type { lifeSchema } from './responses/life';
import type { Cancellation } from './fair-terms';
import { adminSearchQuery } from './admin-search';
import { isHttpUrl, withHttps } from './profile';

/**
 * The brand's brief (spec §3, §5). One brief per purchased article, in two parts. Every field is
 * text, trimmed. Drafts (autosave) accept anything within the limits; a submission needs the
 * required fields. The same schemas drive the brief form and the server routes.
 */

// the current form's two parts live in brief-parts.ts, a leaf the response schemas build on too
export { BRIEF_PART1_FIELDS, BRIEF_PART2_FIELDS, BRIEF_TEXT_MAX, briefPart1Schema, briefPart2Schema } from './brief-parts';
export type { BriefPart1, BriefPart1Field, BriefPart2, BriefPart2Field } from './brief-parts';

/**
 * POST /api/brand/brief/{paymentId} — a draft. A part left out keeps what is stored
 * (so "Next" may send part 1 alone); unknown keys are dropped.
 */
/**
 * The version of the brief a save was based on (GET's `version`). Optional: a save without it (the
 * spec's body) stores as before; one based on an older version is refused with 409.
 */
const baseVersion = z.string({ error: 'baseVersion must be text' }).max(100, 'baseVersion must be at most 100 characters').optional();

export const briefDraftSchema = z.object({
  part1Json: briefPart1DraftSchema.optional(),
  part2Json: briefPart2DraftSchema.optional(),
  baseVersion,
});
export type BriefDraftInput = z.input<typeof briefDraftSchema>;

/** POST /api/brand/brief/{paymentId}/submit — errors are keyed like "part1Json.personOrBrandName". */
export const briefSubmitSchema = z.object({
  part1Json: z.object(briefPart1Schema.shape, { error: 'Part 1 of the brief is missing' }),
  part2Json: z.object(briefPart2Schema.shape, { error: 'Part 2 of the brief is missing' }),
  baseVersion,
});
export type BriefSubmitInput = z.input<typeof briefSubmitSchema>;

/** Social links are entered one per line; blank lines are ignored. */
export const splitSocialLinks = (value: string | undefined) =>
  (value ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

// ---------------------------------------------------------------------------------------------
// Older form ("Submit Your Brief", /brand/brief?opportunityId=…, POST /api/briefs)
//
// Its fields are mapped onto the current ones (mapOlderBrief) so an admin sees one brief whichever
// form was used. The fields that have no current twin are folded, labelled, into additionalInfo
// (titleIdeas, referenceLinks) and specificPoints (excludedInfo); their limits are chosen so the
// folded text stays within the current field's 5000 characters.

const OLD_EXTRA_MAX = 2500;
const OLD_TITLE_IDEAS_MAX = 1000;
const OLD_REFERENCE_LINKS_MAX = 1400;
const OLD_KEY_POINTS_MAX = 3000;
const OLD_EXCLUDED_MAX = 1900;

export const olderBriefPart1Schema = z.object({
  nameForArticles: required('Name is required', 'Name', NAME_MAX),
  preferredTitle: text('Preferred title', TITLE_MAX).optional(),
  background: required('Background is required', 'Background'),
  inspiration: text('Inspiration').optional(),
  challenges: text('Challenges').optional(),
  differentiation: text('What sets you apart').optional(),
  highlights: text('Highlights').optional(),
  anecdotes: text('Anecdotes').optional(),
  futureVision: text('Future vision').optional(),
  extra: text('Anything else', OLD_EXTRA_MAX).optional(),
  titleIdeas: text('Title ideas', OLD_TITLE_IDEAS_MAX).optional(),
  referenceLinks: text('Reference links', OLD_REFERENCE_LINKS_MAX).optional(),
});

export const olderBriefPart2Schema = z.object({
  goal: required('Goal is required', 'Goal'),
  audience: required('Audience is required', 'Audience'),
  mainMessage: required('Main message is required', 'Main message'),
  keyPoints: text('Key points', OLD_KEY_POINTS_MAX).optional(),
  seoKeywords: text('SEO keywords').optional(),
  tone: text('Tone').optional(),
  excludedInfo: text('Information to leave out', OLD_EXCLUDED_MAX).optional(),
  /** one link per line */
  socialLinks: text('Social links').optional(),
});

export type OlderBriefPart1 = z.infer<typeof olderBriefPart1Schema>;
export type OlderBriefPart2 = z.infer<typeof olderBriefPart2Schema>;

/** POST /api/briefs — errors are keyed like "part1.nameForArticles". */
export const olderBriefSubmitSchema = z.object({
  opportunityId: z.string({ error: 'Opportunity is required' }).min(1, 'Opportunity is required'),
  part1: z.object(olderBriefPart1Schema.shape, { error: 'Part 1 of the brief is missing' }),
  part2: z.object(olderBriefPart2Schema.shape, { error: 'Part 2 of the brief is missing' }),
});
export type OlderBriefSubmitInput = z.input<typeof olderBriefSubmitSchema>;

/** Joins the non-empty pieces, each under its label (the first may have none), with blank lines. */
function fold(pieces: [label: string | null, value: string | undefined][]): string | undefined {
  const parts = pieces.filter(([, v]) => v).map(([label, v]) => (label ? `${label}:\n${v}` : v!));
  return parts.length ? parts.join('\n\n') : undefined;
}

/** Drops empty values so a stored brief holds only what was filled in. */
export function compact<T extends Record<string, string | undefined>>(part: T): T {
  return Object.fromEntries(Object.entries(part).filter(([, v]) => v !== undefined && v !== '')) as T;
}

/** Older field names → current brief; nothing the brand wrote is lost. */
export function mapOlderBrief(part1: OlderBriefPart1, part2: OlderBriefPart2): { part1Json: BriefPart1; part2Json: BriefPart2 } {
  return {
    part1Json: compact({
      personOrBrandName: part1.nameForArticles,
      preferredTitle: part1.preferredTitle,
      backgroundExperience: part1.background,
      inspiration: part1.inspiration,
      challengesOvercome: part1.challenges,
      uniquePerspective: part1.differentiation,
      careerHighlights: part1.highlights,
      personalAnecdotes: part1.anecdotes,
      futureVision: part1.futureVision,
      additionalInfo: fold([
        [null, part1.extra],
        ['Title ideas', part1.titleIdeas],
        ['Reference links', part1.referenceLinks],
      ]),
    }),
    part2Json: compact({
      mainGoal: part2.goal,
      targetAudience: part2.audience,
      mainMessage: part2.mainMessage,
      specificPoints: fold([
        [null, part2.keyPoints],
        ['Information to leave out', part2.excludedInfo],
      ]),
      seoKeywords: part2.seoKeywords,
      toneStyleGuidelines: part2.tone,
      socialMediaLinks: part2.socialLinks,
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Draft review (brand) and draft documents (admin)

/** POST /api/brand/projects/{paymentId}/request-edits — empty feedback sends nothing. */
export const editRequestSchema = z.object({
  feedback: z
    .string({ error: 'Feedback must be text' })
    .trim()
    .max(EDIT_FEEDBACK_MAX, `Feedback must be at most ${EDIT_FEEDBACK_MAX} characters`)
    .nullish()
    .transform((v) => v || undefined),
});

/** What POST /api/upload/document returns and what {draftDocumentFile} must be: a private, generated path. */
const DRAFT_FILE_PATH = /^\/api\/files\/[A-Za-z0-9_-]+\.(pdf|doc|docx)$/;
const DRAFT_URL_MAX = 2048;
const DRAFT_ATTACH_MESSAGE = 'Please provide either a URL or upload a file';

/**
 * PATCH /api/admin/payments/{id}/status with a draft: exactly one of {draftDocumentUrl} (http or
 * https) or {draftDocumentFile} (the path the document upload returned).
 */
export const draftAttachSchema = z
  .object({
    draftDocumentUrl: z.string({ error: 'Please enter a valid URL' }).trim().nullish(),
    draftDocumentFile: z.string({ error: 'No file selected' }).trim().nullish(),
  })
  .transform((v, ctx): { draftDocumentUrl: string } | { draftDocumentFile: string } => {
    const url = v.draftDocumentUrl ? withHttps(v.draftDocumentUrl) : undefined;
    const file = v.draftDocumentFile || undefined;
    if (!url === !file) {
      ctx.addIssue({ code: 'custom', message: DRAFT_ATTACH_MESSAGE });
      return z.NEVER;
    }
    if (url) {
      if (url.length > DRAFT_URL_MAX || !isHttpUrl(url)) {
        ctx.addIssue({ code: 'custom', path: ['draftDocumentUrl'], message: 'Please enter a valid URL' });
        return z.NEVER;
      }
      return { draftDocumentUrl: url };
    }
    if (!DRAFT_FILE_PATH.test(file!)) {
      ctx.addIssue({ code: 'custom', path: ['draftDocumentFile'], message: 'Please upload a .doc, .docx or .pdf file' });
      return z.NEVER;
    }
    return { draftDocumentFile: file! };
  });

/** True when a PATCH /api/admin/payments/{id}/status body is about the draft document. */
export const isDraftAttachBody = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && ('draftDocumentUrl' in body || 'draftDocumentFile' in body);

// ---------------------------------------------------------------------------------------------
// Response shapes (their schemas: schemas/responses/placement.ts)

/** GET /api/brand/brief/{paymentId}. Parts hold only filled-in fields; a missing key means empty. */
export type BriefResponse = z.infer<typeof briefResponseSchema>;
/** A save or submit based on an older version (409): what the server holds now. */
export type BriefConflictBody = z.infer<typeof briefConflictSchema>;
/** POST /api/brand/brief/{paymentId}, …/submit and POST /api/briefs. */
export type SavedBrief = z.infer<typeof savedBriefSchema>;
/** The payment members a project card needs. */
export type PlacementPayment = z.infer<typeof placementPaymentSchema>;
/** GET /api/brand/my-articles item (spec §3); a client reviewer's without its amounts (decision 035). */
export type BrandPlacementItem = z.infer<typeof brandPlacementItemSchema>;
/**
 * A brand's placement with its amounts, as every member but a client reviewer reads it (and as the
 * database builds it): what the money, cancellation and dispute sections take.
 */
export type BuyersPlacementItem = Omit<BrandPlacementItem, 'priceUsd' | 'payment' | 'cancellation'> & {
  priceUsd: string;
  payment: PlacementPayment;
  cancellation: Cancellation | null;
};
/** The placement with its amounts, or null when its answer carries none (a client reviewer's). */
export function withAmounts(a: BrandPlacementItem): BuyersPlacementItem | null {
  const { priceUsd, payment, cancellation } = a;
  if (priceUsd === undefined || payment.amount === undefined || payment.refundedAmount === undefined) return null;
  if (cancellation && cancellation.amountUsd === undefined) return null;
  return a as BuyersPlacementItem;
}
/** A placement's life as the server answers it (issue 58, decision 042). */
export type Life = z.infer<typeof lifeSchema>;
/** GET /api/admin/projects item (spec §3). */
export type AdminPlacementItem = z.infer<typeof adminPlacementItemSchema>;
/** An admin who edits placements (issue 59). */
export type Editor = z.infer<typeof assigneeSchema>;
/** POST /api/upload/document */
export type UploadedDocument = z.infer<typeof uploadedDocumentSchema>;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// the tabs (spec §4) live in the leaf enums.ts, which the response schemas build on
export { ARTICLE_TABS, PROJECT_TABS } from '../enums';
export type { ArticleTab, ProjectTab } from '../enums';
/** Each tab's count, and how many drafts wait for the brand's review (the page opens on them). */
export type ArticleTabCounts = z.infer<typeof articleTabCountsSchema>;

/** GET /api/brand/my-articles filters (besides ?limit=&cursor=): one tab, or one purchase. */
/** `?clientId=`: one client's placements (decision 035). */
export const clientFilter = z
  .string({ error: 'Client not found' })
  .regex(UUID_RE, 'Client not found')
  .optional()
  .describe('one client’s placements (an agency’s view per client)');

export const myArticlesQuerySchema = z.object({
  tab: z.enum(ARTICLE_TABS, { error: `tab must be one of ${ARTICLE_TABS.join(', ')}` }).optional(),
  paymentId: z.string({ error: 'Payment not found' }).regex(UUID_RE, 'Payment not found').optional(),
  opportunityId: z.string({ error: 'Opportunity not found' }).regex(UUID_RE, 'Opportunity not found').optional(),
  clientId: clientFilter,
});
export type MyArticlesQuery = z.output<typeof myArticlesQuerySchema>;

export type ProjectTabCounts = z.infer<typeof projectTabCountsSchema>;

/** `mine=true`: only the placements the signed-in admin edits (issue 59). */
const mineFilter = z
  .enum(['true', 'false'], { error: 'mine must be true or false' })
  .transform((v) => v === 'true')
  .optional();

/** GET /api/admin/projects: one tab, a search by brand, and "Mine". */
export const adminProjectsQuerySchema = z.object({
  tab: z.enum(PROJECT_TABS, { error: 'tab must be one of awaiting, review, approved, published, refunded' }).optional(),
  q: adminSearchQuery,
  mine: mineFilter,
  sort: z
    .enum(['newest', 'due'], { error: 'sort must be newest or due' })
    .optional()
    .describe('newest first (the default), or `due`: the placements with a stage clock running, soonest due first (decision 048)'),
  clock: z
    .enum(['at_risk', 'late'], { error: 'clock must be at_risk or late' })
    .optional()
    .describe('only the placements whose stage clock is at risk (a fifth of its time left) or late (past due), paused ones apart'),
});

/** GET /api/admin/projects/counts: the list's search and "Mine", so each tab counts what it lists. */
export const adminProjectCountsQuerySchema = z.object({ q: adminSearchQuery, mine: mineFilter });
export type AdminProjectsQuery = z.output<typeof adminProjectsQuerySchema>;

/** Placements chosen for a bulk action (issue 46): 1 to 50 ids, each at most once. */
const paymentIdList = z
  .array(z.string({ error: 'Each placement is an id' }).regex(UUID_RE, 'Placement not found'), { error: 'Choose the placements' })
  .min(1, 'Choose at least one placement')
  .max(50, 'At most 50 placements at once')
  .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]);

/** POST /api/brand/brief/{paymentId}/copy: to these placements of the same order, or (none given) to all of it without a brief. */
export const briefCopySchema = z.object({ paymentIds: paymentIdList.optional() });

/** POST /api/brand/projects/approve */
export const bulkApproveSchema = z.object({ paymentIds: paymentIdList });

/** What a bulk action left, and why. */
const skippedList = z.array(z.object({ paymentId: z.guid(), reason: z.string() }));
export const bulkApproveAnswerSchema = z.object({ approved: z.array(z.guid()), skipped: skippedList });
export const briefCopyAnswerSchema = z.object({ copied: z.array(z.guid()), skipped: skippedList });

/**
 * POST /api/brand/brief-templates: a brief kept to start others from, the client's of the placement
 * it is saved from (without one, the organisation's own; issue 57).
 */
export const briefTemplateSchema = z.object({
  name: nameSchema('Name the template', 100, 'At most 100 characters'),
  paymentId: z
    .string({ error: 'Payment not found' })
    .optional()
    .describe('the placement it is saved from: the template is its client’s; absent, the organisation’s own'),
  part1Json: briefPart1DraftSchema.default({}),
  part2Json: briefPart2DraftSchema.default({}),
});
export type BriefTemplateInput = z.input<typeof briefTemplateSchema>;

export const briefTemplateAnswerSchema = z
  .object({
    id: z.guid(),
    name: z.string(),
    clientId: z.guid().nullable().describe('the client it belongs to; null: the organisation’s own, for placements bought for no client'),
    part1Json: z.record(z.string(), z.string()),
    part2Json: z.record(z.string(), z.string()),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'BriefTemplate' });
export type BriefTemplate = z.infer<typeof briefTemplateAnswerSchema>;

/** How many templates a client (or the organisation, of its own) keeps. */
export const BRIEF_TEMPLATES_MAX = 50;
