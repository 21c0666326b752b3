import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app';
import { badRequest } from '../../lib/errors';
import { WebhookSignatureError, type WebhookEvent } from '../../payments/provider';
import { handleWebhookEvent } from './fulfil';
import { providerOf } from './provider-of';

/**
 * POST /api/webhooks/stripe. The signature covers the exact bytes sent, so this route (and only
 * this one) keeps the body raw. Exempt from the Origin check in app.ts: the signature is the check.
 */
export function webhookRoutes(app: FastifyInstance, deps: AppDeps) {
  const provider = providerOf(deps);
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post('/api/webhooks/stripe', async (req) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const signature = req.headers['stripe-signature'];
      let event: WebhookEvent;
      try {
        event = provider.verifyWebhook(raw, typeof signature === 'string' ? signature : undefined);
      } catch (err) {
        if (err instanceof WebhookSignatureError) throw badRequest('Invalid webhook signature');
        throw err;
      }
      await handleWebhookEvent(deps.db, provider, event);
      return { received: true };
    });
  });
}
