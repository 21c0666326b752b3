/**
 * npm run test:faults — crash safety, three legs (docs/reliability.md section 5):
 *
 * 1. kill -9 mid-workload (this file). Starts the real server (the built dist/server/main.js) on a fresh
 *    database, runs brands doing checkout → pay → brief autosave → (every other purchase) brief
 *    submit with an admin attaching a draft, concurrently, kills the server with SIGKILL in the
 *    middle, restarts it on the same data and checks:
 *   - every acknowledged write is there (payments, brief autosaves and submissions, attached drafts,
 *     sessions still valid);
 *   - a completion sent again for every payment whose answer was lost ("redelivery") completes it,
 *     exactly once;
 *   - nothing is half-applied: each opportunity's filled slots equal its open holds plus the
 *     payments holding a slot, every completed hold has exactly one payment and every payment a
 *     completed hold; a draft is attached whole and only to a payment with a submitted brief.
 * 2. The same with Stripe: signed webhooks killed mid-handling and redelivered (faults/stripe.ts).
 * 3. PostgreSQL stopped and started under load, the app recovering by itself (faults/pg-restart.ts,
 *    on a throwaway cluster of its own; skipped with a message without the PostgreSQL binaries).
 *
 * Legs 1 and 2 run on the embedded PGlite database, and on PostgreSQL when FAULTS_DATABASE_URL (or
 * TEST_DATABASE_URL) names a server (a scratch database is created and dropped).
 * ROUNDS kills per database and leg (default 3; 2 for the Stripe leg, to keep the run short).
 */
import {
  Client,
  PART1,
  PART2,
  checkDatabase,
  exited,
  freePort,
  must,
  scratchDatabase,
  setup,
  start,
} from './faults/harness';
import { runPgRestart } from './faults/pg-restart';
import { runStripe } from './faults/stripe';

const ROUNDS = Number(process.env.ROUNDS ?? 3);

interface Ledger {
  /** pay answered 200: the payment must exist */
  paid: Map<string, { brand: number; paymentId: string }>;
  /** pay sent, no answer (the server died): redelivered after the restart */
  inFlightPays: Map<string, number>;
  /** brief autosaves answered 200, by payment: the last acknowledged value and any sent after it */
  briefs: Map<string, { acked: string; later: Set<string>; brand: number }>;
}
/** drafts attached and acknowledged, across rounds: payment id → draft URL */
const ackedDrafts = new Map<string, string>();

/** Brands buy and autosave until the server dies under them. */
async function workload(
  brands: Client[],
  admin: Client,
  opportunities: string[],
  ledger: Ledger,
  stop: { dead: boolean },
) {
  await Promise.all(
    brands.map(async (c, b) => {
      for (let n = 0; !stop.dead; n++) {
        try {
          const opp = opportunities[(n + b) % opportunities.length];
          const co = await c.req('POST', '/api/payments/checkout', { opportunityId: opp });
          if (co.status !== 200) continue;
          const sessionId = String(co.body.url).split('/').pop()!;
          ledger.inFlightPays.set(sessionId, b);
          const pay = await c.req('POST', `/api/payments/checkout/${sessionId}/pay`);
          if (pay.status !== 200) throw new Error(`pay answered ${pay.status} ${JSON.stringify(pay.body)}`);
          ledger.inFlightPays.delete(sessionId);
          ledger.paid.set(sessionId, { brand: b, paymentId: pay.body.paymentId });
          for (let v = 0; v < 2 && !stop.dead; v++) {
            const value = `save ${n}.${v}`;
            const entry = ledger.briefs.get(pay.body.paymentId) ?? { acked: '', later: new Set<string>(), brand: b };
            ledger.briefs.set(pay.body.paymentId, entry);
            entry.later.add(value);
            const save = await c.req('POST', `/api/brand/brief/${pay.body.paymentId}`, {
              part1Json: { personOrBrandName: value },
            });
            if (save.status !== 200) throw new Error(`autosave answered ${save.status}`);
            entry.acked = value;
            entry.later.clear();
          }
          // every other purchase: submit the brief, and the admin attaches a draft
          if (n % 2 === 1 || stop.dead) continue;
          const entry = ledger.briefs.get(pay.body.paymentId)!;
          entry.later.add(PART1.personOrBrandName);
          const submit = await c.req('POST', `/api/brand/brief/${pay.body.paymentId}/submit`, {
            part1Json: PART1,
            part2Json: PART2,
          });
          if (submit.status !== 200) throw new Error(`submit answered ${submit.status} ${JSON.stringify(submit.body)}`);
          entry.acked = PART1.personOrBrandName;
          entry.later.clear();
          const url = `https://docs.example.com/draft/${pay.body.paymentId}`;
          const attach = await admin.req('PATCH', `/api/admin/payments/${pay.body.paymentId}/status`, {
            draftDocumentUrl: url,
          });
          if (attach.status !== 200) throw new Error(`attach answered ${attach.status} ${JSON.stringify(attach.body)}`);
          ackedDrafts.set(pay.body.paymentId, url);
        } catch (err) {
          if (stop.dead) return;
          if (err instanceof TypeError) return; // connection reset: the server was killed
          throw err;
        }
      }
    }),
  );
}

async function runKind(kind: 'pglite' | 'postgres') {
  const scratch = await scratchDatabase(kind, process.env.FAULTS_DATABASE_URL ?? process.env.TEST_DATABASE_URL);
  const { env } = scratch;
  ackedDrafts.clear();
  const port = await freePort();
  const totals = { kills: 0, ackedPays: 0, redelivered: 0, ackedSaves: 0 };
  try {
    let server = await start(env, port);
    const { opportunities, brands, admin } = await setup(server.base);
    for (let round = 1; round <= ROUNDS; round++) {
      const ledger: Ledger = { paid: new Map(), inFlightPays: new Map(), briefs: new Map() };
      const stop = { dead: false };
      const work = workload(brands, admin, opportunities, ledger, stop);
      // a failure is raised by `await work` below; until then it must not end the process unhandled
      // (the cleanup in `finally` would not run)
      work.catch(() => {});
      await new Promise((r) => setTimeout(r, 1000 + Math.random() * 2000));
      stop.dead = true;
      server.proc.kill('SIGKILL');
      await exited(server.proc);
      await work;
      totals.kills++;

      server = await start(env, port);
      // sessions are rows too: the brands' cookies still work after the crash
      for (const [i, c] of brands.entries())
        if ((await c.req('GET', '/api/user')).status !== 200) throw new Error(`${kind}: brand ${i} lost its session`);
      // redelivery: send the completion again for every payment whose answer was lost
      for (const [sessionId, b] of ledger.inFlightPays) {
        const again = await brands[b].req('POST', `/api/payments/checkout/${sessionId}/pay`);
        if (again.status !== 200)
          throw new Error(
            `${kind}: redelivered pay of ${sessionId} answered ${again.status} ${JSON.stringify(again.body)}`,
          );
        ledger.paid.set(sessionId, { brand: b, paymentId: again.body.paymentId });
        totals.redelivered++;
      }
      // acknowledged payments are there, each once
      const lists = await Promise.all(brands.map((c) => c.all('/api/brand/payments?limit=200')));
      for (const [sessionId, { brand, paymentId }] of ledger.paid) {
        const found = (lists[brand].body as { id: string }[]).filter((p) => p.id === paymentId).length;
        if (found !== 1) throw new Error(`${kind}: payment ${paymentId} (checkout ${sessionId}) found ${found} times`);
        totals.ackedPays++;
      }
      // acknowledged autosaves are there (or a later one that was in flight)
      for (const [paymentId, { acked, later, brand }] of ledger.briefs) {
        if (!acked && !later.size) continue;
        const brief = must(await brands[brand].req('GET', `/api/brand/brief/${paymentId}`), 'read brief');
        // a payment without its own brief shows the brand's latest one as a pre-fill ("fallback")
        const got = brief.source === 'saved' ? (brief.part1Json?.personOrBrandName ?? '') : '';
        if (got !== acked && !later.has(got))
          throw new Error(
            `${kind}: brief of ${paymentId} holds "${got}", acknowledged "${acked}", in flight ${JSON.stringify([...later])} (round ${round})`,
          );
        if (acked) totals.ackedSaves++;
      }
    }
    server.proc.kill('SIGTERM');
    await exited(server.proc);

    const result = await scratch.withQuery((q) => checkDatabase(q, kind, ackedDrafts));
    console.log(
      `faults ${kind}: ${totals.kills} kill -9 mid-workload; ${totals.ackedPays} acknowledged payments present once, ${totals.redelivered} lost answers redelivered and completed once, ${totals.ackedSaves} acknowledged autosaves and ${result.drafts} acknowledged draft attachments present; database consistent (${result.payments} payments = ${result.total} USD, slots = open holds + held payments on ${result.opportunities} opportunities)`,
    );
  } finally {
    await scratch.cleanup();
  }
}

const started = Date.now();
const postgresUrl = process.env.FAULTS_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const kinds: ('pglite' | 'postgres')[] = ['pglite'];
if (postgresUrl) kinds.push('postgres');
else console.log('faults: no FAULTS_DATABASE_URL or TEST_DATABASE_URL, the PostgreSQL legs are skipped');
/** Runs one leg and prints how long it took (the whole command should stay within ~4 minutes). */
async function leg(name: string, run: () => Promise<void>) {
  const t0 = Date.now();
  await run();
  console.log(`  (${name}: ${Math.round((Date.now() - t0) / 1000)} s)`);
}
// kill -9 mid checkout, pay, autosave, submission and draft attachment (built-in checkout)
for (const kind of kinds) await leg(kind, () => runKind(kind));
// kill -9 while signed Stripe webhooks are being handled; lost ones redelivered
for (const kind of kinds) await leg(`stripe ${kind}`, () => runStripe(kind, postgresUrl));
// a PostgreSQL server of our own stopped and started under load: the same app process recovers
await leg('pg-restart', runPgRestart);
console.log(`faults: all green in ${Math.round((Date.now() - started) / 1000)} s`);
