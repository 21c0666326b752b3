import type { FastifyInstance } from 'fastify';
import { FORGOT_PASSWORD_ANSWER, PASSWORD_RESET_DONE, forgotPasswordSchema, resetPasswordSchema } from '../../../shared/schemas/password';
import type { AppDeps } from '../../app';
import { parse } from '../../lib/validate';
import { clearSessionCookie } from '../auth/session';
import { requestPasswordReset, resetPassword } from './service';

export function passwordRoutes(app: FastifyInstance, { db }: AppDeps) {
  app.post('/api/password/forgot', async (req) => {
    const { email } = parse(forgotPasswordSchema, req.body);
    await requestPasswordReset(db, email);
    return { message: FORGOT_PASSWORD_ANSWER };
  });

  app.post('/api/password/reset', async (req, reply) => {
    const { token, password } = parse(resetPasswordSchema, req.body);
    await resetPassword(db, token, password);
    // every session of the user has ended, this browser's included
    if (req.sessionToken) clearSessionCookie(req, reply);
    return { message: PASSWORD_RESET_DONE };
  });
}
