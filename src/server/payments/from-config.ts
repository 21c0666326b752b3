import type { Config } from '../config';
import type { Db } from '../db/client';
import { localProvider } from './local';
import type { PaymentProvider } from './provider';
import { stripeProvider } from './stripe';

/** Stripe when its keys are configured, otherwise the built-in test checkout. */
export function paymentProviderFor(config: Config, db: Db): PaymentProvider {
  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
    return stripeProvider({
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      host: config.STRIPE_API_HOST,
      port: config.STRIPE_API_PORT,
      protocol: config.STRIPE_API_PROTOCOL,
    });
  }
  return localProvider(db);
}
