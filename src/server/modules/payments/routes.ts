import { publicUrl } from '../../config';
import type { Module } from '../../deps';
import { notFound } from '../../lib/errors';
import { pageOf, sendJsonPage } from '../../lib/paging';
import { providerSessionParam } from '../../lib/route-params';
import { parse } from '../../lib/validate';
import { createCheckoutSchema } from '../../../shared/schemas/payment';
import { requireApprovedBrand } from '../auth/guards';
import { pageWithSession } from '../auth/session';
import { adminPaymentRoutes } from './admin-routes';
import { cancelCheckout, checkoutView, payTestCheckout, startCheckout } from './checkout';
import { brandEscrowBalance, brandPayments } from './service';
import { webhookRoutes } from './webhook-routes';

/**
 * Payments: checkouts (a slot held while the brand pays), the built-in test checkout's page, the
 * brand's history and escrow balance, the admins' list, totals and refunds, the provider's webhooks.
 */
export const paymentsModule: Module = async (app, deps) => {
  const { db, config, provider, limits, invoicing } = deps;

  // claim: reserve a slot and open a checkout; the browser goes to `url`
  app.post('/api/payments/checkout', async (req) => {
    const brand = requireApprovedBrand(req);
    const { opportunityId } = parse(createCheckoutSchema, req.body);
    return startCheckout(db, provider, { brand, opportunityId, publicUrl: publicUrl(config), limit: limits.checkouts });
  });

  // the built-in checkout page (/checkout/:sessionId) reads, pays and cancels through these
  app.get('/api/payments/checkout/:sessionId', async (req) => {
    const brand = requireApprovedBrand(req);
    return checkoutView(db, brand.id, providerSessionParam(req));
  });

  app.post('/api/payments/checkout/:sessionId/pay', async (req) => {
    const brand = requireApprovedBrand(req);
    const sessionId = providerSessionParam(req);
    // only the built-in provider takes payment here; with Stripe the card is charged on Stripe's page
    if (provider.name !== 'test') throw notFound('Checkout not found');
    const { url, paymentId, outcome } = await payTestCheckout(db, provider, brand.id, sessionId, new Date(), invoicing);
    return { url, paymentId, status: outcome === 'refunded' ? 'refunded' : 'paid' };
  });

  app.post('/api/payments/checkout/:sessionId/cancel', async (req) => {
    const brand = requireApprovedBrand(req);
    return cancelCheckout(db, provider, brand.id, providerSessionParam(req), new Date(), invoicing);
  });

  app.get('/api/brand/payments', { config: { sessionInStatement: true } }, async (req, reply) => {
    const { page, rows } = await pageWithSession(db, req, async (check) => {
      const brand = requireApprovedBrand(req);
      const page = pageOf(req);
      return { page, rows: await brandPayments(db, brand.id, page, check) };
    });
    return sendJsonPage(req, reply, page, rows);
  });

  // the sum of the brand's payments held in escrow, as a decimal string ("1234.50")
  app.get('/api/brand/wallet', async (req) => {
    const brand = requireApprovedBrand(req);
    return { balance: await brandEscrowBalance(db, brand.id) };
  });

  adminPaymentRoutes(app, deps);
  webhookRoutes(app, deps);
};
