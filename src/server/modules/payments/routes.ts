import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app';
import { publicUrl } from '../../config';
import { notFound } from '../../lib/errors';
import { parse } from '../../lib/validate';
import { createCheckoutSchema } from '../../../shared/schemas/payment';
import { requireApprovedBrand } from '../auth/guards';
import { cancelCheckout, checkoutView, payLocalCheckout, startCheckout } from './checkout';
import { brandPayments } from './queries';
import { pageOf, sendJsonPage } from '../../lib/paging';
import { providerOf } from './provider-of';

/** Session ids come from us or the provider: letters, digits and underscores. */
const SESSION_ID = /^[A-Za-z0-9_]{1,255}$/;

function sessionIdParam(params: unknown): string {
  const id = (params as { sessionId?: string }).sessionId ?? '';
  if (!SESSION_ID.test(id)) throw notFound('Checkout not found');
  return id;
}

export function paymentRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db, config } = deps;
  const provider = providerOf(deps);

  // claim: reserve a slot and open a checkout; the browser goes to `url`
  app.post('/api/payments/checkout', async (req) => {
    const brand = requireApprovedBrand(req);
    const { opportunityId } = parse(createCheckoutSchema, req.body);
    return startCheckout(db, provider, { brand, opportunityId, publicUrl: publicUrl(config) });
  });

  // the built-in checkout page (/checkout/:sessionId) reads, pays and cancels through these
  app.get('/api/payments/checkout/:sessionId', async (req) => {
    const brand = requireApprovedBrand(req);
    return checkoutView(db, brand.id, sessionIdParam(req.params));
  });

  app.post('/api/payments/checkout/:sessionId/pay', async (req) => {
    const brand = requireApprovedBrand(req);
    const sessionId = sessionIdParam(req.params);
    // only the built-in provider takes payment here; with Stripe the card is charged on Stripe's page
    if (provider.name !== 'local') throw notFound('Checkout not found');
    const { url, paymentId, outcome } = await payLocalCheckout(db, provider, brand.id, sessionId);
    return { url, paymentId, status: outcome === 'refunded' ? 'refunded' : 'paid' };
  });

  app.post('/api/payments/checkout/:sessionId/cancel', async (req) => {
    const brand = requireApprovedBrand(req);
    return cancelCheckout(db, provider, brand.id, sessionIdParam(req.params));
  });

  app.get('/api/brand/payments', async (req, reply) => {
    const brand = requireApprovedBrand(req);
    const page = pageOf(req);
    return sendJsonPage(req, reply, page, await brandPayments(db, brand.id, page));
  });
}
