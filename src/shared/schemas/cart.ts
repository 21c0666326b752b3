import { z } from 'zod';
import { decimal, id, timestamp } from './responses/common';
import { PAYMENT_STATUSES } from '../payment';
import { promiseSchema } from './responses/opportunity';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How many lines a cart holds (one slot of one opportunity each). */
export const CART_MAX_LINES = 50;

/** Why a cart line cannot be bought now, in the words the cart shows. */
export const CART_UNAVAILABLE = {
  sold_out: 'Sold out',
  unavailable: 'No longer available',
  deadline_passed: 'The deadline to purchase has passed',
} as const;

/** POST /api/cart/checkout */
export const cartCheckoutSchema = z.object({
  // the new total, sent back to accept the prices that changed since the lines were added
  confirmTotalUsd: z
    .string({ error: 'The total must be an amount such as 1250.00' })
    .regex(/^\d{1,10}(\.\d{1,2})?$/, 'The total must be an amount such as 1250.00')
    .optional(),
  clientId: z.string().regex(UUID, 'Client not found').optional(),
  // a line the outlet declines is swapped for its closest alternative without asking
  autoSwap: z.boolean({ error: 'autoSwap is true or false' }).optional(),
  // the approved request of a cart above the buyer's approval threshold
  purchaseRequestId: z.string().regex(UUID, 'Purchase request not found').optional(),
});
export type CartCheckout = z.infer<typeof cartCheckoutSchema>;

const cartLineSchema = z
  .object({
    opportunityId: id,
    title: z.string(),
    outletName: z.string(),
    priceUsd: decimal.describe('the price when the line was added: what checkout charges unless confirmed anew'),
    currentPriceUsd: decimal,
    deadlineDate: timestamp.nullable(),
    available: z.boolean(),
    reason: z.string().nullable().describe('why it cannot be bought now (sold out, no longer available, deadline passed)'),
    addedAt: timestamp,
    promise: promiseSchema.nullable().describe('"Live by" if bought today, as the opportunity’s card has it (issue 59)'),
  })
  .meta({ id: 'CartLine' });

export const cartSchema = z
  .object({
    lines: z.array(cartLineSchema),
    totalUsd: decimal.describe('the sum of the lines’ prices as added'),
    maxLines: z.number().int(),
    budgetLeftUsd: decimal.nullable().describe('what the tightest of the organisation’s and the member’s monthly caps leaves; null without a cap'),
    needsApproval: z.boolean().describe('the total is above the member’s approval threshold'),
    clientBudgetLeftUsd: z
      .record(z.string(), decimal)
      .describe('for each capped client the member may buy for, by its id: what the tightest of its cap, the organisation’s and the member’s leaves (issue 57); a client absent has no cap of its own (`budgetLeftUsd` applies)'),
    approvalRequested: z
      .object({ id, createdAt: timestamp })
      .nullable()
      .describe('the member’s purchase request for exactly these lines still waiting for an answer (checking out again is refused with 409)'),
    skipped: z
      .array(z.object({ opportunityId: id, title: z.string(), reason: z.string() }))
      .optional()
      .describe('(order again) the opportunities not put back, and why'),
    reorder: z
      .object({ clientId: id.nullable(), autoSwap: z.boolean() })
      .optional()
      .describe('(order again) the client and options of the order put back: the checkout starts from them'),
  })
  .meta({ id: 'Cart' });
export type Cart = z.infer<typeof cartSchema>;

export const cartCheckoutAnswerSchema = z.object({ url: z.string(), orderId: id });

const orderLineSchema = z.object({
  paymentId: id,
  opportunityId: id,
  title: z.string(),
  outletName: z.string(),
  amountUsd: decimal,
  status: z.enum(PAYMENT_STATUSES),
  refundedUsd: decimal,
  briefSubmitted: z.boolean().describe('its brief is submitted (issue 57)'),
  disputeOpen: z.boolean().describe('a dispute of it is not resolved yet (issue 57)'),
  liveBy: timestamp.nullable().describe('"Live by": the date its article is promised by (issue 59): fixed at payment and moved by the brand\'s own delays; for a line not paid yet, the promise of a purchase now'),
  usuallyBy: timestamp.nullable().describe('"usually by": the outlet\'s typical date, when its record gives one'),
});

export const orderSchema = z
  .object({
    id,
    createdAt: timestamp,
    paidAt: timestamp.nullable(),
    status: z.enum(['open', 'completed', 'expired', 'cancelled']),
    totalUsd: decimal,
    paidUsd: decimal.describe('charged (0.00 until paid)'),
    refundedUsd: decimal,
    releasedUsd: decimal,
    heldUsd: decimal.describe('in escrow'),
    client: z.object({ id, name: z.string() }).nullable(),
    autoSwap: z.boolean(),
    lines: z.array(orderLineSchema),
    invoiceId: id.nullable().describe('the order’s one invoice (each line’s invoice route answers it)'),
    invoiceNumber: z.string().nullable(),
    briefsToWrite: z.number().int().describe('placements held in escrow whose brief is not submitted yet: the order’s next step (issue 57)'),
    openDisputes: z.number().int().describe('placements with a dispute not resolved yet'),
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof orderSchema>;

export const orderSummarySchema = orderSchema
  .omit({ lines: true, briefsToWrite: true })
  .extend({ lineCount: z.number().int() })
  .meta({ id: 'OrderSummary' });

/** POST /api/admin/payments/{id}/decline */
export const declineRequestSchema = z.object({
  reason: z.string({ error: 'Say why the placement is declined' }).trim().min(1, 'Say why the placement is declined').max(1000, 'At most 1000 characters'),
});
export const declinedSchema = z.object({ reason: z.string(), swapBy: timestamp }).meta({ id: 'Declined' });
export const declineAnswerSchema = z.object({ paymentId: id, declined: declinedSchema });

/** POST /api/brand/projects/{id}/swap */
export const swapRequestSchema = z.object({
  opportunityId: z.string({ error: 'Choose an alternative' }).regex(UUID, 'Choose an alternative'),
});
export const swapOptionSchema = z
  .object({
    id,
    title: z.string(),
    outletName: z.string(),
    priceUsd: decimal,
    domainAuthority: z.number().int().nullable(),
    type: z.array(z.string()),
    topics: z.array(z.string()),
    deadlineDate: timestamp.nullable(),
    refundUsd: decimal.describe('refunded on choosing it: what the placement holds minus its price'),
    payUsd: decimal.describe('paid through a checkout on choosing it: its price minus what the placement holds'),
  })
  .meta({ id: 'SwapOption' });
export const swapAnswerSchema = z.object({
  paymentId: id,
  opportunityId: id,
  refundedUsd: decimal,
  url: z.string().optional().describe('a dearer alternative: the checkout of the difference, where the browser goes to pay'),
  payUsd: decimal.optional(),
});
export type SwapOption = z.infer<typeof swapOptionSchema>;
