import { z } from 'zod';
import {
  CANCELLATION_OUTCOMES,
  CANCELLATION_STATUSES,
  DISPUTE_ACTIONS,
  DISPUTE_DECISIONS,
  DISPUTE_OUTCOMES,
  DISPUTE_REASONS,
  DISPUTE_RESOLUTIONS,
  DISPUTE_STATUSES,
  REVISION_REQUEST_STATUSES,
  type DisputeOutcome,
  type DisputeReason,
} from '../enums';
import { toCents } from '../money';
import { decimal, id, timestamp } from './responses/common';
import { lifeSchema } from './responses/life';

/**
 * The fair terms (issue 47): part refunds, credit notes, revision rounds and cancellation. The
 * numbers (REVISIONS_INCLUDED, RESPONSE_DAYS) are settings; the terms page prints the same values.
 */

const AMOUNT_MESSAGE = 'The amount must be such as 120.00';
const AMOUNT = /^\d{1,10}(\.\d{1,2})?$/;
/** An amount of money typed by a person: dollars and at most two decimals, more than zero. */
const amountUsd = z
  .string({ error: AMOUNT_MESSAGE })
  .trim()
  .regex(AMOUNT, AMOUNT_MESSAGE)
  // only an amount is compared (zod runs every check, the regex's failure aside)
  .refine((v) => !AMOUNT.test(v) || toCents(v) > 0, 'The amount must be more than 0.00');

export const ANSWER_REASON_MAX = 2000;
const reasonText = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .max(ANSWER_REASON_MAX, `${what} must be at most ${ANSWER_REASON_MAX} characters`);

/** POST /api/admin/payments/{id}/refund: without an amount, what is left is refunded in full. */
export const refundRequestSchema = z.object({
  amountUsd: amountUsd.optional(),
  reason: reasonText('The reason').optional(),
});
export type RefundRequest = z.infer<typeof refundRequestSchema>;

/** GET …/payments/{id}/credit-notes item. */
export const creditNoteItemSchema = z
  .object({ id, number: z.string(), amountUsd: decimal, issuedAt: timestamp })
  .meta({ id: 'CreditNoteItem' });
export type CreditNoteItem = z.infer<typeof creditNoteItemSchema>;

/** What a placement's edit rounds stand at: `used` of `included`, and an extra request if any. */
export const revisionsSchema = z
  .object({
    used: z.number().int().describe('edit requests made (an extra one counts once accepted)'),
    included: z.number().int().describe('edit requests included when it was bought (REVISIONS_INCLUDED)'),
    request: z
      .object({
        id,
        status: z.enum(REVISION_REQUEST_STATUSES),
        feedback: z.string(),
        reason: z.string(),
        answer: z.string().nullable().describe('the editorial team’s reason when declined'),
        createdAt: timestamp,
      })
      .nullable()
      .describe('the latest request beyond the included rounds'),
  })
  .meta({ id: 'Revisions' });
export type Revisions = z.infer<typeof revisionsSchema>;

/** POST /api/brand/projects/{id}/request-edits beyond the included rounds. */
export const EXTRA_REVISION_REASON_REQUIRED =
  'Say how the draft departs from the brief: extra revisions are for what the brief asked for';
export const extraRevisionReasonSchema = reasonText('The reason').min(1, EXTRA_REVISION_REASON_REQUIRED);

/** POST /api/admin/payments/{id}/revision-request/decline, cancellation refusals */
export const answerReasonSchema = z.object({
  reason: reasonText('The reason').min(1, 'Give the reason, the brand will read it'),
});

/** A placement's cancellation (the latest), as both sides see it. */
export const cancellationSchema = z
  .object({
    id,
    status: z.enum(CANCELLATION_STATUSES),
    respondBy: timestamp.describe('unanswered by then, it is granted in full'),
    reason: z.string().nullable().describe('the brand’s'),
    outcome: z.enum(CANCELLATION_OUTCOMES).nullable(),
    amountUsd: decimal.nullable().describe('what was refunded'),
    answer: z.string().nullable().describe('the editorial team’s reason'),
    answeredAt: timestamp.nullable(),
    byDeadline: z.boolean().describe('granted because the deadline passed unanswered'),
    createdAt: timestamp,
  })
  .meta({ id: 'Cancellation' });
export type Cancellation = z.infer<typeof cancellationSchema>;

/** POST /api/brand/projects/{id}/cancel */
export const cancelRequestSchema = z.object({ reason: reasonText('The reason').optional() });

/** POST /api/brand/projects/{id}/cancel: refunded at once (before writing), or a request awaiting the team. */
export const cancelAnswerSchema = z.object({ refundedUsd: decimal, cancellation: cancellationSchema.nullable() });
export const cancelRequestedSchema = z.object({ cancellation: cancellationSchema });

/** POST /api/admin/cancellations/{id}/answer */
export const cancellationAnswerSchema = z
  .object({
    outcome: z.enum(CANCELLATION_OUTCOMES, { error: 'Choose a full refund, a part refund or a refusal' }),
    amountUsd: amountUsd.optional(),
    reason: reasonText('The reason').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.outcome === 'refund_partial' && !v.amountUsd)
      ctx.addIssue({ code: 'custom', path: ['amountUsd'], message: 'Give the amount to refund' });
    if (v.outcome !== 'refund_full' && !v.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Give the reason, the brand will read it' });
  });
export type CancellationAnswer = z.infer<typeof cancellationAnswerSchema>;

/** GET /api/admin/cancellations item: the requests awaiting an answer, soonest due first. */
export const openCancellationSchema = cancellationSchema
  .extend({ paymentId: id, title: z.string(), outletName: z.string(), brandName: z.string(), amount: decimal })
  .meta({ id: 'OpenCancellation' });

/** What each dispute reason means, in the words both sides read. */
export const DISPUTE_REASON_LABELS: Record<DisputeReason, string> = {
  not_published: 'The article is not published',
  link_missing: 'The link to us is missing',
  link_changed: 'The article or its link was changed',
  not_as_briefed: 'The article is not as briefed',
  other: 'Something else',
};
export const DISPUTE_OUTCOME_LABELS: Record<DisputeOutcome, string> = {
  refund_full: 'A full refund',
  refund_partial: 'A partial refund',
  correction: 'A correction',
};

export const DISPUTE_TEXT_MAX = 5000;

/** POST /api/brand/projects/{id}/disputes (JSON, or the same fields as multipart with a `file`). */
export const disputeRequestSchema = z
  .object({
    reason: z.enum(DISPUTE_REASONS, { error: 'Choose what the problem is' }),
    outcome: z.enum(DISPUTE_OUTCOMES, { error: 'Choose what you ask for' }),
    amountUsd: amountUsd.optional(),
    text: z
      .string({ error: 'Describe the problem' })
      .trim()
      .min(1, 'Describe the problem')
      .max(DISPUTE_TEXT_MAX, `At most ${DISPUTE_TEXT_MAX} characters`),
  })
  .superRefine((v, ctx) => {
    if (v.outcome === 'refund_partial' && !v.amountUsd)
      ctx.addIssue({ code: 'custom', path: ['amountUsd'], message: 'Give the amount you ask for' });
  });
export type DisputeRequest = z.infer<typeof disputeRequestSchema>;

/** POST /api/admin/disputes/{id}/answer */
export const disputeAnswerSchema = z
  .object({
    action: z.enum(DISPUTE_ACTIONS, { error: 'Accept, offer or reject' }),
    amountUsd: amountUsd.optional().describe('an offer of a partial refund; without it, an offer is of a correction'),
    reason: reasonText('The reason').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.action !== 'accept' && !v.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Give the reason, the brand will read it' });
  });
export type DisputeAnswer = z.infer<typeof disputeAnswerSchema>;

/** POST /api/admin/disputes/{id}/decide */
export const disputeDecisionSchema = z
  .object({
    outcome: z.enum(DISPUTE_DECISIONS, { error: 'Refund in full, refund a part, or reject' }),
    amountUsd: amountUsd.optional(),
    reason: reasonText('The reason').min(1, 'Write the reason for the decision'),
  })
  .superRefine((v, ctx) => {
    if (v.outcome === 'refund_partial' && !v.amountUsd)
      ctx.addIssue({ code: 'custom', path: ['amountUsd'], message: 'Give the amount to refund' });
  });
export type DisputeDecisionRequest = z.infer<typeof disputeDecisionSchema>;

/** A dispute as both sides see it. */
export const disputeSchema = z
  .object({
    id,
    paymentId: id,
    kind: z
      .enum(['content', 'link'])
      .describe('content: decided by the team and, escalated, an admin; link: by Byline’s checks'),
    reason: z.enum(DISPUTE_REASONS),
    outcome: z.enum(DISPUTE_OUTCOMES).describe('what the brand asks for'),
    amountUsd: decimal.nullable().describe('the part asked for'),
    text: z.string(),
    status: z.enum(DISPUTE_STATUSES),
    resolution: z.enum(DISPUTE_RESOLUTIONS).nullable(),
    respondBy: timestamp.nullable().describe('the editorial team answers by then, or the brand gets what it asked for'),
    answer: z
      .object({
        action: z.enum(DISPUTE_ACTIONS),
        amountUsd: decimal.nullable(),
        reason: z.string().nullable(),
        answeredAt: timestamp,
      })
      .nullable(),
    escalateBy: timestamp.nullable().describe('the brand accepts the offer or escalates by then'),
    escalatedAt: timestamp.nullable(),
    decideBy: timestamp.nullable().describe('the deciding admin decides by then, or the brand gets what it asked for'),
    decision: z.object({ reason: z.string().nullable(), decidedAt: timestamp }).nullable(),
    refundedUsd: decimal,
    caseId: id.nullable().describe('the publication case the checks confirmed (a link dispute)'),
    createdAt: timestamp,
    resolvedAt: timestamp.nullable(),
  })
  .meta({ id: 'Dispute' });
export type Dispute = z.infer<typeof disputeSchema>;

/** A placement's latest dispute, on its card (My Articles, Admin Projects). */
export const disputeRefSchema = z
  .object({
    id,
    kind: z.enum(['content', 'link']),
    reason: z.enum(DISPUTE_REASONS),
    status: z.enum(DISPUTE_STATUSES),
    resolution: z.enum(DISPUTE_RESOLUTIONS).nullable(),
    dueAt: timestamp
      .nullable()
      .describe('the next deadline: the team’s answer, the brand’s escalation, or the decision'),
  })
  .meta({ id: 'DisputeRef' });
export type DisputeRef = z.infer<typeof disputeRefSchema>;

/** GET /api/brand/disputes/{id}: the dispute, its placement, and Byline's checks of the live article since it opened. */
export const disputeDetailSchema = disputeSchema
  .extend({
    title: z.string(),
    outletName: z.string(),
    amount: decimal.describe('what the placement cost'),
    refundedAmount: decimal.describe('what was given back of it so far, by this dispute or otherwise'),
    brandName: z.string().describe('whose placement it is'),
    evidence: z.array(
      z.object({
        url: z.string(),
        result: z.enum(['pass', 'warning', 'fail']),
        problems: z.array(z.string()),
        checkedAt: timestamp,
      }),
    ),
    nextCheckAt: timestamp
      .nullable()
      .describe('a link dispute still open: when Byline next checks the live article (due now when past); null when no check is pending'),
    deciders: z
      .object({
        you: z.boolean().describe('the signed-in admin may decide it'),
        names: z.array(z.string()).describe('the admins who may decide it (neither released its placement nor answered it): name (e-mail)'),
      })
      .optional()
      .describe('an escalated dispute, for an admin only: who may decide it (none: nobody can before the deadline grants it)'),
    life: lifeSchema.describe('its placement’s life for the viewer: its `actions` say which of the dispute’s moves they may make now'),
  })
  .meta({ id: 'DisputeDetail' });
export type DisputeDetail = z.infer<typeof disputeDetailSchema>;

/** GET /api/admin/disputes: counts by status, and the disputes (of one status), soonest due first. */
export const adminDisputesSchema = z
  .object({
    counts: z.object({
      open: z.number().int(),
      offered: z.number().int(),
      escalated: z.number().int(),
      resolved: z.number().int(),
    }),
    items: z.array(
      disputeSchema.extend({
        title: z.string(),
        outletName: z.string(),
        brandName: z.string(),
        dueAt: timestamp.nullable(),
      }),
    ),
  })
  .meta({ id: 'AdminDisputes' });
