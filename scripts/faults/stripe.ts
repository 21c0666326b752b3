/**
 * Crash safety with Stripe: the real server runs with STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET and
 * the Stripe API stood in for at its HTTP boundary (tests/support/stripe-stand-in.ts, reached through
 * STRIPE_API_HOST/PORT/PROTOCOL; it answers only the calls Byline is meant to make and records any
 * other). Brands check out, "pay on Stripe's page" (the stand-in marks the session paid) and this
 * script, as Stripe, posts the signed checkout.session.completed webhook, some of them twice at once.
 * The server is killed with SIGKILL while webhooks are being handled, restarted on the same data,
 * and, as Stripe does, every event whose answer was lost is delivered again (same event id and
 * body, a fresh signature), and some acknowledged ones too. Then:
 *   - every redelivery answers 200;
 *   - every session paid on Stripe is exactly one payment (our hold's id, Stripe's payment intent,
 *     the server's price, `paid`), in its brand's history once; no payment for anything else;
 *   - every delivered event id is recorded once; the stand-in saw no unexpected call;
 *   - slots, holds and payments are consistent (harness checkDatabase).
 */
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { startStripeStandIn } from '../../tests/support/stripe-stand-in';
import {
  PRICE_CENTS,
  checkDatabase,
  exited,
  freePort,
  logTail,
  scratchDatabase,
  setup,
  sleep,
  start,
  type Client,
} from './harness';

// 2 kills per database unless ROUNDS says otherwise: the whole test:faults run stays within ~4 min
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const WEBHOOK_SECRET = `whsec_faults_${randomBytes(8).toString('hex')}`;
const signer = new Stripe('sk_test_faults_signer');

interface Delivery {
  brand: number;
  sessionId: string;
  eventId: string;
  payload: string;
}

async function deliver(base: string, d: Delivery) {
  // Stripe signs every delivery afresh (new timestamp); the event id and body stay the same
  const header = signer.webhooks.generateTestHeaderString({ payload: d.payload, secret: WEBHOOK_SECRET });
  const res = await fetch(`${base}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
    body: d.payload,
  });
  return { status: res.status, text: await res.text() };
}

export async function runStripe(kind: 'pglite' | 'postgres', postgresUrl?: string) {
  const stand = await startStripeStandIn();
  const scratch = await scratchDatabase(kind, postgresUrl);
  const env = {
    ...scratch.env,
    STRIPE_SECRET_KEY: 'sk_test_faults',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_HOST: '127.0.0.1',
    STRIPE_API_PORT: String(stand.port),
    STRIPE_API_PROTOCOL: 'http',
  };
  const port = await freePort();
  const label = `faults stripe ${kind}`;
  const totals = {
    kills: 0,
    inFlightAtKill: 0,
    acked: 0,
    lostRedelivered: 0,
    ackedRedelivered: 0,
    twice: 0,
    orphanHolds409: 0,
  };
  /** every completion event ever delivered (acknowledged or redelivered), by session */
  const delivered = new Map<string, Delivery>();
  const unexpectedStand = () => {
    if (stand.unexpected.length)
      throw new Error(`${label}: unexpected calls to the Stripe stand-in: ${stand.unexpected.join(', ')}`);
  };
  try {
    let server = await start(env, port);
    const { opportunities, brands, brandIds } = await setup(server.base, { brands: 4 });
    for (let round = 1; round <= ROUNDS; round++) {
      const acked = new Map<string, Delivery>();
      const lost = new Map<string, Delivery>();
      const stop = { dead: false };
      const webhooksInFlight = { n: 0 };
      const base = server.base;
      const work = Promise.all(
        brands.map(async (c: Client, b) => {
          for (let n = 0; !stop.dead; n++) {
            try {
              const co = await c.req('POST', '/api/payments/checkout', {
                opportunityId: opportunities[(n + b) % opportunities.length],
              });
              if (co.status === 409 && /already being prepared/.test(co.body?.message)) {
                // a crash between our hold and Stripe's session left a hold without a checkout URL:
                // that brand cannot check out that opportunity until the hold expires (30 min; see
                // docs/reliability.md); the brand buys another one
                totals.orphanHolds409++;
                continue;
              }
              if (co.status !== 200) throw new Error(`checkout answered ${co.status} ${JSON.stringify(co.body)}`);
              const sessionId = String(co.body.url).split('/').pop()!;
              if (!stand.sessions.has(sessionId))
                throw new Error(`checkout URL ${co.body.url} is not a Stripe session`);
              // the customer pays on Stripe's page; from now on Stripe owes us the event
              stand.pay(sessionId);
              const d: Delivery = {
                brand: b,
                sessionId,
                eventId: `evt_faults_${randomBytes(8).toString('hex')}`,
                payload: '',
              };
              // the body lies about the amount: the server must re-read the session from Stripe
              d.payload = JSON.stringify({
                id: d.eventId,
                object: 'event',
                type: 'checkout.session.completed',
                data: {
                  object: { id: sessionId, object: 'checkout.session', amount_total: 1, payment_status: 'paid' },
                },
              });
              lost.set(sessionId, d);
              // every third event arrives twice at once (Stripe retries overlap a slow answer)
              const copies = n % 3 === 2 ? 2 : 1;
              webhooksInFlight.n += copies;
              const answers = await Promise.all(
                Array.from({ length: copies }, () => deliver(base, d).finally(() => webhooksInFlight.n--)),
              );
              for (const a of answers)
                if (a.status !== 200) throw new Error(`webhook answered ${a.status} ${a.text} (${sessionId})`);
              lost.delete(sessionId);
              acked.set(sessionId, d);
              delivered.set(sessionId, d);
              if (copies === 2) totals.twice++;
            } catch (err) {
              if (stop.dead || err instanceof TypeError) return; // the server was killed under us
              throw err;
            }
          }
        }),
      );
      // a failure is raised by `await work` below; until then it must not end the process unhandled
      // (the cleanup in `finally` would not run)
      work.catch(() => {});
      // kill at a random moment, always with at least one webhook being handled
      await sleep(1000 + Math.random() * 2000);
      for (let i = 0; i < 2000 && webhooksInFlight.n === 0; i++) await sleep(1);
      const inFlight = webhooksInFlight.n;
      stop.dead = true;
      server.proc.kill('SIGKILL');
      await exited(server.proc);
      await work;
      if (inFlight === 0) throw new Error(`${label}: no webhook was in flight at the kill`);
      totals.kills++;
      totals.inFlightAtKill += inFlight;
      totals.acked += acked.size;

      server = await start(env, port);
      // Stripe redelivers every event it got no 2xx for; a few acknowledged ones come again too
      for (const d of lost.values()) {
        const a = await deliver(server.base, d);
        if (a.status !== 200)
          throw new Error(`${label}: redelivered ${d.eventId} answered ${a.status} ${a.text}\n${logTail(server)}`);
        delivered.set(d.sessionId, d);
        totals.lostRedelivered++;
      }
      const again = [...acked.values()].filter((_, i) => i % 4 === 0);
      for (const d of again) {
        const a = await deliver(server.base, d);
        if (a.status !== 200)
          throw new Error(`${label}: acknowledged ${d.eventId} delivered again answered ${a.status}`);
        totals.ackedRedelivered++;
      }
      unexpectedStand();
      // each paid session is one payment in its brand's history (the payment id is our hold's id)
      const lists = await Promise.all(brands.map((c) => c.all('/api/brand/payments?limit=200')));
      for (const d of [...acked.values(), ...lost.values()]) {
        const paymentId = stand.sessions.get(d.sessionId)!.metadata.paymentId;
        const found = (lists[d.brand].body as { id: string }[]).filter((p) => p.id === paymentId).length;
        if (found !== 1) throw new Error(`${label}: payment of ${d.sessionId} found ${found} times (round ${round})`);
      }
    }
    server.proc.kill('SIGTERM');
    await exited(server.proc);
    unexpectedStand();

    const paidOnStripe = [...stand.sessions.values()].filter((s) => s.payment_status === 'paid');
    const result = await scratch.withQuery(async (q) => {
      const consistent = await checkDatabase(q, label);
      const problems: string[] = [];
      const rows = await q(
        `SELECT id, brand_id, provider_session_id, stripe_payment_id, (amount * 100)::bigint::text AS cents, status FROM payments`,
      );
      const bySession = new Map<string, (typeof rows)[number][]>();
      for (const r of rows) bySession.set(r.provider_session_id, [...(bySession.get(r.provider_session_id) ?? []), r]);
      for (const s of paidOnStripe) {
        const got = bySession.get(s.id) ?? [];
        if (got.length !== 1) {
          problems.push(`session ${s.id} paid on Stripe has ${got.length} payments`);
          continue;
        }
        const [p] = got;
        if (p.id !== s.metadata.paymentId)
          problems.push(`payment of ${s.id} has id ${p.id}, not ${s.metadata.paymentId}`);
        if (p.brand_id !== s.metadata.brandId) problems.push(`payment of ${s.id} belongs to ${p.brand_id}`);
        if (p.stripe_payment_id !== s.payment_intent) problems.push(`payment of ${s.id} has ${p.stripe_payment_id}`);
        if (p.cents !== String(PRICE_CENTS)) problems.push(`payment of ${s.id} is ${p.cents} cents`);
        if (p.status !== 'paid') problems.push(`payment of ${s.id} is ${p.status}`);
      }
      const paidIds = new Set(paidOnStripe.map((s) => s.id));
      for (const r of rows)
        if (!paidIds.has(r.provider_session_id)) problems.push(`payment ${r.id} for an unpaid session`);
      if (!brandIds.length) problems.push('no brands');
      const events = new Map(
        (await q(`SELECT id, count(*)::int AS n FROM processed_webhook_events GROUP BY id`)).map((r) => [r.id, r.n]),
      );
      for (const d of delivered.values())
        if (events.get(d.eventId) !== 1)
          problems.push(`event ${d.eventId} recorded ${events.get(d.eventId) ?? 0} times`);
      if (problems.length)
        throw new Error(`${label}: ${problems.length} problems:\n  ${problems.slice(0, 20).join('\n  ')}`);
      return { ...consistent, events: events.size };
    });
    if (paidOnStripe.length !== delivered.size)
      throw new Error(`${label}: ${paidOnStripe.length} sessions paid on Stripe but ${delivered.size} delivered`);
    console.log(
      `${label}: ${totals.kills} kill -9 with ${totals.inFlightAtKill} webhook deliveries in flight; ${totals.acked} events acknowledged (${totals.twice} delivered twice at once), ${totals.lostRedelivered} lost answers redelivered after the restart and ${totals.ackedRedelivered} acknowledged ones again, all 200; ${paidOnStripe.length} sessions paid on Stripe = ${result.payments} payments, each once, ${result.total} USD; ${result.events} event ids recorded once each; ${stand.calls.length} Stripe calls, 0 unexpected; ${totals.orphanHolds409} checkouts refused 409 behind a hold the crash left without a Stripe session; database consistent (slots = open holds + held payments on ${result.opportunities} opportunities)`,
    );
  } finally {
    await stand.close();
    await scratch.cleanup();
  }
}
