import { z } from 'zod';
import type { BillingDetails } from '../../billing';
import { CHECKOUT_STATUSES, DRAFT_REVIEW_STATUSES, PAYMENT_STATUSES, REFUND_REASONS, RELEASE_SKIPS } from '../../enums';
import { brandContactSchema, clientRefSchema, organisationRefSchema, decimal, id, timestamp } from './common';
import { lifeSchema } from './life';

/** GET /api/payments/checkout/{sessionId}: the built-in checkout page's data. */
export const checkoutViewSchema = z
  .object({
    sessionId: z.string().describe('the provider session id'),
    paymentId: id.describe('the checkout’s id, which becomes the payment’s once paid'),
    status: z.enum(CHECKOUT_STATUSES),
    amount: decimal,
    expiresAt: timestamp.describe('the slot is held until then'),
    opportunityId: id,
    title: z.string(),
    outletName: z.string(),
    lines: z
      .array(z.object({ opportunityId: id, title: z.string(), outletName: z.string(), amount: decimal }))
      .optional()
      .describe('a cart’s order (issue 46): its lines; `paymentId` is then the order’s id and `title` says how many'),
  })
  .meta({ id: 'CheckoutView' });

/** A payment as the API returns it (dates as ISO strings, money as decimal strings). */
export const paymentSchema = z
  .object({
    id,
    brandId: id,
    opportunityId: id,
    stripePaymentId: z.string().describe('the provider’s reference of the charge'),
    amount: decimal,
    refundedAmount: decimal.describe('given back so far: the whole amount once refunded in full, else the parts refunded (issue 47)'),
    status: z.enum(PAYMENT_STATUSES).describe('paid: held in escrow; released: published; refunded'),
    draftReviewStatus: z.enum(DRAFT_REVIEW_STATUSES),
    draftDocumentUrl: z.string().nullable(),
    draftDocumentFile: z
      .string()
      .nullable()
      .describe('"/api/files/<name>": a private download for the brand and admins'),
    brandFeedback: z.string().nullable(),
    refundReason: z.enum(REFUND_REASONS).nullable(),
    paidAt: timestamp,
    releasedAt: timestamp.nullable(),
    refundedAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'Payment' });

/** GET /api/brand/payments item. */
export const brandPaymentItemSchema = paymentSchema
  .extend({
    opportunity: z.object({
      id,
      title: z.string(),
      outletName: z.string(),
      type: z.array(z.string()),
      priceUsd: decimal,
    }),
    client: clientRefSchema,
  })
  .meta({ id: 'BrandPaymentItem' });

/** GET /api/admin/payments item. */
export const adminPaymentItemSchema = paymentSchema
  .extend({
    opportunity: z.object({ id, title: z.string(), outletName: z.string(), priceUsd: decimal }),
    user: brandContactSchema,
    organisation: organisationRefSchema,
    client: clientRefSchema,
    briefSubmittedAt: timestamp.nullable().describe('when the brand submitted its brief (null: brief pending)'),
    releasedWithout: z
      .array(z.enum(RELEASE_SKIPS))
      .describe('what its placement’s release went without (issue 57): `live_url`, `approval`; empty for any other'),
    life: lifeSchema.describe('its placement’s life, for the editorial team (issue 58): the same as on Projects'),
  })
  .meta({ id: 'AdminPaymentItem' });

/** GET /api/admin/payments/totals: what was charged for the payments held (paid) and released. */
export const paymentTotalsSchema = z
  .object({ held: decimal, released: decimal, refunded: decimal.describe('given back, in full or in part (issue 47)') })
  .meta({ id: 'PaymentTotals' });

/** GET /api/admin/payments/attention item: a paid checkout that was not booked (what was charged did not match). */
export const paymentAttentionItemSchema = z
  .object({
    id: id.describe('the checkout (hold) id'),
    reason: z.string(),
    providerSessionId: z.string().nullable(),
    providerRef: z
      .string()
      .nullable()
      .describe('the provider’s reference of the charge, to find it in the provider’s dashboard'),
    expectedAmount: decimal.describe('what the placement cost'),
    opportunity: z.object({ id, title: z.string(), outletName: z.string() }),
    user: brandContactSchema,
    createdAt: timestamp,
  })
  .meta({ id: 'PaymentAttentionItem' });

/** GET and PUT /api/brand/billing: nulls until saved; `email` is the account's until another is saved. */
export const billingDetailsAnswerSchema = z
  .object({
    legalName: z.string().nullable(),
    addressLine1: z.string().nullable(),
    addressLine2: z.string().nullable(),
    postalCode: z.string().nullable(),
    city: z.string().nullable(),
    country: z.string().nullable().describe('ISO 3166-1 alpha-2, e.g. "DE"'),
    taxId: z.string().nullable().describe('as stored: upper case, without spaces, dots or dashes'),
    email: z.string().describe('where invoices are sent'),
  })
  .meta({ id: 'BillingDetails' });

// src/shared/billing.ts's BillingDetails and this schema describe the same object
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _billingDetailsMatch: Same<z.infer<typeof billingDetailsAnswerSchema>, BillingDetails> = true;
