import { and, desc, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { signinAddresses, users } from '../../db/schema';

/** How long an address stays known after the account's last sign-in from it. */
const KNOWN_FOR_MS = 365 * 86_400_000;
/** An address shared by more accounts (a large office network) is known for its most recent ones. */
const ACCOUNTS_PER_ADDRESS = 200;

/** Notes that the user has just signed in from this client address (req.ip, TRUST_PROXY-aware). */
export async function rememberSigninAddress(db: Db, userId: string, address: string, now = new Date()): Promise<void> {
  await db
    .insert(signinAddresses)
    .values({ userId, address, lastAt: now })
    .onConflictDoUpdate({ target: [signinAddresses.address, signinAddresses.userId], set: { lastAt: now } });
  // housekeeping on sign-in, as for the sessions: the account's addresses of the last year stay
  await db
    .delete(signinAddresses)
    .where(and(eq(signinAddresses.userId, userId), lt(signinAddresses.lastAt, new Date(now.getTime() - KNOWN_FOR_MS))));
}

/**
 * Whether the account of `email` has signed in from `address` within the last year. Read by the
 * address alone and compared here, so the database does the same work whether or not the e-mail
 * has an account: the forgot-password answer's timing must not tell.
 */
export async function hasSignedInFrom(db: Db, email: string, address: string, now = new Date()): Promise<boolean> {
  const rows = await db
    .select({ email: users.email })
    .from(signinAddresses)
    .innerJoin(users, eq(users.id, signinAddresses.userId))
    .where(
      and(eq(signinAddresses.address, address), gt(signinAddresses.lastAt, new Date(now.getTime() - KNOWN_FOR_MS))),
    )
    .orderBy(desc(signinAddresses.lastAt))
    .limit(ACCOUNTS_PER_ADDRESS);
  return rows.some((r) => r.email === email);
}
