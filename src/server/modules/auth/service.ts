import { and, count, eq, gt, lt } from 'drizzle-orm';
import { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MINUTES } from '../../../shared/constants';
import type { LoginInput, RegisterInput } from '../../../shared/schemas/auth';
import type { Db } from '../../db/client';
import { loginFailures, users } from '../../db/schema';
import { HttpError, conflict } from '../../lib/errors';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/password';
import { findUserByEmail, isUniqueViolation, normaliseEmail, type UserRow } from './users';

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const TOO_MANY_ATTEMPTS = `Too many failed sign-in attempts. Please try again in ${LOGIN_WINDOW_MINUTES} minutes.`;
export const EMAIL_TAKEN = 'An account with this email already exists';

/** Checks e-mail and password. Unknown e-mail and wrong password fail the same way. */
export async function authenticate(db: Db, input: LoginInput): Promise<UserRow> {
  const email = normaliseEmail(input.email);
  const since = new Date(Date.now() - LOGIN_WINDOW_MINUTES * 60_000);
  const [{ failures }] = await db
    .select({ failures: count() })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, email), gt(loginFailures.createdAt, since)));
  if (failures >= LOGIN_MAX_FAILURES) throw new HttpError(429, TOO_MANY_ATTEMPTS);

  const user = await findUserByEmail(db, email);
  const ok = await verifyPassword(user?.password ?? (await dummyPasswordHash()), input.password);
  if (!user || !ok) {
    await db.insert(loginFailures).values({ email });
    throw new HttpError(401, INVALID_CREDENTIALS);
  }
  await db.delete(loginFailures).where(and(eq(loginFailures.email, email), lt(loginFailures.createdAt, new Date())));
  return user;
}

/** Sign-up always creates a brand, whatever role the request carries. */
export async function registerBrand(db: Db, input: RegisterInput): Promise<UserRow> {
  const email = normaliseEmail(input.email);
  const password = await hashPassword(input.password);
  try {
    const [user] = await db.insert(users).values({ email, password, role: 'brand', approved: false }).returning();
    return user;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN);
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
