import type { FastifyRequest } from 'fastify';
import type { SessionCheck } from '../../db/session-check';
import { forbidden, unauthorized } from '../../lib/errors';
import type { SessionUser } from './users';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    sessionToken: string | null;
    /** the catalogue version read with the session (db/catalogue-version.ts), for the browse list's cache */
    catalogueVersion: string | null;
    /** the version of the user's shortlist read with the session ('0': it never saved anything), for the search's kept pages */
    shortlistVersion: string | null;
    /** the session check left to the page statement (session.ts `signIn`), until it is used */
    sessionCheck: SessionCheck | null;
  }
  interface FastifyContextConfig {
    /** the route reads its page through `pageWithSession`, which lets the statement check the session */
    sessionInStatement?: boolean;
  }
}

export function requireUser(req: FastifyRequest): SessionUser {
  if (!req.user) throw unauthorized();
  return req.user;
}

export function requireAdmin(req: FastifyRequest): SessionUser {
  const user = requireUser(req);
  if (user.role !== 'admin') throw forbidden('Only admins can do this');
  return user;
}

/** Brand endpoints that need a completed profile and an approved account. */
export function requireApprovedBrand(req: FastifyRequest): SessionUser {
  const user = requireUser(req);
  if (user.role !== 'brand') throw forbidden('Only brands can do this');
  if (!user.name) throw forbidden('Please complete your profile first');
  if (!user.approved) throw forbidden('Your account is awaiting approval');
  return user;
}
