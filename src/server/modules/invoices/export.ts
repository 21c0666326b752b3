import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { and, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { brandMatches, likeLiteral } from '../../db/brand-search';
import { opportunities, payments, taxDocuments, users } from '../../db/schema';
import { preparedVariants } from '../../db/statement';
import { PAYMENTS_EXPORT_COLUMNS } from '../../../shared/billing';
import type { PaymentStatus } from '../../../shared/payment';

export interface ExportFilter {
  status?: PaymentStatus;
  /** yyyy-mm-dd, UTC, inclusive */
  from?: string;
  to?: string;
  q?: string;
}

type Row = Record<(typeof PAYMENTS_EXPORT_COLUMNS)[number], string | null> & { cursor_at: string; id: string };

/**
 * Rows per query: enough that the round trips cost little, and few enough that a batch's CSV (~75
 * KB) stays under V8's large-object size: a larger chunk is allocated outside the young generation
 * and lingers until a full collection, so a long export grows the server (figures: decision 021).
 */
const BATCH = 500;

const utc = (column: unknown) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

type Shape = { status: boolean; from: boolean; to: boolean; q: boolean; cursor: boolean };
const batch = preparedVariants<Shape, Row, Record<string, unknown>>(
  'payments_export',
  (o) => `${o.status ? 's' : ''}${o.from ? 'f' : ''}${o.to ? 't' : ''}${o.q ? 'q' : ''}${o.cursor ? 'c' : 'n'}`,
  (o) => sql`SELECT ${utc(payments.paidAt)} AS "date", ${payments.amount}::text AS "amount", 'USD' AS "currency",
      ${payments.status} AS "status", ${users.brandName} AS "brand", ${users.email} AS "email",
      ${opportunities.title} AS "opportunity", ${opportunities.outletName} AS "outlet",
      ${payments.stripePaymentId} AS "provider_reference", ${taxDocuments.number} AS "invoice_number",
      ${utc(payments.releasedAt)} AS "released_at", ${utc(payments.refundedAt)} AS "refunded_at",
      ${payments.createdAt}::text AS "cursor_at", ${payments.id} AS "id"
    FROM ${payments}
    JOIN ${users} ON ${users.id} = ${payments.brandId}
    JOIN ${opportunities} ON ${opportunities.id} = ${payments.opportunityId}
    LEFT JOIN ${taxDocuments} ON ${taxDocuments.paymentId} = ${payments.id} AND ${taxDocuments.kind} = 'invoice'
    WHERE ${and(
      o.status ? sql`${payments.status} = ${sql.placeholder('status')}` : undefined,
      o.from ? sql`${payments.paidAt} >= ${sql.placeholder('from')}::date::timestamp AT TIME ZONE 'UTC'` : undefined,
      o.to ? sql`${payments.paidAt} < (${sql.placeholder('to')}::date + 1)::timestamp AT TIME ZONE 'UTC'` : undefined,
      o.q
        ? sql`(${brandMatches(sql.placeholder('q'))} OR ${opportunities.title} ILIKE ('%' || ${sql.placeholder('q')}::text || '%')
            OR ${opportunities.outletName} ILIKE ('%' || ${sql.placeholder('q')}::text || '%'))`
        : undefined,
      o.cursor ? sql`(${payments.createdAt}, ${payments.id}) > (${sql.placeholder('cursorAt')}::timestamptz, ${sql.placeholder('cursorId')}::uuid)` : sql`true`,
    )}
    ORDER BY ${payments.createdAt}, ${payments.id}
    LIMIT ${sql.raw(String(BATCH))}`,
);

/** The payments, oldest first, a batch at a time: the next batch is read only when the last is sent. */
async function* exportBatches(db: Db, filter: ExportFilter): AsyncGenerator<Row[]> {
  const shape = { status: Boolean(filter.status), from: Boolean(filter.from), to: Boolean(filter.to), q: filter.q !== undefined };
  const values: Record<string, unknown> = {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.from ? { from: filter.from } : {}),
    ...(filter.to ? { to: filter.to } : {}),
    ...(filter.q !== undefined ? { q: likeLiteral(filter.q) } : {}),
  };
  let cursor: { cursorAt: string; cursorId: string } | null = null;
  for (;;) {
    const rows: Row[] = await batch(db, { ...shape, cursor: cursor !== null }, { ...values, ...(cursor ?? {}) });
    if (rows.length) yield rows;
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1];
    cursor = { cursorAt: last.cursor_at, cursorId: last.id };
  }
}

const ENCODING = { escape_formulas: true, record_delimiter: 'windows' } as const;

/** The header row, then each batch encoded by csv-stringify as one chunk of the response. */
async function* csvChunks(db: Db, filter: ExportFilter): AsyncGenerator<string> {
  yield stringify([[...PAYMENTS_EXPORT_COLUMNS]], ENCODING);
  for await (const rows of exportBatches(db, filter)) {
    yield stringify(
      rows.map((r) => PAYMENTS_EXPORT_COLUMNS.map((c) => r[c] ?? '')),
      ENCODING,
    );
  }
}

/**
 * GET /api/admin/payments/export.csv: a header row, then one row per payment, streamed (the
 * database is read a batch at a time as fast as the client takes the file, never all at once).
 * Cells that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) are prefixed with `'`.
 */
export function paymentsCsv(db: Db, filter: ExportFilter): Readable {
  return Readable.from(csvChunks(db, filter), { objectMode: false, highWaterMark: 64 * 1024 });
}
