import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app';
import { conflict, notFound } from '../../lib/errors';
import { parse } from '../../lib/validate';
import { adminPaymentPatchSchema, adminPaymentsQuerySchema, isUuid } from '../../../shared/schemas/payment';
import { requireAdmin } from '../auth/guards';
import { adminPayments, paymentById, paymentTotals, toPaymentDto } from './queries';
import { pageOf, sendJsonPage } from '../../lib/paging';
import { refundPayment, releasePayment } from './refunds';
import { providerOf } from './provider-of';
import type { Db } from '../../db/client';
import { isDraftAttachBody } from '../../../shared/schemas/brief';
import { attachDraftFromBody } from '../projects/service';

function paymentIdParam(params: unknown): string {
  const id = (params as { id?: string }).id ?? '';
  if (!isUuid(id)) throw notFound('Payment not found');
  return id;
}

async function release(db: Db, id: string) {
  const row = await releasePayment(db, id);
  if (row) return toPaymentDto(row);
  const existing = await paymentById(db, id);
  if (!existing) throw notFound('Payment not found');
  if (existing.status === 'paid') throw conflict('A refund is in progress for this payment');
  throw conflict(`Only a payment held in escrow can be released (this one is ${existing.status})`);
}

export function adminPaymentRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;
  const provider = providerOf(deps);

  app.get('/api/admin/payments', async (req, reply) => {
    requireAdmin(req);
    const filter = parse(adminPaymentsQuerySchema, req.query);
    const page = pageOf(req);
    return sendJsonPage(req, reply, page, await adminPayments(db, filter, page));
  });

  app.get('/api/admin/payments/totals', async (req) => {
    requireAdmin(req);
    return paymentTotals(db);
  });

  app.post('/api/admin/payments/:id/release', async (req) => {
    requireAdmin(req);
    return release(db, paymentIdParam(req.params));
  });

  // one change per request; the content-workflow issue adds the draft document members
  app.patch('/api/admin/payments/:id/status', async (req) => {
    requireAdmin(req);
    const id = paymentIdParam(req.params);
    // {draftDocumentUrl} / {draftDocumentFile}: the content workflow (projects/service.ts)
    if (isDraftAttachBody(req.body)) return attachDraftFromBody(db, deps.files, id, req.body);
    const body = parse(adminPaymentPatchSchema, req.body);
    if ('status' in body) return release(db, id);
    throw notFound('Payment not found');
  });

  app.post('/api/admin/payments/:id/refund', async (req) => {
    requireAdmin(req);
    const id = paymentIdParam(req.params);
    const result = await refundPayment(db, provider, id, 'admin');
    if (result) return toPaymentDto(result.payment);
    const existing = await paymentById(db, id);
    if (!existing) throw notFound('Payment not found');
    throw conflict(`Only a payment held in escrow can be refunded (this one is ${existing.status})`);
  });
}
