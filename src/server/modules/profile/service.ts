import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { ORG_ROLE_LABELS, type OrgRole } from '../../../shared/org';
import type { CompleteProfileInput, EditProfileInput } from '../../../shared/schemas/profile';
import type { Db } from '../../db/client';
import type { Tx } from '../../mail/outbox';
import { inviteCodes, organisations, orgInvitations, users } from '../../db/schema';
import { recordAudit } from '../org/audit';
import { badRequest, conflict } from '../../lib/errors';
import { claimLimits } from '../../lib/rate-limit';
import type { Limits } from '../../limits';
import { profileVersion, toPublicUser, type SessionUser, type UserRow } from '../auth/users';
import { staleCopy } from '../../lib/version';
import { notifyBrandApproved, notifyBrandSignedUp } from '../../mail/notify';

const INVALID_INVITE_CODE = 'This invite code is not valid or is no longer active';

/** An organisation's open invitation to this address (the newest), while it can be accepted. */
async function openInvitationFor(db: Db | Tx, email: string, now = new Date()) {
  const [row] = await db
    .select({ organisationName: organisations.name, role: orgInvitations.role })
    .from(orgInvitations)
    .innerJoin(organisations, eq(organisations.id, orgInvitations.organisationId))
    .where(and(eq(orgInvitations.email, email), isNull(orgInvitations.acceptedAt), isNull(orgInvitations.revokedAt), gt(orgInvitations.expiresAt, now)))
    .orderBy(desc(orgInvitations.createdAt))
    .limit(1);
  return row ? { organisationName: row.organisationName, role: row.role as Exclude<OrgRole, 'owner'> } : null;
}

/** Why profile completion refuses an address an organisation has invited (issue 57). */
const invitedRefusal = (invitation: { organisationName: string; role: OrgRole }) =>
  `${invitation.organisationName} invited you to join as ${ORG_ROLE_LABELS[invitation.role].toLowerCase()}. Open the link in the invitation e-mail to join: it asks only for your name. To set up a company of your own instead, ask ${invitation.organisationName} to revoke the invitation.`;

/** 409 for an address an organisation has invited: it joins by the invitation's link. */
async function refuseIfInvited(db: Db | Tx, email: string) {
  const invitation = await openInvitationFor(db, email);
  if (invitation) throw conflict('invited_to_organisation', invitedRefusal(invitation));
}

/**
 * GET /api/user/onboarding: what a signed-in account without an organisation should hear before
 * the company form: an organisation's open invitation to its address, and the organisation it was
 * removed from (issue 57).
 */
export async function onboardingOf(db: Db, user: SessionUser, now = new Date()) {
  if (user.role !== 'brand' || user.organisationId) return { invitation: null, removedFrom: null };
  const [invitation, [removal]] = await Promise.all([
    openInvitationFor(db, user.email, now),
    db
      .select({ organisationName: organisations.name, at: users.removedAt })
      .from(users)
      .innerJoin(organisations, eq(organisations.id, users.removedFrom))
      .where(eq(users.id, user.id)),
  ]);
  return {
    invitation,
    removedFrom: removal?.at ? { organisationName: removal.organisationName, at: removal.at.toISOString() } : null,
  };
}

/**
 * Saves the brand's profile. A valid active invite code approves the brand at once; an unknown
 * or deactivated one refuses the whole request so nothing is saved and the brand can correct it.
 */
export async function completeBrandProfile(
  db: Db,
  user: SessionUser,
  input: CompleteProfileInput,
  limits: Limits,
  address: string | null = null,
): Promise<{ user: UserRow; autoApproved: boolean }> {
  // an invited address is refused before an invite code is tried (and again under the lock below)
  if (!user.organisationId) await refuseIfInvited(db, user.email);
  const code = input.inviteCode?.trim().toUpperCase();
  let autoApproved = false;
  if (code && !user.approved) {
    // codes are guessable by trying: each try counts, before the code is looked up
    await claimLimits(db, [{ limit: limits.inviteCodeAttempts, subject: user.id }]);
    const [invite] = await db
      .select({ id: inviteCodes.id })
      .from(inviteCodes)
      .where(and(eq(inviteCodes.code, code), eq(inviteCodes.active, true)))
      .limit(1);
    if (!invite) throw badRequest('invalid_invite_code', INVALID_INVITE_CODE, { inviteCode: INVALID_INVITE_CODE });
    autoApproved = true;
  }
  const updated = await db.transaction(async (tx) => {
    // the organisation is made here, from the company fields (decision 033); an account that joined
    // one by invitation already has it
    let organisation: { organisationId: string; orgRole: 'owner' } | undefined;
    if (!user.organisationId) {
      // an address an organisation invited joins it by the invitation's link; a company of its own
      // here would be a second organisation, and the invitation could never be accepted (issue 57).
      // The account's row is locked first: an invitation being sent meanwhile (org/service.ts
      // `invite` locks it too) either is seen here or sees the organisation made here.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('no key update');
      await refuseIfInvited(tx, user.email);
      const [org] = await tx
        .insert(organisations)
        .values({ name: input.brandName, approved: autoApproved || user.approved })
        .returning({ id: organisations.id });
      organisation = { organisationId: org.id, orgRole: 'owner' };
    } else if (autoApproved) {
      await tx.update(organisations).set({ approved: true }).where(eq(organisations.id, user.organisationId));
    }
    const [row] = await tx
      .update(users)
      .set({
        name: input.name,
        brandName: input.brandName,
        website: input.website,
        ...(autoApproved ? { approved: true } : {}),
        ...organisation,
        // a company of its own: the removal is behind it
        ...(organisation ? { removedFrom: null, removedAt: null } : {}),
      })
      .where(eq(users.id, user.id))
      .returning();
    if (organisation) {
      await recordAudit(tx, {
        organisationId: organisation.organisationId,
        actor: { userId: row.id, name: row.name, email: row.email, address },
        action: 'organisation_created',
        subject: input.brandName,
      });
    }
    if (autoApproved) await notifyBrandApproved(tx, row, true);
    else if (!user.name && !row.approved) await notifyBrandSignedUp(tx, row);
    return row;
  });
  return { user: updated, autoApproved };
}

/**
 * The profile form's save. With `baseVersion` (decision 019) only when the stored profile is still
 * that version (the row locked from the comparison to the write), else 409 with the current one.
 */
export async function editProfile(db: Db, user: SessionUser, input: EditProfileInput, baseVersion?: string): Promise<UserRow> {
  const set: Partial<UserRow> = { name: input.name };
  // admins edit only their name (spec §6)
  if (user.role === 'brand') {
    if (input.brandName !== undefined) set.brandName = input.brandName;
    if (input.website !== undefined) set.website = input.website;
    if (input.emailNotifications !== undefined) set.emailNotifications = input.emailNotifications;
  }
  return db.transaction(async (tx) => {
    if (baseVersion !== undefined) {
      const [current] = await tx.select().from(users).where(eq(users.id, user.id)).for('no key update');
      if (profileVersion(current) !== baseVersion) {
        throw staleCopy('Your profile was changed in another window since you started editing', toPublicUser(current));
      }
    }
    const [updated] = await tx.update(users).set(set).where(eq(users.id, user.id)).returning();
    // the owner's company name is its organisation's name (decision 033)
    if (user.orgRole === 'owner' && user.organisationId && set.brandName) {
      await tx.update(organisations).set({ name: set.brandName }).where(eq(organisations.id, user.organisationId));
    }
    return updated;
  });
}

export async function setAvatar(db: Db, user: SessionUser, avatarUrl: string): Promise<UserRow> {
  const [updated] = await db.update(users).set({ avatarUrl }).where(eq(users.id, user.id)).returning();
  return updated;
}

/** The brand's switch for progress e-mails (receipts, refunds and password mail always go). */
export async function setEmailNotifications(db: Db, user: SessionUser, emailNotifications: boolean): Promise<UserRow> {
  const [updated] = await db.update(users).set({ emailNotifications }).where(eq(users.id, user.id)).returning();
  return updated;
}
