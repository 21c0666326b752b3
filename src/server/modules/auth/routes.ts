import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { loginSchema, registerSchema } from '../../../shared/schemas/auth';
import { FORGOT_PASSWORD_ANSWER, PASSWORD_RESET_DONE, forgotPasswordSchema, resetPasswordSchema } from '../../../shared/schemas/password';
import { userAnswerSchema } from '../../../shared/schemas/responses/account';
import { messageAnswerSchema } from '../../../shared/schemas/responses/common';
import type { Module } from '../../deps';
import { route, userOf } from '../../lib/contract';
import { authenticate, claimSignup, registerBrand } from './service';
import { claimPasswordReset, mailResetLink, resetPassword } from './password-reset';
import { clearSessionCookie, createSession, deleteSession, setSessionCookie, toPublicUser } from './session';
import { rememberSigninAddress } from './signin-addresses';

const signedOutSchema = z.object({ ok: z.literal(true) });

/** Sign-in, sign-up, sign-out, the current user, and forgotten passwords. */
export const authModule: Module = async (app, { db, config, limits }) => {
  // the session cookie is Secure in production whatever the request's protocol seems (session.ts)
  const production = config.NODE_ENV === 'production';

  async function startSession(req: FastifyRequest, reply: FastifyReply, userId: string) {
    // a new id at every sign-in: a session id planted before login is worthless after it
    if (req.sessionToken) await deleteSession(db, req.sessionToken);
    const { token, expiresAt } = await createSession(db, userId, config.SESSION_DAYS);
    await rememberSigninAddress(db, userId, req.ip);
    setSessionCookie(req, reply, token, expiresAt, production);
  }

  route(
    app,
    'GET',
    '/api/user',
    {
      access: 'user',
      tags: ['Account'],
      spec: true,
      summary: 'The signed-in user',
      description: 'A 401 means nobody is signed in.',
      response: { 200: userAnswerSchema },
    },
    async (req) => toPublicUser(userOf(req)),
  );

  route(
    app,
    'POST',
    '/api/login',
    {
      access: 'public',
      tags: ['Account'],
      spec: true,
      summary: 'Sign in',
      description: 'Sets the sign-in session cookie (a new one at every sign-in).',
      body: loginSchema,
      response: { 200: userAnswerSchema },
      errors: { 401: 'Invalid email or password', 429: 'Too many attempts; `Retry-After` says when to try again' },
    },
    async (req, reply) => {
      const user = await authenticate(db, req.body, { client: req.ip, limits });
      await startSession(req, reply, user.id);
      return toPublicUser(user);
    },
  );

  route(
    app,
    'POST',
    '/api/register',
    {
      access: 'public',
      tags: ['Account'],
      spec: true,
      summary: 'Sign up (always as a brand) and sign in',
      description: 'Answers 201 with the new user, signed in (the session cookie is set).',
      body: registerSchema,
      response: { 201: userAnswerSchema },
      errors: { 409: 'An account with this e-mail already exists', 429: 'Too many sign-ups from this address' },
    },
    async (req, reply) => {
      await claimSignup(db, limits, req.ip);
      const user = await registerBrand(db, req.body);
      await startSession(req, reply, user.id);
      return reply.code(201).send(toPublicUser(user));
    },
  );

  route(
    app,
    'POST',
    '/api/logout',
    {
      access: 'public',
      tags: ['Account'],
      spec: true,
      summary: 'Sign out',
      description: 'Ends the session on the server and clears its cookie; harmless when nobody is signed in.',
      response: { 200: signedOutSchema },
    },
    async (req, reply) => {
      if (req.sessionToken) await deleteSession(db, req.sessionToken);
      clearSessionCookie(req, reply, production);
      return { ok: true as const };
    },
  );

  // closing the app waits for the reset links still being made
  app.addHook('onClose', resetLinksMade);

  route(
    app,
    'POST',
    '/api/password/forgot',
    {
      access: 'public',
      tags: ['Account'],
      summary: 'E-mail a link to reset a forgotten password',
      description: 'The same answer whether or not the e-mail has an account.',
      body: forgotPasswordSchema,
      response: { 200: messageAnswerSchema },
      errors: { 429: 'Too many requests' },
    },
    async (req, reply) => {
      const now = new Date();
      const normalised = await claimPasswordReset(db, req.body.email, { client: req.ip, limits }, now);
      // the link is made and queued once the answer has gone: its work (only for a known e-mail) is
      // no part of the answer's time, which therefore cannot tell whether the e-mail has an account
      afterAnswer(reply, mailing, () => mailResetLink(db, normalised, now), 'password reset link not queued');
      return { message: FORGOT_PASSWORD_ANSWER };
    },
  );

  route(
    app,
    'POST',
    '/api/password/reset',
    {
      access: 'public',
      tags: ['Account'],
      summary: 'Set a new password with the e-mailed link’s token',
      description: 'Every session of the user ends.',
      body: resetPasswordSchema,
      response: { 200: messageAnswerSchema },
      errors: { 429: 'Too many attempts' },
    },
    async (req, reply) => {
      await resetPassword(db, req.body.token, req.body.password, limits);
      // every session of the user has ended, this browser's included
      if (req.sessionToken) clearSessionCookie(req, reply, production);
      return { message: PASSWORD_RESET_DONE };
    },
  );
};

/** Reset links being made after their answers went out (every app of the process). */
const mailing = new Set<Promise<void>>();

/** Resolves once no reset link is being made: on close, and for tests that compare the database before and after a request. */
export async function resetLinksMade(): Promise<void> {
  while (mailing.size) await Promise.allSettled([...mailing]);
}

/**
 * Starts `work` once the answer has been sent (or the client has gone), keeps it in `running` until
 * it ends, and logs its failure.
 */
function afterAnswer(reply: FastifyReply, running: Set<Promise<void>>, work: () => Promise<void>, failure: string) {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    const task: Promise<void> = work()
      .catch((err: unknown) => reply.log.error({ err }, failure))
      .finally(() => running.delete(task));
    running.add(task);
  };
  reply.raw.once('finish', start);
  reply.raw.once('close', start);
}
