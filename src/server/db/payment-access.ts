import { sql, type AnyColumn } from 'drizzle-orm';
import type { Db } from './client';
import { disputes, placements } from './schema';
import { preparedStatement, preparedVariants } from './statement';

/**
 * The answer for a payment (a placement) the caller may not see, or that does not exist: the two are
 * not told apart, so an id proves nothing about another brand.
 */
export const PAYMENT_NOT_FOUND = 'Payment not found';

/** The same for a dispute. */
export const DISPUTE_NOT_FOUND = 'Dispute not found';

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

const placementClient = preparedStatement<{ clientId: string | null }, { paymentId: string; organisationId: string }>(
  'placement_client',
  sql`SELECT ${placements.clientId} AS "clientId" FROM ${placements}
    WHERE ${placements.id} = ${sql.placeholder('paymentId')}::uuid AND ${placements.organisationId} = ${sql.placeholder('organisationId')}::uuid`,
);

/**
 * Whether a member limited to some clients (decision 035) may reach a placement: one of the
 * organisation's, bought for one of those clients. Every `brand` route about one placement asks it
 * first (app.ts), so each such route answers 404, as for another organisation's.
 */
export async function placementInClients(db: Db, paymentId: string, organisationId: string, clientIds: readonly string[]): Promise<boolean> {
  const [row] = await placementClient(db, { paymentId, organisationId });
  return row?.clientId != null && clientIds.includes(row.clientId);
}

const disputeClient = preparedStatement<{ clientId: string | null }, { disputeId: string; organisationId: string }>(
  'dispute_client',
  sql`SELECT ${placements.clientId} AS "clientId" FROM ${disputes} JOIN ${placements} ON ${placements.id} = ${disputes.placementId}
    WHERE ${disputes.id} = ${sql.placeholder('disputeId')}::uuid AND ${placements.organisationId} = ${sql.placeholder('organisationId')}::uuid`,
);

/** Whether a member limited to some clients may reach a dispute: its placement's, as placementInClients. */
export async function disputeInClients(db: Db, disputeId: string, organisationId: string, clientIds: readonly string[]): Promise<boolean> {
  const [row] = await disputeClient(db, { disputeId, organisationId });
  return row?.clientId != null && clientIds.includes(row.clientId);
}

/**
 * The client a placement was bought for (null: none), when the member may reach the placement
 * (`paymentId` a uuid: the caller checks it); undefined when it may not (another organisation's, a
 * client the member is not limited to, or no such id): the caller answers 404, as for a missing one.
 */
export async function reachableClientOf(
  db: Db,
  paymentId: string,
  member: { organisationId: string; clientIds: readonly string[] | null },
): Promise<{ clientId: string | null } | undefined> {
  const [row] = await placementClient(db, { paymentId, organisationId: member.organisationId });
  if (!row) return undefined;
  if (member.clientIds !== null && (row.clientId === null || !member.clientIds.includes(row.clientId))) return undefined;
  return { clientId: row.clientId };
}

/** A list's rows of the clients a scope names (placeholder `clientIds`, a uuid array; decision 035). */
export const inClients = (column: AnyColumn) => sql`${column} = ANY(${sql.placeholder('clientIds')}::uuid[])`;

