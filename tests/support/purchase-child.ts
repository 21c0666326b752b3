/**
 * Another instance of the server's webhook handling (tests/api/one-purchase-path.test.ts): it
 * handles one Stripe event on a shared PostgreSQL database, as a second app instance receiving the
 * same delivery would, and prints "handled" when done. The parent runs two at once, or kills one
 * with SIGKILL in the middle of its fulfilment. Env: PURCHASE_DB_URL, STRIPE_PORT, EVENT_ID, SESSION_ID.
 */
import { openPostgres } from '../../src/server/db/client';
import { handleWebhookEvent } from '../../src/server/modules/payments/fulfil';
import { childStripeProvider } from './child-stripe';

const handle = openPostgres(process.env.PURCHASE_DB_URL!, 2);
const provider = childStripeProvider();
const event = { id: process.env.EVENT_ID!, type: 'checkout.session.completed', objectId: process.env.SESSION_ID!, providerRef: null };
const result = await handleWebhookEvent(handle.db, provider, event);
process.stdout.write(`handled ${JSON.stringify(result)}\n`);
await handle.close();
