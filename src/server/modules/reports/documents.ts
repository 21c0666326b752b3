import { buffer } from 'node:stream/consumers';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { organisations, orgClients, reports } from '../../db/schema';
import type { MailAttachments } from '../../mail/outbox';
import type { FileStore } from '../../storage/file-store';
import { REPORT_STATUS_LABELS } from '../../../shared/reports';
import { renderReportPdf } from './pdf';
import { columnsOf, reportCsv, reportLines, reportLogoOf, type Reader } from './service';
import { now as clockNow } from '../../lib/clock';

type ReportRow = typeof reports.$inferSelect;

const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const dayOf = (d: string) => day.format(new Date(`${d}T00:00:00Z`));

/** A file name from the report's name: letters, digits and dashes. */
export const fileNameOf = (report: Pick<ReportRow, 'name'>, ext: string) =>
  `${
    report.name
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'report'
  }.${ext}`;

/**
 * The logo of a white-label report, from the file store: null when it has none, when the file is
 * gone, or when it is not a logo the report's organisation uploaded for its reports (issue 57).
 */
export async function logoOf(db: Db, files: FileStore, report: Pick<ReportRow, 'organisationId' | 'whiteLabel'>): Promise<Buffer | null> {
  const name = await reportLogoOf(db, report.organisationId, report.whiteLabel?.logoFile);
  if (!name) return null;
  const found = await files.get(name);
  return found ? buffer(found.stream) : null;
}

/** The report's lines as they are now, what it covers in words, and whose it is. */
export async function reportContent(db: Db, report: ReportRow) {
  const lines = await reportLines(db, report);
  const [org] = await db
    .select({ name: organisations.name })
    .from(organisations)
    .where(eq(organisations.id, report.organisationId));
  const [client] = report.clientId
    ? await db.select({ name: orgClients.name }).from(orgClients).where(eq(orgClients.id, report.clientId))
    : [];
  const scope =
    [
      client ? `Client: ${client.name}` : null,
      report.status ? `Status: ${REPORT_STATUS_LABELS[report.status]}` : null,
      report.fromDay || report.toDay
        ? `Ordered ${report.fromDay ? dayOf(report.fromDay) : 'from the start'} – ${report.toDay ? dayOf(report.toDay) : 'today'}`
        : null,
    ]
      .filter(Boolean)
      .join(' · ') || 'Every placement';
  return { lines, scope, organisation: org?.name ?? '' };
}

/** The report's lines and both of its documents, as they are now, as `reader` may read them. */
export async function reportDocuments(db: Db, files: FileStore, report: ReportRow, reader: Reader, now: Date = clockNow()) {
  const { lines, scope, organisation } = await reportContent(db, report);
  const wl = report.whiteLabel;
  const pdf = await renderReportPdf({
    name: report.name,
    scope,
    columns: columnsOf(report, reader),
    lines,
    generatedAt: now,
    whiteLabel: wl ? { logo: await logoOf(db, files, report), color: wl.color, footer: wl.footer } : null,
    author: organisation,
  });
  return { lines, scope, pdf, csv: reportCsv(report, lines, reader), organisation };
}

/** A scheduled report's mail carries the report as PDF and CSV, made when it is sent, for its recipient. */
export function reportAttachments(files: FileStore): MailAttachments {
  return async (db, data, reader) => {
    if (data.kind !== 'scheduled_report' || typeof data.reportId !== 'string') return [];
    const [report] = await db.select().from(reports).where(eq(reports.id, data.reportId));
    if (!report) return [];
    // without prices for a recipient who may not see amounts (a client reviewer), whoever scheduled it
    const docs = await reportDocuments(db, files, report, reader);
    return [
      { filename: fileNameOf(report, 'pdf'), content: docs.pdf, contentType: 'application/pdf' },
      {
        filename: fileNameOf(report, 'csv'),
        content: Buffer.from(docs.csv, 'utf8'),
        contentType: 'text/csv; charset=utf-8',
      },
    ];
  };
}
