/**
 * Logs an operator can read and keep (issue 22): JSON lines with a request id (the caller's sane
 * X-Request-Id, else a new one, echoed in the answer), one completion line per request at `info`
 * with `route`, `responseTime` and `userId`; and never a secret. A full journey runs with the logger
 * writing to memory (sign-up and sign-in with passwords, a forgotten password reset through the
 * link mailed to a real SMTP server, a Stripe checkout and its signed webhook against the Stripe
 * stand-in), then every line is searched for each secret the journey used.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app';
import { configSchema } from '../../src/server/config';
import type { DbHandle } from '../../src/server/db/client';
import { mailOutbox } from '../../src/server/db/schema';
import { stripeProvider } from '../../src/server/providers/stripe';
import { diskFileStore } from '../../src/server/storage/file-store';
import { Agent } from '../support/app';
import { createTestDb } from '../support/db';
import { PASSWORD, kinds, signedIn, uniqueEmail } from '../support/factories';
import { linksIn, runMailWorker, startSmtp, type TestSmtp } from '../support/mail';
import { createOpportunity } from '../support/payments';
import { startStripeStandIn } from '../support/stripe-stand-in';

const WEBHOOK_SECRET = 'whsec_logs_test_secret_value_0123';
const SIGNUP_PASSWORD = 'Signup-Secret-Passw0rd';
const WRONG_PASSWORD = 'Almost-The-Passw0rd';
const NEW_PASSWORD = 'Reset-Secret-Passw0rd';
const CARD = '4242424242424242';

let handle: DbHandle;
let app: FastifyInstance;
let dataDir: string;
let smtp: TestSmtp;
let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
const lines: string[] = [];

beforeAll(async () => {
  handle = await createTestDb();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-logs-'));
  smtp = await startSmtp();
  stripe = await startStripeStandIn();
  app = await buildApp({
    db: handle.db,
    config: configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: 'https://byline.example.com' }),
    files: diskFileStore(path.join(dataDir, 'uploads')),
    payments: stripeProvider({ secretKey: 'sk_test_logs', webhookSecret: WEBHOOK_SECRET, host: '127.0.0.1', port: stripe.port, protocol: 'http' }),
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await handle?.close();
  await smtp?.close();
  await stripe?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type Line = Record<string, unknown> & { msg?: string; reqId?: string; route?: string };
/** The completion lines logged since `from` (an index into `lines`; the other tests log too). */
const completed = (from = 0) => lines.slice(from).map((l) => JSON.parse(l) as Line).filter((l) => l.msg === 'request completed');
const tokenOf = (agent: Agent) => agent.cookie!.split('=')[1];

describe('request logs', () => {
  it('a full journey leaves JSON lines with no password, session token, reset token, card, webhook secret or signature, nor a request body', async () => {
    const secrets: Record<string, string> = { SIGNUP_PASSWORD, WRONG_PASSWORD, NEW_PASSWORD, PASSWORD, CARD, WEBHOOK_SECRET };
    const from = lines.length;

    // sign-up, then sign-in with the password (and once with a wrong one)
    const email = uniqueEmail('logs');
    const visitor = new Agent(app);
    expect((await visitor.post('/api/register', { email, password: SIGNUP_PASSWORD })).status).toBe(201);
    secrets.signupSession = tokenOf(visitor);
    expect((await new Agent(app).post('/api/login', { email, password: WRONG_PASSWORD, card: CARD })).status).toBe(401);
    const member = new Agent(app);
    expect((await member.post('/api/login', { email, password: SIGNUP_PASSWORD })).status).toBe(200);
    secrets.loginSession = tokenOf(member);
    expect((await member.get('/api/user')).status).toBe(200);

    // a forgotten password: the link is mailed, opened (the page's URL carries the token), used
    expect((await new Agent(app).post('/api/password/forgot', { email })).status).toBe(200);
    // the reset link is queued just after the answer
    await vi.waitFor(async () => expect(await handle.db.$count(mailOutbox, eq(mailOutbox.toAddress, email))).toBe(1), { timeout: 20_000, interval: 50 });
    await runMailWorker(handle.db, smtp);
    const link = linksIn(smtp.to(email).at(-1)!.text).find((l) => l.includes('/reset-password?token='))!;
    const resetToken = new URL(link).searchParams.get('token')!;
    secrets.resetToken = resetToken;
    expect((await new Agent(app).get(`/reset-password?token=${resetToken}`)).status).toBe(404);
    expect((await new Agent(app).post('/api/password/reset', { token: resetToken, password: NEW_PASSWORD })).status).toBe(200);
    const again = new Agent(app);
    expect((await again.post('/api/login', { email, password: NEW_PASSWORD })).status).toBe(200);
    secrets.resetSession = tokenOf(again);

    // a Stripe checkout, paid, and its signed webhook (and one with a forged signature)
    const brand = await signedIn(app, handle.db, kinds.approvedBrand);
    secrets.brandSession = tokenOf(brand.agent);
    const opp = await createOpportunity(handle.db, { maxSlots: 1 });
    const checkout = await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(checkout.status).toBe(200);
    const sessionId = [...stripe.sessions.keys()].at(-1)!;
    stripe.pay(sessionId);
    const payload = JSON.stringify({ id: 'evt_logs_1', object: 'event', type: 'checkout.session.completed', data: { object: { id: sessionId, object: 'checkout.session' } } });
    const signature = new Stripe('sk_test_signer').webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    secrets.signature = signature.split('v1=')[1];
    const deliver = (sig: string) =>
      app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': sig }, payload });
    expect((await deliver(signature)).statusCode).toBe(200);
    expect((await deliver(signature.replace(/v1=\w+/, 'v1=' + 'f'.repeat(64)))).statusCode).toBe(400);
    expect((await brand.agent.get('/api/brand/payments')).body).toHaveLength(1);
    secrets.webhookBody = payload;
    secrets.loginBody = JSON.stringify({ email, password: SIGNUP_PASSWORD });

    // one completion line per request (13), nothing else at info here
    expect(completed(from)).toHaveLength(13);
    for (const line of lines) {
      expect(() => JSON.parse(line), line).not.toThrow();
      for (const [name, secret] of Object.entries(secrets)) expect(line.includes(secret), `${name} in ${line}`).toBe(false);
    }

    // the page's line names its path, never the query
    const page = completed(from).find((l) => l.url === '/reset-password')!;
    expect(page).toMatchObject({ route: 'unmatched', statusCode: 404, method: 'GET' });
    // the webhook's completion line, without the signature or body
    expect(completed(from).filter((l) => l.route === '/api/webhooks/stripe').map((l) => l.statusCode)).toEqual([200, 400]);
  });

  it('the completion line at info carries reqId, route (the template), responseTime in ms and userId when signed in', async () => {
    const { user, agent } = await signedIn(app, handle.db, kinds.admin);
    const before = lines.length;
    const res = await agent.request('POST', `/api/admin/payments/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/release`);
    expect(res.status).toBe(404);
    expect((await agent.get('/api/user')).status).toBe(200);
    const mine = completed().slice(-2);
    expect(lines.length).toBe(before + 2);
    expect(mine[1]).toMatchObject({ level: 30, msg: 'request completed', method: 'GET', url: '/api/user', route: '/api/user', statusCode: 200, userId: user.id });
    expect(mine[0]).toMatchObject({ method: 'POST', url: `/api/admin/payments/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/release` });
    expect(typeof mine[1].reqId).toBe('string');
    expect(mine[1].responseTime).toEqual(expect.any(Number));
    expect(mine[1].responseTime as number).toBeGreaterThan(0);
    expect(mine[0]).toMatchObject({ route: '/api/admin/payments/:id/release', statusCode: 404, userId: user.id });
    // a visitor's line has no userId
    await new Agent(app).get('/api/terms');
    const visitor = completed().at(-1)!;
    expect(visitor).toMatchObject({ route: '/api/terms', statusCode: 200 });
    expect(visitor).not.toHaveProperty('userId');
  });

  it('X-Request-Id: a sane one is used and echoed; anything else is replaced by a fresh id', async () => {
    const given = 'trace-42.abc_DEF';
    const res = await app.inject({ method: 'GET', url: '/api/terms', headers: { 'x-request-id': given } });
    expect(res.headers['x-request-id']).toBe(given);
    expect(completed().at(-1)).toMatchObject({ reqId: given, route: '/api/terms' });

    for (const bad of ['x'.repeat(129), 'has space', 'semi;colon', '"quoted"', '']) {
      const r = await app.inject({ method: 'GET', url: '/api/terms', headers: { 'x-request-id': bad } });
      const id = r.headers['x-request-id'] as string;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(completed().at(-1)!.reqId).toBe(id);
    }
    // without one: made, and different each time
    const a = (await app.inject({ method: 'GET', url: '/api/terms' })).headers['x-request-id'];
    const b = (await app.inject({ method: 'GET', url: '/api/terms' })).headers['x-request-id'];
    expect(a).not.toBe(b);
    // errors name it too
    expect((await app.inject({ method: 'GET', url: '/api/nothing-here', headers: { 'x-request-id': 'lost-1' } })).headers['x-request-id']).toBe('lost-1');
  });

  it('health probes leave no info line (a load balancer asks every few seconds)', async () => {
    const before = lines.length;
    for (const url of ['/healthz', '/readyz', '/metrics']) await app.inject({ method: 'GET', url });
    expect(lines.slice(before)).toEqual([]);
  });
});
