import { hash, randomBytes } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { isoUtc, preparedStatement } from '../../db/statement';
import { toPublicUser, type SessionUser } from './users';

declare module 'fastify' {
  interface FastifyRequest {
    /** the signed-in user (null: a visitor), read from the session on every request */
    user: SessionUser | null;
    sessionToken: string | null;
  }
}

export const SESSION_COOKIE = 'byline_session';

/** What is stored of a secret token (sessions, password-reset links): its SHA-256, hex. */
export const hashToken = (token: string) => hash('sha256', token, 'hex');

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
const sessionUser = preparedStatement<Omit<SessionUser, 'createdAt'> & { createdAt: string }, { id: string; now: string }>(
  'session_user',
  sql`SELECT ${users.id} AS "id", ${users.name} AS "name", ${users.email} AS "email", ${users.role} AS "role",
      ${users.brandName} AS "brandName", ${users.website} AS "website", ${users.avatarUrl} AS "avatarUrl",
      ${users.approved} AS "approved", ${users.emailNotifications} AS "emailNotifications",
      ${users.organisationId} AS "organisationId", ${users.orgRole} AS "orgRole",
      ${users.clientIds} AS "clientIds", ${isoUtc(users.createdAt)} AS "createdAt"
    FROM ${sessions} JOIN ${users} ON ${users.id} = ${sessions.userId}
    WHERE ${sessions.id} = ${sql.placeholder('id')} AND ${sessions.expiresAt} > ${sql.placeholder('now')}::timestamptz`,
);

/** Signs the request in: the user of the session the token names, looked up on every request (null: none, or expired). */
export async function signIn(db: Db, req: FastifyRequest, token: string) {
  req.sessionToken = token;
  const [row] = await sessionUser(db, { id: hashToken(token), now: new Date().toISOString() });
  req.user = row ? { ...row, createdAt: new Date(row.createdAt) } : null;
}

/**
 * The cookie's flags. Secure over https, and always in production: there TLS ends at a proxy in
 * front, and without TRUST_PROXY naming it every request looks like plain http.
 */
const cookieOptions = (req: FastifyRequest, production: boolean) =>
  ({ path: '/', httpOnly: true, sameSite: 'lax', secure: production || req.protocol === 'https' }) as const;

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date, production: boolean) {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(req, production), expires: expiresAt });
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply, production: boolean) {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(req, production));
}

export { toPublicUser };
