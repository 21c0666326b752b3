import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../mail/outbox';
import { billingDetails, clientBillingDetails, documentCounters, opportunities, orgClients, payments, taxDocuments, users } from '../../db/schema';
import { countryName, euVatCountry, type DocumentParty, type TaxDocumentContent, type TaxDocumentKind } from '../../../shared/billing';
import { OPPORTUNITY_TYPE_LABELS, type OpportunityType } from '../../../shared/opportunity';
import { toCents } from '../../../shared/money';

/** The seller and the tax rate printed on new invoices (config.ts `invoiceSettings`). */
export interface InvoiceSettings {
  seller: DocumentParty;
  /** basis points: 2000 = 20 %, included in the price the brand pays */
  taxRateBp: number;
  /** no real money moves (the test checkout, or Stripe's test keys): every document says so */
  testMode: boolean;
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
 * payment already has its invoice).
 */
export async function issueInvoice(tx: Tx, paymentId: string, settings: InvoiceSettings, now: Date): Promise<string | null> {
  const [existing] = await tx
    .select({ number: taxDocuments.number })
    .from(taxDocuments)
    .where(and(eq(taxDocuments.paymentId, paymentId), eq(taxDocuments.kind, 'invoice')));
  if (existing) return existing.number;
  const [p] = await tx
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
    .where(eq(payments.id, paymentId));
  if (!p) return null;
  const buyer = await buyerOf(tx, p.brandId, p.organisationId, p.clientId);
  const buyerVat = buyer.taxId ? euVatCountry(buyer.taxId) : null;
  const sellerVat = settings.seller.taxId ? euVatCountry(settings.seller.taxId) : null;
  // an EU business in another member state accounts for the VAT itself
  const reverseCharge = buyerVat !== null && buyerVat !== sellerVat;
  const totalCents = toCents(p.amount);
  const taxRateBp = reverseCharge ? 0 : settings.taxRateBp;
  const taxCents = includedTax(totalCents, taxRateBp);
  const content: TaxDocumentContent = {
    seller: settings.seller,
    buyer,
    line: { title: p.title, outlet: p.outlet, type: (p.type as OpportunityType[]).map((t) => OPPORTUNITY_TYPE_LABELS[t]).join(', ') },
    totalCents,
    netCents: totalCents - taxCents,
    taxCents,
    taxRateBp,
    currency: 'USD',
    reverseCharge,
    paymentReference: p.reference,
    paidAt: p.paidAt.toISOString(),
    testMode: settings.testMode,
  };
  const number = await nextNumber(tx, 'invoice', now);
  await tx.insert(taxDocuments).values({ paymentId, kind: 'invoice', number, issuedAt: now, content });
  return number;
}

/**
 * The credit note of a refunded payment, in the refund's transaction: the invoice's lines, parties
 * and tax, cancelled in full. Null when the payment has no invoice yet (one paid before invoices
 * existed: both are issued when first downloaded, `ensureDocuments`).
 */
export async function issueCreditNote(tx: Tx, paymentId: string, refundReason: string | null, now: Date): Promise<string | null> {
  const docs = await tx.select().from(taxDocuments).where(eq(taxDocuments.paymentId, paymentId));
  const invoice = docs.find((d) => d.kind === 'invoice');
  const existing = docs.find((d) => d.kind === 'credit_note');
  if (existing) return existing.number;
  if (!invoice) return null;
  const content: TaxDocumentContent = { ...invoice.content, invoiceNumber: invoice.number, refundReason: refundReason ?? 'admin' };
  const number = await nextNumber(tx, 'credit_note', now);
  await tx.insert(taxDocuments).values({ paymentId, kind: 'credit_note', number, issuedAt: now, content });
  return number;
}
