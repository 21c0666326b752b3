import type { FastifyInstance } from 'fastify';
import { loginSchema, registerSchema } from '../../../shared/schemas/auth';
import { parse } from '../../lib/validate';
import type { AppDeps } from '../../app';
import { authenticate, registerBrand } from './service';
import { requireUser } from './guards';
import { clearSessionCookie, createSession, deleteSession, setSessionCookie, toPublicUser } from './session';

export function authRoutes(app: FastifyInstance, { db, config }: AppDeps) {
  app.get('/api/user', async (req) => toPublicUser(requireUser(req)));

  app.post('/api/login', async (req, reply) => {
    const input = parse(loginSchema, req.body);
    const user = await authenticate(db, input);
    // a new id at every sign-in: a session id planted before login is worthless after it
    if (req.sessionToken) await deleteSession(db, req.sessionToken);
    const { token, expiresAt } = await createSession(db, user.id, config.SESSION_DAYS);
    setSessionCookie(req, reply, token, expiresAt);
    return toPublicUser(user);
  });

  app.post('/api/register', async (req, reply) => {
    const input = parse(registerSchema, req.body);
    const user = await registerBrand(db, input);
    if (req.sessionToken) await deleteSession(db, req.sessionToken);
    const { token, expiresAt } = await createSession(db, user.id, config.SESSION_DAYS);
    setSessionCookie(req, reply, token, expiresAt);
    return reply.code(201).send(toPublicUser(user));
  });

  app.post('/api/logout', async (req, reply) => {
    if (req.sessionToken) await deleteSession(db, req.sessionToken);
    clearSessionCookie(req, reply);
    return { ok: true };
  });
}
