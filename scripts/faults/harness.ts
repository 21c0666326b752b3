/**
 * What the crash-safety runs (npm run test:faults) share: the real server as a child process, an
 * HTTP client with a session cookie, the workload's set-up through the API, scratch databases and
 * the consistency check of a database after the run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createPglite } from '../../src/server/db/pglite';
import pg from 'pg';
import { builtServerArgs } from '../lib/server-build';

export const ADMIN = { email: 'faults-admin@byline.test', password: 'faults-admin-password-1' };
const BRAND_PASSWORD = 'faults-brand-password-1';
/** Every opportunity of the runs costs this much (the money check multiplies by it). */
export const PRICE_CENTS = 12550;

export interface Server {
  proc: ChildProcess;
  base: string;
  log: string[];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

let serverArgs: string[] | undefined;

/** The built server (dist/server/main.js) as `npm start` runs it; resolves once it answers HTTP. */
export async function start(env: Record<string, string>, port: number): Promise<Server> {
  serverArgs ??= builtServerArgs();
  const proc = spawn(process.execPath, serverArgs, {
    env: {
      ...process.env,
      // each simulated brand starts checkouts as fast as the machine allows, well past the
      // per-brand limit (tests/api/limits.test.ts proves that one); crashes are tested here
      LIMIT_CHECKOUTS: '1000000/1m',
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
    await sleep(100);
  }
  proc.kill('SIGKILL');
  throw new Error(`server did not start:\n${log.join('')}`);
}

export const exited = (proc: ChildProcess) =>
  new Promise<void>((resolve) =>
    proc.exitCode !== null || proc.signalCode !== null ? resolve() : proc.once('exit', () => resolve()),
  );

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely and asserted by each check
  body: any;
  /** the next page of a paged list (its `Link: <…>; rel="next"`), or null */
  next?: string | null;
}

export class Client {
  cookie = '';
  constructor(public base: string) {}
  /** `timeoutMs`: give up (TimeoutError) instead of waiting for ever on a server that hangs. */
  async req(method: string, url: string, body?: unknown, opts: { timeoutMs?: number } = {}): Promise<Answer> {
    const res = await fetch(this.base + url, {
      method,
      headers: {
        origin: this.base,
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: opts.timeoutMs ? AbortSignal.timeout(opts.timeoutMs) : undefined,
    });
    const set = res.headers.get('set-cookie');
    if (set?.startsWith('byline_session=')) this.cookie = set.split(';')[0];
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
    return { status: res.status, body: json, next };
  }

  /** Every row of a paged list (lists answer 50 rows a page by default), following the Link headers. */
  async all(url: string): Promise<Answer> {
    const rows: unknown[] = [];
    let next: string | null = url;
    while (next) {
      const page = await this.req('GET', next);
      if (page.status !== 200 || !Array.isArray(page.body)) return page;
      rows.push(...(page.body as unknown[]));
      next = page.next ?? null;
    }
    return { status: 200, body: rows, next: null };
  }
}

export const must = (r: Answer, what: string) => {
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

export const PART1 = { personOrBrandName: 'Crash Test', backgroundExperience: 'Survives kill -9.' };
export const PART2 = { mainGoal: 'Stay consistent', targetAudience: 'Auditors', mainMessage: 'Nothing half-applied' };

/** The admin, `count` opportunities at PRICE_CENTS and `brands` approved brands, all through the API. */
export async function setup(base: string, opts: { opportunities?: number; brands?: number } = {}) {
  const admin = new Client(base);
  must(await admin.req('POST', '/api/login', ADMIN), 'admin login');
  const opportunities: string[] = [];
  for (let i = 0; i < (opts.opportunities ?? 6); i++) {
    const body = {
      outletName: `Faults Outlet ${i}`,
      outletUrl: 'https://outlet.example.com',
      title: `Crash-tested placement ${i}`,
      description: 'A placement bought while the server is being killed.',
      type: ['profile_article'],
      tat: '2-3 weeks',
      priceUsd: (PRICE_CENTS / 100).toFixed(2),
      maxSlots: 500,
      domainAuthority: 50,
      deadlineDate: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
    };
    opportunities.push(must(await admin.req('POST', '/api/admin/opportunities', body), 'create opportunity').id);
  }
  const brands: Client[] = [];
  const brandIds: string[] = [];
  for (let i = 0; i < (opts.brands ?? 4); i++) {
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
    brandIds.push(user.id);
  }
  return { opportunities, brands, brandIds, admin };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc SQL, read by each check
export type Query = (sql: string, params?: unknown[]) => Promise<Record<string, any>[]>;

/**
 * A fresh database for one run: the embedded PGlite under a temporary DATA_DIR, or a scratch
 * database on the PostgreSQL server at `url`. `env` is what the server needs; `query` opens the
 * database directly (only once the server has stopped, for PGlite); `cleanup` removes it all.
 */
export async function scratchDatabase(kind: 'pglite' | 'postgres', url?: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-faults-'));
  const env: Record<string, string> = { DATA_DIR: dataDir };
  let dropDb: (() => Promise<void>) | undefined;
  if (kind === 'postgres') {
    const name = `byline_faults_${randomBytes(5).toString('hex')}`;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    const u = new URL(url!);
    u.pathname = `/${name}`;
    env.DATABASE_URL = u.toString();
    dropDb = async () => {
      const d = new pg.Client({ connectionString: url });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    };
  }
  /** Runs `fn` with a direct connection to the database (PGlite: the server must be stopped). */
  async function withQuery<T>(fn: (q: Query) => Promise<T>): Promise<T> {
    if (kind === 'pglite') {
      const db = await createPglite({ dataDir: path.join(dataDir, 'db') });
      try {
        return await fn(async (q, params) => (await db.query<Record<string, unknown>>(q, params)).rows);
      } finally {
        await db.close();
      }
    }
    const c = new pg.Client({ connectionString: env.DATABASE_URL });
    await c.connect();
    try {
      return await fn(async (q, params) => (await c.query(q, params)).rows);
    } finally {
      await c.end();
    }
  }
  return {
    env,
    dataDir,
    withQuery,
    async cleanup() {
      await dropDb?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Nothing half-applied: each opportunity's filled slots equal its open holds plus its payments
 * holding a slot; every completed hold has exactly one payment and every payment a completed hold;
 * a draft is attached whole and only to a payment with a submitted brief; every acknowledged draft
 * is stored; the payments sum to count × price (integer cents).
 */
export async function checkDatabase(query: Query, label: string, ackedDrafts: Map<string, string> = new Map()) {
  const problems: string[] = [];
  const slots = await query(`
    SELECT o.id, o.filled_slots,
      (SELECT count(*) FROM checkouts c WHERE c.opportunity_id = o.id AND c.status = 'open')::int AS open_holds,
      (SELECT count(*) FROM payments p WHERE p.opportunity_id = o.id AND p.holds_slot)::int AS held
    FROM opportunities o`);
  for (const r of slots)
    if (Number(r.filled_slots) !== Number(r.open_holds) + Number(r.held))
      problems.push(`slots of ${r.id}: filled ${r.filled_slots} ≠ ${r.open_holds} open holds + ${r.held} payments`);
  const orphans = await query(`
    SELECT 'completed hold without payment' AS what, c.id FROM checkouts c WHERE c.status = 'completed' AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.id = c.id)
    UNION ALL
    SELECT 'payment without completed hold', p.id FROM payments p WHERE NOT EXISTS (SELECT 1 FROM checkouts c WHERE c.id = p.id AND c.status = 'completed')`);
  for (const r of orphans) problems.push(`${r.what}: ${r.id}`);
  // every payment pays for exactly one placement, whose state is the payment's status
  const placed = await query(`
    SELECT 'payment without placement' AS what, p.id FROM payments p WHERE NOT EXISTS (SELECT 1 FROM placements x WHERE x.payment_id = p.id)
    UNION ALL
    SELECT 'placement state ' || x.state || ' with payment ' || p.status, x.id FROM placements x JOIN payments p ON p.id = x.payment_id
      WHERE x.state <> CASE p.status WHEN 'released' THEN 'published' WHEN 'refunded' THEN 'refunded' ELSE 'in_progress' END`);
  for (const r of placed) problems.push(`${r.what}: ${r.id}`);
  // a draft is only ever attached whole, and only to a placement whose brief was submitted
  const drafts = await query(`
    SELECT 'draft without review state' AS what, id FROM placements WHERE draft_document_url IS NOT NULL AND draft_review_status = 'awaiting_brand_brief'
    UNION ALL
    SELECT 'review state without draft', id FROM placements WHERE draft_document_url IS NULL AND draft_document_file IS NULL AND draft_review_status <> 'awaiting_brand_brief'
    UNION ALL
    SELECT 'draft without submitted brief', p.id FROM placements p WHERE p.draft_review_status <> 'awaiting_brand_brief'
      AND NOT EXISTS (SELECT 1 FROM briefs b WHERE b.placement_id = p.id AND b.submitted_at IS NOT NULL)`);
  for (const r of drafts) problems.push(`${r.what}: ${r.id}`);
  const stored = new Map(
    (await query(`SELECT id, draft_document_url FROM placements`)).map((r) => [String(r.id), r.draft_document_url]),
  );
  for (const [id, url] of ackedDrafts) if (stored.get(id) !== url) problems.push(`acknowledged draft of ${id} missing`);
  // every payment has exactly one invoice, numbered in its fulfilment's transaction: after any
  // number of kills each series is 1..n without a gap and its counter stands at n
  const invoices = await query(`
    SELECT 'payment without invoice' AS what, p.id::text AS id FROM payments p
      WHERE NOT EXISTS (SELECT 1 FROM tax_documents d WHERE d.payment_id = p.id AND d.kind = 'invoice')
    UNION ALL
    SELECT 'gap or repeat in ' || series || '-' || year, string_agg(n::text, ',') FROM (
      SELECT substring(number from '^(.*)-\\d{4}-\\d{6}$') AS series, substring(number from '-(\\d{4})-\\d{6}$')::int AS year,
        substring(number from '(\\d{6})$')::int AS n,
        row_number() OVER (PARTITION BY substring(number from '^(.*)-\\d{6}$') ORDER BY number) AS k
      FROM tax_documents) d
      WHERE n <> k GROUP BY series, year
    UNION ALL
    SELECT 'counter ahead of documents in ' || c.series || '-' || c.year, c.last::text FROM document_counters c
      WHERE c.last <> (SELECT count(*) FROM tax_documents d WHERE d.number LIKE c.series || '-' || c.year || '-%')`);
  for (const r of invoices) problems.push(`${r.what}: ${r.id}`);
  const [money] = await query(
    `SELECT count(*)::int AS n, coalesce(sum(amount * 100), 0)::bigint::text AS cents, coalesce(sum(amount), 0)::text AS total FROM payments`,
  );
  if (BigInt(money.cents) !== BigInt(money.n) * BigInt(PRICE_CENTS))
    problems.push(`money: ${money.n} payments sum to ${money.total}`);
  if (problems.length) throw new Error(`${label}: database inconsistent:\n  ${problems.join('\n  ')}`);
  return {
    payments: Number(money.n),
    total: String(money.total),
    opportunities: slots.length,
    drafts: ackedDrafts.size,
  };
}

/** The server's own log, for a failure message. */
export const logTail = (server: Server, lines = 40) => server.log.join('').split('\n').slice(-lines).join('\n');
