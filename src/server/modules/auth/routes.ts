import { loginSchema, registerSchema } from '../../../shared/schemas/auth';
import { FORGOT_PASSWORD_ANSWER, PASSWORD_RESET_DONE, forgotPasswordSchema, resetPasswordSchema } from '../../../shared/schemas/password';
import type { Module } from '../../deps';
import { parse } from '../../lib/validate';
import { authenticate, claimSignup, registerBrand } from './service';
import { requestPasswordReset, resetPassword } from './password-reset';
import { requireUser } from './guards';
import { clearSessionCookie, createSession, deleteSession, setSessionCookie, toPublicUser } from './session';

/** Sign-in, sign-up, sign-out, the current user, and forgotten passwords. */
export const authModule: Module = async (app, { db, config, limits }) => {
  app.get('/api/user', async (req) => toPublicUser(requireUser(req)));

  app.post('/api/login', async (req, reply) => {
    const input = parse(loginSchema, req.body);
    const user = await authenticate(db, input, { client: req.ip, limits });
    // a new id at every sign-in: a session id planted before login is worthless after it
    if (req.sessionToken) await deleteSession(db, req.sessionToken);
    const { token, expiresAt } = await createSession(db, user.id, config.SESSION_DAYS);
    setSessionCookie(req, reply, token, expiresAt);
    return toPublicUser(user);
  });

  app.post('/api/register', async (req, reply) => {
    const input = parse(registerSchema, req.body);
    await claimSignup(db, limits, req.ip);
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

  app.post('/api/password/forgot', async (req) => {
    const { email } = parse(forgotPasswordSchema, req.body);
    await requestPasswordReset(db, email, { client: req.ip, limits });
    return { message: FORGOT_PASSWORD_ANSWER };
  });

  app.post('/api/password/reset', async (req, reply) => {
    const { token, password } = parse(resetPasswordSchema, req.body);
    await resetPassword(db, token, password, limits);
    // every session of the user has ended, this browser's included
    if (req.sessionToken) clearSessionCookie(req, reply);
    return { message: PASSWORD_RESET_DONE };
  });
};
