import { and, eq, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { opportunities, payments, users } from '../../db/schema';
import type { AdminPaymentItem, BrandPaymentItem, PaymentDto, PaymentStatus, PaymentTotals } from '../../../shared/payment';
import type { PaymentRow } from './refunds';
import { limitedPage, afterCursor, cursorAt, pageValues, type JsonPageRow, type Page } from '../../lib/paging';
import { jsonObject } from '../../db/json';
import { isoUtc, preparedStatement } from '../../db/statement';
import { itemPages, rowVersions, xminOf } from '../../db/item-pages';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The API shape of a payment: no internal columns (session ids, refund bookkeeping). */
export function toPaymentDto(p: PaymentRow): PaymentDto {
  return {
    id: p.id,
    brandId: p.brandId,
    opportunityId: p.opportunityId,
    stripePaymentId: p.stripePaymentId,
    amount: p.amount,
    status: p.status,
    draftReviewStatus: p.draftReviewStatus,
    draftDocumentUrl: p.draftDocumentUrl,
    draftDocumentFile: p.draftDocumentFile,
    brandFeedback: p.brandFeedback,
    refundReason: p.refundReason,
    paidAt: p.paidAt.toISOString(),
    releasedAt: iso(p.releasedAt),
    refundedAt: iso(p.refundedAt),
    createdAt: p.createdAt.toISOString(),
  };
}

const escrowBalance = preparedStatement<{ balance: string }, { brandId: string }>(
  'brand_escrow_balance',
  sql`SELECT coalesce(sum(${payments.amount}), 0)::numeric(12,2)::text AS "balance"
    FROM ${payments} WHERE ${payments.brandId} = ${sql.placeholder('brandId')} AND ${payments.status} = 'paid'`,
);

/**
 * Money the brand has held in escrow: the sum of its `paid` payments, added up by the database
 * (an index-only scan of payments_brand_held_idx). Every portal page shows it, so it is prepared.
 */
export async function brandEscrowBalance(db: Db, brandId: string): Promise<string> {
  const [row] = await escrowBalance(db, { brandId });
  return row.balance;
}

/** `toPaymentDto` written in SQL, for lists built by the database (same keys, same order). */
const paymentDtoJson = {
  id: payments.id,
  brandId: payments.brandId,
  opportunityId: payments.opportunityId,
  stripePaymentId: payments.stripePaymentId,
  amount: sql`${payments.amount}::text`,
  status: payments.status,
  draftReviewStatus: payments.draftReviewStatus,
  draftDocumentUrl: payments.draftDocumentUrl,
  draftDocumentFile: payments.draftDocumentFile,
  brandFeedback: payments.brandFeedback,
  refundReason: payments.refundReason,
  paidAt: isoUtc(payments.paidAt),
  releasedAt: isoUtc(payments.releasedAt),
  refundedAt: isoUtc(payments.refundedAt),
  createdAt: isoUtc(payments.createdAt),
} satisfies Record<keyof PaymentDto, SQLWrapper>;

/** The brand an admin list names beside a payment (Admin Payments, Admin Projects), in SQL. */
export const brandContactJson = jsonObject<AdminPaymentItem['user']>({
  id: users.id,
  name: users.name,
  brandName: users.brandName,
  email: users.email,
});

const brandPaymentsPage = itemPages<{ cursor: boolean }, Record<string, unknown>>(
  'brand_payments',
  (o) => (o.cursor ? 'c' : 'n'),
  (o, columns) =>
    limitedPage(sql`SELECT ${columns(jsonObject<BrandPaymentItem>({
      ...paymentDtoJson,
      opportunity: jsonObject<BrandPaymentItem['opportunity']>({
        id: opportunities.id,
        title: opportunities.title,
        outletName: opportunities.outletName,
        type: opportunities.type,
        priceUsd: sql`${opportunities.priceUsd}::text`,
      }),
    }), rowVersions(xminOf(payments), xminOf(opportunities)), payments.id)}, ${payments.id} AS "id", ${cursorAt(payments.createdAt)} AS "cursorAt"
    FROM ${payments} JOIN ${opportunities} ON ${opportunities.id} = ${payments.opportunityId}
    WHERE ${and(sql`${payments.brandId} = ${sql.placeholder('brandId')}`, o.cursor ? afterCursor(payments.createdAt, payments.id) : undefined)}
    ORDER BY ${payments.createdAt} DESC, ${payments.id} DESC`),
);

/** GET /api/brand/payments: the brand's payments (`BrandPaymentItem`), newest first, one page at a time. */
export function brandPayments(db: Db, brandId: string, page: Page): Promise<JsonPageRow[]> {
  return brandPaymentsPage(db, { cursor: Boolean(page.cursor) }, { brandId, ...pageValues(page) });
}

type AdminPaymentsShape = { byOpportunity: boolean; byStatus: boolean; cursor: boolean };
const adminPaymentsPage = itemPages<AdminPaymentsShape, Record<string, unknown>>(
  'admin_payments',
  (o) => `${o.byOpportunity ? 'o' : ''}${o.byStatus ? 's' : ''}${o.cursor ? 'c' : 'n'}`,
  (o, columns) =>
    limitedPage(sql`SELECT ${columns(jsonObject<AdminPaymentItem>({
      ...paymentDtoJson,
      opportunity: jsonObject<AdminPaymentItem['opportunity']>({
        id: opportunities.id,
        title: opportunities.title,
        outletName: opportunities.outletName,
        priceUsd: sql`${opportunities.priceUsd}::text`,
      }),
      user: brandContactJson,
    }), rowVersions(xminOf(payments), xminOf(opportunities), xminOf(users)), payments.id)}, ${payments.id} AS "id", ${cursorAt(payments.createdAt)} AS "cursorAt"
    FROM ${payments}
    JOIN ${opportunities} ON ${opportunities.id} = ${payments.opportunityId}
    JOIN ${users} ON ${users.id} = ${payments.brandId}
    WHERE ${and(
      o.byOpportunity ? sql`${payments.opportunityId} = ${sql.placeholder('opportunityId')}::uuid` : undefined,
      o.byStatus ? sql`${payments.status} = ${sql.placeholder('status')}` : undefined,
      o.cursor ? afterCursor(payments.createdAt, payments.id) : sql`true`,
    )}
    ORDER BY ${payments.createdAt} DESC, ${payments.id} DESC`),
);

/** GET /api/admin/payments: every payment (or one opportunity's, or one status), newest first, paged (`AdminPaymentItem`). */
export function adminPayments(
  db: Db,
  filter: { opportunityId?: string; status?: PaymentStatus },
  page: Page,
): Promise<JsonPageRow[]> {
  return adminPaymentsPage(
    db,
    { byOpportunity: Boolean(filter.opportunityId), byStatus: Boolean(filter.status), cursor: Boolean(page.cursor) },
    {
      ...(filter.opportunityId ? { opportunityId: filter.opportunityId } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...pageValues(page),
    },
  );
}

/** Spec §9: the admin's totals are sums of the opportunity price over paid and released payments. */
export async function paymentTotals(db: Db): Promise<PaymentTotals> {
  const [row] = await db
    .select({
      held: sql<string>`coalesce(sum(${opportunities.priceUsd}) FILTER (WHERE ${payments.status} = 'paid'), 0)::numeric(14,2)::text`,
      released: sql<string>`coalesce(sum(${opportunities.priceUsd}) FILTER (WHERE ${payments.status} = 'released'), 0)::numeric(14,2)::text`,
    })
    .from(payments)
    .innerJoin(opportunities, eq(opportunities.id, payments.opportunityId));
  return { held: row.held, released: row.released };
}

export async function paymentById(db: Db, id: string) {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}
