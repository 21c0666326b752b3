import type { Config } from '../config';
import type { Db } from '../db/client';
import { localProvider } from './local';
import type { PaymentProvider } from './provider';

/**
 * Stripe when its keys are configured, otherwise the built-in test checkout. The Stripe SDK (~20 MB
 * of memory once loaded) is only loaded when it is used.
 */
export async function paymentProviderFor(config: Config, db: Db): Promise<PaymentProvider> {
  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
    const { stripeProvider } = await import('./stripe');
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
