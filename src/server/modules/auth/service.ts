import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, like } from 'drizzle-orm';
import type { LoginInput, RegisterInput } from '../../../shared/schemas/auth';
import type { Db } from '../../db/client';
import { rateLimitHits, users } from '../../db/schema';
import { unauthorized, conflict } from '../../lib/errors';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/password';
import { claimLimits, releaseClaims, usedOf } from '../../lib/rate-limit';
import { SIGNIN_SLOWDOWN_MS, SLOW_SIGNIN_AFTER_FAILURES, type Limits } from '../../limits';
import { findUserByEmail, isUniqueViolation, normaliseEmail, type UserRow } from './users';

const INVALID_CREDENTIALS = 'Invalid email or password';
const EMAIL_TAKEN = 'An account with this email already exists';

/** Who is signing in: the client's address (req.ip, TRUST_PROXY-aware) and the limits in force. */
export interface SigninContext {
  client: string;
  limits: Limits;
  /** the pause once an account has many failures from anywhere (tests shorten it) */
  slowdownMs?: number;
}

/**
 * Checks e-mail and password. Unknown e-mail and wrong password fail the same way.
 *
 * A failure is claimed before the password is checked (so concurrent guesses cannot get past the
 * limit together) and given back when the password was right. Failures lock out only the
 * (account, client address) pair and, past a higher limit, the client address: a stranger cannot
 * lock the owner out. Many failures for one account from everywhere only slow each try down.
 */
export async function authenticate(db: Db, input: LoginInput, ctx: SigninContext): Promise<UserRow> {
  const email = normaliseEmail(input.email);
  const { limits } = ctx;
  const claimed = await claimLimits(db, [
    { limit: limits.signinFailuresPerAccount, subject: `${email} ${ctx.client}` },
    { limit: limits.signinFailuresPerAddress, subject: ctx.client },
    { limit: limits.signinFailuresAnywhere, subject: email },
  ]);
  const anywhere = await usedOf(db, limits.signinFailuresAnywhere.bucket, email, limits.signinFailuresAnywhere.windowMs);
  if (anywhere > SLOW_SIGNIN_AFTER_FAILURES) await sleep(ctx.slowdownMs ?? SIGNIN_SLOWDOWN_MS);

  const user = await findUserByEmail(db, email);
  const ok = await verifyPassword(user?.password ?? (await dummyPasswordHash()), input.password);
  if (!user || !ok) throw unauthorized('invalid_credentials', INVALID_CREDENTIALS);
  // the right password: this attempt was no failure, and the owner's earlier ones from here are forgiven
  await releaseClaims(db, claimed);
  await forgiveSigninFailures(db, limits, email, ctx.client);
  return user;
}

/** Forgets failed sign-ins of one account: from one client, or (after a password reset) from every client. */
export async function forgiveSigninFailures(db: Pick<Db, 'delete'>, limits: Limits, email: string, client?: string) {
  const bucket = limits.signinFailuresPerAccount.bucket;
  const subject = client === undefined ? like(rateLimitHits.subject, `${escapeLike(email)} %`) : eq(rateLimitHits.subject, `${email} ${client}`);
  await db.delete(rateLimitHits).where(and(eq(rateLimitHits.bucket, bucket), subject));
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Sign-ups per client address: claimed before the password is hashed. */
export async function claimSignup(db: Db, limits: Limits, client: string): Promise<void> {
  await claimLimits(db, [{ limit: limits.signups, subject: client }]);
}

/** Sign-up always creates a brand, whatever role the request carries. */
export async function registerBrand(db: Db, input: RegisterInput): Promise<UserRow> {
  const email = normaliseEmail(input.email);
  const password = await hashPassword(input.password);
  try {
    const [user] = await db.insert(users).values({ email, password, role: 'brand', approved: false }).returning();
    return user;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('email_taken', EMAIL_TAKEN);
    throw err;
  }
}

/** Creates the admin, or resets its password (and makes sure it is an admin). */
export async function upsertAdmin(db: Db, email: string, password: string, name = 'Admin'): Promise<UserRow> {
  const normalised = normaliseEmail(email);
  const hash = await hashPassword(password);
  const [user] = await db
    .insert(users)
    .values({ email: normalised, password: hash, role: 'admin', name, approved: true })
    .onConflictDoUpdate({ target: users.email, set: { password: hash, role: 'admin', approved: true } })
    .returning();
  return user;
}
