import { and, eq, inArray, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Computed } from '../../db/item';
import { cancellations, disputes, moneyMovements, paymentRefunds, payments } from '../../db/schema';
import { fromCents, toCents } from '../../../shared/money';
import type { RefundReason } from '../../../shared/payment';
import type { Tx } from '../../mail/outbox';

/**
 * The money ledger (decision 041): every amount that moved between a brand and Byline is one row
 * of `money_movements`, appended here, in the transaction that moves it, and never changed. Every
 * amount shown is derived from the `payment_money` view over it.
 */

export type MovementRow = typeof moneyMovements.$inferSelect;
export type PartialRefundRow = typeof paymentRefunds.$inferSelect;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * A payment's charge (fulfilment of a checkout or of an order's line, a swap's top-up), in the
 * fulfilment's transaction, once (a second call appends nothing). Of the placement it pays for:
 * a top-up's is the placement it tops up.
 */
export async function appendCharge(tx: Tx, paymentId: string, now: Date, recordedBy: string | null = null): Promise<void> {
  await tx.execute(sql`
    INSERT INTO money_movements (payment_id, placement_id, kind, amount, provider_ref, recorded_by, created_at)
    SELECT p.id, pl.id, 'charge', p.amount, p.stripe_payment_id, ${recordedBy}::uuid, ${now.toISOString()}::timestamptz
    FROM payments p LEFT JOIN placements pl ON pl.payment_id = coalesce(p.topup_of, p.id)
    WHERE p.id = ${paymentId} AND p.amount > 0
    ON CONFLICT (payment_id) WHERE kind = 'charge' DO NOTHING`);
}

export interface RefundClaim {
  paymentId: string;
  /** in cents; `'rest'`: all that is left (a full refund) */
  amountCents: number | 'rest';
  reason: RefundReason;
  now: Date;
  /**
   * A part refund: its request (`payment_refunds`, to be made through the provider with its id as
   * idempotency key) is inserted by the same statement. Only of a held or released payment whose
   * full refund is not under way, and never all that is left (that is a full refund).
   */
  part?: { note?: string | null; requestedBy?: string | null };
  /** the provider's refund id, when the money has already moved (a full refund) */
  providerRef?: string | null;
  recordedBy?: string | null;
}

export interface ClaimedRefund {
  movement: MovementRow;
  /** the part refund's request, for a part */
  refund?: PartialRefundRow;
}

/**
 * THE claim path of every refund (full or part, an admin's, the guarantee's, a swap's difference,
 * a cancellation's, a dispute's, the publication watch's): appends the refund to the ledger, in the
 * caller's transaction, with one INSERT … SELECT whose WHERE never lets what went back exceed what
 * was charged. The payment's row is locked first, in a statement of its own: under READ COMMITTED
 * two claims at once queue on it, and the second's INSERT (a new snapshot) sees the first's row.
 * The database refuses an append beyond the charge as well (drizzle/0044's trigger).
 * Undefined when nothing can be claimed (see `part`; for `'rest'`: nothing is left).
 */
export async function claimRefund(tx: Tx, claim: RefundClaim): Promise<ClaimedRefund | undefined> {
  const { paymentId, reason, now } = claim;
  if (claim.amountCents !== 'rest' && (!Number.isSafeInteger(claim.amountCents) || claim.amountCents <= 0)) return undefined;
  await tx.execute(sql`SELECT id FROM payments WHERE id = ${paymentId} FOR NO KEY UPDATE`);
  const at = sql`${now.toISOString()}::timestamptz`;
  const by = sql`${claim.recordedBy ?? claim.part?.requestedBy ?? null}::uuid`;
  let movement: MovementRow | undefined;
  if (claim.amountCents === 'rest') {
    [movement] = rowsOf<MovementRow>(
      await tx.execute(sql`
        INSERT INTO money_movements (payment_id, placement_id, kind, amount, reason, provider_ref, recorded_by, created_at)
        SELECT p.id, pl.id, 'refund', pm.left_to_refund, ${reason}, ${claim.providerRef ?? null}, ${by}, ${at}
        FROM payments p
        JOIN payment_money pm ON pm.payment_id = p.id
        LEFT JOIN placements pl ON pl.payment_id = coalesce(p.topup_of, p.id)
        WHERE p.id = ${paymentId} AND pm.left_to_refund > 0
        RETURNING id`),
    );
  } else {
    const amount = fromCents(claim.amountCents);
    // a swap's difference is its own kind of money out; every other part is a refund
    const kind = reason === 'swap' ? 'swap_difference' : 'refund';
    [movement] = rowsOf<MovementRow>(
      await tx.execute(sql`
        WITH m AS (
          SELECT p.id AS payment_id, pl.id AS placement_id
          FROM payments p
          JOIN payment_money pm ON pm.payment_id = p.id
          LEFT JOIN placements pl ON pl.payment_id = coalesce(p.topup_of, p.id)
          WHERE p.id = ${paymentId} AND p.status IN ('paid', 'released') AND p.refund_requested_at IS NULL
            AND pm.left_to_refund > ${amount}::numeric
        ), r AS (
          INSERT INTO payment_refunds (payment_id, amount, reason, note, requested_by, created_at)
          SELECT payment_id, ${amount}::numeric, ${reason}, ${claim.part?.note ?? null}, ${claim.part?.requestedBy ?? null}::uuid, ${at} FROM m
          RETURNING id
        )
        INSERT INTO money_movements (payment_id, placement_id, kind, amount, refund_id, reason, recorded_by, created_at)
        SELECT m.payment_id, m.placement_id, ${kind}, ${amount}::numeric, r.id, ${reason}, ${by}, ${at} FROM m CROSS JOIN r
        RETURNING id`),
    );
  }
  if (!movement) return undefined;
  const [row] = await tx.select().from(moneyMovements).where(eq(moneyMovements.id, movement.id));
  if (!row.refundId) return { movement: row };
  const [refund] = await tx.select().from(paymentRefunds).where(eq(paymentRefunds.id, row.refundId));
  return { movement: row, refund };
}

/** The kinds that are money back to the brand: what `payment_money.refunded` sums (drizzle/0044). */
export const MONEY_BACK_KINDS = ['refund', 'swap_difference'] as const;
const MONEY_BACK = MONEY_BACK_KINDS;
const REFUND_KINDS = sql.raw(`(${MONEY_BACK.map((k) => `'${k}'`).join(', ')})`);

/**
 * What went back of a payment (`payment_money.refunded`), as a numeric expression of a query that
 * reads a payment per row, for sums over many payments (the wallet, the admin totals, an order's
 * lines, the budget): a correlated sum read from money_movements_refunds_idx alone.
 */
export const refundedOf = (paymentId: AnyColumn | SQL) =>
  sql<string>`coalesce((SELECT sum(m.amount) FROM money_movements m WHERE m.payment_id = ${paymentId} AND m.kind IN ${REFUND_KINDS}), 0)`;

/**
 * The same, once per payment row of a query that reads it several times (an order's money by
 * status): `LEFT JOIN LATERAL` the answer, then read its `amount`.
 */
export const moneyBackLateral = (db: Db, paymentId: AnyColumn) =>
  db
    .select({ amount: sql<string>`coalesce(sum(${moneyMovements.amount}), 0)`.as('back_amount') })
    .from(moneyMovements)
    .where(and(eq(moneyMovements.paymentId, paymentId), inArray(moneyMovements.kind, [...MONEY_BACK])))
    .as('back');

/**
 * What went back of the payments a query reads (`payments` in its FROM), by the payment's status:
 * a scan of the refunds only (a few of every payment), each joined to its payment, never a probe
 * or a group per payment (the admin's totals at 1,000,000 payments).
 */
export const moneyBackByStatus = (db: Db) =>
  db
    .select({
      held: sql<string>`coalesce(sum(${moneyMovements.amount}) FILTER (WHERE ${payments.status} = 'paid'), 0)`.as('back_held'),
      released: sql<string>`coalesce(sum(${moneyMovements.amount}) FILTER (WHERE ${payments.status} = 'released'), 0)`.as('back_released'),
      all: sql<string>`coalesce(sum(${moneyMovements.amount}), 0)`.as('back_all'),
    })
    .from(moneyMovements)
    .innerJoin(payments, eq(payments.id, moneyMovements.paymentId))
    .where(inArray(moneyMovements.kind, [...MONEY_BACK]))
    .$dynamic();


/** What went back of a payment, as the API's decimal text ('12.50', '0.00'). */
export const refundedSql = (paymentId: AnyColumn | SQL) => sql<string>`${refundedOf(paymentId)}::numeric(12, 2)::text`;

/**
 * What a dispute's resolution or a cancellation's grant gave back, from the ledger (decision 050):
 * its movement's amount (`movement_id`); while its full refund is claimed (the payment's
 * `refund_reason` one of `reasons`) and not yet made by the provider, what is left of the payment,
 * which that movement will be; nothing otherwise. Decimal text ("600.00").
 */
function givenBackSql(movementId: AnyColumn, paymentId: AnyColumn, full: SQL, reasons: RefundReason[]) {
  return sql<string>`coalesce(
    (SELECT mv.amount FROM money_movements mv WHERE mv.id = ${movementId}),
    CASE WHEN ${full} THEN (SELECT pm.left_to_refund FROM payments p JOIN payment_money pm ON pm.payment_id = p.id
      WHERE p.id = ${paymentId} AND p.status <> 'refunded' AND p.refund_requested_at IS NOT NULL
        AND p.refund_reason IN (${sql.join(reasons.map((r) => sql`${r}`), sql`, `)})) END,
    0)::numeric(12, 2)::text`;
}

/**
 * A dispute's `refundedUsd`: its refund's movement (a full refund's, a link dispute's too: the
 * publication watch's refund that settled it), or the full refund it claimed while the provider makes it.
 */
export const disputeRefundedSql = givenBackSql(
  disputes.movementId,
  disputes.placementId,
  sql`${disputes.resolution} = 'refunded_full'`,
  ['dispute', 'not_restored'],
);

/** A cancellation's `amountUsd`: what its grant gave back (null until granted). */
export const cancellationAmountSql = sql<string | null>`CASE WHEN ${cancellations.status} = 'granted' THEN ${givenBackSql(
  cancellations.movementId,
  cancellations.placementId,
  sql`${cancellations.outcome} = 'refund_full'`,
  ['cancelled'],
)} END`;

/** A payment's money as columns of a query that reads its row: charged, given back, left to refund (decimal text). */
export const paymentMoneyColumns = (paymentId: AnyColumn | SQL) => ({
  charged: sql<string>`coalesce((SELECT pm.charged FROM payment_money pm WHERE pm.payment_id = ${paymentId}), 0)::numeric(12, 2)::text`,
  refunded: refundedSql(paymentId),
  leftToRefund: sql<string>`coalesce((SELECT pm.left_to_refund FROM payment_money pm WHERE pm.payment_id = ${paymentId}), 0)::numeric(12, 2)::text`,
});

/** A payment's money from the ledger, in decimal text: all '0.00' for a payment with no movement. */
export interface PaymentMoney {
  charged: string;
  refunded: string;
  leftToRefund: string;
}

/** One payment's money (`payment_money`), in the caller's transaction or outside one. */
export async function paymentMoney(db: Db | Tx, paymentId: string): Promise<PaymentMoney> {
  const [row] = rowsOf<PaymentMoney>(
    await db.execute(sql`
      SELECT pm.charged::numeric(12, 2)::text AS "charged", pm.refunded::numeric(12, 2)::text AS "refunded",
        pm.left_to_refund::numeric(12, 2)::text AS "leftToRefund"
      FROM payment_money pm WHERE pm.payment_id = ${paymentId}`),
  );
  return row ?? { charged: '0.00', refunded: '0.00', leftToRefund: '0.00' };
}

/**
 * One payment and its money for a decision that moves it: the payment's row locked first (FOR NO
 * KEY UPDATE, the lock every claim takes), in a statement of its own, then the amounts in a new
 * statement (a new snapshot under READ COMMITTED: a claim that held the lock before is counted),
 * which cannot change until the transaction ends. Undefined when there is no such payment.
 */
export async function lockPaymentMoney(tx: Tx, paymentId: string): Promise<{ payment: typeof payments.$inferSelect; money: PaymentMoney } | undefined> {
  const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('no key update');
  if (!payment) return undefined;
  return { payment, money: await paymentMoney(tx, paymentId) };
}

/**
 * `refundedAmount` of an API item (db/item.ts): the ledger's, in the JSON the database builds for
 * a list; from rows Node holds (the row an UPDATE returned), the `payment_money` row the caller
 * read beside it (`paymentMoney`).
 */
export const refundedAmountField: Computed<string> = {
  kind: 'computed',
  sql: refundedSql(payments.id),
  of: (rows) => String(rows.payment_money?.refunded ?? '0.00'),
};

/**
 * What a full refund gives back: the charge less the parts claimed before it. Unlike what is left
 * now, it does not change once the full refund is recorded (no part can be claimed after
 * `refund_requested_at`), so every retry of the provider call, and a completion racing another,
 * asks for the same amount under the same idempotency key.
 */
export async function fullRefundCents(db: Db | Tx, paymentId: string): Promise<number> {
  const [row] = rowsOf<{ cents: string }>(
    await db.execute(sql`
      SELECT (pm.charged - coalesce((SELECT sum(m.amount) FROM money_movements m WHERE m.payment_id = ${paymentId} AND m.refund_id IS NOT NULL), 0))::text AS cents
      FROM payment_money pm WHERE pm.payment_id = ${paymentId}`),
  );
  return row ? toCents(row.cents) : 0;
}

/** The movement of a part refund's request (what a dispute or a cancellation refers to). */
export async function movementOfRefund(tx: Tx, refundId: string): Promise<string | null> {
  const [m] = await tx.select({ id: moneyMovements.id }).from(moneyMovements).where(eq(moneyMovements.refundId, refundId));
  return m?.id ?? null;
}

/** The payment's full refund's movement (its `refund` without a part request), if recorded. */
export async function fullRefundMovement(tx: Tx, paymentId: string): Promise<string | null> {
  const [m] = await tx
    .select({ id: moneyMovements.id })
    .from(moneyMovements)
    .where(and(eq(moneyMovements.paymentId, paymentId), eq(moneyMovements.kind, 'refund'), isNull(moneyMovements.refundId)))
    .limit(1);
  return m?.id ?? null;
}

/**
 * A full refund recorded (in its transaction): the granted cancellation or the dispute resolved
 * as refunded in full that claimed it refers to its movement from now on.
 */
export async function linkFullRefund(tx: Tx, movement: MovementRow): Promise<void> {
  if (!movement.placementId) return;
  if (movement.reason === 'cancelled') {
    await tx
      .update(cancellations)
      .set({ movementId: movement.id })
      .where(and(eq(cancellations.placementId, movement.placementId), eq(cancellations.outcome, 'refund_full'), isNull(cancellations.movementId)));
  } else if (movement.reason === 'dispute') {
    await tx
      .update(disputes)
      .set({ movementId: movement.id })
      .where(and(eq(disputes.placementId, movement.placementId), eq(disputes.resolution, 'refunded_full'), isNull(disputes.movementId)));
  } else if (movement.reason === 'not_restored') {
    // a link dispute the publication case settled: the watch's refund is its money
    await tx
      .update(disputes)
      .set({ movementId: movement.id })
      .where(
        and(
          eq(disputes.placementId, movement.placementId),
          eq(disputes.kind, 'link'),
          eq(disputes.resolution, 'refunded_full'),
          isNull(disputes.movementId),
        ),
      );
  }
}
