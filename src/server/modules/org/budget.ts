import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { clockNowSql } from '../../db/statement';
import { formatUsd } from '../../../shared/money';
import { limitsRefusal, PURCHASE_REQUEST_DAYS, roleCan, type PurchaseRequestLine, type PurchaseRequestStatus } from '../../../shared/org';
import type { PurchaseRequest, Spend } from '../../../shared/schemas/org';
import type { Db } from '../../db/client';
import { checkouts, opportunities, orders, organisations, orgClients, purchaseRequests, users } from '../../db/schema';
import type { Member } from '../../lib/contract';
import { forbidden, notFound, conflict, unprocessable } from '../../lib/errors';
import { enqueueMail, type Tx } from '../../mail/outbox';
import { recordAudit } from './audit';
import { refundedOf } from '../ledger/ledger';
import { now as clockNow } from '../../lib/clock';

/**
 * Budgets and purchase approval (decision 034). A cap is per calendar month in UTC, for the
 * organisation and optionally per member: spent = what its payments of the month charged, less
 * what was refunded; its open checkouts count too while they hold their slots, so
 * left = cap − spent − open. A checkout over a cap is refused (422) under a lock on the
 * organisation's row, so that two members at the edge of the cap cannot both pass. A purchase above
 * the buyer's approval threshold becomes a purchase request an owner or admin (not the requester)
 * approves or declines; the requester then pays it once.
 */

export const PURCHASE_REQUEST_NOT_FOUND = 'Purchase request not found';

/** The month of `now` in UTC: its first instant, the next month's, and its name (YYYY-MM). */
function monthOf(now: Date) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end, name: start.toISOString().slice(0, 7) };
}

type Totals = { spent: string; open: string };

/**
 * What the organisation (or one member, `buyer`) spent this month and holds in open checkouts, as
 * decimal text added up by the database: payments paid this month that were not refunded (a refund
 * gives the whole amount back), and open checkouts whose hold has not run out.
 */
/**
 * The payments a month's spend counts (less what each gave back): every one not refunded, and a
 * refunded one that kept a part (issue 47: a cancellation granted with a part refund; a refund in
 * full gives back all of it).
 */
/** What went back of the payment of the row (`payments`, unaliased), from the money ledger (decision 041). */
const refunded = refundedOf(sql.raw('payments.id'));
const spent = sql`(status <> 'refunded' OR ${refunded} > 0)`;

async function totals(db: Db | Tx, organisationId: string, of: { buyer?: string; client?: string } | null, now: Date): Promise<Totals> {
  const { start, end } = monthOf(now);
  const byBuyer = of?.buyer ? sql`AND brand_id = ${of.buyer}` : of?.client ? sql`AND client_id = ${of.client}` : sql``;
  const result = await db.execute(sql`
    SELECT
      (SELECT coalesce(sum(amount - ${refunded}), 0)::numeric(14, 2)::text FROM payments
        WHERE organisation_id = ${organisationId} ${byBuyer} AND ${spent}
          AND paid_at >= ${start.toISOString()}::timestamptz AND paid_at < ${end.toISOString()}::timestamptz) AS "spent",
      (SELECT coalesce(sum(amount), 0)::numeric(14, 2)::text FROM checkouts
        WHERE organisation_id = ${organisationId} ${byBuyer} AND status = 'open'
          AND expires_at > ${now.toISOString()}::timestamptz) AS "open"`);
  return (result as unknown as { rows: Totals[] }).rows[0];
}

const cents = (v: string) => Math.round(Number(v) * 100);
const left = (cap: string | null, t: Totals) =>
  cap === null ? null : ((cents(cap) - cents(t.spent) - cents(t.open)) / 100).toFixed(2);

type Caps = { orgCap: string | null; memberCap: string | null; clientCap: string | null; threshold: string | null };

async function capsOf(db: Db | Tx, organisationId: string, userId: string, clientId: string | null = null): Promise<Caps> {
  const [row] = await db
    .select({
      orgCap: organisations.monthlyCapUsd,
      memberCap: users.monthlyCapUsd,
      threshold: users.approvalThresholdUsd,
      clientCap: clientId
        ? sql<string | null>`(SELECT ${orgClients.monthlyCapUsd}::text FROM ${orgClients} WHERE ${orgClients.id} = ${clientId} AND ${orgClients.organisationId} = ${organisationId})`
        : sql<null>`NULL::text`,
    })
    .from(users)
    .innerJoin(organisations, eq(organisations.id, users.organisationId))
    .where(and(eq(users.id, userId), eq(organisations.id, organisationId)));
  return row ?? { orgCap: null, memberCap: null, clientCap: null, threshold: null };
}

/** Whether any monthly cap applies to a purchase. */
export const hasCap = (caps: Caps) => caps.orgCap !== null || caps.memberCap !== null || caps.clientCap !== null;

/** GET /api/org/spend: the organisation's month and the member's own. */
export async function spendOf(db: Db, member: Pick<Member, 'organisationId' | 'userId'>, now = clockNow()): Promise<Spend> {
  const caps = await capsOf(db, member.organisationId, member.userId);
  const [org, own] = await Promise.all([totals(db, member.organisationId, null, now), totals(db, member.organisationId, { buyer: member.userId }, now)]);
  return {
    month: monthOf(now).name,
    spentUsd: org.spent,
    openUsd: org.open,
    capUsd: caps.orgCap,
    leftUsd: left(caps.orgCap, org),
    member: {
      spentUsd: own.spent,
      openUsd: own.open,
      capUsd: caps.memberCap,
      leftUsd: left(caps.memberCap, own),
      approvalThresholdUsd: caps.threshold,
    },
  };
}

/** The caps that apply to a member's purchase (for a client, or none), and its approval threshold. */
export const purchaseLimitsOf = (db: Db, organisationId: string, userId: string, clientId: string | null) =>
  capsOf(db, organisationId, userId, clientId);

/** What an organisation spent this month (UTC), and the month's name. */
export async function organisationSpent(db: Db, organisationId: string, now = clockNow()): Promise<{ name: string; spent: string }> {
  return { name: monthOf(now).name, spent: (await totals(db, organisationId, null, now)).spent };
}

/**
 * What each client of the organisation spent this month (UTC): charged for it, minus refunds, the
 * same rule as `totals`, added up by the database in one statement (clients with none are absent).
 */
export async function clientsSpent(db: Db, organisationId: string, now = clockNow()): Promise<Map<string, string>> {
  const { start, end } = monthOf(now);
  const result = await db.execute(sql`
    SELECT client_id AS "clientId", sum(amount - ${refunded})::numeric(14, 2)::text AS "spent" FROM payments
    WHERE organisation_id = ${organisationId} AND client_id IS NOT NULL AND ${spent}
      AND paid_at >= ${start.toISOString()}::timestamptz AND paid_at < ${end.toISOString()}::timestamptz
    GROUP BY client_id`);
  return new Map((result as unknown as { rows: { clientId: string; spent: string }[] }).rows.map((r) => [r.clientId, r.spent]));
}

/**
 * What is left this month of each capped client a member may buy for (`clientIds` null: every
 * client of the organisation), by the same rule as `totals`: its cap less what its payments of the
 * month kept and what its open checkouts hold. Clients without a cap are absent.
 */
export async function clientsLeft(db: Db | Tx, organisationId: string, clientIds: readonly string[] | null, now = clockNow()): Promise<Map<string, string>> {
  if (clientIds && clientIds.length === 0) return new Map();
  const { start, end } = monthOf(now);
  const only = clientIds ? sql`AND c.id IN ${clientIds}` : sql``;
  const result = await db.execute(sql`
    SELECT c.id AS "clientId",
      (c.monthly_cap_usd
        - (SELECT coalesce(sum(amount - ${refunded}), 0) FROM payments
            WHERE organisation_id = ${organisationId} AND client_id = c.id AND ${spent}
              AND paid_at >= ${start.toISOString()}::timestamptz AND paid_at < ${end.toISOString()}::timestamptz)
        - (SELECT coalesce(sum(amount), 0) FROM checkouts
            WHERE organisation_id = ${organisationId} AND client_id = c.id AND status = 'open'
              AND expires_at > ${now.toISOString()}::timestamptz))::numeric(14, 2)::text AS "left"
    FROM ${orgClients} c
    WHERE c.organisation_id = ${organisationId} AND c.monthly_cap_usd IS NOT NULL ${only}`);
  return new Map((result as unknown as { rows: { clientId: string; left: string }[] }).rows.map((r) => [r.clientId, r.left]));
}

/**
 * In the checkout's transaction, before its slot is taken: locks the organisation's row (so that
 * concurrent checkouts of its members are counted one after the other) and refuses with 422 a
 * purchase of `amount` over the organisation's cap or the member's own.
 */
export async function claimBudget(
  tx: Db | Tx,
  buyer: { organisationId: string; userId: string; clientId: string | null },
  amount: string,
  now: Date,
): Promise<void> {
  await tx.execute(sql`SELECT 1 FROM ${organisations} WHERE ${organisations.id} = ${buyer.organisationId} FOR UPDATE`);
  const caps = await capsOf(tx, buyer.organisationId, buyer.userId, buyer.clientId);
  for (const [cap, who, whose] of [
    [caps.orgCap, null, 'your organisation’s'],
    [caps.memberCap, { buyer: buyer.userId }, 'your own'],
    [caps.clientCap, buyer.clientId ? { client: buyer.clientId } : null, 'this client’s'],
  ] as const) {
    if (cap === null) continue;
    const remaining = left(cap, await totals(tx, buyer.organisationId, who, now))!;
    if (cents(amount) > cents(remaining)) {
      throw unprocessable('over_budget', `This purchase of ${formatUsd(amount)} is over ${whose} monthly budget of ${formatUsd(cap)}: ${formatUsd(cents(remaining) < 0 ? '0.00' : remaining)} is left this month.`,
      );
    }
  }
}

/** PUT /api/org/budget */
export async function setBudget(db: Db, by: Member, monthlyCapUsd: string | null): Promise<Spend> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select({ cap: organisations.monthlyCapUsd }).from(organisations).where(eq(organisations.id, by.organisationId));
    await tx.update(organisations).set({ monthlyCapUsd }).where(eq(organisations.id, by.organisationId));
    await recordAudit(tx, { organisationId: by.organisationId, actor: by, action: 'budget_changed', subject: 'monthly budget', details: { from: before.cap, to: monthlyCapUsd } });
  });
  return spendOf(db, by);
}

/** PUT /api/org/members/{userId}/limits */
export async function setMemberLimits(
  db: Db,
  by: Member,
  userId: string,
  limits: { monthlyCapUsd: string | null; approvalThresholdUsd: string | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [target] = await tx
      .select({ email: users.email, role: users.orgRole, cap: users.monthlyCapUsd, threshold: users.approvalThresholdUsd })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.organisationId, by.organisationId)))
      .for('no key update');
    if (!target) throw notFound('member_not_found', 'Member not found');
    // set by someone above the member: never one's own or the owner's; an admin's by the owner (issue 57)
    const refused = limitsRefusal({ role: by.role, self: userId === by.userId }, target.role!);
    if (refused) throw forbidden('limits_not_yours_to_set', refused);
    await tx.update(users).set(limits).where(eq(users.id, userId));
    await recordAudit(tx, {
      organisationId: by.organisationId,
      actor: by,
      action: 'limits_changed',
      subject: target.email,
      details: { from: { monthlyCapUsd: target.cap, approvalThresholdUsd: target.threshold }, to: limits },
    });
  });
}

// ---- purchase requests ----

const requester = sql`json_build_object('id', r.id, 'name', r.name, 'email', r.email)`;

/** A request's status as people read it: pending past its expiry is expired; approved and paid is paid. */
const viewStatus = sql<PurchaseRequestStatus>`CASE
  WHEN pr.status = 'pending' AND pr.expires_at <= ${clockNowSql} THEN 'expired'
  WHEN pr.status = 'approved' AND EXISTS (SELECT 1 FROM checkouts c WHERE c.purchase_request_id = pr.id AND c.status = 'completed') THEN 'paid'
  WHEN pr.status = 'approved' AND EXISTS (SELECT 1 FROM orders c WHERE c.purchase_request_id = pr.id AND c.status = 'completed') THEN 'paid'
  WHEN pr.status = 'approved' AND pr.expires_at <= ${clockNowSql} THEN 'expired'
  ELSE pr.status END`;

type RequestRow = {
  id: string;
  status: PurchaseRequestStatus;
  opportunityId: string;
  title: string;
  outletName: string;
  lines: PurchaseRequestLine[] | null;
  amountUsd: string;
  client: PurchaseRequest['client'];
  requestedBy: PurchaseRequest['requestedBy'];
  reason: string | null;
  decidedBy: PurchaseRequest['decidedBy'];
  decidedAt: string | null;
  expiresAt: string;
  createdAt: string;
};

const iso = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

async function requestRows(db: Db | Tx, where: ReturnType<typeof sql>): Promise<PurchaseRequest[]> {
  const result = await db.execute(sql`
    SELECT * FROM (
      SELECT pr.id, ${viewStatus} AS "status", pr.opportunity_id AS "opportunityId",
        CASE WHEN pr.lines IS NULL THEN o.title ELSE jsonb_array_length(pr.lines)::text || ' placements' END AS "title",
        CASE WHEN pr.lines IS NULL THEN o.outlet_name
          ELSE (SELECT string_agg(l->>'outletName', ', ') FROM jsonb_array_elements(pr.lines) l) END AS "outletName",
        pr.lines AS "lines",
        pr.amount::text AS "amountUsd", ${requester} AS "requestedBy", pr.reason,
        CASE WHEN c.id IS NULL THEN NULL ELSE json_build_object('id', c.id, 'name', c.name) END AS "client",
        CASE WHEN d.id IS NULL THEN NULL ELSE json_build_object('id', d.id, 'name', d.name, 'email', d.email) END AS "decidedBy",
        ${iso('pr.decided_at')} AS "decidedAt", ${iso('pr.expires_at')} AS "expiresAt", ${iso('pr.created_at')} AS "createdAt",
        pr.organisation_id, pr.requested_by, pr.created_at
      FROM purchase_requests pr
      JOIN opportunities o ON o.id = pr.opportunity_id
      JOIN users r ON r.id = pr.requested_by
      LEFT JOIN users d ON d.id = pr.decided_by
      LEFT JOIN org_clients c ON c.id = pr.client_id
    ) pr WHERE ${where}
    ORDER BY pr.created_at DESC, pr.id DESC
    LIMIT 200`);
  return (result as unknown as { rows: (RequestRow & Record<string, unknown>)[] }).rows.map((r) => ({
    id: r.id,
    status: r.status,
    opportunityId: r.opportunityId,
    title: r.title,
    outletName: r.outletName,
    lines: r.lines ?? null,
    amountUsd: r.amountUsd,
    client: r.client,
    requestedBy: r.requestedBy,
    reason: r.reason,
    decidedBy: r.decidedBy,
    decidedAt: r.decidedAt,
    expiresAt: r.expiresAt,
    createdAt: r.createdAt,
  }));
}

/**
 * GET /api/org/purchase-requests: approvers (owner, admin) see every request of the organisation,
 * anyone else their own; newest first, at most 200.
 */
export function listPurchaseRequests(db: Db, member: Member, status?: PurchaseRequestStatus) {
  const mine = roleCan(member.role, 'manage') ? sql`true` : sql`pr.requested_by = ${member.userId}`;
  return requestRows(
    db,
    sql`pr.organisation_id = ${member.organisationId} AND ${mine} ${status ? sql`AND pr.status = ${status}` : sql``}`,
  );
}

/** A purchase over the buyer's threshold: the request, the approvers told, the audit entry. */
export async function requestPurchase(
  db: Db,
  member: Member,
  opportunity: { id: string; title: string; outletName: string; priceUsd: string },
  clientId: string | null,
  now = clockNow(),
  /** a cart's lines (issue 46): `opportunity` then sums them up (the first's id, "n placements", the total) */
  lines: PurchaseRequestLine[] | null = null,
) {
  return db.transaction(async (tx) => {
    // one request per purchase (issue 57): a second click or tab is refused while the first waits;
    // the requester's row is locked so that two at once are counted one after the other
    await tx.execute(sql`SELECT 1 FROM ${users} WHERE ${users.id} = ${member.userId} FOR UPDATE`);
    const waiting = await pendingRequestFor(tx, member, lines ? lines.map((l) => l.opportunityId) : [opportunity.id], lines !== null, now);
    if (waiting) {
      throw conflict(
        'purchase_request_pending', `You already asked for approval of ${lines ? 'this cart' : 'this purchase'}: an owner or admin answers it in Purchase requests.`,
      );
    }
    const [row] = await tx
      .insert(purchaseRequests)
      .values({
        organisationId: member.organisationId,
        requestedBy: member.userId,
        opportunityId: opportunity.id,
        clientId,
        lines,
        amount: opportunity.priceUsd,
        expiresAt: new Date(now.getTime() + PURCHASE_REQUEST_DAYS * 86_400_000),
        createdAt: now,
      })
      .returning();
    const approvers = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.organisationId, member.organisationId), sql`${users.orgRole} IN ('owner', 'admin')`, ne(users.id, member.userId)));
    for (const a of approvers) {
      await enqueueMail(tx, { userId: a.id }, {
        kind: 'purchase_request',
        requester: member.name ?? member.email,
        title: opportunity.title,
        outlet: opportunity.outletName,
        amount: opportunity.priceUsd,
      });
    }
    await recordAudit(tx, { organisationId: member.organisationId, actor: member, action: 'purchase_requested', subject: `${opportunity.outletName}: ${opportunity.title}`, details: { amountUsd: opportunity.priceUsd, requestId: row.id } }, now);
    return {
      purchaseRequest: { id: row.id, status: 'pending' as const, opportunityId: opportunity.id, amountUsd: row.amount, expiresAt: row.expiresAt.toISOString() },
    };
  });
}

/**
 * The member's request still waiting for an answer for exactly these opportunities: a cart's
 * (`cart`: its lines, in any order) or one opportunity's; null when there is none.
 */
export async function pendingRequestFor(
  db: Db | Tx,
  member: Pick<Member, 'organisationId' | 'userId'>,
  opportunityIds: readonly string[],
  cart: boolean,
  now = clockNow(),
): Promise<{ id: string; createdAt: Date } | null> {
  if (opportunityIds.length === 0) return null;
  const rows = await db
    .select({ id: purchaseRequests.id, createdAt: purchaseRequests.createdAt, opportunityId: purchaseRequests.opportunityId, lines: purchaseRequests.lines })
    .from(purchaseRequests)
    .where(
      and(
        eq(purchaseRequests.organisationId, member.organisationId),
        eq(purchaseRequests.requestedBy, member.userId),
        eq(purchaseRequests.status, 'pending'),
        sql`${purchaseRequests.expiresAt} > ${now.toISOString()}::timestamptz`,
        cart ? sql`${purchaseRequests.lines} IS NOT NULL` : sql`${purchaseRequests.lines} IS NULL`,
        cart ? undefined : eq(purchaseRequests.opportunityId, opportunityIds[0]),
      ),
    )
    .orderBy(desc(purchaseRequests.createdAt));
  const wanted = [...new Set(opportunityIds)].sort().join(',');
  const same = rows.find((r) => !cart || [...new Set((r.lines ?? []).map((l) => l.opportunityId))].sort().join(',') === wanted);
  return same ? { id: same.id, createdAt: same.createdAt } : null;
}

/** POST /api/org/purchase-requests/{id}/approve | decline: by an approver other than the requester. */
export async function decidePurchase(db: Db, by: Member, id: string, decision: { approve: true } | { approve: false; reason: string }, now = clockNow()): Promise<PurchaseRequest> {
  await db.transaction(async (tx) => {
    const [pr] = await tx
      .select()
      .from(purchaseRequests)
      .where(and(eq(purchaseRequests.id, id), eq(purchaseRequests.organisationId, by.organisationId)))
      .for('no key update');
    if (!pr) throw notFound('purchase_request_not_found', PURCHASE_REQUEST_NOT_FOUND);
    if (pr.requestedBy === by.userId) throw forbidden('own_purchase_request', 'You cannot decide your own purchase request');
    if (pr.status !== 'pending') throw conflict('purchase_request_decided', `This request was already ${pr.status}`);
    if (pr.expiresAt <= now) throw conflict('purchase_request_expired', 'This request has expired; the buyer can ask again');
    const [one] = await tx.select({ title: opportunities.title, outlet: opportunities.outletName }).from(opportunities).where(eq(opportunities.id, pr.opportunityId));
    const opp = pr.lines ? { title: `${pr.lines.length} placements`, outlet: pr.lines.map((l) => l.outletName).join(', ') } : one;
    await tx
      .update(purchaseRequests)
      .set({
        status: decision.approve ? 'approved' : 'declined',
        reason: decision.approve ? null : decision.reason,
        decidedBy: by.userId,
        decidedAt: now,
        // an approved purchase is paid within the same number of days from its approval
        ...(decision.approve ? { expiresAt: new Date(now.getTime() + PURCHASE_REQUEST_DAYS * 86_400_000) } : {}),
      })
      .where(eq(purchaseRequests.id, id));
    await enqueueMail(tx, { userId: pr.requestedBy }, {
      kind: 'purchase_decided',
      approved: decision.approve,
      reason: decision.approve ? null : decision.reason,
      title: opp.title,
      outlet: opp.outlet,
      amount: pr.amount,
      approver: by.name ?? by.email,
    });
    await recordAudit(tx, {
      organisationId: by.organisationId,
      actor: by,
      action: decision.approve ? 'purchase_approved' : 'purchase_declined',
      subject: `${opp.outlet}: ${opp.title}`,
      details: { amountUsd: pr.amount, requestId: pr.id, ...(decision.approve ? {} : { reason: decision.reason }) },
    }, now);
  });
  const [row] = await requestRows(db, sql`pr.id = ${id}`);
  return row;
}

/**
 * The approved request a checkout names: the requester's own, for this opportunity, approved, not
 * expired and not paid yet; anything else is refused with why.
 */
export async function approvedRequestFor(db: Db, member: Member, id: string, opportunityId: string, now: Date) {
  const [pr] = await db
    .select()
    .from(purchaseRequests)
    .where(and(eq(purchaseRequests.id, id), eq(purchaseRequests.organisationId, member.organisationId), eq(purchaseRequests.requestedBy, member.userId)));
  if (!pr || pr.opportunityId !== opportunityId || pr.lines) throw notFound('purchase_request_not_found', PURCHASE_REQUEST_NOT_FOUND);
  if (pr.status === 'pending') throw conflict('purchase_awaiting_approval', 'This purchase is still waiting for approval');
  if (pr.status === 'declined') throw conflict('purchase_declined', 'This purchase was declined');
  if (pr.expiresAt <= now) throw conflict('approval_expired', 'This approval has expired; ask again');
  const [paid] = await db
    .select({ id: checkouts.id })
    .from(checkouts)
    .where(and(eq(checkouts.purchaseRequestId, id), eq(checkouts.status, 'completed')))
    .orderBy(desc(checkouts.createdAt))
    .limit(1);
  if (paid) throw conflict('approved_purchase_paid', 'This approved purchase has already been paid');
  return pr;
}

/**
 * The approved cart request a cart checkout names (issue 46): the requester's own, approved, not
 * expired, not paid, and for exactly the lines the cart holds now at the prices approved; a cart
 * that changed since is refused (ask again).
 */
export async function approvedCartRequestFor(db: Db, member: Member, id: string, cart: { opportunityId: string; priceUsd: string }[], now: Date) {
  const [pr] = await db
    .select()
    .from(purchaseRequests)
    .where(and(eq(purchaseRequests.id, id), eq(purchaseRequests.organisationId, member.organisationId), eq(purchaseRequests.requestedBy, member.userId)));
  if (!pr?.lines) throw notFound('purchase_request_not_found', PURCHASE_REQUEST_NOT_FOUND);
  if (pr.status === 'pending') throw conflict('purchase_awaiting_approval', 'This purchase is still waiting for approval');
  if (pr.status === 'declined') throw conflict('purchase_declined', 'This purchase was declined');
  if (pr.expiresAt <= now) throw conflict('approval_expired', 'This approval has expired; ask again');
  const [paid] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.purchaseRequestId, id), eq(orders.status, 'completed')))
    .limit(1);
  if (paid) throw conflict('approved_purchase_paid', 'This approved purchase has already been paid');
  const approved = new Map(pr.lines.map((l) => [l.opportunityId, l.priceUsd]));
  const same = cart.length === approved.size && cart.every((l) => approved.get(l.opportunityId) === l.priceUsd);
  if (!same) throw conflict('cart_changed_since_approval', 'Your cart has changed since this purchase was approved: check it out as it was approved, or ask again');
  return pr;
}

/**
 * REMINDER_HOURS before a pending purchase request expires (issue 59), its approvers (the owners
 * and admins other than the requester) are reminded, once: the conditional UPDATE that sets
 * `reminded_at` is the claim (two instances at once: one of them sets it and mails), and the mails
 * are queued in its transaction. Answers how many requests were reminded.
 */
export async function remindExpiringPurchaseRequests(db: Db, reminderHours: number, now: Date): Promise<number> {
  const until = new Date(now.getTime() + reminderHours * 3_600_000);
  return db.transaction(async (tx) => {
    const due = await tx
      .update(purchaseRequests)
      .set({ remindedAt: now })
      .where(
        and(
          eq(purchaseRequests.status, 'pending'),
          sql`${purchaseRequests.remindedAt} IS NULL`,
          sql`${purchaseRequests.expiresAt} > ${now.toISOString()}::timestamptz`,
          sql`${purchaseRequests.expiresAt} <= ${until.toISOString()}::timestamptz`,
        ),
      )
      .returning();
    for (const pr of due) {
      const [requester] = await tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, pr.requestedBy));
      const [opportunity] = await tx.select({ title: opportunities.title, outlet: opportunities.outletName }).from(opportunities).where(eq(opportunities.id, pr.opportunityId));
      const approvers = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.organisationId, pr.organisationId), sql`${users.orgRole} IN ('owner', 'admin')`, ne(users.id, pr.requestedBy)));
      for (const a of approvers) {
        await enqueueMail(tx, { userId: a.id }, {
          kind: 'purchase_request',
          requester: requester?.name ?? requester?.email ?? 'A member',
          title: pr.lines ? `a cart of ${pr.lines.length} placements` : opportunity.title,
          outlet: pr.lines ? `${pr.lines.length} outlets` : opportunity.outlet,
          amount: pr.amount,
          expiresAt: pr.expiresAt.toISOString(),
        });
      }
    }
    return due.length;
  });
}
