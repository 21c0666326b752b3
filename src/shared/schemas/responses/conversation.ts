import { z } from 'zod';
import { ACTOR_TYPES, MESSAGE_SIDES, PAYMENT_STATUSES } from '../../enums';
import { TIMELINE_KINDS } from '../../placement-machine';
import { brandContactSchema, count, decimal, id, timestamp } from './common';
import { clockSchema } from './life';

/** GET /api/{brand|admin}/projects/{paymentId}/messages: one message. */
export const messageSchema = z
  .object({
    id,
    side: z.enum(MESSAGE_SIDES),
    authorName: z.string().describe('the author’s name as the other side sees it (an admin’s name, the brand’s name)'),
    text: z.string(),
    attachment: z
      .object({ name: z.string(), contentType: z.string(), size: count.describe('bytes') })
      .nullable()
      .describe('download it from …/messages/{messageId}/attachment'),
    createdAt: timestamp,
  })
  .meta({ id: 'Message' });

/** GET /api/{brand|admin}/messages/unread: the caller's side's unread messages, per placement (payment id). */
export const unreadSummarySchema = z
  .object({
    total: count,
    byPayment: z.record(z.string(), count).describe('payment id → unread messages; payments with none are left out'),
  })
  .meta({ id: 'UnreadSummary' });

/** GET /api/{brand|admin}/projects/{paymentId}/conversation: what the details page's header names. */
export const conversationAboutSchema = z
  .object({
    paymentId: id,
    title: z.string(),
    outletName: z.string(),
    brandName: z.string(),
    status: z.enum(PAYMENT_STATUSES),
    unread: count,
  })
  .meta({ id: 'ConversationAbout' });

/** GET /api/{brand|admin}/projects/{paymentId}/timeline: one entry. */
export const timelineEntrySchema = z
  .object({
    id: z.string().describe('grows with every entry (the cursor of the next page)'),
    kind: z.enum(TIMELINE_KINDS),
    actor: z
      .object({ type: z.enum(ACTOR_TYPES), name: z.string() })
      .describe('who: the brand, an admin by name, or "Byline" for automatic steps'),
    at: timestamp,
    details: z
      .record(z.string(), z.unknown())
      .describe('what the kind needs to be told: amount, round, feedback, url, reason…'),
  })
  .meta({ id: 'TimelineEntry' });

/** What the brand waits for an answer to (issue 47). */
const ANSWER_DUE = ['cancellation', 'dispute', 'decision', 'extra_revision'] as const;

/** Why a placement waits on the editorial team (a placement may have several reasons at once). */
const attentionReasonSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('unread_messages'), count }).describe('the brand’s messages the team has not read'),
    z
      .object({ kind: z.literal('overdue'), dueAt: timestamp })
      .describe('the brief is in and no draft came within the turnaround'),
    z.object({ kind: z.literal('edits_requested') }).describe('the brand asked for edits of the draft'),
    z
      .object({ kind: z.literal('approved_unpublished') })
      .describe('the brand approved the draft and it is not published yet'),
    z
      .object({ kind: z.literal('guarantee_near'), refundAt: timestamp })
      .describe('still held: the guarantee refunds it automatically on `refundAt`'),
    z
      .object({ kind: z.literal('open_case'), restoreBy: timestamp })
      .describe('a confirmed problem with the live article: the outlet must restore it by `restoreBy`'),
    z
      .object({ kind: z.literal('answer_due'), what: z.enum(ANSWER_DUE), dueAt: timestamp.nullable() })
      .describe(
        'issue 47: the brand waits on the team’s answer (a cancellation, a dispute, an extra revision) or an admin’s decision of an escalated dispute; missed, the brand gets what it asked for',
      ),
  ])
  .meta({ id: 'AttentionReason' });

const attentionItemSchema = z
  .object({
    paymentId: id,
    title: z.string(),
    outletName: z.string(),
    brand: brandContactSchema,
    amount: decimal,
    paidAt: timestamp,
    reasons: z.array(attentionReasonSchema),
    since: timestamp.describe('when the placement began to wait on the team (its oldest present reason)'),
    mine: z.boolean().describe('assigned to the signed-in admin (issue 59): listed first'),
    clock: clockSchema.describe('its stage clock (decision 048)'),
  })
  .meta({ id: 'AttentionItem' });

/** GET /api/admin/attention */
export const attentionListSchema = z
  .object({
    total: count.describe('every placement that needs attention, also those past the first 200'),
    items: z.array(attentionItemSchema).describe('the signed-in admin’s own first, then the most urgent first'),
    clocks: z
      .object({ atRisk: count.describe('stage clocks at risk: a fifth of their time left'), late: count.describe('stage clocks past due') })
      .describe('the stage clocks running, at risk and late (the dashboard’s counts; paused ones apart)'),
  })
  .meta({ id: 'AttentionList' });
