import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ModuleDeps } from '../../deps';
import { idIn, route, userOf } from '../../lib/contract';
import { conflict, notFound } from '../../lib/errors';
import { pageFrom, sendJsonPage } from '../../lib/paging';
import { adminSearchQuerySchema } from '../../../shared/schemas/admin-search';
import { adminPaymentsQuerySchema } from '../../../shared/schemas/payment';
import {
  adminPaymentItemSchema,
  paymentAttentionItemSchema,
  paymentSchema,
  paymentTotalsSchema,
} from '../../../shared/schemas/responses/payment';
import { refundPayment, refundPublishedPayment } from './refunds';
import { declinePlacement } from './swap';
import { SWAP_DAYS } from '../../../shared/constants';
import { declineAnswerSchema, declineRequestSchema } from '../../../shared/schemas/cart';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import { adminPayments, paymentById, paymentsNeedingAttention, paymentTotals, toPaymentDto } from './service';

const paymentParams = z.object({ id: idIn(PAYMENT_NOT_FOUND).describe('the payment id (the placement’s)') });

/** Admin Payments: the list, its totals, the charges that need attention, refunds. */
export function adminPaymentRoutes(app: FastifyInstance, { db, provider, config }: ModuleDeps) {
  route(
    app,
    'GET',
    '/api/admin/payments',
    {
      access: 'admin',
      tags: ['Payments'],
      spec: true,
      paged: true,
      summary: 'Every payment, newest first',
      querystring: adminPaymentsQuerySchema,
      response: { 200: z.array(adminPaymentItemSchema) },
    },
    async (req, reply) => {
      const { opportunityId, status, q } = req.query;
      const page = pageFrom(req.query);
      return sendJsonPage(req, reply, page, await adminPayments(db, { opportunityId, status, q }, page));
    },
  );

  // with the list's search: the totals of the payments listed (a brand's money held and released)
  route(
    app,
    'GET',
    '/api/admin/payments/totals',
    {
      access: 'admin',
      tags: ['Payments'],
      summary: 'What was charged for the payments held and released (of the brands `q` finds)',
      querystring: adminSearchQuerySchema,
      response: { 200: paymentTotalsSchema },
    },
    async (req) => paymentTotals(db, req.query.q),
  );

  route(
    app,
    'GET',
    '/api/admin/payments/attention',
    {
      access: 'admin',
      tags: ['Payments'],
      summary: 'Paid checkouts that were not booked (the charge did not match), newest first',
      response: { 200: z.array(paymentAttentionItemSchema) },
    },
    async () => paymentsNeedingAttention(db),
  );

  route(
    app,
    'POST',
    '/api/admin/payments/:id/refund',
    {
      access: 'admin',
      tags: ['Payments'],
      summary: 'Refund a payment held in escrow or published',
      params: paymentParams,
      response: { 200: paymentSchema },
      errors: { 409: 'Only a payment held in escrow or published can be refunded' },
    },
    async (req) => {
      const admin = userOf(req);
      const { id } = req.params;
      const existing = await paymentById(db, id);
      if (!existing) throw notFound(PAYMENT_NOT_FOUND);
      // a published placement is refunded from Placements (its article gone, say): the money comes back too
      const result =
        existing.status === 'released'
          ? await refundPublishedPayment(db, provider, id, new Date(), 'admin', { type: 'admin', id: admin.id })
          : await refundPayment(db, provider, id, 'admin', new Date(), { type: 'admin', id: admin.id });
      if (result) return toPaymentDto(db, result.payment);
      throw conflict(`Only a payment held in escrow or published can be refunded (this one is ${existing.status})`);
    },
  );

  route(
    app,
    'POST',
    '/api/admin/payments/:id/decline',
    {
      access: 'admin',
      tags: ['Payments'],
      summary: 'Decline a placement before writing starts (the outlet refused it): the brand may swap it for an alternative',
      description: `Its slot is given back. The brand is e-mailed and has SWAP_DAYS (default ${SWAP_DAYS}) days (\`swapBy\`) to choose an alternative; without a choice it is refunded in full. An order checked out with \`autoSwap\` takes the closest alternative at once.`,
      params: paymentParams,
      body: declineRequestSchema,
      response: { 200: declineAnswerSchema },
      errors: { 404: PAYMENT_NOT_FOUND, 409: 'Declined already, or writing has started, or not in progress' },
    },
    async (req) => declinePlacement(db, provider, req.params.id, req.body.reason, { type: 'admin', id: userOf(req).id }, new Date(), config.SWAP_DAYS),
  );
}
