import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ModuleDeps } from '../../deps';
import { route } from '../../lib/contract';
import { badRequest } from '../../lib/errors';
import { WebhookPayloadError, WebhookSignatureError, type WebhookEvent } from '../../providers/provider';
import { handleWebhookEvent } from './fulfil';
import { now as clockNow } from '../../lib/clock';

/**
 * POST /api/webhooks/stripe. The signature covers the exact bytes sent, so this route (and only
 * this one) keeps the body raw: its contract declares no body schema, as a schema would have the
 * body read as JSON. Exempt from the Origin check in app.ts: the signature is the check.
 */
export function webhookRoutes(app: FastifyInstance, deps: ModuleDeps) {
  const { provider } = deps;
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    route(
      scope,
      'POST',
      '/api/webhooks/stripe',
      {
        access: 'webhook',
        tags: ['Checkout'],
        summary: 'Stripe’s events (checkout completed or expired, refunds)',
        description:
          'The body is a Stripe event (`{"id": "evt_…", "type": "checkout.session.completed", "data": {"object": {"id": "cs_…"}}}`), sent with Stripe’s signature of its exact bytes in the `Stripe-Signature` header (`t=…,v1=…`). Checked by that signature; the checkout is then read back from Stripe rather than trusted from the event. Duplicates and any order are harmless.',
        response: { 200: z.object({ received: z.literal(true) }) },
        errors: { 400: 'Invalid webhook signature, or not an event' },
      },
      async (req) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const signature = req.headers['stripe-signature'];
        let event: WebhookEvent;
        try {
          event = provider.verifyWebhook(raw, typeof signature === 'string' ? signature : undefined);
        } catch (err) {
          if (err instanceof WebhookSignatureError) throw badRequest('invalid_webhook_signature', 'Invalid webhook signature');
          if (err instanceof WebhookPayloadError) throw badRequest('invalid_webhook_payload', err.message);
          throw err;
        }
        const result = await handleWebhookEvent(deps.db, provider, event, clockNow(), deps.invoicing);
        if (result.mismatch) req.log.warn({ eventId: event.id, session: event.objectId, reason: result.mismatch }, 'checkout not fulfilled: charge mismatch');
        return { received: true as const };
      },
    );
  });
}
