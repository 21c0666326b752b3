import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { billingDetailsOf, type BillingDetails } from '../../../shared/billing';
import { MAX_CLIENTS, type OrgRole } from '../../../shared/org';
import type { ClientChange, ClientInput, OrgClient } from '../../../shared/schemas/org';
import type { Db } from '../../db/client';
import { clientBillingDetails, orgClients } from '../../db/schema';
import type { Member } from '../../lib/contract';
import { badRequest, notFound, conflict, unprocessable } from '../../lib/errors';
import type { Tx } from '../../mail/outbox';
import { isUniqueViolation } from '../auth/users';
import { recordAudit } from './audit';
import { clientsSpent } from './budget';
import { now as clockNow } from '../../lib/clock';

/**
 * An agency's clients (decision 035): each placement is bought for one client or none; a client has
 * its own billing details (its invoices and credit notes are addressed to it) and an optional
 * monthly cap. A member may be limited to some clients: they see and buy only theirs.
 */

export const CLIENT_NOT_FOUND = 'Client not found';

/** The roles that may be limited to clients: owners and admins run the whole organisation. */
const LIMITABLE: readonly OrgRole[] = ['buyer', 'reviewer', 'viewer'];

/**
 * The clients a member is to be limited to, checked: every one the organisation's, and a role that
 * can be limited (null: all clients).
 */
export async function checkedClientIds(db: Db | Tx, organisationId: string, role: OrgRole, clientIds: string[] | null): Promise<string[] | null> {
  if (clientIds === null) return null;
  if (!LIMITABLE.includes(role)) throw unprocessable('role_not_limitable', 'Owners and admins see every client; limit a buyer, reviewer or viewer instead');
  const unique = [...new Set(clientIds)];
  const [found] = await db
    .select({ n: count() })
    .from(orgClients)
    .where(and(eq(orgClients.organisationId, organisationId), inArray(orgClients.id, unique)));
  if (found.n !== unique.length) throw badRequest('client_not_found', CLIENT_NOT_FOUND, { clientIds: CLIENT_NOT_FOUND });
  return unique;
}

/**
 * The client a member's purchase is for: one of the organisation's (404 otherwise) and, for a member
 * limited to clients, one of theirs; such a member must name one.
 */
export async function clientForPurchase(db: Db, member: Member, clientId: string | undefined): Promise<string | null> {
  if (clientId === undefined) {
    if (member.clientIds !== null) throw badRequest('client_required', 'Choose which of your clients this is for', { clientId: 'Choose a client' });
    return null;
  }
  const [row] = await db
    .select({ id: orgClients.id })
    .from(orgClients)
    .where(and(eq(orgClients.id, clientId), eq(orgClients.organisationId, member.organisationId)));
  if (!row || (member.clientIds !== null && !member.clientIds.includes(clientId))) throw notFound('client_not_found', CLIENT_NOT_FOUND);
  return row.id;
}

/** GET /api/org/clients: by name; a member limited to clients sees only theirs. */
export async function listClients(db: Db, member: Member, now = clockNow()): Promise<OrgClient[]> {
  const rows = await db
    .select({
      id: orgClients.id,
      name: orgClients.name,
      monthlyCapUsd: orgClients.monthlyCapUsd,
      websites: orgClients.websites,
      billing: clientBillingDetails.clientId,
    })
    .from(orgClients)
    .leftJoin(clientBillingDetails, eq(clientBillingDetails.clientId, orgClients.id))
    .where(
      and(
        eq(orgClients.organisationId, member.organisationId),
        member.clientIds !== null ? inArray(orgClients.id, member.clientIds) : undefined,
      ),
    )
    .orderBy(asc(orgClients.name));
  const spent = await clientsSpent(db, member.organisationId, now);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    monthlyCapUsd: r.monthlyCapUsd,
    spentUsd: spent.get(r.id) ?? '0.00',
    hasBilling: r.billing !== null,
    websites: r.websites,
  }));
}

async function clientRow(db: Db | Tx, organisationId: string, id: string) {
  const [row] = await db
    .select()
    .from(orgClients)
    .where(and(eq(orgClients.id, id), eq(orgClients.organisationId, organisationId)))
    .for('no key update');
  if (!row) throw notFound('client_not_found', CLIENT_NOT_FOUND);
  return row;
}

const SAME_NAME = 'You already have a client with this name';

/** POST /api/org/clients */
export async function addClient(db: Db, by: Member, input: ClientInput, now = clockNow()): Promise<OrgClient> {
  const { name, websites = [] } = input;
  try {
    const row = await db.transaction(async (tx) => {
      const [n] = await tx.select({ n: count() }).from(orgClients).where(eq(orgClients.organisationId, by.organisationId));
      if (n.n >= MAX_CLIENTS) throw conflict('too_many_clients', `An organisation has at most ${MAX_CLIENTS} clients`);
      const [created] = await tx.insert(orgClients).values({ organisationId: by.organisationId, name, websites, createdAt: now }).returning();
      await recordAudit(
        tx,
        { organisationId: by.organisationId, actor: by, action: 'client_added', subject: name, ...(websites.length ? { details: { websites } } : {}) },
        now,
      );
      return created;
    });
    return { id: row.id, name: row.name, monthlyCapUsd: null, spentUsd: '0.00', hasBilling: false, websites: row.websites };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('client_name_taken', SAME_NAME, { name: SAME_NAME });
    throw err;
  }
}

/** PATCH /api/org/clients/{id}: its name, its monthly cap, its websites, or several. */
export async function changeClient(db: Db, by: Member, id: string, change: ClientChange, now = clockNow()): Promise<OrgClient> {
  try {
    await db.transaction(async (tx) => {
      const before = await clientRow(tx, by.organisationId, id);
      await tx.update(orgClients).set(change).where(eq(orgClients.id, id));
      await recordAudit(
        tx,
        {
          organisationId: by.organisationId,
          actor: by,
          action: 'client_changed',
          subject: change.name ?? before.name,
          details: {
            ...(change.name !== undefined && change.name !== before.name ? { name: { from: before.name, to: change.name } } : {}),
            ...(change.monthlyCapUsd !== undefined ? { monthlyCapUsd: { from: before.monthlyCapUsd, to: change.monthlyCapUsd } } : {}),
            ...(change.websites !== undefined ? { websites: { from: before.websites, to: change.websites } } : {}),
          },
        },
        now,
      );
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('client_name_taken', SAME_NAME, { name: SAME_NAME });
    throw err;
  }
  const [client] = (await listClients(db, { ...by, clientIds: [id] }, now)) as [OrgClient];
  return client;
}

/** GET /api/org/clients/{id}/billing: the billing details' shape; nulls until saved. */
export async function clientBilling(db: Db, member: Member, id: string): Promise<BillingDetails> {
  await clientRow(db, member.organisationId, id);
  const [b] = await db.select().from(clientBillingDetails).where(eq(clientBillingDetails.clientId, id));
  return billingDetailsOf(b, member.email);
}

type BillingValues = Omit<typeof clientBillingDetails.$inferInsert, 'clientId' | 'updatedAt'>;

/** PUT /api/org/clients/{id}/billing: what its next invoices are addressed to. */
export async function saveClientBilling(db: Db, by: Member, id: string, values: BillingValues, now = clockNow()): Promise<BillingDetails> {
  await db.transaction(async (tx) => {
    const client = await clientRow(tx, by.organisationId, id);
    const row = { ...values, updatedAt: now };
    await tx
      .insert(clientBillingDetails)
      .values({ clientId: id, ...row })
      .onConflictDoUpdate({ target: clientBillingDetails.clientId, set: row });
    await recordAudit(tx, { organisationId: by.organisationId, actor: by, action: 'billing_changed', subject: `billing details of ${client.name}` }, now);
  });
  return clientBilling(db, by, id);
}

