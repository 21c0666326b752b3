import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { opportunities, payments, users } from '../../db/schema';
import type { AdminPaymentItem, BrandPaymentItem, PaymentDto, PaymentStatus, PaymentTotals } from '../../../shared/payment';
import type { PaymentRow } from './refunds';
import { after, cursorAt, type Page } from '../../lib/paging';
import { preparedStatement } from '../../db/statement';

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

/** GET /api/brand/payments: the brand's payments, newest first, one page at a time. */
export async function brandPayments(db: Db, brandId: string, page: Page) {
  return db
    .select({
      payment: payments,
      opportunity: {
        id: opportunities.id,
        title: opportunities.title,
        outletName: opportunities.outletName,
        type: opportunities.type,
        priceUsd: opportunities.priceUsd,
      },
      id: payments.id,
      cursorAt: cursorAt(payments.createdAt),
    })
    .from(payments)
    .innerJoin(opportunities, eq(opportunities.id, payments.opportunityId))
    .where(and(eq(payments.brandId, brandId), after(payments.createdAt, payments.id, page.cursor)))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(page.limit + 1);
}

export const toBrandPayment = (r: Awaited<ReturnType<typeof brandPayments>>[number]): BrandPaymentItem => ({
  ...toPaymentDto(r.payment),
  opportunity: r.opportunity,
});

/** GET /api/admin/payments: every payment (or one opportunity's, or one status), newest first, paged. */
export async function adminPayments(db: Db, filter: { opportunityId?: string; status?: PaymentStatus }, page: Page) {
  const where: (SQL | undefined)[] = [after(payments.createdAt, payments.id, page.cursor)];
  if (filter.opportunityId) where.push(eq(payments.opportunityId, filter.opportunityId));
  if (filter.status) where.push(eq(payments.status, filter.status));
  return db
    .select({
      payment: payments,
      opportunity: { id: opportunities.id, title: opportunities.title, outletName: opportunities.outletName, priceUsd: opportunities.priceUsd },
      user: { id: users.id, name: users.name, brandName: users.brandName, email: users.email },
      id: payments.id,
      cursorAt: cursorAt(payments.createdAt),
    })
    .from(payments)
    .innerJoin(opportunities, eq(opportunities.id, payments.opportunityId))
    .innerJoin(users, eq(users.id, payments.brandId))
    .where(and(...where))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(page.limit + 1);
}

export const toAdminPayment = (r: Awaited<ReturnType<typeof adminPayments>>[number]): AdminPaymentItem => ({
  ...toPaymentDto(r.payment),
  opportunity: r.opportunity,
  user: r.user,
});

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
