import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import { payments, placements } from '../../src/server/db/schema';
import { refundedSql } from '../../src/server/modules/ledger/ledger';
import type { PaymentStatus, PlacementState } from '../../src/shared/payment';
import { orgIdOf } from './factories';

type PaymentValues = typeof payments.$inferInsert;
type PlacementRow = typeof placements.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;

/** The placement's work a test may set up beside its payment. */
type PlacementWork = Partial<
  Pick<PlacementRow, 'draftReviewStatus' | 'draftDocumentUrl' | 'draftDocumentFile' | 'brandFeedback'>
>;
/** A payment's values; its organisation, when not given, is its brand's (as fulfilment sets it). */
export type PlacedPaymentValues = Omit<PaymentValues, 'organisationId'> & { organisationId?: string } & PlacementWork;

/** A payment and the work of the placement it paid for, as one object (what most tests look at). */
export type PlacedPayment = PaymentRow & Required<PlacementWork> & { state: PlacementState };

/** The placement's state that goes with a payment status (fulfilment, release and refund move both). */
const stateOf = (status: PaymentStatus | undefined): PlacementState =>
  status === 'released' ? 'published' : status === 'refunded' ? 'refunded' : 'in_progress';

/** The same rule in SQL, for rows inserted in bulk. */
const STATE_OF_STATUS_SQL = `CASE status WHEN 'released' THEN 'published' WHEN 'refunded' THEN 'refunded' ELSE 'in_progress' END`;

const WORK_KEYS = ['draftReviewStatus', 'draftDocumentUrl', 'draftDocumentFile', 'brandFeedback'] as const;

/**
 * Inserts a payment and its placement (the placement with the payment's id, as fulfilment makes
 * them), the work fields on the placement and its state from the payment's status.
 */
export async function insertPlacedPayment(
  db: Db,
  values: PlacedPaymentValues,
  /** ledger false: no money movements (a payment plain SQL may delete; the ledger keeps any other) */
  { ledger = true } = {},
): Promise<PlacedPayment> {
  const work: PlacementWork = {};
  const money: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if ((WORK_KEYS as readonly string[]).includes(key)) (work as Record<string, unknown>)[key] = value;
    else money[key] = value;
  }
  money.organisationId ??= await orgIdOf(db, values.brandId as string);
  const [payment] = await db
    .insert(payments)
    .values(money as PaymentValues)
    .returning();
  const [placement] = await db
    .insert(placements)
    .values({
      id: payment.id,
      paymentId: payment.id,
      brandId: payment.brandId,
      organisationId: payment.organisationId,
      opportunityId: payment.opportunityId,
      state: stateOf(payment.status),
      createdAt: payment.createdAt,
      ...work,
    })
    .returning();
  if (ledger) await ledgerAsColumns(db, sql`p.id = ${payment.id}`);
  return merge(payment, placement);
}

/**
 * The money ledger as a payment set up by a test says (what fulfilment and the refunds append):
 * its charge, and, for each payment of `refunded` (id → dollars), a refund of what that says beyond
 * the ledger's refunds (what `payments.refunded_amount` held before it was dropped, drizzle/0046).
 */
export async function ledgerAsColumns(db: Db, which: SQL = sql`true`, refunded: Record<string, string> = {}) {
  await db.execute(sql`
    INSERT INTO money_movements (payment_id, placement_id, kind, amount, provider_ref, created_at)
    SELECT p.id, pl.id, 'charge', p.amount, p.stripe_payment_id, p.paid_at
    FROM payments p LEFT JOIN placements pl ON pl.payment_id = coalesce(p.topup_of, p.id)
    WHERE ${which} AND p.amount > 0
    ON CONFLICT (payment_id) WHERE kind = 'charge' DO NOTHING`);
  for (const [id, amount] of Object.entries(refunded)) {
    await db.execute(sql`
      INSERT INTO money_movements (payment_id, placement_id, kind, amount, reason, provider_ref, created_at)
      SELECT p.id, pl.id, 'refund', ${amount}::numeric - coalesce(pm.refunded, 0), p.refund_reason, p.provider_refund_id, coalesce(p.refunded_at, p.paid_at)
      FROM payments p LEFT JOIN placements pl ON pl.payment_id = coalesce(p.topup_of, p.id)
      LEFT JOIN payment_money pm ON pm.payment_id = p.id
      WHERE p.id = ${id} AND ${amount}::numeric - coalesce(pm.refunded, 0) > 0`);
  }
}

/** A payment's row with what went back of it on the ledger (`refundedAmount`, decimal text), as the API reads it. */
export async function paymentWithRefunded(db: Db, id: string) {
  const [row] = await db
    .select({ ...getTableColumns(payments), refundedAmount: refundedSql(payments.id) })
    .from(payments)
    .where(eq(payments.id, id));
  return row;
}

function merge(payment: PaymentRow, placement: PlacementRow): PlacedPayment {
  return {
    ...payment,
    state: placement.state,
    draftReviewStatus: placement.draftReviewStatus,
    draftDocumentUrl: placement.draftDocumentUrl,
    draftDocumentFile: placement.draftDocumentFile,
    brandFeedback: placement.brandFeedback,
  };
}

/** A payment with its placement's work, read back from the database. */
export async function placedPaymentRow(db: Db, id: string): Promise<PlacedPayment> {
  const [row] = await db
    .select({ payment: getTableColumns(payments), placement: getTableColumns(placements) })
    .from(payments)
    .innerJoin(placements, eq(placements.paymentId, payments.id))
    .where(eq(payments.id, id));
  return row && merge(row.payment, row.placement);
}

/**
 * Sets a payment's status and its placement's state together (what release and refund do), as a
 * test's starting point; `also` sets other payment columns in the same update.
 */
export async function setPaymentStatus(db: Db, id: string, status: PaymentStatus, also: Partial<PaymentValues> = {}) {
  await db
    .update(payments)
    .set({ status, ...also })
    .where(eq(payments.id, id));
  await db
    .update(placements)
    .set({ state: stateOf(status) })
    .where(eq(placements.paymentId, id));
  await ledgerAsColumns(db, sql`p.id = ${id}`);
}

/** The placements of payments inserted in bulk by SQL (one each, with the payment's id). */
export async function addMissingPlacements(db: Db) {
  await db.execute(
    sql.raw(`INSERT INTO placements (id, payment_id, brand_id, organisation_id, opportunity_id, state, created_at)
      SELECT id, id, brand_id, organisation_id, opportunity_id, ${STATE_OF_STATUS_SQL}, created_at FROM payments p
      WHERE NOT EXISTS (SELECT 1 FROM placements x WHERE x.payment_id = p.id)`),
  );
  await ledgerAsColumns(db);
}
