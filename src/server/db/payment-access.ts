import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { placements } from './schema';
import { preparedVariants } from './statement';

/**
 * The answer for a payment (a placement) the caller may not see, or that does not exist: the two are
 * not told apart, so an id proves nothing about another brand.
 */
export const PAYMENT_NOT_FOUND = 'Payment not found';

/**
 * Whether the caller may see a placement (placeholders `paymentId`, the spec's name of its id, and,
 * for a member, `organisationId`), as one SQL value: the placement found by its primary key, then its organisation compared (a
 * condition on both columns lets the planner walk the brand's whole index instead). Here, below the
 * modules, because the payments, the timeline and the conversation all ask it.
 */
export const paymentVisibleSql = (brand: boolean) =>
  brand
    ? sql`COALESCE((SELECT ${placements.organisationId} = ${sql.placeholder('organisationId')}::uuid FROM ${placements} WHERE ${placements.id} = ${sql.placeholder('paymentId')}::uuid), false)`
    : sql`EXISTS (SELECT 1 FROM ${placements} WHERE ${placements.id} = ${sql.placeholder('paymentId')}::uuid)`;

const visible = preparedVariants<boolean, { ok: boolean }, { paymentId: string; organisationId?: string }>(
  'payment_visible',
  (brand) => (brand ? 'brand' : 'admin'),
  (brand) => sql`SELECT ${paymentVisibleSql(brand)} AS "ok"`,
);

/** Whether the caller (a member, by its organisation's id, or the team: none) may see the payment. */
export async function paymentVisible(db: Db, paymentId: string, organisationId: string | undefined): Promise<boolean> {
  const [row] = await visible(db, organisationId !== undefined, {
    paymentId,
    ...(organisationId !== undefined ? { organisationId } : {}),
  });
  return row.ok;
}
