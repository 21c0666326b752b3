import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app';
import { adminPaymentRoutes } from './admin-routes';
import { paymentRoutes } from './routes';
import { webhookRoutes } from './webhook-routes';

/** Every payments endpoint: brand checkout and history, admin release/refund, provider webhooks. */
export function paymentsModule(app: FastifyInstance, deps: AppDeps) {
  paymentRoutes(app, deps);
  adminPaymentRoutes(app, deps);
  webhookRoutes(app, deps);
}
