import { z } from 'zod';
import { PAYMENT_STATUSES } from '../payment';
import { adminSearchQuery } from './admin-search';
import { publishRequestSchema } from './publication';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** POST /api/payments/checkout */
export const createCheckoutSchema = z.object({
  opportunityId: z.string({ error: 'Opportunity is required' }).regex(UUID, 'Opportunity not found'),
  // the approved purchase request this checkout pays (a purchase over the buyer's approval threshold)
  purchaseRequestId: z.string().regex(UUID, 'Purchase request not found').optional(),
  // the organisation's client it is bought for (decision 035)
  clientId: z.string().regex(UUID, 'Client not found').optional(),
});

/**
 * PATCH /api/admin/payments/:id/status with `{status: "released"}` (publication). The same route
 * takes `{draftDocumentUrl}` or `{draftDocumentFile}` (draftAttachSchema, schemas/brief.ts).
 */
const releaseStatusSchema = publishRequestSchema.extend({
  status: z.literal('released', { error: 'Only "released" can be set here' }),
});
export const adminPaymentPatchSchema = z.union([releaseStatusSchema], { error: 'Nothing to update' });

/**
 * GET /api/admin/payments query: optional filters (the Mark Published dialog asks for one
 * opportunity's paid payments; the Payments screen searches by brand).
 */
export const adminPaymentsQuerySchema = z.object({
  opportunityId: z.string().regex(UUID, 'Opportunity not found').optional(),
  status: z.enum(PAYMENT_STATUSES, { error: 'Unknown status' }).optional(),
  q: adminSearchQuery,
});

