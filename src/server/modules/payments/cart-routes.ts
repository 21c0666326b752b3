import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { publicUrl } from '../../config';
import type { ModuleDeps } from '../../deps';
import { idIn, memberOf, placementParams, route, scopeOf } from '../../lib/contract';
import { decodeCursor } from '../../lib/paging';
import { clientFilter } from '../../../shared/schemas/brief';
import {
  cartCheckoutAnswerSchema,
  cartCheckoutSchema,
  cartSchema,
  orderSchema,
  orderSummarySchema,
  swapAnswerSchema,
  swapOptionSchema,
  swapRequestSchema,
} from '../../../shared/schemas/cart';
import { addToCart, cartOf, clearCart, removeFromCart } from './cart';
import { orderOf, ordersOf, reorder, startCartCheckout } from './orders';
import { swapOptions, swapPlacement } from './swap';
import { purchaseRequestAnswerSchema } from '../../../shared/schemas/org';
import { now as clockNow } from '../../lib/clock';

const opportunityParams = z.object({ opportunityId: idIn('Opportunity not found').describe('the opportunity’s id') });
const orderParams = z.object({ id: idIn('Order not found').describe('the order’s id') });

/**
 * The cart and its orders (issue 46): a member's cart of up to 50 opportunities, checked out at
 * once into an order (one provider session; a payment and a placement per line), and the orders.
 */
export function cartRoutes(app: FastifyInstance, deps: ModuleDeps) {
  const { db, config, provider, limits } = deps;

  route(
    app,
    'GET',
    '/api/cart',
    {
      access: 'brand',
      can: 'buy',
      tags: ['Checkout'],
      summary: 'The member’s cart: each line with its price as added, its price now and whether it can be bought',
      response: { 200: cartSchema },
    },
    async (req) => cartOf(db, memberOf(req)),
  );

  route(
    app,
    'PUT',
    '/api/cart/lines/:opportunityId',
    {
      access: 'brand',
      actsOn: { own: 'a line of the member’s own cart' },
      tags: ['Checkout'],
      summary: 'Add an opportunity to the cart, at its price of now (already there: unchanged)',
      params: opportunityParams,
      response: { 200: cartSchema },
      errors: { 404: 'Opportunity not found', 409: 'The cart holds 50 lines already, or the opportunity cannot be bought now' },
    },
    async (req) => {
      const member = memberOf(req);
      await addToCart(db, member, req.params.opportunityId);
      return cartOf(db, member);
    },
  );

  route(
    app,
    'DELETE',
    '/api/cart/lines/:opportunityId',
    {
      access: 'brand',
      actsOn: { own: 'a line of the member’s own cart' },
      tags: ['Checkout'],
      summary: 'Remove an opportunity from the cart',
      params: opportunityParams,
      response: { 200: cartSchema },
    },
    async (req) => {
      const member = memberOf(req);
      await removeFromCart(db, member, req.params.opportunityId);
      return cartOf(db, member);
    },
  );

  route(
    app,
    'DELETE',
    '/api/cart',
    {
      access: 'brand',
      tags: ['Checkout'],
      summary: 'Empty the cart; with `?unavailable=1`, remove only the lines that cannot be bought now',
      querystring: z.object({ unavailable: z.enum(['1'], { error: 'unavailable is 1 or absent' }).optional() }),
      response: { 200: cartSchema },
    },
    async (req) => {
      const member = memberOf(req);
      await clearCart(db, member, { unavailableOnly: req.query.unavailable === '1' });
      return cartOf(db, member);
    },
  );

  route(
    app,
    'POST',
    '/api/cart/checkout',
    {
      access: 'brand',
      tags: ['Checkout'],
      summary: 'Check out the whole cart: a slot held on every line or none, one payment page',
      description:
        'Every line’s slot is held for 31 minutes in one transaction, or none is: while any line cannot be bought the answer is 409 with `soldOut` (its opportunity ids). A price that changed since its line was added answers 409 with `priceChanges` and `totalUsd`; sending that total back as `confirmTotalUsd` accepts it. A total above the member’s approval threshold answers 202 with a purchase request for the cart; once approved, the member checks out the same cart with its `purchaseRequestId`. Paid, each line becomes its own placement; the order has one invoice.',
      body: cartCheckoutSchema,
      response: { 200: cartCheckoutAnswerSchema, 202: purchaseRequestAnswerSchema },
      errors: {
        400: 'A member limited to clients must say which client it is for',
        404: 'Client not found (or the purchase request)',
        409: 'The cart is empty, a line cannot be bought now (`soldOut`), prices changed (`priceChanges`), a checkout of one of its opportunities is already open, or the purchase request is not approved or no longer matches the cart',
        422: 'Over a monthly budget',
        429: 'Too many checkouts started',
        502: 'Failed to create checkout session',
      },
    },
    async (req, reply) => {
      const started = await startCartCheckout(db, provider, { member: memberOf(req), body: req.body, publicUrl: publicUrl(config), limit: limits.checkouts });
      // above the member's approval threshold: the cart waits for an owner or admin (202)
      return 'purchaseRequest' in started ? reply.code(202).send(started) : started;
    },
  );

  route(
    app,
    'GET',
    '/api/brand/orders',
    {
      access: 'brand',
      tags: ['Payments'],
      summary: 'The organisation’s paid orders (carts checked out at once), newest first',
      description: 'At most `LIST_MAX` (1,000) at once: the rest follow in `Link: rel="next"` (`?after=`).',
      querystring: z.object({
        clientId: clientFilter,
        after: z
          .string()
          .max(500, 'This page link is no longer valid; reload the list from the start')
          .optional()
          .describe('the next page, as its `Link` names it'),
      }),
      headers: { Link: '`<…>; rel="next"`: the orders past `LIST_MAX`, when there are more' },
      response: { 200: z.array(orderSummarySchema) },
    },
    async (req, reply) => {
      const after = req.query.after === undefined ? undefined : decodeCursor(req.query.after);
      const page = await ordersOf(db, scopeOf(req, req.query.clientId), config.LIST_MAX, after);
      if (page.next) {
        const next = new URLSearchParams({ ...(req.query.clientId ? { clientId: req.query.clientId } : {}), after: page.next });
        void reply.header('link', `</api/brand/orders?${next.toString()}>; rel="next"`);
      }
      return page.items;
    },
  );

  route(
    app,
    'GET',
    '/api/brand/orders/:id',
    {
      access: 'brand',
      actsOn: { own: 'an order of the organisation: its service limits its lines to the member’s clients' },
      tags: ['Payments'],
      summary: 'One order: its lines and their states, what was paid, refunded and released, its invoice',
      params: orderParams,
      response: { 200: orderSchema },
      errors: { 404: 'Order not found' },
    },
    async (req) => orderOf(db, scopeOf(req), req.params.id),
  );

  route(
    app,
    'POST',
    '/api/brand/orders/:id/reorder',
    {
      access: 'brand',
      actsOn: { own: 'an order of the organisation: its service limits its lines to the member’s clients' },
      tags: ['Checkout'],
      summary: 'Order again: the order’s opportunities back in the cart; those that cannot be bought now are skipped (`skipped`)',
      params: orderParams,
      response: { 200: cartSchema },
      errors: { 404: 'Order not found' },
    },
    async (req) => {
      const member = memberOf(req);
      const again = await reorder(db, member, scopeOf(req), req.params.id);
      return { ...(await cartOf(db, member)), ...again };
    },
  );

  // decline and swap: the brand's side (the admins' decline is in admin-routes.ts)
  route(
    app,
    'GET',
    '/api/brand/placements/:placementId/swap-options',
    {
      access: 'brand',
      actsOn: { placement: 'placementId' },
      tags: ['Placements'],
      summary: 'Alternatives for a placement the outlet declined: up to 5, closest first',
      description:
        'Same type, a price within 20 % of what the placement holds, domain authority within ±10, a shared topic, available now; each says what choosing it refunds (`refundUsd`) or costs (`payUsd`).',
      params: placementParams,
      response: { 200: z.array(swapOptionSchema) },
      errors: { 409: 'This placement was not declined' },
    },
    async (req) => swapOptions(db, memberOf(req), req.params.placementId),
  );

  route(
    app,
    'POST',
    '/api/brand/placements/:placementId/swap',
    {
      access: 'brand',
      actsOn: { placement: 'placementId' },
      can: 'work',
      tags: ['Placements'],
      summary: 'Swap a declined placement for one of its alternatives: a cheaper one refunds the difference, a dearer one answers the checkout of it (`url`)',
      params: placementParams,
      body: swapRequestSchema,
      response: { 200: swapAnswerSchema },
      errors: {
        409: 'Not declined, the time to choose has passed, or the alternative is no longer offered',
        502: 'Failed to create checkout session',
      },
    },
    async (req) => {
      const member = memberOf(req);
      return swapPlacement(db, provider, req.params.placementId, req.body.opportunityId, { type: 'brand', id: member.userId }, clockNow(), member, {
        publicUrl: publicUrl(config),
      });
    },
  );
}
