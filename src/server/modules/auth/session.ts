import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { isoUtc, preparedStatement } from '../../db/statement';
import { catalogueVersionSql } from '../../db/catalogue-version';
import { toPublicUser, type SessionUser } from './users';

export const SESSION_COOKIE = 'byline_session';

/** What is stored of a secret token (sessions, password-reset links): its SHA-256, hex. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Starts a new session for the user; the cookie carries a random 256-bit token. */
export async function createSession(db: Db, userId: string, days: number): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + days * 86_400_000);
  await db.insert(sessions).values({ id: hashToken(token), userId, expiresAt });
  // housekeeping on sign-in keeps the table small without a timer
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, new Date())));
  return { token, expiresAt };
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, hashToken(token)));
}


/**
 * Every signed-in request runs this, so it is a prepared statement (one index lookup per table) and
 * reads no more than a request needs: not the password hash.
 */
export const sessionUserSql = sql`SELECT ${users.id} AS "id", ${users.name} AS "name", ${users.email} AS "email", ${users.role} AS "role",
      ${users.brandName} AS "brandName", ${users.website} AS "website", ${users.avatarUrl} AS "avatarUrl",
      ${users.approved} AS "approved", ${users.emailNotifications} AS "emailNotifications", ${isoUtc(users.createdAt)} AS "createdAt",
      ${catalogueVersionSql} AS "catalogueVersion"
    FROM ${sessions} JOIN ${users} ON ${users.id} = ${sessions.userId}
    WHERE ${sessions.id} = ${sql.placeholder('id')} AND ${sessions.expiresAt} > ${sql.placeholder('now')}::timestamptz`;
const sessionUser = preparedStatement<
  Omit<SessionUser, 'createdAt'> & { createdAt: string; catalogueVersion: string },
  { id: string; now: string }
>(
  'session_user',
  sessionUserSql,
);

/**
 * The signed-in user of a session token, and the catalogue version as of this request (read in the
 * same statement: the browse list's cache needs it, see db/catalogue-version.ts).
 */
export async function sessionForToken(db: Db, token: string): Promise<{ user: SessionUser; catalogueVersion: string } | null> {
  const [row] = await sessionUser(db, { id: hashToken(token), now: new Date().toISOString() });
  if (!row) return null;
  const { catalogueVersion, createdAt, ...user } = row;
  return { user: { ...user, createdAt: new Date(createdAt) }, catalogueVersion };
}

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    expires: expiresAt,
  });
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https' });
}

export { toPublicUser };
