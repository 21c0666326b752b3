import PDFDocument from 'pdfkit';
import { asSource, BOLD, REGULAR } from '../../lib/pdf-fonts';
import { REPORT_COLUMN_LABELS, type ReportColumn } from '../../../shared/reports';
import type { ReportLine } from './service';
import { cell } from './service';

export interface ReportPdfInput {
  name: string;
  /** what it covers, in words ("Client: Acme · Ordered 1 Nov 2026 – 30 Nov 2026") */
  scope: string;
  columns: ReportColumn[];
  lines: ReportLine[];
  generatedAt: Date;
  /** the agency's brand: with it, the document names only the agency */
  whiteLabel: { logo: Buffer | null; color: string | null; footer: string | null } | null;
  /** who made it, for the document's properties */
  author: string;
}

/** Relative widths of the columns: the long ones get more of the page. */
const WEIGHT: Record<ReportColumn, number> = {
  outlet: 3,
  title: 5,
  client: 2.5,
  status: 2,
  orderedAt: 2,
  publishedAt: 2,
  liveUrl: 5,
  linkStatus: 2.5,
  lastChecked: 2,
  price: 2,
};

const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * A report as PDF (A4 landscape): its name, what it covers, a table of the chosen columns, and on
 * every page the agency's footer (white label) or "Made with Byline" (not white label).
 */
export async function renderReportPdf(r: ReportPdfInput): Promise<Buffer> {
  const wl = r.whiteLabel;
  const accent = wl?.color ?? '#4338CA';
  const pdf = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margins: { top: 40, bottom: 50, left: 40, right: 40 },
    font: asSource(REGULAR) as unknown as string,
    bufferPages: true,
    info: {
      Title: r.name,
      Author: r.author,
      // pdfkit writes "PDFKit" unless told; a white-label report names only the agency
      Creator: wl ? r.author : 'Byline',
      Producer: wl ? r.author : 'Byline',
      CreationDate: r.generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  pdf.registerFont('Regular', asSource(REGULAR));
  pdf.registerFont('Bold', asSource(BOLD));

  const left = pdf.page.margins.left;
  const width = pdf.page.width - left - pdf.page.margins.right;
  const bottom = () => pdf.page.height - pdf.page.margins.bottom - 20;

  let y = pdf.page.margins.top;
  if (wl?.logo) {
    try {
      pdf.image(wl.logo, left, y, { fit: [160, 48] });
      y += 58;
    } catch {
      // a logo pdfkit cannot read (it was checked as PNG or JPEG on upload) is left out
    }
  }
  pdf.font('Bold').fontSize(20).fillColor(accent).text(r.name, left, y, { width });
  pdf.font('Regular').fontSize(10).fillColor('#444444').text(r.scope, { width });
  pdf.text(`${r.lines.length} placement${r.lines.length === 1 ? '' : 's'} · ${day.format(r.generatedAt)}`, { width });
  y = pdf.y + 14;

  const total = r.columns.reduce((n, c) => n + WEIGHT[c], 0);
  const widths = r.columns.map((c) => (WEIGHT[c] / total) * width);
  const pad = 4;
  const header = () => {
    pdf.rect(left, y, width, 20).fill(accent);
    pdf.font('Bold').fontSize(9).fillColor('#FFFFFF');
    let x = left;
    r.columns.forEach((c, i) => {
      pdf.text(REPORT_COLUMN_LABELS[c], x + pad, y + 6, {
        width: widths[i] - 2 * pad,
        lineBreak: false,
        ellipsis: true,
      });
      x += widths[i];
    });
    y += 20;
  };
  header();
  pdf.font('Regular').fontSize(9).fillColor('#111111');
  if (r.lines.length === 0) {
    pdf.text('No placement matches this report.', left + pad, y + 8, { width });
  }
  r.lines.forEach((line, n) => {
    const texts = r.columns.map((c) => cell(line, c));
    const height =
      Math.max(...texts.map((t, i) => pdf.heightOfString(t || ' ', { width: widths[i] - 2 * pad }))) + 2 * pad;
    if (y + height > bottom()) {
      pdf.addPage();
      y = pdf.page.margins.top;
      header();
      pdf.font('Regular').fontSize(9).fillColor('#111111');
    }
    if (n % 2 === 1) pdf.rect(left, y, width, height).fill('#F4F4F6').fillColor('#111111');
    let x = left;
    texts.forEach((t, i) => {
      pdf.text(t, x + pad, y + pad, { width: widths[i] - 2 * pad });
      x += widths[i];
    });
    y += height;
  });

  // every page's footer: the agency's words, or Byline's
  const footer = wl ? (wl.footer ?? '') : 'Made with Byline';
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    // below the bottom margin: without it pdfkit would start a new page for the footer
    const fy = pdf.page.height - pdf.page.margins.bottom + 10;
    pdf.page.margins.bottom = 0;
    pdf.font('Regular').fontSize(8).fillColor('#666666');
    if (footer) pdf.text(footer, left, fy, { width: width - 60, lineBreak: false, ellipsis: true });
    pdf.text(`${i + 1} / ${range.count}`, left + width - 60, fy, { width: 60, align: 'right', lineBreak: false });
  }
  pdf.end();
  return done;
}
