import type { FastifyReply } from 'fastify';
import type { Module } from '../../deps';
import { forbidden, notFound } from '../../lib/errors';
import { idParam } from '../../lib/route-params';
import { parse } from '../../lib/validate';
import { billingDetailsSchema, paymentsExportQuerySchema, type TaxDocumentKind } from '../../../shared/billing';
import { requireAdmin, requireApprovedBrand, requireUser } from '../auth/guards';
import { paymentsCsv } from './export';
import { billingOf, documentPdf, saveBilling, type DocumentFile } from './service';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';

const NO_DOCUMENT: Record<TaxDocumentKind, string> = {
  invoice: 'No invoice for this payment',
  credit_note: 'No credit note for this payment: it was not refunded',
};

function sendPdf(reply: FastifyReply, file: DocumentFile) {
  return reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
    .header('Cache-Control', 'private, no-cache')
    .send(file.pdf);
}

/**
 * Billing details, invoices and credit notes (decision 021), and the admins' CSV export of the
 * payments: the documents are made from what was stored when they were issued.
 */
export const invoicesModule: Module = async (app, { db, config, invoicing }) => {
  const render = { fallbackFontPath: config.INVOICE_FALLBACK_FONT };

  const brandOnly = (req: Parameters<typeof requireUser>[0]) => {
    const user = requireUser(req);
    if (user.role !== 'brand') throw forbidden('Only brands can do this');
    return user;
  };

  app.get('/api/brand/billing', async (req) => billingOf(db, brandOnly(req).id));

  app.put('/api/brand/billing', async (req) => {
    const brand = brandOnly(req);
    return saveBilling(db, brand.id, parse(billingDetailsSchema, req.body));
  });

  for (const [segment, kind] of [
    ['invoice', 'invoice'],
    ['credit-note', 'credit_note'],
  ] as const) {
    app.get(`/api/brand/payments/:paymentId/${segment}`, async (req, reply) => {
      // as Payment History: an approved brand's own payments
      const brand = requireApprovedBrand(req);
      const paymentId = idParam(req, 'paymentId', PAYMENT_NOT_FOUND);
      // another brand's payment is answered as if it did not exist
      const file = await documentPdf(db, paymentId, kind, { brandId: brand.id, settings: invoicing, render });
      if (!file) throw notFound(NO_DOCUMENT[kind]);
      return sendPdf(reply, file);
    });

    app.get(`/api/admin/payments/:paymentId/${segment}`, async (req, reply) => {
      requireAdmin(req);
      const paymentId = idParam(req, 'paymentId', PAYMENT_NOT_FOUND);
      const file = await documentPdf(db, paymentId, kind, { settings: invoicing, render });
      if (!file) throw notFound(NO_DOCUMENT[kind]);
      return sendPdf(reply, file);
    });
  }

  app.get('/api/admin/payments/export.csv', async (req, reply) => {
    requireAdmin(req);
    const filter = parse(paymentsExportQuerySchema, req.query);
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="byline-payments-${day}.csv"`)
      .header('Cache-Control', 'private, no-store')
      .send(paymentsCsv(db, filter));
  });
};
