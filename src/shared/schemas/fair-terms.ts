import { z } from 'zod';
import { CANCELLATION_OUTCOMES, CANCELLATION_STATUSES, REVISION_REQUEST_STATUSES } from '../enums';
import { toCents } from '../money';
import { decimal, id, timestamp } from './responses/common';

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
export const EXTRA_REVISION_REASON_REQUIRED = 'Say how the draft departs from the brief: extra revisions are for what the brief asked for';
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
    if (v.outcome === 'refund_partial' && !v.amountUsd) ctx.addIssue({ code: 'custom', path: ['amountUsd'], message: 'Give the amount to refund' });
    if (v.outcome !== 'refund_full' && !v.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Give the reason, the brand will read it' });
  });
export type CancellationAnswer = z.infer<typeof cancellationAnswerSchema>;

/** GET /api/admin/cancellations item: the requests awaiting an answer, soonest due first. */
export const openCancellationSchema = cancellationSchema
  .extend({ paymentId: id, title: z.string(), outletName: z.string(), brandName: z.string(), amount: decimal })
  .meta({ id: 'OpenCancellation' });
