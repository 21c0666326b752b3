import { Readable } from 'node:stream';
import { and, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { brandMatches, likeLiteral } from '../../db/brand-search';
import { opportunities, organisations, orgClients, payments, taxDocuments, users } from '../../db/schema';
import { preparedVariants } from '../../db/statement';
import { refundedOf } from '../ledger/ledger';
import { PAYMENTS_EXPORT_COLUMNS } from '../../../shared/billing';
import { csvRows } from '../../../shared/csv';
import type { PaymentStatus } from '../../../shared/payment';

export interface ExportFilter {
  status?: PaymentStatus;
  /** yyyy-mm-dd, UTC, inclusive */
  from?: string;
  to?: string;
  q?: string;
  /** one client's payments */
  clientId?: string;
}

type Row = Record<(typeof PAYMENTS_EXPORT_COLUMNS)[number], string | null> & {
  cursor_at: string;
  id: string;
  /** the payment passes the filter (a row that does not is the window's last, sent for the cursor) */
  matched: boolean;
  /** payments in this window: fewer than BATCH means the export has reached the end */
  scanned: number;
};

/**
 * Payments read per query: enough that the round trips cost little, and few enough that a batch's
 * CSV (~75 KB) stays under V8's large-object size: a larger chunk is allocated outside the young
 * generation and lingers until a full collection, so a long export grows the server (decision 021).
 */
const BATCH = 500;

const utc = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
/** A column of the window `w`: the payments this query reads. */
const w = (column: string) => sql.raw(`w.${column}`);

type Shape = { status: boolean; from: boolean; to: boolean; q: boolean; client: boolean; cursor: boolean };
/**
 * One window: the next BATCH payments in keyset order, read from payments_created_idx whatever the
 * filter, then joined and filtered. Filtering inside the walk would leave the planner to guess how
 * many payments match: when it guesses few, it reads and sorts every remaining match for each
 * batch, and an export with a search that matches most payments grows with the square of its
 * size. Each window costs the same however many of its payments match.
 */
export const exportBatch = preparedVariants<Shape, Row, Record<string, unknown>>(
  'payments_export',
  (o) => `${o.status ? 's' : ''}${o.from ? 'f' : ''}${o.to ? 't' : ''}${o.q ? 'q' : ''}${o.client ? 'k' : ''}${o.cursor ? 'c' : 'n'}`,
  (o) => {
    const filter = and(
      o.status ? sql`${w('status')} = ${sql.placeholder('status')}` : undefined,
      o.client ? sql`${w('client_id')} = ${sql.placeholder('clientId')}::uuid` : undefined,
      o.from ? sql`${w('paid_at')} >= ${sql.placeholder('from')}::date::timestamp AT TIME ZONE 'UTC'` : undefined,
      o.to ? sql`${w('paid_at')} < (${sql.placeholder('to')}::date + 1)::timestamp AT TIME ZONE 'UTC'` : undefined,
      o.q
        ? sql`(${brandMatches(sql.placeholder('q'))} OR ${opportunities.title} ILIKE ('%' || ${sql.placeholder('q')}::text || '%')
            OR ${opportunities.outletName} ILIKE ('%' || ${sql.placeholder('q')}::text || '%'))`
        : undefined,
    ) ?? sql`true`;
    return sql`WITH w AS MATERIALIZED (
        SELECT ${payments.id} AS id, ${payments.createdAt} AS created_at, ${payments.brandId} AS brand_id,
          ${payments.opportunityId} AS opportunity_id, ${payments.amount} AS amount, ${payments.status} AS status,
          ${payments.stripePaymentId} AS stripe_payment_id, ${payments.paidAt} AS paid_at,
          ${payments.releasedAt} AS released_at, ${payments.refundedAt} AS refunded_at,
          ${payments.organisationId} AS organisation_id, ${payments.clientId} AS client_id, ${payments.orderId} AS order_id,
          ${refundedOf(payments.id)} AS refunded_amount
        FROM ${payments}
        ${o.cursor ? sql`WHERE (${payments.createdAt}, ${payments.id}) > (${sql.placeholder('cursorAt')}::timestamptz, ${sql.placeholder('cursorId')}::uuid)` : sql``}
        ORDER BY ${payments.createdAt}, ${payments.id}
        LIMIT ${sql.raw(String(BATCH))}
      )
      SELECT ${utc(w('paid_at'))} AS "date", ${w('amount')}::text AS "amount", 'USD' AS "currency",
        ${w('status')} AS "status", ${users.brandName} AS "brand", ${users.email} AS "email",
        ${opportunities.title} AS "opportunity", ${opportunities.outletName} AS "outlet",
        ${w('stripe_payment_id')} AS "provider_reference", ${taxDocuments.number} AS "invoice_number",
        ${utc(w('released_at'))} AS "released_at", ${utc(w('refunded_at'))} AS "refunded_at",
        ${organisations.name} AS "organisation", ${orgClients.name} AS "client",
        ${w('refunded_amount')}::numeric(12, 2)::text AS "refunded_amount",
        ${w('created_at')}::text AS "cursor_at", ${w('id')} AS "id",
        (${filter}) AS "matched", (SELECT count(*) FROM w)::int AS "scanned"
      FROM w
      JOIN ${users} ON ${users.id} = ${w('brand_id')}
      JOIN ${opportunities} ON ${opportunities.id} = ${w('opportunity_id')}
      JOIN ${organisations} ON ${organisations.id} = ${w('organisation_id')}
      LEFT JOIN ${orgClients} ON ${orgClients.id} = ${w('client_id')}
      LEFT JOIN ${taxDocuments} ON (${taxDocuments.paymentId} = ${w('id')} OR ${taxDocuments.orderId} = ${w('order_id')}) AND ${taxDocuments.kind} = 'invoice'
      WHERE (${filter}) OR ${w('id')} = (SELECT id FROM w ORDER BY created_at DESC, id DESC LIMIT 1)
      ORDER BY ${w('created_at')}, ${w('id')}`;
  },
);

/** The payments, oldest first, a batch at a time: the next batch is read only when the last is sent. */
async function* exportBatches(db: Db, filter: ExportFilter): AsyncGenerator<Row[]> {
  const shape = {
    status: Boolean(filter.status),
    from: Boolean(filter.from),
    to: Boolean(filter.to),
    q: filter.q !== undefined,
    client: Boolean(filter.clientId),
  };
  const values: Record<string, unknown> = {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.clientId ? { clientId: filter.clientId } : {}),
    ...(filter.from ? { from: filter.from } : {}),
    ...(filter.to ? { to: filter.to } : {}),
    ...(filter.q !== undefined ? { q: likeLiteral(filter.q) } : {}),
  };
  let cursor: { cursorAt: string; cursorId: string } | null = null;
  for (;;) {
    const rows: Row[] = await exportBatch(db, { ...shape, cursor: cursor !== null }, { ...values, ...(cursor ?? {}) });
    const matched = rows.filter((r) => r.matched);
    if (matched.length) yield matched;
    if (!rows.length || rows[0].scanned < BATCH) return;
    const last = rows[rows.length - 1];
    cursor = { cursorAt: last.cursor_at, cursorId: last.id };
  }
}

/** The header row, then each batch as one chunk of the response. */
async function* csvChunks(db: Db, filter: ExportFilter): AsyncGenerator<string> {
  yield csvRows([PAYMENTS_EXPORT_COLUMNS]);
  for await (const rows of exportBatches(db, filter)) {
    yield csvRows(rows.map((r) => PAYMENTS_EXPORT_COLUMNS.map((c) => r[c])));
  }
}

/**
 * GET /api/admin/payments/export.csv: a header row, then one row per payment, streamed (the
 * database is read a batch at a time as fast as the client takes the file, never all at once).
 * Cells that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) are prefixed with `'`
 * (shared/csv.ts, as in every CSV Byline writes).
 */
export function paymentsCsv(db: Db, filter: ExportFilter): Readable {
  return Readable.from(csvChunks(db, filter), { objectMode: false, highWaterMark: 64 * 1024 });
}
