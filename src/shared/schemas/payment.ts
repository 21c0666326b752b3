import { z } from 'zod';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** POST /api/payments/checkout */
export const createCheckoutSchema = z.object({
  opportunityId: z.string({ error: 'Opportunity is required' }).regex(UUID, 'Opportunity not found'),
});
export type CreateCheckoutInput = z.input<typeof createCheckoutSchema>;

/**
 * PATCH /api/admin/payments/:id/status — one change per request. Today: `{status: "released"}`.
 * The content-workflow issue adds `{draftDocumentUrl}` and `{draftDocumentFile}` as further members.
 */
export const releaseStatusSchema = z.object({
  status: z.literal('released', { error: 'Only "released" can be set here' }),
});
export const adminPaymentPatchSchema = z.union([releaseStatusSchema], { error: 'Nothing to update' });
export type AdminPaymentPatchInput = z.input<typeof adminPaymentPatchSchema>;

/** GET /api/admin/payments query: optional filters (the Mark Published dialog asks for one opportunity's paid payments). */
export const adminPaymentsQuerySchema = z.object({
  opportunityId: z.string().regex(UUID, 'Opportunity not found').optional(),
  status: z.enum(['paid', 'released', 'refunded'], { error: 'Unknown status' }).optional(),
});

export const isUuid = (v: string) => UUID.test(v);
