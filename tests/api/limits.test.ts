/**
 * Limits that hold (issue 15): failures are claimed before the password is checked, so concurrent
 * requests get exactly the limit through; a stranger cannot lock an account out; per-address and
 * per-user limits answer 429 with Retry-After and say when to try again; they live in the database,
 * so two app instances share them; uploads are bounded and unreferenced files are swept.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app';
import { mailOutbox, opportunities, rateLimitHits, uploads, users } from '../../src/server/db/schema';
import { diskFileStore } from '../../src/server/storage/file-store';
import { sweepUnreferencedUploads } from '../../src/server/storage/uploads';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { PASSWORD, createUser, signedIn, uniqueEmail } from '../support/factories';
import { createOpportunity, quickBrands } from '../support/payments';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let t: TestApp;
beforeAll(async () => {
  // a proxy on this host tells the client's address in X-Forwarded-For
  t = await createTestApp({ TRUST_PROXY: ['127.0.0.1'] });
});
afterAll(async () => {
  await t?.close();
});

const from = (address: string) => ({ 'x-forwarded-for': address });
const login = (app: TestApp['app'], email: string, password: string, address: string) =>
  new Agent(app).request('POST', '/api/login', { email, password }, from(address));

describe('sign-in', () => {
  it('[SECURITY] 100 concurrent wrong passwords for one account get exactly 10 guesses checked, the rest 429 with Retry-After', async () => {
    const user = await createUser(t.db);
    const answers = await Promise.all(Array.from({ length: 100 }, () => login(t.app, user.email, 'wrong-password', '10.1.0.1')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(90);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body.message).toBe('Too many failed sign-in attempts. Please try again in 15 minutes.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    // even the right password waits for the window from this client
    expect((await login(t.app, user.email, PASSWORD, '10.1.0.1')).status).toBe(429);
  });

  it('[SECURITY] a stranger cannot lock the owner out: failures lock only their own (account, address) pair and slow the account down', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < 10; i++) expect((await login(t.app, user.email, 'guess-' + i, '10.2.0.1')).status).toBe(401);
    expect((await login(t.app, user.email, 'guess-x', '10.2.0.1')).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await login(t.app, user.email, 'more-' + i, '10.2.0.2')).status).toBe(401);
    // 13 failures from anywhere: the owner gets in from their own address, after a pause
    const started = Date.now();
    const owner = await login(t.app, user.email, PASSWORD, '10.2.0.9');
    expect(owner.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    // the owner's sign-in does not forgive the stranger's pair
    expect((await login(t.app, user.email, PASSWORD, '10.2.0.1')).status).toBe(429);
  });

  it('30 failed sign-ins from one address, over any accounts, lock that address out', async () => {
    for (let i = 0; i < 30; i++) expect((await login(t.app, uniqueEmail('spray'), 'password-1', '10.3.0.1')).status).toBe(401);
    const user = await createUser(t.db);
    const refused = await login(t.app, user.email, PASSWORD, '10.3.0.1');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many failed sign-in attempts from your network. Please try again in 15 minutes.');
    expect((await login(t.app, user.email, PASSWORD, '10.3.0.2')).status).toBe(200);
  });

  it('[SECURITY] without TRUST_PROXY, X-Forwarded-For is ignored: a client cannot claim a fresh address per try', async () => {
    const plain = await createTestApp();
    try {
      const user = await createUser(plain.db);
      for (let i = 0; i < 10; i++) expect((await login(plain.app, user.email, 'wrong-password', `10.4.0.${i}`)).status).toBe(401);
      expect((await login(plain.app, user.email, 'wrong-password', '10.4.0.99')).status).toBe(429);
      const subjects = await plain.db.selectDistinct({ s: rateLimitHits.subject }).from(rateLimitHits).where(eq(rateLimitHits.bucket, 'signin-address'));
      expect(subjects).toEqual([{ s: '127.0.0.1' }]);
    } finally {
      await plain.close();
    }
  });

  it('TRUST_PROXY as a hop count: the address one hop in front of the proxy is the client', async () => {
    const hops = await createTestApp({ TRUST_PROXY: 1 });
    try {
      const user = await createUser(hops.db);
      // the client put a fake address first; the proxy appended the real one
      for (let i = 0; i < 10; i++) expect((await login(hops.app, user.email, 'wrong-password', `6.6.6.${i}, 10.9.0.1`)).status).toBe(401);
      expect((await login(hops.app, user.email, PASSWORD, '7.7.7.7, 10.9.0.1')).status).toBe(429);
      expect((await login(hops.app, user.email, PASSWORD, '6.6.6.1, 10.9.0.2')).status).toBe(200);
    } finally {
      await hops.close();
    }
  });

  it('two app instances on one database share the limits', async () => {
    const second = await buildApp({ db: t.db, config: t.config, files: diskFileStore(t.uploadsDir) });
    await second.ready();
    try {
      const user = await createUser(t.db);
      for (let i = 0; i < 5; i++) expect((await login(t.app, user.email, 'wrong-password', '10.5.0.1')).status).toBe(401);
      for (let i = 0; i < 5; i++) expect((await login(second, user.email, 'wrong-password', '10.5.0.1')).status).toBe(401);
      expect((await login(t.app, user.email, PASSWORD, '10.5.0.1')).status).toBe(429);
      expect((await login(second, user.email, PASSWORD, '10.5.0.1')).status).toBe(429);
    } finally {
      await second.close();
    }
  });
});

describe('sign-up', () => {
  it('10 accounts an hour per address; the 11th is refused before anything is stored', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await new Agent(t.app).request('POST', '/api/register', { email: uniqueEmail('new'), password: PASSWORD }, from('10.6.0.1'));
      expect(res.status).toBe(201);
    }
    const email = uniqueEmail('eleventh');
    const refused = await new Agent(t.app).request('POST', '/api/register', { email, password: PASSWORD }, from('10.6.0.1'));
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many accounts have been created from your network. Please try again in an hour.');
    expect(refused.headers['retry-after']).toBeDefined();
    expect(await t.db.$count(users, eq(users.email, email))).toBe(0);
    expect((await new Agent(t.app).request('POST', '/api/register', { email, password: PASSWORD }, from('10.6.0.2'))).status).toBe(201);
  });
});

describe('forgot password', () => {
  it('[SECURITY] 100 concurrent requests for one e-mail queue exactly 10 mails', async () => {
    const user = await createUser(t.db);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => new Agent(t.app).request('POST', '/api/password/forgot', { email: user.email }, from(`10.7.${i}.1`))),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(90);
    // the links are made after the answers; a refused request makes none
    const queued = () => t.db.$count(mailOutbox, and(eq(mailOutbox.toAddress, user.email), eq(mailOutbox.kind, 'password_reset')));
    await vi.waitFor(async () => expect(await queued()).toBeGreaterThanOrEqual(10), { timeout: 20_000, interval: 50 });
    expect(await queued()).toBe(10);
  });

  it('10 requests an hour per address, whatever the e-mails', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await new Agent(t.app).request('POST', '/api/password/forgot', { email: uniqueEmail('x') }, from('10.8.0.1'))).status).toBe(200);
    }
    const refused = await new Agent(t.app).request('POST', '/api/password/forgot', { email: uniqueEmail('x') }, from('10.8.0.1'));
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many password reset requests from your network\. Please try again in (an hour|\d+ minutes)\.$/);
  });
});

describe('signed-in limits', () => {
  it('10 invite-code attempts an hour per user; then even a valid code waits', async () => {
    const { agent } = await signedIn(t.app, t.db, { role: 'brand', name: null, brandName: null, website: null, approved: false });
    const body = (code: string) => ({ name: 'Pat Doe', brandName: 'Doe Ltd', website: 'https://doe.example.com', inviteCode: code });
    for (let i = 0; i < 10; i++) expect((await agent.patch('/api/user/profile', body(`GUESS-${i}`))).status).toBe(400);
    const refused = await agent.patch('/api/user/profile', body('BYLINE-DEMO'));
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many invite code attempts\. Please try again in (an hour|\d+ minutes)/);
  });

  it('30 checkouts started a minute per user (asking again for an open one starts none)', async () => {
    const [{ agent }] = await quickBrands(t.app, t.db, 1);
    const opps = await Promise.all(Array.from({ length: 31 }, () => createOpportunity(t.db, { maxSlots: 2 })));
    for (let i = 0; i < 30; i++) expect((await agent.post('/api/payments/checkout', { opportunityId: opps[i].id })).status).toBe(200);
    // a second click on a checkout already open gets it back, and counts as nothing new
    expect((await agent.post('/api/payments/checkout', { opportunityId: opps[0].id })).status).toBe(200);
    const refused = await agent.post('/api/payments/checkout', { opportunityId: opps[30].id });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many checkouts started\. Please try again in (\d+ seconds|1 minute)\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // nothing was reserved for the refused one
    expect((await t.db.select().from(opportunities).where(eq(opportunities.id, opps[30].id)))[0].filledSlots).toBe(0);
  });
});

describe('uploads', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ LIMIT_UPLOADS: { max: 3, windowMs: 86_400_000 }, LIMIT_UPLOAD_BYTES: { max: 1000, windowMs: 86_400_000 } });
  });
  afterAll(async () => {
    await small?.close();
  });

  it('[SECURITY] counts files per user and day, even for a brand not yet approved', async () => {
    const { agent } = await signedIn(small.app, small.db, { role: 'brand', approved: false });
    for (let i = 0; i < 3; i++) expect((await agent.upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png')).status).toBe(200);
    const refused = await agent.upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^You have uploaded too many files today\. Please try again in \d+ hours\.$/);
    const { agent: other } = await signedIn(small.app, small.db, { role: 'brand', approved: false });
    expect((await other.upload('/api/upload/avatar', 'avatar', PNG, 'me.png', 'image/png')).status).toBe(200);
  });

  it('counts bytes per user and day', async () => {
    const { agent } = await signedIn(small.app, small.db, { role: 'brand' });
    const big = Buffer.alloc(700);
    PNG.copy(big);
    expect((await agent.upload('/api/upload/avatar', 'avatar', big, 'me.png', 'image/png')).status).toBe(200);
    const refused = await agent.upload('/api/upload/avatar', 'avatar', big, 'me.png', 'image/png');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^You have uploaded too much today/);
    expect(await small.db.$count(uploads)).toBeGreaterThan(0);
  });

  it('a file nothing refers to a day after its upload is deleted; one in use stays', async () => {
    const { agent } = await signedIn(t.app, t.db, { role: 'brand' });
    const kept = (await agent.upload('/api/upload/avatar', 'avatar', PNG, 'a.png', 'image/png')).body.url as string;
    const orphan = (await agent.upload('/api/upload/avatar', 'avatar', PNG, 'b.png', 'image/png')).body.url as string;
    const fresh = (await agent.upload('/api/upload/avatar', 'avatar', PNG, 'c.png', 'image/png')).body.url as string;
    expect((await agent.patch('/api/user/profile', { avatarUrl: kept })).status).toBe(200);
    const name = (url: string) => url.replace('/uploads/', '');
    await t.db
      .update(uploads)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(sql`${uploads.name} IN (${name(kept)}, ${name(orphan)})`);

    const deleted = await sweepUnreferencedUploads(t.db, diskFileStore(t.uploadsDir));
    expect(deleted).toContain(name(orphan));
    expect(deleted).not.toContain(name(kept));
    expect(deleted).not.toContain(name(fresh));
    expect(existsSync(path.join(t.uploadsDir, name(orphan)))).toBe(false);
    expect((await new Agent(t.app).get(orphan)).status).toBe(404);
    expect((await new Agent(t.app).get(kept)).status).toBe(200);
    expect((await new Agent(t.app).get(fresh)).status).toBe(200);
  });
});
