import { stripeProvider } from '../../src/server/providers/stripe';

/**
 * The card provider of a child process (purchase-child.ts, jobs-child.ts, deadline-child.ts): the
 * real Stripe client pointed at the parent's Stripe stand-in on loopback, port STRIPE_PORT, with
 * the test keys the stand-in signs and checks.
 */
export function childStripeProvider() {
  return stripeProvider({
    secretKey: 'sk_test_byline',
    webhookSecret: 'whsec_test',
    host: '127.0.0.1',
    port: Number(process.env.STRIPE_PORT),
    protocol: 'http',
  });
}
