/**
 * npm run test:faults — crash safety. Starts the real server (node src/server/main.ts) on a fresh
 * database, runs brands doing checkout → pay → brief autosave → (every other purchase) brief submit
 * with an admin attaching a draft, concurrently, kills the server with
 * SIGKILL in the middle, restarts it on the same data and checks:
 *   - every acknowledged write is there (payments, brief autosaves and submissions, attached drafts,
 *     sessions still valid);
 *   - a completion sent again for every payment whose answer was lost ("redelivery") completes it,
 *     exactly once;
 *   - nothing is half-applied: each opportunity's filled slots equal its open holds plus the
 *     payments holding a slot, every completed hold has exactly one payment and every payment a
 *     completed hold; a draft is attached whole and only to a payment with a submitted brief.
 * Runs on the embedded PGlite database, and on PostgreSQL when FAULTS_DATABASE_URL (or
 * TEST_DATABASE_URL) names a server (a scratch database is created and dropped).
 * ROUNDS (default 3) kills per database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const BRANDS = 4;
const ADMIN = { email: 'faults-admin@byline.test', password: 'faults-admin-password-1' };
const BRAND_PASSWORD = 'faults-brand-password-1';

interface Server {
  proc: ChildProcess;
  base: string;
  log: string[];
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

async function start(env: Record<string, string>, port: number): Promise<Server> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SEED_DEMO: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  proc.stdout!.on('data', (d) => log.push(String(d)));
  proc.stderr!.on('data', (d) => log.push(String(d)));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${log.join('')}`);
    try {
      const res = await fetch(`${base}/api/user`);
      if (res.status === 401) return { proc, base, log };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill('SIGKILL');
  throw new Error(`server did not start:\n${log.join('')}`);
}

const exited = (proc: ChildProcess) =>
  new Promise<void>((resolve) =>
    proc.exitCode !== null || proc.signalCode !== null ? resolve() : proc.once('exit', () => resolve()),
  );

class Client {
  cookie = '';
  constructor(public base: string) {}
  async req(method: string, url: string, body?: unknown) {
    const res = await fetch(this.base + url, {
      method,
      headers: {
        origin: this.base,
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.get('set-cookie');
    if (set?.startsWith('byline_session=')) this.cookie = set.split(';')[0];
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, body: json };
  }
}

const must = (r: { status: number; body: any }, what: string) => {
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

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

const PART1 = { personOrBrandName: 'Crash Test', backgroundExperience: 'Survives kill -9.' };
const PART2 = { mainGoal: 'Stay consistent', targetAudience: 'Auditors', mainMessage: 'Nothing half-applied' };

async function setup(base: string) {
  const admin = new Client(base);
  must(await admin.req('POST', '/api/login', ADMIN), 'admin login');
  const opportunities: string[] = [];
  for (let i = 0; i < 6; i++) {
    const body = {
      outletName: `Faults Outlet ${i}`,
      outletUrl: 'https://outlet.example.com',
      title: `Crash-tested placement ${i}`,
      description: 'A placement bought while the server is being killed.',
      type: ['profile_article'],
      tat: '2-3 weeks',
      priceUsd: '125.50',
      maxSlots: 50,
      domainAuthority: 50,
      deadlineDate: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
    };
    opportunities.push(must(await admin.req('POST', '/api/admin/opportunities', body), 'create opportunity').id);
  }
  const brands: Client[] = [];
  for (let i = 0; i < BRANDS; i++) {
    const c = new Client(base);
    const user = must(
      await c.req('POST', '/api/register', {
        email: `faults-${randomBytes(4).toString('hex')}@example.com`,
        password: BRAND_PASSWORD,
      }),
      'register',
    );
    must(
      await c.req('PATCH', '/api/user/profile', {
        name: `Brand ${i}`,
        brandName: `Brand ${i}`,
        website: 'https://brand.example.com',
      }),
      'profile',
    );
    must(await admin.req('POST', `/api/admin/approve-brand/${user.id}`), 'approve');
    brands.push(c);
  }
  return { opportunities, brands, admin };
}

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

async function checkDatabase(query: (sql: string) => Promise<Record<string, unknown>[]>, label: string) {
  const problems: string[] = [];
  const slots = await query(`
    SELECT o.id, o.filled_slots,
      (SELECT count(*) FROM checkout_sessions c WHERE c.opportunity_id = o.id AND c.status = 'open')::int AS open_holds,
      (SELECT count(*) FROM payments p WHERE p.opportunity_id = o.id AND p.holds_slot)::int AS held
    FROM opportunities o`);
  for (const r of slots)
    if (Number(r.filled_slots) !== Number(r.open_holds) + Number(r.held))
      problems.push(`slots of ${r.id}: filled ${r.filled_slots} ≠ ${r.open_holds} open holds + ${r.held} payments`);
  const orphans = await query(`
    SELECT 'completed hold without payment' AS what, c.id FROM checkout_sessions c WHERE c.status = 'completed' AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.id = c.id)
    UNION ALL
    SELECT 'payment without completed hold', p.id FROM payments p WHERE NOT EXISTS (SELECT 1 FROM checkout_sessions c WHERE c.id = p.id AND c.status = 'completed')`);
  for (const r of orphans) problems.push(`${r.what}: ${r.id}`);
  // a draft is only ever attached whole, and only to a payment whose brief was submitted
  const drafts = await query(`
    SELECT 'draft without review state' AS what, id FROM payments WHERE draft_document_url IS NOT NULL AND draft_review_status = 'awaiting_brand_brief'
    UNION ALL
    SELECT 'review state without draft', id FROM payments WHERE draft_document_url IS NULL AND draft_document_file IS NULL AND draft_review_status <> 'awaiting_brand_brief'
    UNION ALL
    SELECT 'draft without submitted brief', p.id FROM payments p WHERE p.draft_review_status <> 'awaiting_brand_brief'
      AND NOT EXISTS (SELECT 1 FROM briefs b WHERE b.payment_id = p.id AND b.submitted_at IS NOT NULL)`);
  for (const r of drafts) problems.push(`${r.what}: ${r.id}`);
  const stored = new Map(
    (await query(`SELECT id, draft_document_url FROM payments`)).map((r) => [String(r.id), r.draft_document_url]),
  );
  for (const [id, url] of ackedDrafts) if (stored.get(id) !== url) problems.push(`acknowledged draft of ${id} missing`);
  const [money] = await query(`SELECT count(*)::int AS n, coalesce(sum(amount), 0)::text AS total FROM payments`);
  if (Number(money.total) * 100 !== Number(money.n) * 12550)
    problems.push(`money: ${money.n} payments sum to ${money.total}`);
  if (problems.length) throw new Error(`${label}: database inconsistent:\n  ${problems.join('\n  ')}`);
  return {
    payments: Number(money.n),
    total: String(money.total),
    opportunities: slots.length,
    drafts: ackedDrafts.size,
  };
}

async function runKind(kind: 'pglite' | 'postgres') {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-faults-'));
  const env: Record<string, string> = { DATA_DIR: dataDir };
  let dropDb: (() => Promise<void>) | undefined;
  if (kind === 'postgres') {
    const url = process.env.FAULTS_DATABASE_URL ?? process.env.TEST_DATABASE_URL!;
    const name = `byline_faults_${randomBytes(5).toString('hex')}`;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    const u = new URL(url);
    u.pathname = `/${name}`;
    env.DATABASE_URL = u.toString();
    dropDb = async () => {
      const d = new pg.Client({ connectionString: url });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    };
  }
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
      const lists = await Promise.all(brands.map((c) => c.req('GET', '/api/brand/payments')));
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

    let result;
    if (kind === 'pglite') {
      const db = await PGlite.create(path.join(dataDir, 'db'));
      result = await checkDatabase(async (q) => (await db.query<Record<string, unknown>>(q)).rows, kind);
      await db.close();
    } else {
      const c = new pg.Client({ connectionString: env.DATABASE_URL });
      await c.connect();
      result = await checkDatabase(async (q) => (await c.query(q)).rows, kind);
      await c.end();
    }
    console.log(
      `faults ${kind}: ${totals.kills} kill -9 mid-workload; ${totals.ackedPays} acknowledged payments present once, ${totals.redelivered} lost answers redelivered and completed once, ${totals.ackedSaves} acknowledged autosaves and ${result.drafts} acknowledged draft attachments present; database consistent (${result.payments} payments = ${result.total} USD, slots = open holds + held payments on ${result.opportunities} opportunities)`,
    );
  } finally {
    await dropDb?.();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const kinds: ('pglite' | 'postgres')[] = ['pglite'];
if (process.env.FAULTS_DATABASE_URL ?? process.env.TEST_DATABASE_URL) kinds.push('postgres');
for (const kind of kinds) await runKind(kind);
