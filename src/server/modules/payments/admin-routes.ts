import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ModuleDeps } from '../../deps';
import { placementParams, route, userOf } from '../../lib/contract';
import { notFound, conflict } from '../../lib/errors';
import { pageFrom, sendJsonPage } from '../../lib/paging';
import { adminSearchQuerySchema } from '../../../shared/schemas/admin-search';
import { adminPaymentsQuerySchema } from '../../../shared/schemas/payment';
import {
  adminPaymentItemSchema,
  paymentAttentionItemSchema,
  paymentSchema,
  paymentTotalsSchema,
} from '../../../shared/schemas/responses/payment';
import { moreThanLeft, refundableCents, refundPart, refundPayment, refundPublishedPayment } from './refunds';
import { paymentMoney } from '../ledger/ledger';
import { refundRequestSchema } from '../../../shared/schemas/fair-terms';
import { toCents } from '../../../shared/money';
import { declinePlacement } from './swap';
import { SWAP_DAYS } from '../../../shared/constants';
import { declineAnswerSchema, declineRequestSchema } from '../../../shared/schemas/cart';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import { adminPayments, paymentById, paymentsNeedingAttention, paymentTotals, toPaymentDto } from './service';
import { now as clockNow } from '../../lib/clock';


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
    '/api/admin/placements/:placementId/refund',
    {
      access: 'admin',
      tags: ['Payments'],
      summary: 'Refund a payment held in escrow or published, in full or in part',
      description:
        'Without `amountUsd`, what is left is refunded in full (the spec’s call; the payment becomes `refunded`). With it, that part is refunded through the provider with its own credit note and the payment keeps its status (`refundedAmount` grows); asking for exactly what is left refunds in full. The refunded total never exceeds the amount charged, however many refunds run at once.',
      params: placementParams,
      body: refundRequestSchema,
      response: { 200: paymentSchema },
      errors: { 409: 'Only a payment held in escrow or published can be refunded, and never more than is left of it' },
    },
    async (req) => {
      const admin = userOf(req);
      const actor = { type: 'admin' as const, id: admin.id };
      const id = req.params.placementId;
      const existing = await paymentById(db, id);
      if (!existing) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
      const notRefundable = () => conflict('payment_not_refundable', `Only a payment held in escrow or published can be refunded (this one is ${existing.status})`);
      const { amountUsd, reason } = req.body;
      if (amountUsd !== undefined) {
        const left = refundableCents(existing, await paymentMoney(db, id));
        if (left === 0) throw notRefundable();
        const asked = toCents(amountUsd);
        const tooMuch = (leftCents: number) => moreThanLeft(existing, leftCents);
        if (asked > left) throw tooMuch(left);
        if (asked < left) {
          const part = await refundPart(db, provider, id, asked, 'admin', actor, clockNow(), reason ?? null);
          // another refund took the rest first
          const after = await paymentById(db, id);
          const leftAfter = after ? refundableCents(after, await paymentMoney(db, id)) : 0;
          if (!part) throw leftAfter > 0 ? tooMuch(leftAfter) : notRefundable();
          return toPaymentDto(db, after!);
        }
      }
      // a published placement is refunded from Placements (its article gone, say): the money comes back too
      const result =
        existing.status === 'released'
          ? await refundPublishedPayment(db, provider, id, clockNow(), 'admin', actor)
          : await refundPayment(db, provider, id, 'admin', clockNow(), actor);
      if (result) return toPaymentDto(db, result.payment);
      throw notRefundable();
    },
  );

  route(
    app,
    'POST',
    '/api/admin/placements/:placementId/decline',
    {
      access: 'admin',
      tags: ['Payments'],
      summary: 'Decline a placement before writing starts (the outlet refused it): the brand may swap it for an alternative',
      description: `Its slot is given back. The brand is e-mailed and has SWAP_DAYS (default ${SWAP_DAYS}) days (\`swapBy\`) to choose an alternative; without a choice it is refunded in full. An order checked out with \`autoSwap\` takes the closest alternative at once.`,
      params: placementParams,
      body: declineRequestSchema,
      response: { 200: declineAnswerSchema },
      errors: { 404: PAYMENT_NOT_FOUND, 409: 'Declined already, or writing has started, or not in progress' },
    },
    async (req) => declinePlacement(db, provider, req.params.placementId, req.body.reason, { type: 'admin', id: userOf(req).id }, clockNow(), config.SWAP_DAYS),
  );
}
