import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../deps';
import { conflict, notFound } from '../../lib/errors';
import { pageOf, sendJsonPage } from '../../lib/paging';
import { idParam } from '../../lib/route-params';
import { parse } from '../../lib/validate';
import { adminSearchQuerySchema } from '../../../shared/schemas/admin-search';
import { adminPaymentsQuerySchema } from '../../../shared/schemas/payment';
import { requireAdmin } from '../auth/guards';
import { pageWithSession } from '../auth/session';
import { refundPayment, refundPublishedPayment } from './refunds';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import { adminPayments, paymentById, paymentsNeedingAttention, paymentTotals, toPaymentDto } from './service';

/** Admin Payments: the list, its totals, the charges that need attention, refunds. */
export function adminPaymentRoutes(app: FastifyInstance, { db, provider }: ModuleDeps) {
  app.get('/api/admin/payments', { config: { sessionInStatement: true } }, async (req, reply) => {
    const { page, rows } = await pageWithSession(db, req, async (check) => {
      requireAdmin(req);
      const filter = parse(adminPaymentsQuerySchema, req.query);
      const page = pageOf(req);
      return { page, rows: await adminPayments(db, filter, page, check) };
    });
    return sendJsonPage(req, reply, page, rows);
  });

  // with the list's search: the totals of the payments listed (a brand's money held and released)
  app.get('/api/admin/payments/totals', async (req) => {
    requireAdmin(req);
    const { q } = parse(adminSearchQuerySchema, req.query);
    return paymentTotals(db, q);
  });

  app.get('/api/admin/payments/attention', async (req) => {
    requireAdmin(req);
    return paymentsNeedingAttention(db);
  });

  app.post('/api/admin/payments/:id/refund', async (req) => {
    const admin = requireAdmin(req);
    const id = idParam(req, 'id', PAYMENT_NOT_FOUND);
    const existing = await paymentById(db, id);
    if (!existing) throw notFound(PAYMENT_NOT_FOUND);
    // a published placement is refunded from Placements (its article gone, say): the money comes back too
    const result =
      existing.status === 'released'
        ? await refundPublishedPayment(db, provider, id, new Date(), 'admin', { type: 'admin', id: admin.id })
        : await refundPayment(db, provider, id, 'admin', new Date(), { type: 'admin', id: admin.id });
    if (result) return toPaymentDto(result.payment);
    throw conflict(`Only a payment held in escrow or published can be refunded (this one is ${existing.status})`);
  });
}
