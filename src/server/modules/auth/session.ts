import { hash, randomBytes } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client';
import { sessions, shortlistVersions, users } from '../../db/schema';
import { isoUtc, preparedStatement } from '../../db/statement';
import { catalogueVersionSql } from '../../db/catalogue-version';
import type { SessionCheck } from '../../db/session-check';
import { toPublicUser, type SessionUser } from './users';

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
  const id = hashToken(token);
  lately.delete(id);
  await db.delete(sessions).where(eq(sessions.id, id));
}


/**
 * Every signed-in request runs this, so it is a prepared statement (one index lookup per table) and
 * reads no more than a request needs: not the password hash.
 */
export const sessionUserSql = sql`SELECT ${users.id} AS "id", ${users.name} AS "name", ${users.email} AS "email", ${users.role} AS "role",
      ${users.brandName} AS "brandName", ${users.website} AS "website", ${users.avatarUrl} AS "avatarUrl",
      ${users.approved} AS "approved", ${users.emailNotifications} AS "emailNotifications", ${isoUtc(users.createdAt)} AS "createdAt",
      ${catalogueVersionSql} AS "catalogueVersion", ${users}.xmin::text AS "userVersion",
      coalesce((SELECT ${shortlistVersions.version} FROM ${shortlistVersions} WHERE ${shortlistVersions.brandId} = ${users.id}), 0)::text AS "shortlistVersion"
    FROM ${sessions} JOIN ${users} ON ${users.id} = ${sessions.userId}
    WHERE ${sessions.id} = ${sql.placeholder('id')} AND ${sessions.expiresAt} > ${sql.placeholder('now')}::timestamptz`;
const sessionUser = preparedStatement<
  Omit<SessionUser, 'createdAt'> & { createdAt: string; catalogueVersion: string; userVersion: string; shortlistVersion: string },
  { id: string; now: string }
>(
  'session_user',
  sessionUserSql,
);

/**
 * The users of the sessions read lately, by session id, with the version of the user row they were
 * read from: what a page statement that checks the session itself starts from (`pageWithSession`).
 * Never trusted alone: the statement confirms the session and the row version in its own snapshot.
 */
const lately = new LRUCache<string, { user: SessionUser; userVersion: string }>({ max: 10_000, ttl: 10 * 60_000 });
const stats = { lookups: 0, checkedInStatement: 0, lookedUpAgain: 0 };

/** Session lookups so far, requests whose page statement checked the session, and those that had to look it up after all (tests). */
export const sessionStats = () => ({ ...stats });

/**
 * The signed-in user of a session (by its id, the token's hash), and the catalogue and shortlist versions as of this
 * request (read in the same statement: the browse list's and the search's kept pages need them, see
 * db/catalogue-version.ts and opportunities/search.ts).
 */
async function sessionOf(db: Db, id: string): Promise<{ user: SessionUser; catalogueVersion: string; shortlistVersion: string } | null> {
  stats.lookups++;
  const [row] = await sessionUser(db, { id, now: new Date().toISOString() });
  if (!row) {
    lately.delete(id);
    return null;
  }
  const { catalogueVersion, userVersion, shortlistVersion } = row;
  // field by field: every signed-in request makes this object, and a literal is the cheapest way
  const user: SessionUser = {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    brandName: row.brandName,
    website: row.website,
    avatarUrl: row.avatarUrl,
    approved: row.approved,
    emailNotifications: row.emailNotifications,
    createdAt: new Date(row.createdAt),
  };
  lately.set(id, { user, userVersion });
  return { user, catalogueVersion, shortlistVersion };
}

/**
 * Signs the request in. A route marked `config: { sessionInStatement: true }` reads a page whose
 * statement checks the session itself (`pageWithSession`): when the session was read lately, the
 * request starts from that user and leaves the check to the statement, one round trip to the
 * database instead of two. Every other request looks the session up.
 */
export async function signIn(db: Db, req: FastifyRequest, token: string) {
  req.sessionToken = token;
  const id = hashToken(token);
  if (req.routeOptions.config?.sessionInStatement) {
    const known = lately.get(id);
    if (known) {
      req.user = known.user;
      req.sessionCheck = { checkSession: id, checkUser: known.user.id, checkVersion: known.userVersion, checkNow: new Date().toISOString() };
      return;
    }
  }
  const session = await sessionOf(db, id);
  req.user = session?.user ?? null;
  req.catalogueVersion = session?.catalogueVersion ?? null;
  req.shortlistVersion = session?.shortlistVersion ?? null;
}

/**
 * A page read by a route marked `sessionInStatement`: `read` runs the route's guard, reads its query
 * and runs the page's statement with the session check it is given. When the session was left to the
 * statement and the page comes back empty (a real empty page, or a session or user that changed) or
 * anything fails, the session is looked up and `read` runs again as on any other route, so the
 * answer (the page, a 401, a 403, a 400) is always the one a fresh lookup gives.
 */
export async function pageWithSession<T extends { rows: readonly unknown[] }>(
  db: Db,
  req: FastifyRequest,
  read: (check: SessionCheck | undefined) => Promise<T>,
): Promise<T> {
  const check = req.sessionCheck;
  if (check) {
    req.sessionCheck = null;
    try {
      const result = await read(check);
      if (result.rows.length) {
        stats.checkedInStatement++;
        return result;
      }
    } catch {
      // answered below from the session as it is now
    }
    stats.lookedUpAgain++;
    const session = await sessionOf(db, check.checkSession);
    req.user = session?.user ?? null;
  }
  return read(undefined);
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
