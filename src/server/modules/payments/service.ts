import { and, desc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { PAGE_LIMIT_MAX } from '../../../shared/schemas/paging';
import type { Db } from '../../db/client';
import { briefs, checkouts, moneyMovements, opportunities, organisations, orgClients, payments, placements, publications, users } from '../../db/schema';
import type { AdminPaymentItem, BrandPaymentItem, PaymentAttentionItem, PaymentDto, PaymentStatus, PaymentTotals } from '../../../shared/payment';
import type { PaymentRow } from './refunds';
import { limitedPage, afterCursor, cursorAt, pageValues, type JsonPageRow, type Page } from '../../lib/paging';
import { preparedVariants } from '../../db/statement';
import { inClients } from '../../db/payment-access';
import type { Scope } from '../../lib/contract';
import { brandMatches, likeLiteral } from '../../db/brand-search';
import { jsonPages } from '../../lib/json-pages';
import { lifeInputsSql, withLife } from '../life/life';
import { item, when, type Computed, type ItemOf, type Same } from '../../db/item';
import type { ReleaseSkip } from '../../../shared/enums';
import { MONEY_BACK_KINDS, moneyBackByStatus, paymentMoney, refundedAmountField, refundedOf, type PaymentMoney } from '../ledger/ledger';


/**
 * A payment as the API shows it (the spec's fields): its money, and the draft and review of the
 * placement it paid for; no internal columns (session ids, refund bookkeeping).
 */
const paymentDto = item({
  id: payments.id,
  brandId: payments.brandId,
  opportunityId: payments.opportunityId,
  stripePaymentId: payments.stripePaymentId,
  amount: payments.amount,
  refundedAmount: refundedAmountField,
  status: payments.status,
  draftReviewStatus: placements.draftReviewStatus,
  draftDocumentUrl: placements.draftDocumentUrl,
  draftDocumentFile: placements.draftDocumentFile,
  brandFeedback: placements.brandFeedback,
  refundReason: payments.refundReason,
  paidAt: payments.paidAt,
  releasedAt: payments.releasedAt,
  refundedAt: payments.refundedAt,
  createdAt: payments.createdAt,
});
/** The API's payment from rows Node holds: the payment, its placement and its money on the ledger. */
export const paymentJson = (p: PaymentRow, placement: typeof placements.$inferSelect, money: PaymentMoney): PaymentDto =>
  paymentDto.of({ payments: p, placements: placement, payment_money: { ...money } });

/** The API's payment for a row Node holds (e.g. the one an UPDATE returned), with its placement and money read. */
export async function toPaymentDto(db: Db, p: PaymentRow): Promise<PaymentDto> {
  // a swap's difference answers with the placement it topped up
  const [[placement], money] = await Promise.all([
    db.select().from(placements).where(eq(placements.paymentId, p.topupOf ?? p.id)),
    paymentMoney(db, p.id),
  ]);
  return paymentJson(p, placement, money);
}

/**
 * The placement a payment belongs to: its own, or for a dearer swap's difference (issue 46), the one
 * it topped up. The payment lists show both charges, each with its own amount and invoice.
 */
const placementOfPayment = sql`coalesce(${payments.topupOf}, ${payments.id})`;

/** The brand an admin list names beside a payment (Admin Payments, Admin Projects). */
export const brandContact = item({ id: users.id, name: users.name, brandName: users.brandName, email: users.email });

/** The organisation a payment or placement belongs to, as the admins' lists name it (they join `organisations`). */
export const organisationRef = item({ id: organisations.id, name: organisations.name });

/** The client it was bought for (lists LEFT JOIN `org_clients`); null: none (decision 035). */
export const clientRef = when(orgClients.id, item({ id: orgClients.id, name: orgClients.name }));

const brandPaymentItem = item({
  ...paymentDto.fields,
  opportunity: item({
    id: opportunities.id,
    title: opportunities.title,
    outletName: opportunities.outletName,
    type: opportunities.type,
    priceUsd: opportunities.priceUsd,
  }),
  client: clientRef,
});

/** What its placement's release went without (issue 57): the lists LEFT JOIN its publication. */
const releasedWithout: Computed<ReleaseSkip[]> = {
  kind: 'computed',
  sql: sql`coalesce(${publications.releasedWithout}, '{}'::text[])`,
  of: (rows) => (rows.publications?.releasedWithout as ReleaseSkip[] | undefined) ?? [],
};

const adminPaymentItem = item({
  ...paymentDto.fields,
  opportunity: item({ id: opportunities.id, title: opportunities.title, outletName: opportunities.outletName, priceUsd: opportunities.priceUsd }),
  user: brandContact,
  organisation: organisationRef,
  client: clientRef,
  briefSubmittedAt: briefs.submittedAt,
  releasedWithout,
});

// the definitions answer exactly the API's shapes (src/shared/payment.ts)
const _itemTypesMatch: [
  Same<ItemOf<typeof paymentDto>, PaymentDto>,
  Same<ItemOf<typeof brandPaymentItem>, BrandPaymentItem>,
  Same<ItemOf<typeof adminPaymentItem>, Omit<AdminPaymentItem, 'life'>>,
] = [true, true, true];

const escrowBalance = preparedVariants<boolean, { balance: string }, { organisationId: string; clientIds?: string[] }>(
  'org_escrow_balance',
  (byClients) => (byClients ? 'k' : 'all'),
  (byClients) => sql`SELECT round(coalesce(sum(${payments.amount} - ${refundedOf(payments.id)}), 0), 2)::text AS "balance"
    FROM ${payments} WHERE ${payments.organisationId} = ${sql.placeholder('organisationId')} AND ${payments.status} = 'paid'
    ${byClients ? sql`AND ${inClients(payments.clientId)}` : sql``}`,
);

/**
 * Money the organisation has held in escrow: the sum of its `paid` payments, added up by the
 * database (an index-only scan of payments_org_held_idx, each one's refunds from money_movements_refunds_idx). Every portal page shows it, so it is prepared.
 */
export async function brandEscrowBalance(db: Db, scope: Scope): Promise<string> {
  const byClients = scope.clientIds !== null;
  const [row] = await escrowBalance(db, byClients, { organisationId: scope.organisationId, ...(byClients ? { clientIds: scope.clientIds! } : {}) });
  return row.balance;
}

const brandPaymentsPage = jsonPages<{ byClients: boolean; cursor: boolean }, Record<string, unknown>>(
  'brand_payments',
  (o) => `${o.byClients ? 'k' : ''}${o.cursor ? 'c' : 'n'}`,
  (o, columns) =>
    limitedPage(sql`SELECT ${columns(brandPaymentItem)}, ${payments.id} AS "id", ${cursorAt(payments.createdAt)} AS "cursorAt"
    FROM ${payments} JOIN ${placements} ON ${placements.paymentId} = ${placementOfPayment}
    JOIN ${opportunities} ON ${opportunities.id} = ${payments.opportunityId}
    LEFT JOIN ${orgClients} ON ${orgClients.id} = ${payments.clientId}
    WHERE ${and(
      sql`${payments.organisationId} = ${sql.placeholder('organisationId')}`,
      o.byClients ? inClients(payments.clientId) : undefined,
      o.cursor ? afterCursor(payments.createdAt, payments.id) : undefined,
    )}
    ORDER BY ${payments.createdAt} DESC, ${payments.id} DESC`),
);

/** GET /api/brand/payments: the organisation's payments (`BrandPaymentItem`), newest first, one page at a time. */
export function brandPayments(db: Db, scope: Scope, page: Page): Promise<JsonPageRow[]> {
  const byClients = scope.clientIds !== null;
  return brandPaymentsPage(
    db,
    { byClients, cursor: Boolean(page.cursor) },
    { organisationId: scope.organisationId, ...(byClients ? { clientIds: scope.clientIds } : {}), ...pageValues(page) },
  );
}

type AdminPaymentsShape = { byOpportunity: boolean; byStatus: boolean; search: boolean; cursor: boolean };

/** A search matching fewer brands than this picks its page from their payments; more, from the list's order. */
const FEW_BRANDS = 200;

/**
 * The page's payments of a search by brand (issue 61), before anything is joined to them. Its
 * statement is prepared once, so its plan cannot follow how many brands `q` finds: both ways are
 * in it, each behind a one-time filter on that number (an InitPlan over the trigram index, at most
 * FEW_BRANDS rows), and only one runs. Few brands: each one's payments from
 * payments_brand_created_idx, then the newest 201 (the work follows those brands' payments, and a
 * search that finds no brand reads nothing). Many: the list's order walked newest first (a
 * sub-select the planner keeps, OFFSET 0) until 201 are theirs, as a search that finds most brands
 * does at once. Before, every search walked the list's order, looking each row's brand up: a search
 * that finds one small brand (or none) read the whole table.
 */
function searchPick(filters: SQL | undefined) {
  const brands = sql`(SELECT count(*) FROM (SELECT 1 FROM ${users} WHERE ${brandMatches(sql.placeholder('q'))} LIMIT ${sql.raw(String(FEW_BRANDS))}) AS "found")`;
  const order = sql`ORDER BY ${payments.createdAt} DESC, ${payments.id} DESC LIMIT ${sql.raw(String(PAGE_LIMIT_MAX + 1))}`;
  return sql`(
      (SELECT ${payments.id} FROM ${payments} JOIN ${users} ON ${users.id} = ${payments.brandId}
        WHERE ${and(brandMatches(sql.placeholder('q')), filters, sql`${brands} < ${sql.raw(String(FEW_BRANDS))}`)} ${order})
      UNION ALL
      (SELECT ${payments.id} FROM (SELECT * FROM ${payments} ORDER BY ${payments.createdAt} DESC, ${payments.id} DESC OFFSET 0) AS ${payments}
        WHERE ${and(
          sql`${payments.brandId} = ANY (ARRAY(SELECT ${users.id} FROM ${users} WHERE ${brandMatches(sql.placeholder('q'))}))`,
          filters,
          sql`${brands} >= ${sql.raw(String(FEW_BRANDS))}`,
        )} LIMIT ${sql.raw(String(PAGE_LIMIT_MAX + 1))})
    ) AS "pick"`;
}

const adminPaymentsPage = jsonPages<AdminPaymentsShape, Record<string, unknown>>(
  'admin_payments',
  (o) => `${o.byOpportunity ? 'o' : ''}${o.byStatus ? 's' : ''}${o.search ? 'q' : ''}${o.cursor ? 'c' : 'n'}`,
  (o, columns) => {
    const filters = and(
      o.byOpportunity ? sql`${payments.opportunityId} = ${sql.placeholder('opportunityId')}::uuid` : undefined,
      o.byStatus ? sql`${payments.status} = ${sql.placeholder('status')}` : undefined,
      o.cursor ? afterCursor(payments.createdAt, payments.id) : undefined,
    );
    return limitedPage(sql`SELECT ${columns(adminPaymentItem)}, ${lifeInputsSql} AS "life", ${payments.id} AS "id", ${cursorAt(payments.createdAt)} AS "cursorAt"
    FROM ${o.search ? sql`${searchPick(filters)} JOIN ${payments} ON ${payments.id} = "pick"."id"` : payments}
    JOIN ${placements} ON ${placements.paymentId} = ${placementOfPayment}
    JOIN ${opportunities} ON ${opportunities.id} = ${payments.opportunityId}
    JOIN ${users} ON ${users.id} = ${payments.brandId}
    JOIN ${organisations} ON ${organisations.id} = ${payments.organisationId}
    LEFT JOIN ${orgClients} ON ${orgClients.id} = ${payments.clientId}
    LEFT JOIN ${briefs} ON ${briefs.placementId} = ${placements.id}
    LEFT JOIN ${publications} ON ${publications.placementId} = ${placements.id}
    WHERE ${o.search ? sql`true` : (filters ?? sql`true`)}
    ORDER BY ${payments.createdAt} DESC, ${payments.id} DESC`);
  },
);

/**
 * GET /api/admin/payments: every payment (or one opportunity's, one status, the brands the search
 * `q` finds), newest first, paged (`AdminPaymentItem`), each with its placement's life for the team.
 */
export async function adminPayments(
  db: Db,
  filter: { opportunityId?: string; status?: PaymentStatus; q?: string },
  page: Page,
): Promise<JsonPageRow[]> {
  const rows = await adminPaymentsPage(
    db,
    {
      byOpportunity: Boolean(filter.opportunityId),
      byStatus: Boolean(filter.status),
      search: filter.q !== undefined,
      cursor: Boolean(page.cursor),
    },
    {
      ...(filter.opportunityId ? { opportunityId: filter.opportunityId } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.q !== undefined ? { q: likeLiteral(filter.q) } : {}),
      ...pageValues(page),
    },
  );
  return withLife(rows, { side: 'admin' });
}

/**
 * The admin's totals: what was charged for the payments held (`paid`) and released, less the parts
 * refunded, and what was refunded (in full or in part). The spec sums
 * the opportunity's price, which is only the same while prices never change (docs/decisions/012).
 * Summed as unbounded numeric: any number of payments at the highest price cannot overflow.
 * With a search `q`, of the payments the list shows for it (that brand's money, held and released).
 */
export async function paymentTotals(db: Db, q?: string): Promise<PaymentTotals> {
  // two sums side by side: what was charged (a scan of the payments' amounts) and what went back
  // (a scan of the ledger's refunds, joined to their payments), so the cost is the payments' sum
  // plus the refunds', with no group or probe per payment
  let charged = db
    .select({
      held: sql<string>`coalesce(sum(${payments.amount}) FILTER (WHERE ${payments.status} = 'paid'), 0)`.as('charged_held'),
      released: sql<string>`coalesce(sum(${payments.amount}) FILTER (WHERE ${payments.status} = 'released'), 0)`.as('charged_released'),
    })
    .from(payments)
    .$dynamic();
  let back = moneyBackByStatus(db);
  if (q !== undefined) {
    const matches = brandMatches(likeLiteral(q));
    charged = charged.innerJoin(users, eq(users.id, payments.brandId)).where(matches);
    back = back.innerJoin(users, eq(users.id, payments.brandId)).where(and(inArray(moneyMovements.kind, [...MONEY_BACK_KINDS]), matches));
  }
  const c = charged.as('c');
  const b = back.as('b');
  const [row] = await db
    .select({
      held: sql<string>`round(${c.held} - ${b.held}, 2)::text`,
      released: sql<string>`round(${c.released} - ${b.released}, 2)::text`,
      // issue 47: what went back, in full or in part (the ledger's refunds)
      refunded: sql<string>`round(${b.all}, 2)::text`,
    })
    .from(c)
    .crossJoin(b);
  return { held: row.held, released: row.released, refunded: row.refunded };
}

/** Paid checkouts that were not booked because the charge did not match (newest first, the latest 100). */
export async function paymentsNeedingAttention(db: Db): Promise<PaymentAttentionItem[]> {
  const rows = await db
    .select({
      id: checkouts.id,
      reason: checkouts.attentionReason,
      providerSessionId: checkouts.providerSessionId,
      providerRef: checkouts.chargedProviderRef,
      expectedAmount: sql<string>`${checkouts.amount}::text`,
      createdAt: checkouts.createdAt,
      opportunity: { id: opportunities.id, title: opportunities.title, outletName: opportunities.outletName },
      user: { id: users.id, name: users.name, brandName: users.brandName, email: users.email },
    })
    .from(checkouts)
    .innerJoin(opportunities, eq(opportunities.id, checkouts.opportunityId))
    .innerJoin(users, eq(users.id, checkouts.brandId))
    .where(isNotNull(checkouts.attentionReason))
    .orderBy(desc(checkouts.createdAt))
    .limit(100);
  return rows.map((r) => ({ ...r, reason: r.reason!, createdAt: r.createdAt.toISOString() }));
}

export async function paymentById(db: Db, id: string) {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}
