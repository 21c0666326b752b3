import { and, eq } from 'drizzle-orm';
import type { CompleteProfileInput, EditProfileInput } from '../../../shared/schemas/profile';
import type { Db } from '../../db/client';
import { inviteCodes, organisations, users } from '../../db/schema';
import { recordAudit } from '../org/audit';
import { badRequest } from '../../lib/errors';
import { claimLimits } from '../../lib/rate-limit';
import type { Limits } from '../../limits';
import { profileVersion, toPublicUser, type SessionUser, type UserRow } from '../auth/users';
import { staleCopy } from '../../lib/version';
import { notifyBrandApproved, notifyBrandSignedUp } from '../../mail/notify';

const INVALID_INVITE_CODE = 'This invite code is not valid or is no longer active';

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
    if (!invite) throw badRequest(INVALID_INVITE_CODE, { inviteCode: INVALID_INVITE_CODE });
    autoApproved = true;
  }
  const updated = await db.transaction(async (tx) => {
    // the organisation is made here, from the company fields (decision 033); an account that joined
    // one by invitation already has it
    let organisation: { organisationId: string; orgRole: 'owner' } | undefined;
    if (!user.organisationId) {
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
