import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { INVALID_RESET_LINK, RESET_LINK_MINUTES } from '../../../shared/schemas/password';
import type { Db } from '../../db/client';
import { passwordResetTokens, sessions, users } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import { claimLimits } from '../../lib/rate-limit';
import type { Limits } from '../../limits';
import { enqueueMail } from '../../mail/outbox';
import { normaliseEmail } from './users';
import { hashToken } from './session';
import { hasSignedInFrom } from './signin-addresses';
import { forgiveSigninFailures } from './service';

/**
 * "Forgot password?", the part the answer waits for: the limits, claimed before anything else so
 * concurrent requests cannot send more mail than they allow. It does the same work whether or not
 * the e-mail has an account (the link is made after the answer, `mailResetLink`), so neither the
 * answer nor its timing tells. Each address has its own limit; each e-mail gets at most
 * `passwordResetsPerEmail` from all addresses together (against mail floods), except that an address
 * the account has signed in from is counted on its own: strangers cannot hold the owner's reset back.
 * Returns the normalised e-mail.
 */
export async function claimPasswordReset(db: Db, rawEmail: string, ctx: { client: string; limits: Limits }, now = new Date()): Promise<string> {
  const email = normaliseEmail(rawEmail);
  const owners = await hasSignedInFrom(db, email, ctx.client, now);
  await claimLimits(
    db,
    [
      { limit: ctx.limits.passwordResetsPerEmail, subject: owners ? `${email} ${ctx.client}` : email },
      { limit: ctx.limits.passwordResetsPerAddress, subject: ctx.client },
    ],
    now,
  );
  return email;
}

/**
 * "Forgot password?", the part after the answer: for a known e-mail, a single-use token (only its
 * hash is stored) valid for an hour, mailed as a link through the outbox. Unknown e-mails get no mail.
 */
export async function mailResetLink(db: Db, email: string, now = new Date()): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  await db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (!user) return;
    await tx.insert(passwordResetTokens).values({
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(now.getTime() + RESET_LINK_MINUTES * 60_000),
      createdAt: now,
    });
    await enqueueMail(tx, { userId: user.id }, { kind: 'password_reset', token, validMinutes: RESET_LINK_MINUTES });
  });
}

/**
 * Sets the new password for the token's user, once: the token is claimed in one conditional UPDATE
 * (unused and not expired), every other link of that user is spent and all its sessions end.
 */
export async function resetPassword(db: Db, token: string, password: string, limits: Limits, now = new Date()): Promise<void> {
  const hash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.tokenHash, hashToken(token)), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, now)))
      .returning({ userId: passwordResetTokens.userId });
    if (!claimed) throw badRequest('invalid_reset_link', INVALID_RESET_LINK, { token: INVALID_RESET_LINK });
    const [user] = await tx.update(users).set({ password: hash }).where(eq(users.id, claimed.userId)).returning({ email: users.email });
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, claimed.userId), isNull(passwordResetTokens.usedAt)));
    await tx.delete(sessions).where(eq(sessions.userId, claimed.userId));
    // the owner is back in: earlier failed sign-ins no longer lock the account
    if (user) await forgiveSigninFailures(tx, limits, user.email);
  });
}
