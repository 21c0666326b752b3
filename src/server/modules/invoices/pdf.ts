import PDFDocument from 'pdfkit';
import { asSource, BOLD, fallbackFont, REGULAR } from '../../lib/pdf-fonts';
import type { TaxDocumentContent, TaxDocumentKind } from '../../../shared/billing';
import { formatUsd } from '../../../shared/money';

/**
 * Invoices and credit notes as PDF (pdfkit, decision 021), rendered on demand from the stored
 * document: no file to lose, and the same document is the same bytes every time (the creation
 * date is the issue date, pdfkit's file id is derived from it, font subsets are deterministic).
 *
 * Fonts: DejaVu Sans is embedded (Latin with every accent, Greek, Cyrillic, Hebrew, Arabic, …).
 * A character it lacks (Chinese, Japanese, Korean) is set in the fallback font: INVOICE_FALLBACK_FONT,
 * else the first CJK font of SYSTEM_FALLBACKS installed (Debian: fonts-wqy-microhei). Without any,
 * such a character prints as an empty box (docs/deploy.md says to install one).
 */

export interface RenderOptions {
  /** a TTF/OTF/TTC for the characters DejaVu Sans lacks */
  fallbackFontPath?: string;
}

export interface StoredDocument {
  kind: TaxDocumentKind;
  number: string;
  issuedAt: Date;
  content: TaxDocumentContent;
}

const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const percent = (bp: number) => `${Math.trunc(bp / 100)}${bp % 100 ? '.' + String(bp % 100).padStart(2, '0').replace(/0$/, '') : ''} %`;

const REFUND_REASON_TEXT: Record<string, string> = {
  admin: 'refunded by the editorial team',
  guarantee: 'not delivered within the guarantee',
  sold_out: 'sold out while paying',
  provider: 'refunded through the card provider',
  not_restored: 'published article removed and not restored',
  declined: 'declined by the outlet and no alternative chosen',
  swap: 'the difference of a swap for a cheaper outlet',
  cancelled: 'cancelled by the brand',
  dispute: 'a dispute decided for the brand',
  late_credit: 'late credit: not published by the promised date',
  late_cancel: 'cancelled by the brand: not published long after the promised date',
};

const TEST_MODE_NOTICE = 'Test mode – not a tax document';
const REVERSE_CHARGE_NOTE = 'Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).';

export async function renderDocumentPdf(doc: StoredDocument, opts: RenderOptions = {}): Promise<Buffer> {
  const c = doc.content;
  const title = doc.kind === 'invoice' ? 'Invoice' : 'Credit note';
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 50,
    // not pdfkit's default Helvetica: its metrics file would be parsed for every document
    font: asSource(REGULAR) as unknown as string,
    info: { Title: `${title} ${doc.number}`, Author: c.seller.name, Creator: 'Byline', Producer: 'Byline', CreationDate: doc.issuedAt },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  pdf.registerFont('Regular', asSource(REGULAR));
  pdf.registerFont('Bold', asSource(BOLD));
  const fallback = fallbackFont(opts.fallbackFontPath);
  if (fallback) pdf.registerFont('Fallback', asSource(fallback));

  /** Text in runs of the font that has their glyphs. */
  const write = (text: string, font: 'Regular' | 'Bold', size: number, x?: number, y?: number, options: PDFKit.Mixins.TextOptions = {}) => {
    pdf.fontSize(size);
    const runs: { font: string; text: string }[] = [];
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      const f = fallback && !REGULAR.hasGlyphForCodePoint(cp) && fallback.hasGlyphForCodePoint(cp) ? 'Fallback' : font;
      const last = runs[runs.length - 1];
      if (last?.font === f) last.text += ch;
      else runs.push({ font: f, text: ch });
    }
    if (runs.length === 0) runs.push({ font, text: '' });
    runs.forEach((run, i) => {
      pdf.font(run.font);
      const more = i < runs.length - 1;
      if (i === 0 && x !== undefined) pdf.text(run.text, x, y, { ...options, continued: more });
      else pdf.text(run.text, { ...options, continued: more });
    });
  };

  const left = 50;
  const right = 545;
  const half = 300;

  if (c.testMode) {
    pdf.rect(left, 40, right - left, 24).fill('#FDECEC');
    pdf.fillColor('#A11A1A');
    write(TEST_MODE_NOTICE, 'Bold', 11, left, 47, { width: right - left, align: 'center' });
    pdf.fillColor('#000000');
  }

  write(title, 'Bold', 22, left, 80);
  write(doc.number, 'Regular', 11, left, 110);
  write(`Issued ${day.format(doc.issuedAt)}`, 'Regular', 10, left, 126);
  if (doc.kind === 'credit_note' && c.invoiceNumber) write(`Credits invoice ${c.invoiceNumber}`, 'Regular', 10, left, 141);

  const party = (label: string, p: TaxDocumentContent['seller'], x: number, y: number) => {
    pdf.fillColor('#555555');
    write(label, 'Bold', 9, x, y, { width: 240 });
    pdf.fillColor('#000000');
    write(p.name, 'Bold', 11, x, undefined, { width: 240 });
    for (const line of p.lines) write(line, 'Regular', 10, x, undefined, { width: 240 });
    if (p.taxId) write(`VAT / tax ID: ${p.taxId}`, 'Regular', 10, x, undefined, { width: 240 });
    if (p.email) write(p.email, 'Regular', 10, x, undefined, { width: 240 });
    return pdf.y;
  };
  const bottom = Math.max(party('From', c.seller, left, 180), party('Bill to', c.buyer, half, 180));

  let y = bottom + 30;
  pdf.moveTo(left, y).lineTo(right, y).strokeColor('#BBBBBB').stroke();
  write('Description', 'Bold', 10, left, y + 8, { width: 360 });
  write(`Amount (${c.currency})`, 'Bold', 10, 410, y + 8, { width: right - 410, align: 'right' });
  y += 28;
  pdf.moveTo(left, y).lineTo(right, y).stroke();
  const sign = doc.kind === 'credit_note' ? -1 : 1;
  // an order's invoice lists each line (issue 46); a page holds what fits, the rest goes on
  for (const line of c.lines ?? [{ ...c.line, netCents: c.netCents }]) {
    if (y > 700) {
      pdf.addPage();
      y = 50;
    }
    write(line.title, 'Regular', 10, left, y + 8, { width: 350 });
    write(`${line.outlet} · ${line.type}`, 'Regular', 9, left, undefined, { width: 350 });
    write(formatUsd(sign * line.netCents), 'Regular', 10, 410, y + 8, { width: right - 410, align: 'right' });
    y = Math.max(pdf.y, y + 30) + 10;
    pdf.moveTo(left, y).lineTo(right, y).stroke();
  }
  if (y > 680) {
    pdf.addPage();
    y = 50;
  }

  const total = (label: string, amount: string, font: 'Regular' | 'Bold') => {
    y += 8;
    write(label, font, 10, 300, y, { width: 200 });
    write(amount, font, 10, 410, y, { width: right - 410, align: 'right' });
    y = pdf.y;
  };
  total('Net', formatUsd(sign * c.netCents), 'Regular');
  total(`Tax (${percent(c.taxRateBp)})`, formatUsd(sign * c.taxCents), 'Regular');
  total(doc.kind === 'invoice' ? 'Total paid' : 'Total refunded', `${formatUsd(sign * c.totalCents)} ${c.currency}`, 'Bold');

  y += 30;
  if (c.reverseCharge) {
    write(REVERSE_CHARGE_NOTE, 'Regular', 9, left, y, { width: right - left });
    y = pdf.y + 8;
  }
  if (doc.kind === 'invoice') {
    write(`Paid by card on ${day.format(new Date(c.paidAt))}. Payment reference: ${c.paymentReference}`, 'Regular', 9, left, y, { width: right - left });
  } else {
    const reason = REFUND_REASON_TEXT[c.refundReason ?? ''] ?? c.refundReason ?? '';
    const how = c.partial ? 'Refunded in part' : 'Refunded in full';
    write(`${how} to the card that paid (${reason}). Payment reference: ${c.paymentReference}`, 'Regular', 9, left, y, {
      width: right - left,
    });
  }
  pdf.end();
  return done;
}
