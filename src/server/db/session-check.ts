import { sql } from 'drizzle-orm';
import { sessions, users } from './schema';

/**
 * A sign-in session checked by the statement that reads a page rather than by a lookup of its own
 * (auth/session.ts `pageWithSession`): the session row still exists and has not expired, and its
 * user's row is still the version (`xmin`) the request's user was read from, so every guard judged
 * on that user judges the user as it is now. Bound by name as the statement's placeholders.
 */
export interface SessionCheck {
  /** the session's id (the token's hash) */
  checkSession: string;
  checkUser: string;
  /** the user row's `xmin` when the user was read */
  checkVersion: string;
  checkNow: string;
}

/** True exactly when the session of `SessionCheck` still holds (an uncorrelated test: run once per statement). */
export const sessionCheckSql = sql`EXISTS (SELECT 1 FROM ${sessions} JOIN ${users} ON ${users.id} = ${sessions.userId}
  WHERE ${sessions.id} = ${sql.placeholder('checkSession')} AND ${sessions.expiresAt} > ${sql.placeholder('checkNow')}::timestamptz
    AND ${users.id} = ${sql.placeholder('checkUser')}::uuid AND ${users}.xmin = ${sql.placeholder('checkVersion')}::xid)`;
