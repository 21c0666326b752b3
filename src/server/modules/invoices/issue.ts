import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../mail/outbox';
import { billingDetails, clientBillingDetails, documentCounters, moneyMovements, opportunities, orders, orgClients, paymentRefunds, payments, taxDocuments, users } from '../../db/schema';
import { countryName } from '../../../shared/countries';
import { euVatCountry, type DocumentParty, type TaxDocumentContent, type TaxDocumentKind } from '../../../shared/billing';
import { OPPORTUNITY_TYPE_LABELS, type OpportunityType } from '../../../shared/opportunity';
import { toCents } from '../../../shared/money';

/** The seller and the tax rate printed on new invoices (config.ts `invoiceSettings`). */
export interface InvoiceSettings {
  seller: DocumentParty;
  /** basis points: 2000 = 20 %, included in the price the brand pays */
  taxRateBp: number;
  /** no real money moves (the test checkout, or Stripe's test keys): every document says so */
  testMode: boolean;
  /**
   * The terms of the sale besides the documents (issue 47): the edit rounds each placement bought
   * now includes (REVISIONS_INCLUDED), kept on the placement. Default REVISIONS_INCLUDED_DEFAULT.
   */
  revisionsIncluded?: number;
}

/** What a test or a script that did not configure invoicing gets: plainly not a tax document. */
export const TEST_INVOICING: InvoiceSettings = {
  seller: { name: 'Byline', lines: [], taxId: null, email: null },
  taxRateBp: 0,
  testMode: true,
};

const SERIES: Record<TaxDocumentKind, string> = { invoice: 'BYL', credit_note: 'BYL-CN' };

/**
 * The next number of a series in the year of `now` (UTC), taken in the caller's transaction: the
 * counter row stays locked until it commits, and a rollback gives the number back. No gaps.
 */
async function nextNumber(tx: Tx, kind: TaxDocumentKind, now: Date): Promise<string> {
  const series = SERIES[kind];
  const year = now.getUTCFullYear();
  const [row] = await tx
    .insert(documentCounters)
    .values({ series, year, last: 1 })
    .onConflictDoUpdate({ target: [documentCounters.series, documentCounters.year], set: { last: sql`${documentCounters.last} + 1` } })
    .returning({ last: documentCounters.last });
  return `${series}-${year}-${String(row.last).padStart(6, '0')}`;
}

/** Tax included in a gross amount, in whole cents, rounded half up, integers only. */
function includedTax(totalCents: number, rateBp: number): number {
  if (rateBp <= 0) return 0;
  const divisor = 10_000 + rateBp;
  return Math.floor((2 * totalCents * rateBp + divisor) / (2 * divisor));
}

/**
 * Who the invoice is made out to: for a placement bought for a client (decision 035), the client's
 * billing details, else the client by name; otherwise the organisation's billing details, else the
 * buyer's account.
 */
async function buyerOf(tx: Tx, brandId: string, organisationId: string, clientId: string | null): Promise<DocumentParty> {
  if (clientId) {
    const [client] = await tx
      .select({ name: orgClients.name, billing: clientBillingDetails, email: users.email })
      .from(orgClients)
      .leftJoin(clientBillingDetails, eq(clientBillingDetails.clientId, orgClients.id))
      .innerJoin(users, eq(users.id, brandId))
      .where(eq(orgClients.id, clientId));
    if (client) return client.billing ? partyOf(client.billing, client.email) : { name: client.name, lines: [], taxId: null, email: client.email };
  }
  const [row] = await tx
    .select({
      name: users.name,
      brandName: users.brandName,
      email: users.email,
      billing: billingDetails,
    })
    .from(users)
    .leftJoin(billingDetails, eq(billingDetails.organisationId, organisationId))
    .where(eq(users.id, brandId));
  const b = row.billing;
  if (!b) {
    const name = row.brandName ?? row.name ?? row.email;
    return { name, lines: row.name && row.name !== name ? [row.name] : [], taxId: null, email: row.email };
  }
  return partyOf(b, row.email);
}

/** A party from billing details (the organisation's or a client's); the e-mail falls back to the buyer's. */
function partyOf(b: typeof billingDetails.$inferSelect | typeof clientBillingDetails.$inferSelect, fallbackEmail: string): DocumentParty {
  const cityLine = [b.postalCode, b.city].filter(Boolean).join(' ');
  return {
    name: b.legalName,
    lines: [b.addressLine1, b.addressLine2, cityLine, countryName(b.country)].filter((l): l is string => Boolean(l)),
    taxId: b.taxId,
    email: b.email ?? fallbackEmail,
  };
}

/**
 * The invoice of a payment, issued once, in the caller's transaction (the fulfilment's): numbered,
 * with the buyer's billing details as they are now. Returns the number (an existing one when the
 * payment already has its invoice). A payment of an order has the order's invoice (issueOrderInvoice).
 */
export async function issueInvoice(tx: Tx, paymentId: string, settings: InvoiceSettings, now: Date): Promise<string | null> {
  const [existing] = await tx
    .select({ number: taxDocuments.number })
    .from(taxDocuments)
    .where(and(eq(taxDocuments.paymentId, paymentId), eq(taxDocuments.kind, 'invoice')));
  if (existing) return existing.number;
  const [order] = await tx.select({ id: payments.orderId }).from(payments).where(eq(payments.id, paymentId));
  if (order?.id) return issueOrderInvoice(tx, order.id, settings, now);
  const lines = await invoiceLines(tx, eq(payments.id, paymentId));
  if (!lines.length) return null;
  const number = await nextNumber(tx, 'invoice', now);
  await tx.insert(taxDocuments).values({ paymentId, kind: 'invoice', number, issuedAt: now, content: await invoiceContent(tx, lines, settings) });
  return number;
}

/**
 * The one invoice of an order (issue 46), listing each of its payments as a line, in the
 * fulfilment's transaction; every line's invoice route answers it. Returns its number.
 */
export async function issueOrderInvoice(tx: Tx, orderId: string, settings: InvoiceSettings, now: Date): Promise<string | null> {
  const [existing] = await tx
    .select({ number: taxDocuments.number })
    .from(taxDocuments)
    .where(and(eq(taxDocuments.orderId, orderId), eq(taxDocuments.kind, 'invoice')));
  if (existing) return existing.number;
  const lines = await invoiceLines(tx, eq(payments.orderId, orderId));
  if (!lines.length) return null;
  const number = await nextNumber(tx, 'invoice', now);
  await tx.insert(taxDocuments).values({ orderId, kind: 'invoice', number, issuedAt: now, content: await invoiceContent(tx, lines, settings) });
  return number;
}

type InvoiceLine = Awaited<ReturnType<typeof invoiceLines>>[number];

function invoiceLines(tx: Tx, which: ReturnType<typeof eq>) {
  return tx
    .select({
      brandId: payments.brandId,
      organisationId: payments.organisationId,
      clientId: payments.clientId,
      amount: payments.amount,
      reference: payments.stripePaymentId,
      paidAt: payments.paidAt,
      title: opportunities.title,
      outlet: opportunities.outletName,
      type: opportunities.type,
    })
    .from(payments)
    .innerJoin(opportunities, eq(opportunities.id, payments.opportunityId))
    .where(which)
    .orderBy(asc(payments.createdAt), asc(opportunities.outletName), asc(payments.id));
}

/** What an invoice prints: the parties, its lines (one or an order's), the tax included in each. */
async function invoiceContent(tx: Tx, lines: InvoiceLine[], settings: InvoiceSettings): Promise<TaxDocumentContent> {
  const p = lines[0];
  const buyer = await buyerOf(tx, p.brandId, p.organisationId, p.clientId);
  const buyerVat = buyer.taxId ? euVatCountry(buyer.taxId) : null;
  const sellerVat = settings.seller.taxId ? euVatCountry(settings.seller.taxId) : null;
  // an EU business in another member state accounts for the VAT itself
  const reverseCharge = buyerVat !== null && buyerVat !== sellerVat;
  const taxRateBp = reverseCharge ? 0 : settings.taxRateBp;
  const described = lines.map((l) => {
    const totalCents = toCents(l.amount);
    const taxCents = includedTax(totalCents, taxRateBp);
    return {
      title: l.title,
      outlet: l.outlet,
      type: (l.type as OpportunityType[]).map((t) => OPPORTUNITY_TYPE_LABELS[t]).join(', '),
      totalCents,
      netCents: totalCents - taxCents,
    };
  });
  const totalCents = described.reduce((sum, l) => sum + l.totalCents, 0);
  const netCents = described.reduce((sum, l) => sum + l.netCents, 0);
  const [first] = described;
  return {
    seller: settings.seller,
    buyer,
    line: { title: first.title, outlet: first.outlet, type: first.type },
    ...(lines.length > 1 ? { lines: described } : {}),
    totalCents,
    netCents,
    taxCents: totalCents - netCents,
    taxRateBp,
    currency: 'USD',
    reverseCharge,
    paymentReference: p.reference,
    paidAt: p.paidAt.toISOString(),
    testMode: settings.testMode,
  };
}

/**
 * The credit note of a refunded payment, in the refund's transaction: the invoice's lines, parties
 * and tax, cancelled in full. Null when the payment has no invoice yet (one paid before invoices
 * existed: both are issued when first downloaded, `ensureDocuments`).
 */
export async function issueCreditNote(tx: Tx, paymentId: string, refundReason: string | null, now: Date): Promise<string | null> {
  const docs = await tx
    .select()
    .from(taxDocuments)
    .where(and(eq(taxDocuments.paymentId, paymentId), isNull(taxDocuments.refundId)));
  const existing = docs.find((d) => d.kind === 'credit_note');
  if (existing) return existing.number;
  const invoice = docs.find((d) => d.kind === 'invoice') ?? (await orderInvoiceOf(tx, paymentId));
  if (!invoice) return null;
  // what parts refunded earlier gave back (the ledger's part refunds) is on their own credit
  // notes: this one credits the rest
  const [p] = await tx
    .select({ refunded: sql<string>`coalesce(sum(${moneyMovements.amount}), 0)::text` })
    .from(moneyMovements)
    .where(and(eq(moneyMovements.paymentId, paymentId), isNotNull(moneyMovements.refundId)));
  const part = await creditedPart(tx, invoice, paymentId);
  const content: TaxDocumentContent = {
    ...(p && toCents(p.refunded) > 0 ? withTotal(part, part.totalCents - toCents(p.refunded)) : part),
    invoiceNumber: invoice.number,
    refundReason: refundReason ?? 'admin',
  };
  const number = await nextNumber(tx, 'credit_note', now);
  await tx.insert(taxDocuments).values({ paymentId, kind: 'credit_note', number, issuedAt: now, content });
  return number;
}

/** The document's line for a smaller total, its tax worked out again at the same rate. */
function withTotal(c: TaxDocumentContent, totalCents: number): TaxDocumentContent {
  const taxCents = includedTax(totalCents, c.taxRateBp);
  return { ...c, totalCents, netCents: totalCents - taxCents, taxCents };
}

/**
 * The credit note of a part of a payment refunded (payment_refunds; issue 46: a swap's
 * difference), in the transaction that completes that refund: the payment's line, for that amount.
 */
export async function issuePartialCreditNote(tx: Tx, refundId: string, now: Date): Promise<string | null> {
  const [existing] = await tx.select({ number: taxDocuments.number }).from(taxDocuments).where(eq(taxDocuments.refundId, refundId));
  if (existing) return existing.number;
  const [refund] = await tx.select().from(paymentRefunds).where(eq(paymentRefunds.id, refundId));
  if (!refund) return null;
  const [own] = await tx
    .select()
    .from(taxDocuments)
    .where(and(eq(taxDocuments.paymentId, refund.paymentId), eq(taxDocuments.kind, 'invoice'), isNull(taxDocuments.refundId)));
  const invoice = own ?? (await orderInvoiceOf(tx, refund.paymentId));
  if (!invoice) return null;
  const content: TaxDocumentContent = {
    ...withTotal(await creditedPart(tx, invoice, refund.paymentId), toCents(refund.amount)),
    invoiceNumber: invoice.number,
    refundReason: refund.reason,
    partial: true,
  };
  const number = await nextNumber(tx, 'credit_note', now);
  await tx.insert(taxDocuments).values({ paymentId: refund.paymentId, refundId, kind: 'credit_note', number, issuedAt: now, content });
  return number;
}

type StoredInvoice = typeof taxDocuments.$inferSelect;

/** The invoice of the order a payment was bought in, if it was. */
async function orderInvoiceOf(tx: Tx, paymentId: string): Promise<StoredInvoice | undefined> {
  const [row] = await tx
    .select({ doc: taxDocuments })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .innerJoin(taxDocuments, and(eq(taxDocuments.orderId, orders.id), eq(taxDocuments.kind, 'invoice')))
    .where(eq(payments.id, paymentId));
  return row?.doc;
}

/**
 * What a payment's credit note cancels: the whole invoice, or, for one line of an order's invoice,
 * that line with its own amount and tax (the line's place in the invoice is the payment's among
 * the order's payments, in the invoice's order).
 */
async function creditedPart(tx: Tx, invoice: StoredInvoice, paymentId: string): Promise<TaxDocumentContent> {
  const c = invoice.content;
  if (!invoice.orderId) return c;
  const ids = await tx
    .select({ id: payments.id })
    .from(payments)
    .innerJoin(opportunities, eq(opportunities.id, payments.opportunityId))
    .where(eq(payments.orderId, invoice.orderId))
    .orderBy(asc(payments.createdAt), asc(opportunities.outletName), asc(payments.id));
  const lines = c.lines ?? [{ ...c.line, totalCents: c.totalCents, netCents: c.netCents }];
  const line = lines[ids.findIndex((r) => r.id === paymentId)] ?? lines[0];
  const { lines: _all, ...rest } = c;
  void _all;
  return {
    ...rest,
    line: { title: line.title, outlet: line.outlet, type: line.type },
    totalCents: line.totalCents,
    netCents: line.netCents,
    taxCents: line.totalCents - line.netCents,
  };
}
