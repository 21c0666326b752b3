import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../deps';
import { badRequest } from '../../lib/errors';
import { WebhookPayloadError, WebhookSignatureError, type WebhookEvent } from '../../providers/provider';
import { handleWebhookEvent } from './fulfil';

/**
 * POST /api/webhooks/stripe. The signature covers the exact bytes sent, so this route (and only
 * this one) keeps the body raw. Exempt from the Origin check in app.ts: the signature is the check.
 */
export function webhookRoutes(app: FastifyInstance, deps: ModuleDeps) {
  const { provider } = deps;
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
        if (err instanceof WebhookPayloadError) throw badRequest(err.message);
        throw err;
      }
      const result = await handleWebhookEvent(deps.db, provider, event, new Date(), deps.invoicing);
      if (result.mismatch) req.log.warn({ eventId: event.id, session: event.objectId, reason: result.mismatch }, 'checkout not fulfilled: charge mismatch');
      return { received: true };
    });
  });
}
