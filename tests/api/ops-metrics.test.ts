/**
 * GET /metrics (issue 22): a scripted journey (sign-ins, two checkouts paid with the test provider,
 * a release, a refund, mail delivery failing then succeeding) and the Prometheus text counts exactly
 * that. Off (404) without METRICS_TOKEN, 401 without the right bearer token.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { configSchema, loadConfig } from '../../src/server/config';
import type { DbHandle } from '../../src/server/db/client';
import { JOBS, startJobs } from '../../src/server/jobs/boss';
import { smtpMailer } from '../../src/server/mail/mailer';
import { deliverPending } from '../../src/server/mail/outbox';
import { receiptAttachments } from '../../src/server/modules/invoices/service';
import { WorkerStatus } from '../../src/server/ops/worker';
import { countEvent } from '../../src/server/ops/events';
import { testCheckoutProvider } from '../../src/server/providers/test-checkout';
import { diskFileStore } from '../../src/server/storage/file-store';
import { Agent } from '../support/app';
import { createTestDb, dbKind } from '../support/db';
import { PASSWORD, kinds, signedIn } from '../support/factories';
import { startSmtp, TEST_BASE_URL, TEST_FROM } from '../support/mail';
import { createOpportunity, sessionIdOf } from '../support/payments';

const TOKEN = 'metrics-token-0123456789abcdef';

let handle: DbHandle;
let dataDir: string;
beforeAll(async () => {
  handle = await createTestDb();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-metrics-'));
});
afterAll(async () => {
  await handle?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function appWith(settings: Record<string, string>, worker?: WorkerStatus, clientDir?: string) {
  const app = await buildApp({
    db: handle.db,
    config: configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDir, ...settings }),
    files: diskFileStore(path.join(dataDir, 'uploads')),
    worker,
    clientDir,
  });
  await app.ready();
  return app;
}

const scrape = (app: FastifyInstance, authorization?: string) =>
  app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

/** The samples of a Prometheus text page: `name{a="x",b="y"}` (labels sorted) → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels = m[2] ? [...m[2].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => `${l[1]}="${l[2]}"`).sort() : [];
    out.set(labels.length ? `${m[1]}{${labels.join(',')}}` : m[1], Number(m[3]));
  }
  return out;
}

const closedPort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

/** Sign-ins, two checkouts paid, a release, a refund, mails failing then sent: and what /metrics counted. */
async function journey(app: FastifyInstance) {
  expect((await scrape(app)).statusCode).toBe(401);
  const admin = await signedIn(app, handle.db, kinds.admin);
  const brand = await signedIn(app, handle.db, kinds.approvedBrand);
  expect((await new Agent(app).post('/api/login', { email: brand.user.email, password: `${PASSWORD}-not` })).status).toBe(401);

  const paid: string[] = [];
  const sessions: string[] = [];
  for (let i = 0; i < 2; i++) {
    const opp = await createOpportunity(handle.db, { maxSlots: 1 });
    const checkout = await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(checkout.status).toBe(200);
    sessions.push(sessionIdOf(checkout.body.url));
    const pay = await brand.agent.post(`/api/payments/checkout/${sessions[i]}/pay`);
    expect(pay.status).toBe(200);
    expect(pay.body.status).toBe('paid');
    paid.push(pay.body.paymentId);
  }
  // a double click on Pay books nothing more
  const again = await brand.agent.post(`/api/payments/checkout/${sessions[0]}/pay`);
  expect(again.status).toBe(200);
  expect(again.body.paymentId).toBe(paid[0]);
  expect((await admin.agent.post(`/api/admin/payments/${paid[0]}/release`)).status).toBe(200);
  expect((await admin.agent.post(`/api/admin/payments/${paid[1]}/refund`)).status).toBe(200);
  // refused: released already
  expect((await admin.agent.post(`/api/admin/payments/${paid[0]}/release`)).status).toBe(409);
  for (let i = 0; i < 3; i++) expect((await brand.agent.get('/api/brand/payments')).status).toBe(200);
  expect((await brand.agent.get('/api/no-such-route')).status).toBe(404);

  // the mails the journey queued: first the SMTP server is down (each fails once), then it is up
  const down = await deliverPending(handle.db, { mailer: smtpMailer(`smtp://127.0.0.1:${await closedPort()}`), from: TEST_FROM, baseUrl: TEST_BASE_URL, attachments: receiptAttachments() });
  const smtp = await startSmtp();
  const mailer = smtpMailer(smtp.url);
  const up = await deliverPending(handle.db, { mailer, from: TEST_FROM, baseUrl: TEST_BASE_URL, attachments: receiptAttachments() });
  mailer.close();
  await smtp.close();
  expect(down.sent).toBe(0);
  expect(down.failed).toBeGreaterThan(0);
  expect(up).toEqual({ sent: down.failed, failed: 0 });

  const res = await scrape(app, `Bearer ${TOKEN}`);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(res.headers['cache-control']).toBe('no-store');
  const m = samples(res.body);
  const requests = (method: string, route: string, status: number) => m.get(`http_requests_total{method="${method}",route="${route}",status="${status}"}`);

  expect(m.get('byline_payments_total')).toBe(2);
  expect(m.get('byline_releases_total')).toBe(1);
  expect(m.get('byline_refunds_total')).toBe(1);
  expect(m.get('byline_emails_failed_total')).toBe(down.failed);
  expect(m.get('byline_emails_sent_total')).toBe(up.sent);

  expect(requests('GET', '/metrics', 401)).toBe(1);
  expect(requests('POST', '/api/login', 200)).toBe(2);
  expect(requests('POST', '/api/login', 401)).toBe(1);
  expect(requests('POST', '/api/payments/checkout', 200)).toBe(2);
  expect(requests('POST', '/api/payments/checkout/:sessionId/pay', 200)).toBe(3);
  expect(requests('POST', '/api/admin/payments/:id/release', 200)).toBe(1);
  expect(requests('POST', '/api/admin/payments/:id/release', 409)).toBe(1);
  expect(requests('POST', '/api/admin/payments/:id/refund', 200)).toBe(1);
  expect(requests('GET', '/api/brand/payments', 200)).toBe(3);
  expect(requests('GET', 'unmatched', 404)).toBe(1);
  // the histogram: one observation per request, by method and route (no status)
  expect(m.get('http_request_duration_seconds_count{method="POST",route="/api/login"}')).toBe(3);
  expect(m.get('http_request_duration_seconds_count{method="POST",route="/api/admin/payments/:id/release"}')).toBe(2);
  expect(m.get('http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/brand/payments"}')).toBe(3);
  expect(m.get('http_request_duration_seconds_sum{method="GET",route="/api/brand/payments"}')).toBeGreaterThan(0);
  // only templates: no id of this journey is a label value
  for (const id of paid) expect(res.body).not.toContain(id);

  // the database pool: PostgreSQL's pool, nothing for the embedded database
  if (dbKind === 'postgres') {
    expect(m.get('byline_db_pool_connections_in_use')).toBeGreaterThanOrEqual(0);
    expect(m.get('byline_db_pool_waiting_clients')).toBe(0);
  } else {
    expect(m.has('byline_db_pool_connections_in_use')).toBe(false);
  }
  // Node's own
  expect(m.get('process_resident_memory_bytes')).toBeGreaterThan(0);

  // the scrape itself is counted once answered
  const next = samples((await scrape(app, `Bearer ${TOKEN}`)).body);
  expect(next.get('http_requests_total{method="GET",route="/metrics",status="200"}')).toBe(1);
  expect(next.get('byline_payments_total')).toBe(2);
}

describe('METRICS_TOKEN', () => {
  it('is validated: 16 to 200 printable characters', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be 16 to 200 printable characters/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in it 0123456789' })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).METRICS_TOKEN).toBe(TOKEN);
    expect(loadConfig({}).SHUTDOWN_TIMEOUT_S).toBe(20);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_S: '0' })).toThrow(/SHUTDOWN_TIMEOUT_S/);
  });

  it('unset: /metrics answers 404 like an unknown API route, whatever the token', async () => {
    const app = await appWith({});
    try {
      for (const auth of [undefined, `Bearer ${TOKEN}`]) {
        const res = await scrape(app, auth);
        expect(res.statusCode).toBe(404);
        expect(JSON.parse(res.body)).toEqual({ message: 'Not found', code: 'not_found' });
      }
    } finally {
      await app.close();
    }
  });
});

describe('GET /metrics', () => {
  let app: FastifyInstance;
  const worker = new WorkerStatus();
  beforeAll(async () => {
    app = await appWith({ METRICS_TOKEN: TOKEN }, worker);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is 401 without the token, with a wrong one, or another scheme; the body says nothing', async () => {
    for (const auth of [undefined, 'Bearer wrong-token-0123456789abcdef', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, TOKEN]) {
      const res = await scrape(app, auth);
      expect(res.statusCode, String(auth)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(JSON.parse(res.body)).toEqual({ message: 'Unauthorized', code: 'bad_metrics_token' });
    }
  });

  it('counts exactly what a journey did: requests by route template, payments, a release, a refund, e-mails', async () => {
    // an app of its own, so that nothing another test of this file did is counted
    const own = await appWith({ METRICS_TOKEN: TOKEN });
    try {
      await journey(own);
    } finally {
      await own.close();
    }
  });


  it('shows live article checks by result (publication.ts publishes them: publication.test.ts)', async () => {
    const before = samples((await scrape(app, `Bearer ${TOKEN}`)).body);
    countEvent('link-check', 'pass');
    countEvent('link-check', 'pass');
    countEvent('link-check', 'fail');
    const after = samples((await scrape(app, `Bearer ${TOKEN}`)).body);
    const delta = (result: string) => (after.get(`byline_link_checks_total{result="${result}"}`) ?? 0) - (before.get(`byline_link_checks_total{result="${result}"}`) ?? 0);
    expect([delta('pass'), delta('fail'), delta('warning')]).toEqual([2, 1, 0]);
  });

  it('reports the job queues once the worker runs', async () => {
    expect([...samples((await scrape(app, `Bearer ${TOKEN}`)).body).keys()].filter((k) => k.startsWith('byline_job_queue'))).toEqual([]);
    const jobs = await startJobs({
      handle,
      databaseUrl: handle.pool?.options.connectionString,
      provider: testCheckoutProvider(handle.db),
      files: diskFileStore(path.join(dataDir, 'uploads')),
      rateLimitKeepMs: 86_400_000,
    });
    try {
      worker.attach(jobs.boss);
      const m = samples((await scrape(app, `Bearer ${TOKEN}`)).body);
      expect(m.has(`byline_job_queue_depth{queue="${JOBS.embeddedMaintenance}"}`)).toBe(dbKind === 'pglite');
      // the embedded database's upkeep is a queue on PGlite only (a server has autovacuum)
      const queues = Object.values(JOBS).filter((q) => dbKind === 'pglite' || q !== JOBS.embeddedMaintenance);
      for (const queue of queues) {
        for (const gauge of ['byline_job_queue_depth', 'byline_job_queue_active', 'byline_job_queue_failed']) {
          expect(m.get(`${gauge}{queue="${queue}"}`), `${gauge} ${queue}`).toBeGreaterThanOrEqual(0);
        }
      }
    } finally {
      await jobs.stop();
    }
  });
});

describe('GET /metrics with the built client served', () => {
  it('counts the hashed assets under one route, and the pages of the client as unmatched', async () => {
    const clientDir = path.join(dataDir, 'client');
    mkdirSync(path.join(clientDir, 'assets'), { recursive: true });
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(clientDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(clientDir, 'assets', 'page-def456.js'), 'console.log(2)');
    const app = await appWith({ METRICS_TOKEN: TOKEN }, undefined, clientDir);
    try {
      for (const url of ['/assets/index-abc123.js', '/assets/page-def456.js', '/brand/opportunities']) {
        expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
      }
      const m = samples((await scrape(app, `Bearer ${TOKEN}`)).body);
      expect(m.get('http_requests_total{method="GET",route="/assets/*",status="200"}')).toBe(2);
      expect(m.get('http_requests_total{method="GET",route="unmatched",status="200"}')).toBe(1);
      expect([...m.keys()].filter((k) => k.includes('abc123') || k.includes('/brand/opportunities'))).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
