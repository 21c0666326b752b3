import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { billingDetails, documentCounters, payments, taxDocuments } from '../../src/server/db/schema';
import type { RefundRequest } from '../../src/server/providers/provider';
import { Agent } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, makePayment, quickBrands, sessionIdOf, spyingLocalProvider, type PaymentsTestApp } from '../support/payments';
import { pdfText } from '../support/pdf';
import { runMailWorker, startSmtp } from '../support/mail';
import PostalMime from 'postal-mime';

const CJK_FONT = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';

let t: PaymentsTestApp;
const refunds: RefundRequest[] = [];
let admin: Awaited<ReturnType<typeof signedIn>>;
const year = new Date().getUTCFullYear();

beforeAll(async () => {
  t = await createPaymentsTestApp({
    provider: spyingLocalProvider(refunds),
    config: {
      INVOICE_SELLER_NAME: 'Byline Media SAS',
      INVOICE_SELLER_ADDRESS: ['1 rue de Rivoli', '75001 Paris', 'France'],
      INVOICE_SELLER_TAX_ID: 'FR40303265045',
      INVOICE_SELLER_EMAIL: 'billing@byline.test',
      INVOICE_TAX_RATE: 2000,
      ...(existsSync(CJK_FONT) ? { INVOICE_FALLBACK_FONT: CJK_FONT } : {}),
    },
  });
  admin = await signedIn(t.app, t.db, kinds.admin);
});
afterAll(() => t.close());

/** A download as the browser gets it: the raw bytes. */
async function download(agent: Agent, url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: { host: 'localhost:80', ...(agent.cookie ? { cookie: agent.cookie } : {}) } });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, json: res.headers['content-type']?.includes('json') ? res.json() : null };
}

/** Claims and pays an opportunity through the API, as the brand does on the test checkout. */
async function buy(agent: Agent, opportunityId: string): Promise<string> {
  const claim = await agent.post('/api/payments/checkout', { opportunityId });
  expect(claim.status).toBe(200);
  const paid = await agent.post(`/api/payments/checkout/${sessionIdOf(claim.body.url)}/pay`);
  expect(paid.status).toBe(200);
  return paid.body.paymentId;
}

const invoiceOf = async (paymentId: string, kind: 'invoice' | 'credit_note' = 'invoice') =>
  (await t.db.select().from(taxDocuments).where(and(eq(taxDocuments.paymentId, paymentId), eq(taxDocuments.kind, kind))))[0];

const VALID = {
  legalName: 'Acme Deutschland GmbH',
  addressLine1: 'Hauptstraße 5',
  addressLine2: 'Hinterhaus',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  taxId: 'de 123 456 789',
  email: 'ap@acme.example.de',
};

// first: the mail worker sends every pending mail, so it runs before the other purchases
describe('receipt', () => {
  it('sends the invoice PDF with the receipt mail', async () => {
    const smtp = await startSmtp();
    try {
      const [brand] = await quickBrands(t.app, t.db, 1);
      const paymentId = await buy(brand.agent, (await createOpportunity(t.db, { title: 'Receipt Story' })).id);
      const doc = await invoiceOf(paymentId);
      await runMailWorker(t.db, smtp);
      const [receipt] = smtp.to(brand.user.email).filter((m) => m.subject.startsWith('Payment received: Receipt Story'));
      expect(receipt.text).toContain(`${doc.number} (attached)`);
      const parsed = await PostalMime.parse(receipt.raw);
      const attachment = parsed.attachments.find((a) => a.filename === `${doc.number}.pdf`);
      expect(attachment?.mimeType).toBe('application/pdf');
      const bytes = Buffer.from(attachment!.content as ArrayBuffer);
      expect(Buffer.compare(bytes, (await download(brand.agent, `/api/brand/payments/${paymentId}/invoice`)).bytes)).toBe(0);
    } finally {
      await smtp.close();
    }
  });
});

describe('billing details', () => {
  it('answers nulls and the account e-mail until saved, then what was saved (the VAT number normalised)', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    const before = await brand.agent.get('/api/brand/billing');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      legalName: null, addressLine1: null, addressLine2: null, postalCode: null, city: null, country: null, taxId: null, email: brand.user.email,
    });
    const saved = await brand.agent.put('/api/brand/billing', VALID);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ...VALID, taxId: 'DE123456789' });
    expect((await brand.agent.get('/api/brand/billing')).body).toEqual({ ...VALID, taxId: 'DE123456789' });
    // the billing e-mail left empty: the account's again
    const cleared = await brand.agent.put('/api/brand/billing', { ...VALID, email: '' });
    expect(cleared.body.email).toBe(brand.user.email);
  });

  it('refuses invalid values with a message per field and changes nothing', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    await brand.agent.put('/api/brand/billing', VALID);
    const res = await brand.agent.put('/api/brand/billing', { ...VALID, legalName: ' ', country: 'XX', email: 'not-mail' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toMatchObject({ legalName: 'Legal name is required', country: 'Choose a country from the list', email: 'Enter a valid e-mail address' });
    const vat = await brand.agent.put('/api/brand/billing', { ...VALID, taxId: 'DE12345' });
    expect(vat.status).toBe(400);
    expect(vat.body.errors).toEqual({ taxId: 'This is not a valid VAT number for Germany' });
    const prefix = await brand.agent.put('/api/brand/billing', { ...VALID, taxId: 'FR40303265045' });
    expect(prefix.body.errors).toEqual({ taxId: 'A VAT number from Germany starts with DE' });
    const greek = await brand.agent.put('/api/brand/billing', { ...VALID, country: 'GR', taxId: 'EL123456789' });
    expect(greek.status).toBe(200);
    await brand.agent.put('/api/brand/billing', VALID);
    const [row] = await t.db.select().from(billingDetails).where(eq(billingDetails.organisationId, brand.user.organisationId!));
    expect(row).toMatchObject({ legalName: VALID.legalName, country: 'DE', taxId: 'DE123456789' });
  });

  it('is the brand’s own: 401 signed out, 403 for an admin', async () => {
    expect((await new Agent(t.app).get('/api/brand/billing')).status).toBe(401);
    expect((await admin.agent.get('/api/brand/billing')).status).toBe(403);
    expect((await admin.agent.put('/api/brand/billing', VALID)).status).toBe(403);
  });
});

describe('invoices and credit notes', () => {
  it('issues a numbered invoice at payment that prints every required field, the same bytes on every download', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    await brand.agent.put('/api/brand/billing', { ...VALID, legalName: 'Société Générale Łódź — Москва' });
    const opp = await createOpportunity(t.db, { title: 'Top 10 SaaS tools', outletName: 'TechCrunch', priceUsd: '1250.50', type: ['listicle'] });
    const paymentId = await buy(brand.agent, opp.id);
    const doc = await invoiceOf(paymentId);
    expect(doc.number).toMatch(new RegExp(`^BYL-${year}-\\d{6}$`));

    const res = await download(brand.agent, `/api/brand/payments/${paymentId}/invoice`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${doc.number}.pdf"`);
    const text = await pdfText(res.bytes);
    const issued = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(doc.issuedAt);
    const [payment] = await t.db.select({ ref: payments.stripePaymentId }).from(payments).where(eq(payments.id, paymentId));
    for (const expected of [
      'Invoice', doc.number, `Issued ${issued}`,
      'Byline Media SAS', '1 rue de Rivoli', '75001 Paris', 'FR40303265045', 'billing@byline.test',
      'Société Générale Łódź — Москва', 'Hauptstraße 5', 'Hinterhaus', '10115 Berlin', 'Germany', 'DE123456789', 'ap@acme.example.de',
      'Top 10 SaaS tools', 'TechCrunch · Listicle', 'Total paid $1,250.50 USD', 'Tax (0 %) $0.00',
      'Reverse charge: VAT to be accounted for by the recipient', `Payment reference: ${payment.ref}`,
      'Test mode – not a tax document',
    ]) expect(text).toContain(expected);
    // byte-stable: the admin's copy and a second download are the same file
    const again = await download(admin.agent, `/api/admin/payments/${paymentId}/invoice`);
    expect(again.status).toBe(200);
    expect(Buffer.compare(again.bytes, res.bytes)).toBe(0);

    // details changed later: the invoice still prints those it was issued with
    await brand.agent.put('/api/brand/billing', { ...VALID, legalName: 'Renamed Later AG' });
    const later = await pdfText((await download(brand.agent, `/api/brand/payments/${paymentId}/invoice`)).bytes);
    expect(later).toContain('Société Générale Łódź — Москва');
    expect(later).not.toContain('Renamed Later AG');
  });

  it('charges the configured tax inside the price when no reverse charge applies, and prints the account without billing details', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1, { name: 'Dana Buyer', brandName: 'Dana & Co' });
    const opp = await createOpportunity(t.db, { priceUsd: '1200.00' });
    const paymentId = await buy(brand.agent, opp.id);
    const doc = await invoiceOf(paymentId);
    // 1200.00 gross at 20 %: 200.00 tax, 1000.00 net, in whole cents
    expect(doc.content).toMatchObject({ totalCents: 120000, taxCents: 20000, netCents: 100000, taxRateBp: 2000, reverseCharge: false });
    const text = await pdfText((await download(brand.agent, `/api/brand/payments/${paymentId}/invoice`)).bytes);
    for (const expected of ['Dana & Co', 'Dana Buyer', brand.user.email, 'Net $1,000.00', 'Tax (20 %) $200.00', 'Total paid $1,200.00 USD']) expect(text).toContain(expected);
    expect(text).not.toContain('Reverse charge');
  });

  it('rounds the included tax half up, in whole cents, on the invoice and on its credit note', async () => {
    // 10.01 × 20/120 = 1.668…: 1.67, where cutting off the fraction would say 1.66; 6.03 × 20/120 = 1.005: 1.01
    for (const [price, taxCents, netCents, tax, net] of [
      ['10.01', 167, 834, '$1.67', '$8.34'],
      ['6.03', 101, 502, '$1.01', '$5.02'],
    ] as const) {
      const [brand] = await quickBrands(t.app, t.db, 1);
      const paymentId = await buy(brand.agent, (await createOpportunity(t.db, { priceUsd: price })).id);
      const totalCents = Math.round(Number(price) * 100);
      expect((await invoiceOf(paymentId)).content, price).toMatchObject({ totalCents, taxCents, netCents, taxRateBp: 2000, reverseCharge: false });
      const invoice = await pdfText((await download(brand.agent, `/api/brand/payments/${paymentId}/invoice`)).bytes);
      for (const expected of [`Net ${net}`, `Tax (20 %) ${tax}`, `Total paid $${price} USD`]) expect(invoice, price).toContain(expected);

      expect((await admin.agent.post(`/api/admin/payments/${paymentId}/refund`)).status).toBe(200);
      expect((await invoiceOf(paymentId, 'credit_note')).content, price).toMatchObject({ totalCents, taxCents, netCents, taxRateBp: 2000 });
      const note = await pdfText((await download(brand.agent, `/api/brand/payments/${paymentId}/credit-note`)).bytes);
      for (const expected of [`Net -${net}`, `Tax (20 %) -${tax}`, `Total refunded -$${price} USD`]) expect(note, price).toContain(expected);
    }
  });

  it("charges the tax to a buyer with a VAT number of the seller's own country: no reverse charge", async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    const french = { ...VALID, legalName: 'Dupont et Fils SARL', addressLine2: null, postalCode: '75002', city: 'Paris', country: 'FR', taxId: 'FR83404833048' };
    expect((await brand.agent.put('/api/brand/billing', french)).status).toBe(200);
    const paymentId = await buy(brand.agent, (await createOpportunity(t.db, { priceUsd: '1200.00' })).id);
    expect((await invoiceOf(paymentId)).content).toMatchObject({ taxCents: 20000, netCents: 100000, taxRateBp: 2000, reverseCharge: false });
    const invoice = await pdfText((await download(brand.agent, `/api/brand/payments/${paymentId}/invoice`)).bytes);
    for (const expected of ['Dupont et Fils SARL', 'FR83404833048', 'Net $1,000.00', 'Tax (20 %) $200.00']) expect(invoice).toContain(expected);
    expect(invoice).not.toContain('Reverse charge');

    expect((await admin.agent.post(`/api/admin/payments/${paymentId}/refund`)).status).toBe(200);
    expect((await invoiceOf(paymentId, 'credit_note')).content).toMatchObject({ taxCents: 20000, reverseCharge: false });
    const note = await pdfText((await download(brand.agent, `/api/brand/payments/${paymentId}/credit-note`)).bytes);
    expect(note).toContain('Tax (20 %) -$200.00');
    expect(note).not.toContain('Reverse charge');
  });

  it.skipIf(!existsSync(CJK_FONT))('prints CJK names in the fallback font', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    await brand.agent.put('/api/brand/billing', { ...VALID, legalName: '北京字节跳动科技有限公司', country: 'CN', taxId: '91110108MA01', postalCode: null });
    const paymentId = await buy(brand.agent, (await createOpportunity(t.db)).id);
    const text = await pdfText((await download(brand.agent, `/api/brand/payments/${paymentId}/invoice`)).bytes);
    expect(text.replace(/\s/g, '')).toContain('北京字节跳动科技有限公司');
  });

  it('issues a credit note on refund that references the invoice, in its own series', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    const paymentId = await buy(brand.agent, (await createOpportunity(t.db, { priceUsd: '99.99' })).id);
    const none = await download(brand.agent, `/api/brand/payments/${paymentId}/credit-note`);
    expect(none.status).toBe(404);
    expect(none.json).toEqual({ message: 'No credit note for this payment: it was not refunded', code: 'document_not_found' });
    expect((await admin.agent.post(`/api/admin/payments/${paymentId}/refund`)).status).toBe(200);
    const invoice = await invoiceOf(paymentId);
    const note = await invoiceOf(paymentId, 'credit_note');
    expect(note.number).toMatch(new RegExp(`^BYL-CN-${year}-\\d{6}$`));
    const res = await download(brand.agent, `/api/brand/payments/${paymentId}/credit-note`);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${note.number}.pdf"`);
    const text = await pdfText(res.bytes);
    for (const expected of ['Credit note', note.number, `Credits invoice ${invoice.number}`, 'Total refunded -$99.99 USD', 'refunded by the editorial team']) expect(text).toContain(expected);
    expect((await download(admin.agent, `/api/admin/payments/${paymentId}/credit-note`)).status).toBe(200);
  });

  it('gives a payment from before invoices its documents on first download, once', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    const opp = await createOpportunity(t.db, { maxSlots: 5 });
    const legacy = await makePayment(t.db, brand.user.id, opp.id, { status: 'refunded', refundReason: 'guarantee', refundedAt: new Date() });
    const [a, b] = await Promise.all([
      download(brand.agent, `/api/brand/payments/${legacy.id}/credit-note`),
      download(brand.agent, `/api/brand/payments/${legacy.id}/credit-note`),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(Buffer.compare(a.bytes, b.bytes)).toBe(0);
    const docs = await t.db.select().from(taxDocuments).where(eq(taxDocuments.paymentId, legacy.id));
    expect(docs.map((d) => d.kind).sort()).toEqual(['credit_note', 'invoice']);
    expect(await pdfText(a.bytes)).toContain('not delivered within the guarantee');
  });

  it('keeps documents private: another brand gets 404, a brand on the admin route 403, signed out 401', async () => {
    const [owner, other] = await quickBrands(t.app, t.db, 2);
    const paymentId = await buy(owner.agent, (await createOpportunity(t.db)).id);
    for (const kind of ['invoice', 'credit-note']) {
      const res = await download(other.agent, `/api/brand/payments/${paymentId}/${kind}`);
      expect(res.status).toBe(404);
      expect((await download(owner.agent, `/api/admin/payments/${paymentId}/${kind}`)).status).toBe(403);
      expect((await download(new Agent(t.app), `/api/brand/payments/${paymentId}/${kind}`)).status).toBe(401);
      expect((await download(owner.agent, `/api/brand/payments/not-a-uuid/${kind}`)).status).toBe(404);
      expect((await download(admin.agent, `/api/admin/payments/00000000-0000-4000-8000-000000000000/${kind}`)).status).toBe(404);
    }
    expect((await download(admin.agent, `/api/brand/payments/${paymentId}/invoice`)).status).toBe(403);
  });
});

describe('numbering', () => {
  it('is gapless and unique under 50 concurrent fulfilments', async () => {
    const brands = await quickBrands(t.app, t.db, 50);
    const opp = await createOpportunity(t.db, { maxSlots: 50, priceUsd: '10.00' });
    const [counter] = await t.db
      .select({ last: documentCounters.last })
      .from(documentCounters)
      .where(and(eq(documentCounters.series, 'BYL'), eq(documentCounters.year, year)));
    const start = counter?.last ?? 0;
    const claims = await Promise.all(brands.map((b) => b.agent.post('/api/payments/checkout', { opportunityId: opp.id })));
    const paid = await Promise.all(brands.map((b, i) => b.agent.post(`/api/payments/checkout/${sessionIdOf(claims[i].body.url)}/pay`)));
    expect(paid.map((p) => p.status)).toEqual(brands.map(() => 200));
    const docs = await t.db
      .select({ number: taxDocuments.number })
      .from(taxDocuments)
      .where(sql`${taxDocuments.paymentId} IN (SELECT id FROM payments WHERE opportunity_id = ${opp.id})`);
    const seqs = docs.map((d) => Number(d.number.slice(-6))).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 50 }, (_, i) => start + i + 1));
  });
});
