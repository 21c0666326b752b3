import { z } from 'zod';
import { publicUrl } from '../../config';
import type { Module } from '../../deps';
import { memberOf, route, scopeOf, userOf } from '../../lib/contract';
import { clientFilter } from '../../../shared/schemas/brief';
import { notFound } from '../../lib/errors';
import { pageFrom, sendJsonPage } from '../../lib/paging';
import { createCheckoutSchema } from '../../../shared/schemas/payment';
import { decimal, id, urlAnswerSchema } from '../../../shared/schemas/responses/common';
import { brandPaymentItemSchema, checkoutViewSchema } from '../../../shared/schemas/responses/payment';
import { purchaseRequestAnswerSchema } from '../../../shared/schemas/org';
import { adminPaymentRoutes } from './admin-routes';
import { cancelCheckout, checkoutView, payTestCheckout, startCheckout } from './checkout';
import { brandEscrowBalance, brandPayments } from './service';
import { webhookRoutes } from './webhook-routes';
import { cartRoutes } from './cart-routes';
import { cancelRoutes } from './cancel-routes';
import { now as clockNow } from '../../lib/clock';

const CHECKOUT_NOT_FOUND = 'Checkout not found';

/** A provider session id in the path: ours or the provider's, letters, digits and underscores. */
const sessionParams = z.object({
  sessionId: z
    .string({ error: CHECKOUT_NOT_FOUND })
    .regex(/^[A-Za-z0-9_]{1,255}$/, CHECKOUT_NOT_FOUND)
    .describe('the provider session id (`/checkout/{sessionId}`)'),
});

/**
 * Payments: checkouts (a slot held while the brand pays), the built-in test checkout's page, the
 * brand's history and escrow balance, the admins' list, totals and refunds, the provider's webhooks.
 */
export const paymentsModule: Module = async (app, deps) => {
  const { db, config, provider, limits, invoicing } = deps;

  // claim: reserve a slot and open a checkout; the browser goes to `url`
  route(
    app,
    'POST',
    '/api/payments/checkout',
    {
      access: 'brand',
      tags: ['Checkout'],
      spec: true,
      summary: 'Hold a slot and open a checkout',
      description:
        'The browser then goes to `url`: the provider’s payment page (or the built-in test checkout, `/checkout/{sessionId}`). The slot is held for 31 minutes. A purchase above the member’s approval threshold answers 202 with the purchase request instead; once approved, the member checks out again with its `purchaseRequestId`.',
      body: createCheckoutSchema,
      response: { 200: urlAnswerSchema, 202: purchaseRequestAnswerSchema },
      errors: {
        400: 'A member limited to clients must say which client it is for',
        404: 'Opportunity not found (or the purchase request, or the client)',
        409: 'Sold out, past its deadline, already being bought in another window, or a purchase request not approved',
        422: 'Over the organisation’s, the member’s or the client’s monthly budget: the message names the cap and what is left',
        429: 'Too many open checkouts',
        502: 'Failed to create checkout session',
      },
    },
    async (req, reply) => {
      const member = memberOf(req);
      const brand = { id: member.userId, email: member.email, organisationId: member.organisationId };
      const started = await startCheckout(db, provider, {
        brand,
        member,
        opportunityId: req.body.opportunityId,
        purchaseRequestId: req.body.purchaseRequestId,
        clientId: req.body.clientId,
        publicUrl: publicUrl(config),
        limit: limits.checkouts,
      });
      // over the member's approval threshold: the purchase waits for an owner or admin
      return 'purchaseRequest' in started ? reply.code(202).send(started) : started;
    },
  );

  // the built-in checkout page (/checkout/:sessionId) reads, pays and cancels through these
  route(
    app,
    'GET',
    '/api/payments/checkout/:sessionId',
    {
      access: 'brand',
      actsOn: { own: 'the member’s own checkout' },
      tags: ['Checkout'],
      summary: 'A checkout of the brand (the built-in test checkout page reads it)',
      params: sessionParams,
      response: { 200: checkoutViewSchema },
    },
    async (req) => checkoutView(db, userOf(req).id, req.params.sessionId),
  );

  route(
    app,
    'POST',
    '/api/payments/checkout/:sessionId/pay',
    {
      access: 'brand',
      actsOn: { own: 'the member’s own checkout' },
      tags: ['Checkout'],
      summary: 'Pay a test checkout (the built-in provider only; no money moves)',
      description:
        'Runs the very same fulfilment a provider’s webhook runs. `refunded`: the last slot went meanwhile and the charge was given back.',
      params: sessionParams,
      response: { 200: z.object({ url: z.string(), paymentId: id, status: z.enum(['paid', 'refunded']) }) },
      errors: {
        404: 'Checkout not found (or the provider is not the test checkout)',
        409: 'This checkout was cancelled or has expired',
      },
    },
    async (req) => {
      // only the built-in provider takes payment here; with Stripe the card is charged on Stripe's page
      if (provider.name !== 'test') throw notFound('checkout_not_found', CHECKOUT_NOT_FOUND);
      const { url, paymentId, outcome } = await payTestCheckout(db, provider, userOf(req).id, req.params.sessionId, clockNow(), invoicing);
      return { url, paymentId, status: outcome === 'refunded' ? ('refunded' as const) : ('paid' as const) };
    },
  );

  route(
    app,
    'POST',
    '/api/payments/checkout/:sessionId/cancel',
    {
      access: 'brand',
      actsOn: { own: 'the member’s own checkout' },
      tags: ['Checkout'],
      summary: 'Cancel a checkout: its slot is given back at once',
      params: sessionParams,
      response: { 200: urlAnswerSchema },
      errors: { 409: 'This checkout has already been paid', 502: 'Could not cancel the checkout. Please try again.' },
    },
    async (req) => cancelCheckout(db, provider, userOf(req).id, req.params.sessionId, clockNow(), invoicing),
  );

  route(
    app,
    'GET',
    '/api/brand/payments',
    {
      access: 'brand',
      tags: ['Payments'],
      paged: true,
      summary: 'The brand’s payments, newest first',
      querystring: z.object({ clientId: clientFilter }),
      response: { 200: z.array(brandPaymentItemSchema) },
    },
    async (req, reply) => {
      const page = pageFrom(req.query);
      return sendJsonPage(req, reply, page, await brandPayments(db, scopeOf(req, req.query.clientId), page));
    },
  );

  // the sum of the brand's payments held in escrow, as a decimal string ("1234.50")
  route(
    app,
    'GET',
    '/api/brand/wallet',
    {
      access: 'brand',
      tags: ['Payments'],
      spec: true,
      summary: 'The money the brand has held in escrow',
      response: { 200: z.object({ balance: decimal }) },
    },
    async (req) => ({ balance: await brandEscrowBalance(db, scopeOf(req)) }),
  );

  adminPaymentRoutes(app, deps);
  webhookRoutes(app, deps);
  cartRoutes(app, deps);
  cancelRoutes(app, deps);
};
