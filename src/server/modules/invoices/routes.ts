import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Module } from '../../deps';
import { fileAnswer, idIn, memberOf, orgOf, route, userOf } from '../../lib/contract';
import { notFound } from '../../lib/errors';
import { billingDetailsSchema, paymentsExportQuerySchema, type TaxDocumentKind } from '../../../shared/billing';
import { billingDetailsAnswerSchema } from '../../../shared/schemas/responses/payment';
import { paymentsCsv } from './export';
import { billingOf, creditNotePdf, creditNotesOf, documentPdf, saveBilling, type DocumentFile } from './service';
import { creditNoteItemSchema } from '../../../shared/schemas/fair-terms';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';

const NO_DOCUMENT: Record<TaxDocumentKind, string> = {
  invoice: 'No invoice for this payment',
  credit_note: 'No credit note for this payment: it was not refunded',
};

const paymentParams = z.object({ paymentId: idIn(PAYMENT_NOT_FOUND).describe('the payment id (the placement’s)') });

function sendPdf(reply: FastifyReply, file: DocumentFile) {
  return reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
    .header('Cache-Control', 'private, no-cache')
    .send(file.pdf);
}

/** The export, streamed as it is read (export.ts), named by the day it was made. */
function sendCsv(reply: FastifyReply, csv: Readable) {
  const day = new Date().toISOString().slice(0, 10);
  return reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="byline-payments-${day}.csv"`)
    .header('Cache-Control', 'private, no-store')
    .send(csv);
}

/**
 * Billing details, invoices and credit notes (decision 021), and the admins' CSV export of the
 * payments: the documents are made from what was stored when they were issued.
 */
export const invoicesModule: Module = async (app, { db, config, invoicing }) => {
  const render = { fallbackFontPath: config.INVOICE_FALLBACK_FONT };

  // any brand, approved or not: the details are asked for before the first purchase
  route(
    app,
    'GET',
    '/api/brand/billing',
    {
      access: 'any-brand',
      tags: ['Payments'],
      summary: 'The brand’s billing details (what its invoices are made out to)',
      response: { 200: billingDetailsAnswerSchema },
    },
    async (req) => billingOf(db, userOf(req)),
  );

  route(
    app,
    'PUT',
    '/api/brand/billing',
    {
      access: 'any-brand',
      tags: ['Payments'],
      summary: 'Save the brand’s billing details',
      description: 'Invoices already issued keep the details they were issued with.',
      body: billingDetailsSchema,
      response: { 200: billingDetailsAnswerSchema },
    },
    async (req) => saveBilling(db, memberOf(req), req.body),
  );

  for (const [segment, kind] of [
    ['invoice', 'invoice'],
    ['credit-note', 'credit_note'],
  ] as const) {
    const what = kind === 'invoice' ? 'The payment’s invoice (PDF)' : 'The credit note of a refunded payment (PDF)';
    const document = {
      tags: ['Payments'] as ['Payments'],
      description: 'Issued once, with the details of that moment: every download is the same document.',
      params: paymentParams,
      response: { 200: fileAnswer(['application/pdf'], 'The document, as an attachment') },
      errors: {
        404:
          kind === 'invoice'
            ? 'No invoice for this payment (or another brand’s)'
            : 'No credit note for this payment: it was not refunded (or another brand’s)',
      },
    };

    // as Payment History: an approved brand's own payments; another brand's is answered as if it did not exist
    route(app, 'GET', `/api/brand/payments/:paymentId/${segment}`, { ...document, access: 'brand', actsOn: { placement: 'paymentId' }, summary: what }, async (req, reply) => {
      const file = await documentPdf(db, req.params.paymentId, kind, { organisationId: orgOf(req), settings: invoicing, render });
      if (!file) throw notFound('document_not_found', NO_DOCUMENT[kind]);
      return sendPdf(reply, file);
    });

    route(app, 'GET', `/api/admin/payments/:paymentId/${segment}`, { ...document, access: 'admin', summary: `${what}, for an admin` }, async (req, reply) => {
      const file = await documentPdf(db, req.params.paymentId, kind, { settings: invoicing, render });
      if (!file) throw notFound('document_not_found', NO_DOCUMENT[kind]);
      return sendPdf(reply, file);
    });
  }

  // issue 47: a payment refunded in parts has a credit note for each part (and one for a refund of the rest)
  const notesParams = z.object({
    paymentId: idIn(PAYMENT_NOT_FOUND).describe('the payment id (the placement’s)'),
    noteId: idIn('No such credit note for this payment', 'credit_note_not_found'),
  });
  for (const [base, access] of [
    ['/api/brand/payments', 'brand'],
    ['/api/admin/payments', 'admin'],
  ] as const) {
    const organisationId = (req: Parameters<typeof orgOf>[0]) => (access === 'brand' ? orgOf(req) : undefined);
    route(
      app,
      'GET',
      `${base}/:paymentId/credit-notes`,
      {
        access,
        actsOn: { placement: 'paymentId' },
        tags: ['Payments'],
        summary: `The payment’s credit notes, oldest first${access === 'admin' ? ', for an admin' : ''}`,
        description: 'One per part refunded and one for a refund in full of what was left; `…/credit-note` answers the latest.',
        params: paymentParams,
        response: { 200: z.array(creditNoteItemSchema) },
        errors: { 404: PAYMENT_NOT_FOUND },
      },
      async (req) => {
        const notes = await creditNotesOf(db, req.params.paymentId, organisationId(req));
        if (!notes) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
        return notes;
      },
    );
    route(
      app,
      'GET',
      `${base}/:paymentId/credit-notes/:noteId`,
      {
        access,
        actsOn: { placement: 'paymentId' },
        tags: ['Payments'],
        summary: `One credit note of the payment (PDF)${access === 'admin' ? ', for an admin' : ''}`,
        params: notesParams,
        response: { 200: fileAnswer(['application/pdf'], 'The document, as an attachment') },
        errors: { 404: 'No such credit note for this payment (or another brand’s)' },
      },
      async (req, reply) => {
        const file = await creditNotePdf(db, req.params.paymentId, req.params.noteId, { organisationId: organisationId(req), render });
        if (!file) throw notFound('credit_note_not_found', 'No such credit note for this payment');
        return sendPdf(reply, file);
      },
    );
  }

  route(
    app,
    'GET',
    '/api/admin/payments/export.csv',
    {
      access: 'admin',
      tags: ['Payments'],
      summary: 'The payments as CSV (the Payments screen’s filters and a date range)',
      querystring: paymentsExportQuerySchema,
      response: { 200: fileAnswer(['text/csv'], 'One row per payment, as an attachment') },
    },
    async (req, reply) => sendCsv(reply, paymentsCsv(db, req.query)),
  );
};
