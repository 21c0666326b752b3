import { paymentProviderKind, type Config } from '../config';
import type { Db } from '../db/client';
import { testCheckoutProvider } from './test-checkout';
import type { PaymentProvider } from './provider';

/**
 * Stripe when chosen (PAYMENT_PROVIDER, or its keys set), otherwise the built-in test checkout
 * (loadConfig refuses the latter in production unless it was chosen explicitly). The Stripe SDK
 * (~20 MB of memory once loaded) is only loaded when it is used.
 */
export async function paymentProviderFor(config: Config, db: Db): Promise<PaymentProvider> {
  if (paymentProviderKind(config) === 'stripe' && config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
    const { stripeProvider } = await import('./stripe');
    return stripeProvider({
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      host: config.STRIPE_API_HOST,
      port: config.STRIPE_API_PORT,
      protocol: config.STRIPE_API_PROTOCOL,
    });
  }
  return testCheckoutProvider(db);
}
