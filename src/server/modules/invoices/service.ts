import { and, asc, desc, eq, isNotNull, or, sql } from 'drizzle-orm';
import { fromCents } from '../../../shared/money';
import type { CreditNoteItem } from '../../../shared/schemas/fair-terms';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client';
import { billingDetails, payments, taxDocuments } from '../../db/schema';
import type { Config } from '../../config';
import type { MailAttachments } from '../../mail/outbox';
import type { PaymentProvider } from '../../providers/provider';
import { billingDetailsOf, normalizeTaxId, type BillingDetails, type TaxDocumentKind } from '../../../shared/billing';
import { issueCreditNote, issueInvoice, type InvoiceSettings } from './issue';
import type { Member } from '../../lib/contract';
import { recordAudit } from '../org/audit';
import type { RenderOptions, StoredDocument } from './pdf';
import { renderOnPool } from './render-pool';
import { now as clockNow } from '../../lib/clock';

export { issueCreditNote, issueInvoice, issueOrderInvoice, issuePartialCreditNote, TEST_INVOICING, type InvoiceSettings } from './issue';

/**
 * GET /api/brand/billing: the organisation's details as saved, nulls until then (and for an account
 * in no organisation yet); the e-mail is the account's until another is saved.
 */
export async function billingOf(db: Db, account: { email: string; organisationId: string | null }): Promise<BillingDetails> {
  const [b] = account.organisationId
    ? await db.select().from(billingDetails).where(eq(billingDetails.organisationId, account.organisationId))
    : [];
  return billingDetailsOf(b, account.email);
}

type BillingValues = Omit<typeof billingDetails.$inferInsert, 'organisationId' | 'updatedAt'>;

/** PUT /api/brand/billing: replaces the details; invoices already issued keep the ones they printed. */
export async function saveBilling(db: Db, member: Member, values: BillingValues, now: Date = clockNow()): Promise<BillingDetails> {
  // the member's own address is not stored: it follows the account if that changes
  const email = values.email && values.email !== member.email ? values.email : null;
  const row = { ...values, email, updatedAt: now };
  await db.transaction(async (tx) => {
    await tx
      .insert(billingDetails)
      .values({ organisationId: member.organisationId, ...row })
      .onConflictDoUpdate({ target: billingDetails.organisationId, set: row });
    await recordAudit(tx, { organisationId: member.organisationId, actor: member, action: 'billing_changed', subject: 'billing details' }, now);
  });
  return billingOf(db, member);
}

/**
 * The documents a payment should have and does not: one paid before invoices existed (or seeded)
 * gets its invoice, and its credit note when it was refunded, the first time one is asked for.
 * Serialised on the payment's row, so two downloads issue one number.
 */
async function ensureDocuments(db: Db, paymentId: string, settings: InvoiceSettings, now: Date) {
  await db.transaction(async (tx) => {
    const [p] = await tx
      .select({ status: payments.status, refundReason: payments.refundReason })
      .from(payments)
      .where(eq(payments.id, paymentId))
      .for('no key update');
    if (!p) return;
    await issueInvoice(tx, paymentId, settings, now);
    if (p.status === 'refunded') await issueCreditNote(tx, paymentId, p.refundReason, now);
  });
}

/**
 * The join of a payment to its document: its own, or for an invoice, its order's (issue 46: one
 * invoice lists an order's lines; each line has its own credit note).
 */
const documentOf = (kind: TaxDocumentKind) =>
  kind === 'invoice'
    ? or(eq(taxDocuments.paymentId, payments.id), and(isNotNull(payments.orderId), eq(taxDocuments.orderId, payments.orderId)))!
    : eq(taxDocuments.paymentId, payments.id);

export interface DocumentFile {
  fileName: string;
  pdf: Buffer;
}

/**
 * A payment's invoice or credit note as PDF; null when there is none (no such payment, another
 * organisation's when `organisationId` is given, or a credit note of a payment not refunded).
 */
export async function documentPdf(
  db: Db,
  paymentId: string,
  kind: TaxDocumentKind,
  opts: { organisationId?: string; settings: InvoiceSettings; render?: RenderOptions; now?: Date },
): Promise<DocumentFile | null> {
  const find = () =>
    db
      .select({ id: taxDocuments.id, number: taxDocuments.number, issuedAt: taxDocuments.issuedAt, content: taxDocuments.content, status: payments.status })
      .from(payments)
      .leftJoin(taxDocuments, and(documentOf(kind), eq(taxDocuments.kind, kind)))
      .where(and(eq(payments.id, paymentId), opts.organisationId ? eq(payments.organisationId, opts.organisationId) : undefined))
      // a payment refunded in parts has a credit note for each (issue 47): the latest
      .orderBy(desc(taxDocuments.issuedAt), desc(taxDocuments.number))
      .limit(1);
  let [row] = await find();
  if (!row) return null;
  if (!row.number) {
    if (kind === 'credit_note' && row.status !== 'refunded') return null;
    await ensureDocuments(db, paymentId, opts.settings, opts.now ?? clockNow());
    [row] = await find();
  }
  if (!row?.id || !row.number || !row.issuedAt || !row.content) return null;
  return fileOf(row.id, { kind, number: row.number, issuedAt: row.issuedAt, content: row.content }, opts.render);
}

/**
 * GET …/payments/{id}/credit-notes: every credit note of a payment, oldest first: one per part
 * refunded and one for a refund in full (of what was left). Null when there is no such payment
 * (or it is another organisation's when `organisationId` is given).
 */
export async function creditNotesOf(db: Db, paymentId: string, organisationId?: string): Promise<CreditNoteItem[] | null> {
  const rows = await db
    .select({
      paymentId: payments.id,
      id: taxDocuments.id,
      number: taxDocuments.number,
      totalCents: sql<number | null>`(${taxDocuments.content} ->> 'totalCents')::bigint`,
      issuedAt: taxDocuments.issuedAt,
    })
    .from(payments)
    .leftJoin(taxDocuments, and(eq(taxDocuments.paymentId, payments.id), eq(taxDocuments.kind, 'credit_note')))
    .where(and(eq(payments.id, paymentId), organisationId ? eq(payments.organisationId, organisationId) : undefined))
    .orderBy(asc(taxDocuments.issuedAt), asc(taxDocuments.number));
  if (!rows.length) return null;
  return rows.flatMap((r) =>
    r.id && r.number && r.issuedAt ? [{ id: r.id, number: r.number, amountUsd: fromCents(Number(r.totalCents ?? 0)), issuedAt: r.issuedAt.toISOString() }] : [],
  );
}

/** GET …/payments/{id}/credit-notes/{noteId}: one of them as PDF; null when it is not this payment's. */
export async function creditNotePdf(
  db: Db,
  paymentId: string,
  noteId: string,
  opts: { organisationId?: string; render?: RenderOptions },
): Promise<DocumentFile | null> {
  const [row] = await db
    .select({ id: taxDocuments.id, number: taxDocuments.number, issuedAt: taxDocuments.issuedAt, content: taxDocuments.content })
    .from(taxDocuments)
    .innerJoin(payments, eq(payments.id, taxDocuments.paymentId))
    .where(
      and(
        eq(taxDocuments.id, noteId),
        eq(taxDocuments.paymentId, paymentId),
        eq(taxDocuments.kind, 'credit_note'),
        opts.organisationId ? eq(payments.organisationId, opts.organisationId) : undefined,
      ),
    );
  return row ? fileOf(row.id, { kind: 'credit_note', number: row.number, issuedAt: row.issuedAt, content: row.content }, opts.render) : null;
}

/**
 * Rendered documents by number: a document never changes once issued and renders to the same bytes,
 * so a second download (the brand's, the admin's, the receipt's) costs nothing. ~30 KB each.
 */
const rendered = new LRUCache<string, Buffer>({ maxSize: 16 * 1024 * 1024, sizeCalculation: (pdf) => pdf.length });

async function fileOf(id: string, doc: StoredDocument, render?: RenderOptions): Promise<DocumentFile> {
  // the row's id, not the number: two databases (tests, a restored copy) may hold the same number
  const key = `${id}\n${render?.fallbackFontPath ?? ''}`;
  let pdf = rendered.get(key);
  if (!pdf) {
    pdf = await renderOnPool(doc, render);
    rendered.set(key, pdf);
  }
  return { fileName: `${doc.number}.pdf`, pdf };
}

/** A document already issued, as PDF (the receipt mail's attachment); null when there is none. */
async function storedDocumentPdf(db: Db, paymentId: string, kind: TaxDocumentKind, render?: RenderOptions): Promise<DocumentFile | null> {
  const [row] = await db
    .select({ id: taxDocuments.id, number: taxDocuments.number, issuedAt: taxDocuments.issuedAt, content: taxDocuments.content })
    .from(payments)
    .innerJoin(taxDocuments, and(documentOf(kind), eq(taxDocuments.kind, kind)))
    .where(eq(payments.id, paymentId));
  return row ? fileOf(row.id, { kind, number: row.number, issuedAt: row.issuedAt, content: row.content }, render) : null;
}

/**
 * What the mails carry (mail/outbox.ts `DeliveryOptions.attachments`): the receipt, its invoice as
 * issued in the fulfilment, rendered when the mail is sent (`render`: INVOICE_FALLBACK_FONT).
 */
export function receiptAttachments(render?: RenderOptions): MailAttachments {
  return async (db, data, reader) => {
    // typeof: the mail's data was stored as JSON, by whatever version of the code queued it
    const receipt = data.kind === 'payment_received' || data.kind === 'order_received';
    if (!receipt || typeof data.invoiceNumber !== 'string' || typeof data.paymentId !== 'string') return [];
    // an invoice is all amounts: none for a reader who may not see them (issue 57)
    if (!reader.seesAmounts) return [];
    const file = await storedDocumentPdf(db, data.paymentId, 'invoice', render);
    return file ? [{ filename: file.fileName, content: file.pdf, contentType: 'application/pdf' }] : [];
  };
}

/** The invoicing settings of a running app: the seller from the INVOICE_* settings, test mode from the provider. */
export function invoiceSettingsFrom(config: Config, provider: Pick<PaymentProvider, 'name'>): InvoiceSettings {
  const testMode = provider.name === 'test' || Boolean(config.STRIPE_SECRET_KEY?.startsWith('sk_test_'));
  return {
    seller: {
      name: config.INVOICE_SELLER_NAME,
      lines: config.INVOICE_SELLER_ADDRESS,
      taxId: config.INVOICE_SELLER_TAX_ID ? normalizeTaxId(config.INVOICE_SELLER_TAX_ID) : null,
      email: config.INVOICE_SELLER_EMAIL ?? null,
    },
    taxRateBp: config.INVOICE_TAX_RATE,
    testMode,
    revisionsIncluded: config.REVISIONS_INCLUDED,
  };
}
