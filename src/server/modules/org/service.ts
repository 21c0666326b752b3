import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, gte, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { csvRows } from '../../../shared/csv';
import { INVITATION_DAYS, ORG_ROLE_LABELS, type OrgRole } from '../../../shared/org';
import type { AdminOrganisation, AuditEntry, AuditQuery, InvitationInput, MemberChange, Org, OrgInvitation, OrgMember } from '../../../shared/schemas/org';
import { organisationSpent } from './budget';
import { refundedOf } from '../ledger/ledger';
import { checkedClientIds } from './clients';
import type { Db } from '../../db/client';
import { auditEntries, organisations, orgClients, orgInvitations, payments, sessions, users } from '../../db/schema';
import type { Member } from '../../lib/contract';
import { withClaims } from '../../lib/rate-limit';
import type { Limits } from '../../limits';
import { badRequest, forbidden, notFound, conflict, gone } from '../../lib/errors';
import { enqueueMail, type Tx } from '../../mail/outbox';
import { hashToken } from '../auth/session';
import { brandMatches, likeLiteral } from '../../db/brand-search';
import { after, cursorAt, type Page } from '../../lib/paging';
import type { SessionUser } from '../auth/users';
import { recordAudit } from './audit';
import { auditWords, type AuditWords } from './audit-words';
import { now as clockNow } from '../../lib/clock';

/**
 * Organisations (decision 033): the members and their roles, invitations, ownership, the audit log.
 * Who may call what is the routes' contracts (`can`); what is checked here is what the role alone
 * cannot say: the owner is never removed or demoted but by a transfer, an e-mail joins one
 * organisation only, an invitation is used once.
 */

export const MEMBER_NOT_FOUND = 'Member not found';
export const INVITATION_NOT_FOUND = 'Invitation not found';
const INVITATION_GONE = 'This invitation has expired, was already used or was revoked. Ask for a new one.';

const invitationGone = (message = INVITATION_GONE) => gone('invitation_gone', message);

/** GET /api/org */
export async function orgOfMember(db: Db, member: Member): Promise<Org> {
  const [org] = await db.select().from(organisations).where(eq(organisations.id, member.organisationId));
  const [members] = await db.select({ n: count() }).from(users).where(eq(users.organisationId, member.organisationId));
  return { id: org.id, name: org.name, approved: org.approved, role: member.role, clientIds: member.clientIds, memberCount: members.n };
}

/**
 * GET /api/admin/organisations: every organisation, newest first, a page at a time; `q` a piece of
 * its name or of a member's name, brand name or e-mail (issue 57: admins reached an organisation
 * only through one of its payments).
 */
export function adminOrganisations(db: Db, page: Page, q?: string) {
  // written out: inside a subquery drizzle names columns without their table, so "id" would be the member's
  const owner = (column: 'name' | 'email') =>
    sql<string | null>`(SELECT u.${sql.raw(column)} FROM users u WHERE u.organisation_id = organisations.id AND u.org_role = 'owner' LIMIT 1)`;
  const found =
    q === undefined
      ? undefined
      : sql`(organisations.name ILIKE ('%' || ${likeLiteral(q)}::text || '%') OR EXISTS (SELECT 1 FROM users WHERE users.organisation_id = organisations.id AND ${brandMatches(likeLiteral(q))}))`;
  return db
    .select({
      id: organisations.id,
      name: organisations.name,
      approved: organisations.approved,
      createdAt: organisations.createdAt,
      cursorAt: cursorAt(organisations.createdAt),
      ownerName: owner('name'),
      ownerEmail: owner('email'),
      memberCount: sql<number>`(SELECT count(*)::int FROM users u WHERE u.organisation_id = organisations.id)`,
      clientCount: sql<number>`(SELECT count(*)::int FROM org_clients c WHERE c.organisation_id = organisations.id)`,
      placements: sql<number>`(SELECT count(*)::int FROM payments p WHERE p.organisation_id = organisations.id)`,
    })
    .from(organisations)
    .where(and(found, after(organisations.createdAt, organisations.id, page.cursor)))
    .orderBy(desc(organisations.createdAt), desc(organisations.id))
    .limit(page.limit + 1);
}

/** GET /api/admin/organisations/{id}: the organisation, its members, clients and spend. */
export async function adminOrganisation(db: Db, id: string, now = clockNow()): Promise<AdminOrganisation> {
  const [org] = await db.select().from(organisations).where(eq(organisations.id, id));
  if (!org) throw notFound('organisation_not_found', ORGANISATION_NOT_FOUND);
  const [members, clients, month, [totals]] = await Promise.all([
    listMembers(db, id),
    db.select({ id: orgClients.id, name: orgClients.name }).from(orgClients).where(eq(orgClients.organisationId, id)).orderBy(asc(orgClients.name)),
    organisationSpent(db, id, now),
    db
      .select({
        // what the organisation paid and kept paid: less every refund, in full or in part (issue 47)
        paid: sql<string>`coalesce(sum(${payments.amount} - ${refundedOf(payments.id)}) FILTER (WHERE ${payments.status} <> 'refunded' OR ${refundedOf(payments.id)} > 0), 0)::numeric(14, 2)::text`,
        n: sql<number>`count(*)::int`,
      })
      .from(payments)
      .where(eq(payments.organisationId, id)),
  ]);
  return {
    id: org.id,
    name: org.name,
    approved: org.approved,
    createdAt: org.createdAt.toISOString(),
    members,
    clients,
    month: month.name,
    spentUsd: month.spent,
    paidTotalUsd: totals.paid,
    placements: totals.n,
  };
}

export const ORGANISATION_NOT_FOUND = 'Organisation not found';

/** GET /api/org/members: the owner first, then by name. */
export async function listMembers(db: Db, organisationId: string): Promise<OrgMember[]> {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.orgRole,
      monthlyCapUsd: users.monthlyCapUsd,
      approvalThresholdUsd: users.approvalThresholdUsd,
      clientIds: users.clientIds,
    })
    .from(users)
    .where(eq(users.organisationId, organisationId))
    .orderBy(sql`${users.orgRole} <> 'owner'`, asc(users.name), asc(users.email));
  return rows.map((r) => ({ ...r, role: r.role! }));
}

async function memberRow(db: Db | Tx, organisationId: string, userId: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organisationId, organisationId)))
    .for('no key update');
  if (!row) throw notFound('member_not_found', MEMBER_NOT_FOUND);
  return row;
}

/**
 * PATCH /api/org/members/{userId}: a new role, the clients the member is limited to, or both; the
 * owner's role changes only by a transfer. An owner or admin sees every client.
 */
export async function changeMember(db: Db, by: Member, userId: string, change: MemberChange): Promise<OrgMember> {
  return db.transaction(async (tx) => {
    const target = await memberRow(tx, by.organisationId, userId);
    if (target.orgRole === 'owner') throw forbidden('owner_role_fixed', 'The owner’s role changes only by transferring ownership');
    const role = change.role ?? (target.orgRole as Exclude<OrgRole, 'owner'>);
    const clientIds =
      change.clientIds !== undefined
        ? await checkedClientIds(tx, by.organisationId, role, change.clientIds)
        : role === 'admin'
          ? null
          : target.clientIds;
    if (role !== target.orgRole) {
      await tx.update(users).set({ orgRole: role }).where(eq(users.id, userId));
      await recordAudit(tx, {
        organisationId: by.organisationId,
        actor: by,
        action: 'role_changed',
        subject: target.email,
        details: { from: target.orgRole, to: role },
      });
    }
    if (!sameClients(clientIds, target.clientIds)) {
      await tx.update(users).set({ clientIds }).where(eq(users.id, userId));
      await recordAudit(tx, {
        organisationId: by.organisationId,
        actor: by,
        action: 'role_changed',
        subject: target.email,
        details: { clients: { from: target.clientIds, to: clientIds } },
      });
    }
    return {
      id: target.id,
      name: target.name,
      email: target.email,
      role,
      monthlyCapUsd: target.monthlyCapUsd,
      approvalThresholdUsd: target.approvalThresholdUsd,
      clientIds,
    };
  });
}

const sameClients = (a: string[] | null, b: string[] | null) =>
  a === null || b === null ? a === b : a.length === b.length && a.every((id) => b.includes(id));

/**
 * DELETE /api/org/members/{userId}: the member leaves the organisation (also themselves); their
 * sign-in sessions end at once. What they bought stays with the organisation. The account is left
 * as a new one is: signing in again leads to profile completion (a new organisation, for approval)
 * or to another invitation, and is told first which organisation removed it (`users.removed_from`).
 */
export async function removeMember(db: Db, by: Member, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const target = await memberRow(tx, by.organisationId, userId);
    if (target.orgRole === 'owner') throw forbidden('owner_not_removable', 'The owner cannot be removed; transfer ownership first');
    // removed by someone else, signing in again says from where (issue 57); leaving oneself does not
    const removal = userId === by.userId ? { removedFrom: null, removedAt: null } : { removedFrom: by.organisationId, removedAt: new Date() };
    await tx.update(users).set({ organisationId: null, orgRole: null, name: null, approved: false, ...removal }).where(eq(users.id, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await recordAudit(tx, {
      organisationId: by.organisationId,
      actor: by,
      action: 'member_removed',
      subject: target.email,
      details: { role: target.orgRole },
    });
  });
}

/** POST /api/org/transfer-ownership: the member becomes the owner, the owner an admin, at once. */
export async function transferOwnership(db: Db, by: Member, userId: string): Promise<OrgMember[]> {
  if (userId === by.userId) throw conflict('already_owner', 'You are already the owner');
  await db.transaction(async (tx) => {
    const target = await memberRow(tx, by.organisationId, userId);
    // one owner at a time (users_one_owner_per_org): the old one steps down first
    await tx.update(users).set({ orgRole: 'admin' }).where(eq(users.id, by.userId));
    await tx.update(users).set({ orgRole: 'owner', clientIds: null }).where(eq(users.id, target.id));
    await recordAudit(tx, {
      organisationId: by.organisationId,
      actor: by,
      action: 'ownership_transferred',
      subject: target.email,
      details: { from: by.email, to: target.email },
    });
  });
  return listMembers(db, by.organisationId);
}

const invitationJson = (i: typeof orgInvitations.$inferSelect, now: Date): OrgInvitation => ({
  id: i.id,
  email: i.email,
  role: i.role as OrgInvitation['role'],
  clientIds: i.clientIds,
  expiresAt: i.expiresAt.toISOString(),
  expired: i.expiresAt <= now,
});

/** The open invitations (neither accepted nor revoked), newest first. */
export async function listInvitations(db: Db, organisationId: string, now = new Date()): Promise<OrgInvitation[]> {
  const rows = await db
    .select()
    .from(orgInvitations)
    .where(and(eq(orgInvitations.organisationId, organisationId), isNull(orgInvitations.acceptedAt), isNull(orgInvitations.revokedAt)))
    .orderBy(desc(orgInvitations.createdAt));
  return rows.map((r) => invitationJson(r, now));
}

async function sendInvitation(tx: Db | Tx, by: Member, invitation: typeof orgInvitations.$inferSelect, token: string) {
  const [org] = await tx.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, by.organisationId));
  await enqueueMail(
    tx,
    { email: invitation.email },
    {
      kind: 'org_invitation',
      token,
      organisation: org.name,
      inviter: by.name ?? by.email,
      role: ORG_ROLE_LABELS[invitation.role as OrgRole].toLowerCase(),
      validDays: INVITATION_DAYS,
    },
  );
}

const newToken = () => randomBytes(32).toString('base64url');
const expiryFrom = (now: Date) => new Date(now.getTime() + INVITATION_DAYS * 86_400_000);

/**
 * POST /api/org/invitations: invites an e-mail with a role, by a single-use link valid
 * INVITATION_DAYS. An open invitation to the same address is replaced (a new link, the new role).
 */
export async function invite(db: Db, limits: Limits, by: Member, input: InvitationInput, now = new Date()): Promise<OrgInvitation> {
  // each invitation mail counts against the organisation's hourly limit, unless refused (issue 57)
  return withClaims(db, [{ limit: limits.invitationMails, subject: by.organisationId }], () => db.transaction(async (tx) => {
    // locked: a profile completion of this address meanwhile (profile/service.ts) waits, then sees
    // this invitation; or this waits for it and sees its organisation
    const [account] = await tx
      .select({ role: users.role, organisationId: users.organisationId })
      .from(users)
      .where(eq(users.email, input.email))
      .for('no key update');
    if (account?.organisationId === by.organisationId) throw conflict('already_member', 'This person is already a member of your organisation');
    if (account?.role === 'admin') throw conflict('email_of_editor', 'This e-mail address belongs to a Byline editor’s account');
    if (account?.organisationId) {
      throw conflict('email_in_other_organisation', 'This e-mail address already belongs to another organisation (one organisation per login)');
    }
    const clientIds = await checkedClientIds(tx, by.organisationId, input.role, input.clientIds ?? null);
    const token = newToken();
    await tx
      .update(orgInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(orgInvitations.organisationId, by.organisationId),
          eq(orgInvitations.email, input.email),
          isNull(orgInvitations.acceptedAt),
          isNull(orgInvitations.revokedAt),
        ),
      );
    const [row] = await tx
      .insert(orgInvitations)
      .values({
        organisationId: by.organisationId,
        email: input.email,
        role: input.role,
        clientIds,
        tokenHash: hashToken(token),
        invitedBy: by.userId,
        expiresAt: expiryFrom(now),
        createdAt: now,
      })
      .returning();
    await sendInvitation(tx, by, row, token);
    await recordAudit(tx, { organisationId: by.organisationId, actor: by, action: 'member_invited', subject: input.email, details: { role: input.role } }, now);
    return invitationJson(row, now);
  }));
}

async function openInvitation(db: Db | Tx, organisationId: string, id: string) {
  const [row] = await db
    .select()
    .from(orgInvitations)
    .where(and(eq(orgInvitations.id, id), eq(orgInvitations.organisationId, organisationId), isNull(orgInvitations.acceptedAt), isNull(orgInvitations.revokedAt)))
    .for('no key update');
  if (!row) throw notFound('invitation_not_found', INVITATION_NOT_FOUND);
  return row;
}

/** DELETE /api/org/invitations/{id}: its link answers 410 from now on. */
export async function revokeInvitation(db: Db, by: Member, id: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await openInvitation(tx, by.organisationId, id);
    await tx.update(orgInvitations).set({ revokedAt: now }).where(eq(orgInvitations.id, row.id));
    await recordAudit(tx, { organisationId: by.organisationId, actor: by, action: 'invitation_revoked', subject: row.email }, now);
  });
}

/** POST /api/org/invitations/{id}/resend: a new link (the old one stops working) and a new expiry. */
export async function resendInvitation(db: Db, limits: Limits, by: Member, id: string, now = new Date()): Promise<OrgInvitation> {
  return withClaims(db, [{ limit: limits.invitationMails, subject: by.organisationId }], () => db.transaction(async (tx) => {
    const row = await openInvitation(tx, by.organisationId, id);
    const token = newToken();
    const [updated] = await tx
      .update(orgInvitations)
      .set({ tokenHash: hashToken(token), expiresAt: expiryFrom(now) })
      .where(eq(orgInvitations.id, row.id))
      .returning();
    await sendInvitation(tx, by, updated, token);
    await recordAudit(tx, { organisationId: by.organisationId, actor: by, action: 'invitation_resent', subject: row.email }, now);
    return invitationJson(updated, now);
  }));
}

/** The invitation a link's token names while it can still be accepted, else 410. */
async function usableInvitation(db: Db | Tx, token: string, now: Date, lock = false) {
  const q = db
    .select({ invitation: orgInvitations, organisationName: organisations.name, organisationApproved: organisations.approved })
    .from(orgInvitations)
    .innerJoin(organisations, eq(organisations.id, orgInvitations.organisationId))
    .where(eq(orgInvitations.tokenHash, hashToken(token)));
  const [row] = lock ? await q.for('update', { of: orgInvitations }) : await q;
  if (!row || row.invitation.acceptedAt || row.invitation.revokedAt || row.invitation.expiresAt <= now) throw invitationGone();
  return row;
}

/** GET /api/invitations/{token} (public): what the invited person is asked to accept. */
export async function previewInvitation(db: Db, token: string, now = new Date()) {
  const { invitation, organisationName } = await usableInvitation(db, token, now);
  return { organisationName, role: invitation.role as Exclude<OrgRole, 'owner'>, email: invitation.email };
}

/**
 * POST /api/invitations/{token}/accept, signed in with the invited e-mail: the account joins the
 * organisation with the invited role. An account without a name (not through profile completion)
 * gives it here; it is approved when the organisation is.
 */
export async function acceptInvitation(db: Db, user: SessionUser, token: string, input: { name?: string }, address: string, now = new Date()) {
  return db.transaction(async (tx) => {
    const { invitation, organisationName, organisationApproved } = await usableInvitation(tx, token, now, true);
    if (user.email !== invitation.email) throw forbidden('invitation_for_other_email', `This invitation is for ${invitation.email}; sign in with that address to accept it`);
    if (user.role !== 'brand') throw forbidden('admin_cannot_join', 'Admin accounts cannot join an organisation');
    if (user.organisationId) throw conflict('already_in_organisation', 'You already belong to an organisation (one organisation per login)');
    const name = user.name ?? input.name;
    if (!name) throw badRequest('name_required', 'Name is required', { name: 'Name is required' });
    const role = invitation.role as OrgRole;
    await tx
      .update(users)
      .set({
        name,
        brandName: user.brandName ?? organisationName,
        organisationId: invitation.organisationId,
        orgRole: role,
        clientIds: invitation.clientIds,
        approved: user.approved || organisationApproved,
        removedFrom: null,
        removedAt: null,
      })
      .where(eq(users.id, user.id));
    await tx.update(orgInvitations).set({ acceptedAt: now, acceptedBy: user.id }).where(eq(orgInvitations.id, invitation.id));
    await recordAudit(
      tx,
      {
        organisationId: invitation.organisationId,
        actor: { userId: user.id, name, email: user.email, address },
        action: 'member_joined',
        subject: user.email,
        details: { role },
      },
      now,
    );
    return { organisationId: invitation.organisationId, role };
  });
}

/** The audit log's filters as SQL. */
function auditWhere(organisationId: string, q: AuditQuery, beforeId?: number): SQL {
  return and(
    eq(auditEntries.organisationId, organisationId),
    q.actor ? eq(auditEntries.actorId, q.actor) : undefined,
    q.action ? eq(auditEntries.action, q.action) : undefined,
    q.from ? gte(auditEntries.at, new Date(`${q.from}T00:00:00.000Z`)) : undefined,
    q.to ? lt(auditEntries.at, new Date(new Date(`${q.to}T00:00:00.000Z`).getTime() + 86_400_000)) : undefined,
    beforeId !== undefined ? lt(auditEntries.id, beforeId) : undefined,
  )!;
}

const auditJson = (r: typeof auditEntries.$inferSelect, words: AuditWords): AuditEntry => ({
  id: String(r.id),
  at: r.at.toISOString(),
  actor: { id: r.actorId, name: r.actorName, email: r.actorEmail },
  action: r.action,
  subject: r.subject,
  details: r.details,
  address: r.address,
  ...words,
});

const INVALID_CURSOR = 'This page link is no longer valid; reload the list from the start';

/** The audit log's cursor: the last entry's number. */
export function decodeAuditCursor(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw badRequest('invalid_cursor', INVALID_CURSOR, { cursor: INVALID_CURSOR });
  return Number(raw);
}

/** GET /api/org/audit: newest first, `limit + 1` rows (one more says a next page follows). */
export async function auditPage(db: Db, organisationId: string, q: AuditQuery, limit: number, beforeId?: number): Promise<AuditEntry[]> {
  const rows = await db
    .select()
    .from(auditEntries)
    .where(auditWhere(organisationId, q, beforeId))
    .orderBy(desc(auditEntries.id))
    .limit(limit + 1);
  const words = await auditWords(db, organisationId, rows);
  return rows.map((r, i) => auditJson(r, words[i]));
}

/** GET /api/org/audit.csv: every entry the filters find, newest first. */
export async function auditCsv(db: Db, organisationId: string, q: AuditQuery): Promise<string> {
  const rows = await db.select().from(auditEntries).where(auditWhere(organisationId, q)).orderBy(desc(auditEntries.id));
  // the same words as the screen (issue 57): no codes, ids or JSON
  const words = await auditWords(db, organisationId, rows);
  return csvRows([
    ['At (UTC)', 'Member', 'E-mail', 'Action', 'Subject', 'Details', 'Address'],
    ...rows.map((r, i) => [r.at.toISOString(), r.actorName, r.actorEmail, words[i].actionText, words[i].title, words[i].detailsText, r.address]),
  ]);
}
