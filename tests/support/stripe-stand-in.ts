import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface StripeCall {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  /** The form body, flattened: "line_items[0][price_data][unit_amount]" → "125000". */
  form: Record<string, string>;
}

interface Session {
  id: string;
  object: 'checkout.session';
  url: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  payment_intent: string | null;
  client_reference_id: string | null;
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  expires_at: number;
}

/**
 * A stand-in for the few Stripe API calls Byline makes. Anything else is recorded in `unexpected`
 * (tests assert it stays empty) and answered with an error.
 */
export async function startStripeStandIn() {
  const calls: StripeCall[] = [];
  const unexpected: string[] = [];
  const sessions = new Map<string, Session>();
  const refundedIntents = new Set<string>();
  /** what our refunds gave back of each payment intent, in cents (a charge is refunded once all of it is) */
  const refundedCents = new Map<string, number>();
  const idempotent = new Map<string, unknown>();
  /** session creations to refuse next, with Stripe's error (e.g. an expiry too close) */
  const refusals: string[] = [];
  /** while set, a refund is made (and remembered by its idempotency key) but its answer is withheld: the caller dies waiting */
  let holdRefundAnswers = false;
  const held: (() => void)[] = [];
  let n = 0;

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const form = Object.fromEntries(new URLSearchParams(body));
      const key = req.headers['idempotency-key'] as string | undefined;
      calls.push({ method: req.method ?? '', path: url.pathname, idempotencyKey: key, form });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++n}` });
        res.end(JSON.stringify(json));
      };
      const once = (make: () => unknown) => {
        const cacheKey = `${req.method} ${url.pathname} ${key}`;
        if (key && idempotent.has(cacheKey)) return send(200, idempotent.get(cacheKey));
        const out = make();
        if (key) idempotent.set(cacheKey, out);
        return send(200, out);
      };
      const m = url.pathname.match(/^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/);
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions' && refusals.length) {
        return send(400, { error: { type: 'invalid_request_error', param: 'expires_at', message: refusals.shift() } });
      }
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        return once(() => {
          const id = `cs_test_${String(++n).padStart(6, '0')}${Math.random().toString(36).slice(2, 10)}`;
          const metadata: Record<string, string> = {};
          for (const [k, v] of Object.entries(form)) {
            const mm = k.match(/^metadata\[(\w+)\]$/);
            if (mm) metadata[mm[1]] = v;
          }
          const s: Session = {
            id,
            object: 'checkout.session',
            url: `https://checkout.stripe.test/c/pay/${id}`,
            status: 'open',
            payment_status: 'unpaid',
            payment_intent: null,
            client_reference_id: form.client_reference_id ?? null,
            // every line item's amount (a cart's order has one per opportunity)
            amount_total: Object.entries(form)
              .filter(([k]) => /^line_items\[\d+\]\[price_data\]\[unit_amount\]$/.test(k))
              .reduce((sum, [, v]) => sum + Number(v), 0),
            currency: form['line_items[0][price_data][currency]'],
            metadata,
            expires_at: Number(form.expires_at),
          };
          sessions.set(id, s);
          return s;
        });
      }
      if (m && req.method === 'GET' && !m[2]) {
        const s = sessions.get(m[1]);
        return s ? send(200, s) : send(404, { error: { type: 'invalid_request_error', message: `No such checkout.session: '${m[1]}'` } });
      }
      if (m && req.method === 'POST' && m[2]) {
        const s = sessions.get(m[1]);
        if (!s || s.status !== 'open') return send(400, { error: { type: 'invalid_request_error', message: 'Only open sessions can be expired' } });
        s.status = 'expired';
        return send(200, s);
      }
      if (req.method === 'POST' && url.pathname === '/v1/refunds' && holdRefundAnswers) {
        const cacheKey = `${req.method} ${url.pathname} ${key}`;
        if (!idempotent.has(cacheKey)) {
          const total = [...sessions.values()].find((s) => s.payment_intent === form.payment_intent)?.amount_total ?? 0;
          const given = (refundedCents.get(form.payment_intent) ?? 0) + (form.amount ? Number(form.amount) : total);
          refundedCents.set(form.payment_intent, given);
          if (given >= total) refundedIntents.add(form.payment_intent);
          idempotent.set(cacheKey, { id: `re_test_${++n}`, object: 'refund', payment_intent: form.payment_intent, status: 'succeeded' });
        }
        held.push(() => send(200, idempotent.get(cacheKey)));
        return;
      }
      if (req.method === 'POST' && url.pathname === '/v1/refunds') {
        return once(() => {
          const total = [...sessions.values()].find((s) => s.payment_intent === form.payment_intent)?.amount_total ?? 0;
          const given = (refundedCents.get(form.payment_intent) ?? 0) + (form.amount ? Number(form.amount) : total);
          refundedCents.set(form.payment_intent, given);
          if (given >= total) refundedIntents.add(form.payment_intent);
          return { id: `re_test_${++n}`, object: 'refund', payment_intent: form.payment_intent, status: 'succeeded' };
        });
      }
      const pi = url.pathname.match(/^\/v1\/payment_intents\/([^/]+)$/);
      if (pi && req.method === 'GET') {
        return send(200, {
          id: pi[1],
          object: 'payment_intent',
          latest_charge: { id: `ch_${pi[1]}`, object: 'charge', refunded: refundedIntents.has(pi[1]) },
        });
      }
      unexpected.push(`${req.method} ${url.pathname}`);
      return send(404, { error: { type: 'invalid_request_error', message: 'Unexpected call to the Stripe stand-in' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    calls,
    unexpected,
    sessions,
    /** The customer paid on Stripe's page. */
    pay(sessionId: string, paymentIntent = `pi_test_${sessionId.slice(-12)}`) {
      const s = sessions.get(sessionId)!;
      Object.assign(s, { status: 'complete', payment_status: 'paid', payment_intent: paymentIntent });
      return paymentIntent;
    },
    /** The next session creation is refused with this message (as Stripe refuses a bad request). */
    refuseNextCreate(message = 'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.') {
      refusals.push(message);
    },
    /** Refunds are made but their answers withheld (true) until released (false: the held ones are answered). */
    holdRefunds(on: boolean) {
      holdRefundAnswers = on;
      if (!on) for (const answer of held.splice(0)) answer();
    },
    /** What our refunds gave back of a payment intent, in cents. */
    refundedOf: (paymentIntent: string) => refundedCents.get(paymentIntent) ?? 0,
    /** A refund made in Stripe's dashboard. */
    refundOutside(paymentIntent: string) {
      refundedIntents.add(paymentIntent);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
