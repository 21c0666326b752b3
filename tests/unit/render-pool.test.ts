import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { renderDocumentPdf, type StoredDocument } from '../../src/server/modules/invoices/pdf';
import { renderOnPool } from '../../src/server/modules/invoices/render-pool';
import { pdfText } from '../support/pdf';

const invoice = (n: number): StoredDocument => ({
  kind: 'invoice',
  number: `BYL-2026-${String(n).padStart(6, '0')}`,
  issuedAt: new Date('2026-03-01T09:00:00Z'),
  content: {
    seller: { name: 'Byline Media SAS', lines: ['1 rue de Rivoli', '75001 Paris'], taxId: 'FR40303265045', email: 'billing@byline.test' },
    buyer: { name: `Brand ${n} GmbH`, lines: ['Hauptstraße 5', '10115 Berlin', 'Germany'], taxId: 'DE123456789', email: null },
    line: { title: `Feature ${n}: how brands grow`, outlet: 'TechCrunch', type: 'Listicle' },
    totalCents: 125050,
    netCents: 125050,
    taxCents: 0,
    taxRateBp: 0,
    currency: 'USD',
    reverseCharge: true,
    paymentReference: `pi_${n}`,
    paidAt: '2026-03-01T09:00:00.000Z',
    testMode: false,
  },
});

describe('the PDF render pool', () => {
  it('renders documents at once on threads, each the same bytes as rendered in place, while the event loop stays free', async () => {
    const docs = Array.from({ length: 24 }, (_, i) => invoice(i + 1));
    await renderOnPool(docs[0]); // the threads' start, not measured
    const before = performance.eventLoopUtilization();
    const pdfs = await Promise.all(docs.map((doc) => renderOnPool(doc)));
    const busy = performance.eventLoopUtilization(before).utilization;

    for (const [i, doc] of docs.entries()) {
      expect(Buffer.compare(pdfs[i], await renderDocumentPdf(doc))).toBe(0);
    }
    const text = await pdfText(pdfs[6]);
    expect(text).toContain('BYL-2026-000007');
    expect(text).toContain('Brand 7 GmbH');
    expect(text).toContain('Feature 7: how brands grow');
    // rendered in place, the loop would be busy nearly all the time (one document after another)
    expect(busy).toBeLessThan(0.5);
  });

  it('fails a document that cannot be rendered with the reason, and renders the next', async () => {
    const broken = { ...invoice(1), content: null } as unknown as StoredDocument;
    await expect(renderOnPool(broken)).rejects.toThrow(/the PDF could not be rendered: TypeError/);
    expect(await pdfText(await renderOnPool(invoice(2)))).toContain('BYL-2026-000002');
  });

  it('stops a render that takes longer than its time, and renders the next', async () => {
    await expect(renderOnPool(invoice(3), {}, 1)).rejects.toThrow('the PDF took longer than 1 ms to render');
    const next = await renderOnPool(invoice(4));
    expect(Buffer.compare(next, await renderDocumentPdf(invoice(4)))).toBe(0);
  });
});
