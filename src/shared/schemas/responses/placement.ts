import { z } from 'zod';
import { cancellationSchema, disputeRefSchema, revisionsSchema } from '../fair-terms';
import { ARTICLE_TABS, DRAFT_REVIEW_STATUSES, PAYMENT_STATUSES, PROJECT_TABS } from '../../enums';
import { briefPart1DraftSchema, briefPart2DraftSchema } from '../brief-parts';
import { brandContactSchema, clientRefSchema, organisationRefSchema, count, countsOf, decimal, errorCodeSchema, id, timestamp } from './common';
import { publicationSchema } from './publication';
import { declinedSchema } from '../cart';
import { lifeSchema } from './life';

/** The brief's parts as stored: only the fields filled in (a missing key means empty). */
const briefPart1 = briefPart1DraftSchema.meta({
  id: 'BriefPart1',
  description: 'Part 1 "About You / Your Brand": only the fields filled in',
});
const briefPart2 = briefPart2DraftSchema.meta({
  id: 'BriefPart2',
  description: 'Part 2 "Article Guidelines": only the fields filled in',
});

/** GET /api/brand/brief/{paymentId}. */
export const briefResponseSchema = z
  .object({
    part1Json: briefPart1,
    part2Json: briefPart2,
    source: z
      .enum(['saved', 'fallback', 'empty'])
      .describe('saved: this payment’s brief; fallback: copied from the brand’s latest brief; empty: nothing yet'),
    submittedAt: timestamp.nullable().describe('null while the brief is a draft (also for "fallback" and "empty")'),
    version: z.string().describe('opaque: changes with every save; send it back as `baseVersion`'),
  })
  .meta({ id: 'Brief' });

/** A save or submit based on an older version (409): what the server holds now. */
export const briefConflictSchema = z
  .object({ message: z.string(), code: errorCodeSchema, current: briefResponseSchema })
  .meta({ id: 'BriefConflict' });

/** POST /api/brand/brief/{paymentId}, …/submit and POST /api/briefs. */
export const savedBriefSchema = z
  .object({
    paymentId: id,
    opportunityId: id,
    part1Json: briefPart1,
    part2Json: briefPart2,
    submittedAt: timestamp.nullable(),
    updatedAt: timestamp,
    version: z.string().describe('the version this save made (the next save’s `baseVersion`)'),
  })
  .meta({ id: 'SavedBrief' });

/** The payment members a project card needs. */
export const placementPaymentSchema = z
  .object({
    id,
    status: z.enum(PAYMENT_STATUSES),
    draftReviewStatus: z.enum(DRAFT_REVIEW_STATUSES),
    draftDocumentUrl: z.string().nullable(),
    draftDocumentFile: z
      .string()
      .nullable()
      .describe('"/api/files/<name>": served to the owning brand and admins only, as a download'),
    brandFeedback: z.string().nullable(),
    stripePaymentId: z.string(),
    amount: decimal,
    refundedAmount: decimal.describe('given back so far: the whole amount once refunded, else the parts refunded (issue 47)'),
    createdAt: timestamp,
  })
  .meta({ id: 'PlacementPayment' });

/**
 * A money field of an answer a client reviewer may get: absent from its copy (decision 035; the
 * server drops every one on the way out, lib/amounts.ts), so a screen never takes it for granted.
 */
const forBuyers = <T extends z.ZodType>(field: T, what: string) =>
  field.optional().describe(`${what}; absent for a client reviewer, who sees no amount (decision 035)`);

/** The payment members of a brand's placement: its amounts absent for a client reviewer. */
export const brandPlacementPaymentSchema = placementPaymentSchema
  .extend({
    amount: forBuyers(decimal, 'what was charged'),
    refundedAmount: forBuyers(decimal, 'given back so far: the whole amount once refunded, else the parts refunded (issue 47)'),
  })
  .meta({ id: 'BrandPlacementPayment' });


/** The opportunity members of a placement card. */
const card = {
  id,
  title: z.string(),
  type: z.array(z.string()),
  outletName: z.string(),
  priceUsd: decimal,
  payment: placementPaymentSchema,
};

/** GET /api/brand/my-articles item (spec §3). */
export const brandPlacementItemSchema = z
  .object({
    ...card,
    priceUsd: forBuyers(decimal, 'the opportunity’s price'),
    payment: brandPlacementPaymentSchema,
    brief: z
      .object({ submittedAt: timestamp.nullable() })
      .nullable()
      .describe('null until the brand has saved anything; submittedAt null while it is a draft'),
    publication: publicationSchema.nullable().describe('the live article, once published'),
    unreadMessages: count.describe('messages from the editorial team the brand has not read'),
    client: clientRefSchema,
    orderId: id.nullable().describe('the order it was bought in with others (issue 46), null when bought alone'),
    declined: declinedSchema.nullable().describe('declined by the outlet: choose an alternative by `swapBy`'),
    writingStartedAt: timestamp.nullable().describe('when the editorial team started writing (issue 47): from then cancelling is a request'),
    revisions: revisionsSchema.describe('edit rounds used of those included (issue 47)'),
    cancellation: cancellationSchema
      .extend({ amountUsd: forBuyers(decimal.nullable(), 'what was refunded') })
      .nullable()
      .describe('the latest cancellation asked for (issue 47), null when none'),
    dispute: disputeRefSchema.nullable().describe('the latest dispute (issue 47), null when none'),
    promisedBy: timestamp
      .nullable()
      .describe('"Live by" (issue 59): fixed when it was bought, from its outlet’s record (P90) or listed turnaround; null: neither was known'),
    usuallyBy: timestamp.nullable().describe('"usually by": the P50 date of the outlet’s record when it was bought; null when the promise was from the listed turnaround'),
    life: lifeSchema,
  })
  .meta({ id: 'BrandPlacementItem' });

/** An admin of the editorial team (issue 59): who edits a placement. */
export const assigneeSchema = z.object({ id, name: z.string() }).meta({ id: 'Editor' });

/** GET /api/admin/projects item (spec §3). */
export const adminPlacementItemSchema = z
  .object({
    ...card,
    brief: z
      .object({ part1Json: briefPart1, part2Json: briefPart2, submittedAt: timestamp })
      .nullable()
      .describe('null until the brand submits (its drafts are its own)'),
    user: brandContactSchema,
    organisation: organisationRefSchema,
    client: clientRefSchema,
    publication: publicationSchema.nullable().describe('the live article, once published'),
    overdue: z
      .boolean()
      .describe('the brief is in and no draft came within the turnaround (the opportunity’s tatDays, else 14 days)'),
    unreadMessages: count.describe('messages from the brand the editorial team has not read'),
    orderId: id.nullable().describe('the order it was bought in with others (issue 46), null when bought alone'),
    declined: declinedSchema.nullable().describe('declined by the outlet: the brand chooses an alternative by `swapBy`'),
    writingStartedAt: timestamp.nullable().describe('when the editorial team started writing (issue 47): from then cancelling is a request'),
    revisions: revisionsSchema.describe('edit rounds used of those included (issue 47)'),
    cancellation: cancellationSchema.nullable().describe('the latest cancellation asked for (issue 47), null when none'),
    dispute: disputeRefSchema.nullable().describe('the latest dispute (issue 47), null when none'),
    assignee: assigneeSchema.nullable().describe('its editor (issue 59): the admin assigned, or the first who acted on it; null when none'),
    promisedBy: timestamp
      .nullable()
      .describe('"Live by" (issue 59): fixed when it was bought, from its outlet’s record (P90) or listed turnaround; null: neither was known'),
    usuallyBy: timestamp.nullable().describe('"usually by": the P50 date of the outlet’s record when it was bought; null when the promise was from the listed turnaround'),
    life: lifeSchema,
  })
  .meta({ id: 'AdminPlacementItem' });

/** POST /api/upload/document */
export const uploadedDocumentSchema = z.object({
  path: z.string().describe('"/api/files/<name>": send it as `draftDocumentFile`'),
});

/** GET /api/brand/my-articles/counts: each tab's count, and the drafts waiting for the brand's review. */
export const articleTabCountsSchema = countsOf([...ARTICLE_TABS, 'toReview']).meta({ id: 'ArticleTabCounts' });

/** GET /api/admin/projects/counts */
export const projectTabCountsSchema = countsOf(PROJECT_TABS).meta({ id: 'ProjectTabCounts' });
