import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitHits, sessions, users } from '../../src/server/db/schema';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { PASSWORD, createUser, uniqueEmail } from '../support/factories';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/register', () => {
  it('creates a brand, signs it in and never returns the password', async () => {
    const agent = new Agent(t.app);
    const email = uniqueEmail('Signup').toUpperCase();
    const res = await agent.post('/api/register', { email, password: 'longenough' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: email.toLowerCase(), role: 'brand', approved: false, name: null });
    expect(res.body).not.toHaveProperty('password');
    const me = await agent.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email.toLowerCase());
  });

  it('[SECURITY] ignores a role in the request: sign-up always makes an unapproved brand', async () => {
    const agent = new Agent(t.app);
    const email = uniqueEmail('sneaky');
    const res = await agent.post('/api/register', { email, password: 'longenough', role: 'admin', approved: true, name: 'X' });
    expect(res.status).toBe(201);
    const [row] = await t.db.select().from(users).where(eq(users.email, email));
    expect(row).toMatchObject({ role: 'brand', approved: false, name: null });
    expect((await agent.get('/api/admin/invite-codes')).status).toBe(403);
  });

  it('stores an argon2id hash, not the password', async () => {
    const email = uniqueEmail();
    await new Agent(t.app).post('/api/register', { email, password: 'longenough' });
    const [row] = await t.db.select().from(users).where(eq(users.email, email));
    expect(row.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('refuses a duplicate e-mail (any case) with 409', async () => {
    const email = uniqueEmail();
    await new Agent(t.app).post('/api/register', { email, password: 'longenough' });
    const res = await new Agent(t.app).post('/api/register', { email: email.toUpperCase(), password: 'longenough' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('An account with this email already exists');
  });

  it.each([
    [{ email: 'not-an-email', password: 'longenough' }, 'email', 'Invalid email address'],
    [{ email: 'a@b.co', password: 'short' }, 'password', 'Password must be at least 8 characters'],
    [{ password: 'longenough' }, 'email', 'Invalid email address'],
    [{ email: 'a@b.co', password: 12345678 }, 'password', 'Password must be at least 8 characters'],
  ])('refuses %j with the spec message and creates nothing', async (body, field, message) => {
    const before = await t.db.$count(users);
    const res = await new Agent(t.app).post('/api/register', body);
    expect(res.status).toBe(400);
    expect(res.body.errors[field]).toBe(message);
    expect(await t.db.$count(users)).toBe(before);
  });
});

describe('POST /api/login', () => {
  it('signs in, rotating any earlier session id', async () => {
    const user = await createUser(t.db);
    const agent = new Agent(t.app);
    const first = await agent.post('/api/login', { email: user.email, password: PASSWORD });
    expect(first.status).toBe(200);
    expect(first.body.id).toBe(user.id);
    const firstCookie = agent.cookie;
    const second = await agent.post('/api/login', { email: user.email, password: PASSWORD });
    expect(second.status).toBe(200);
    expect(agent.cookie).not.toBe(firstCookie);
    // the old id no longer works
    const stale = new Agent(t.app);
    stale.cookie = firstCookie;
    expect((await stale.get('/api/user')).status).toBe(401);
  });

  it('sets an HttpOnly, SameSite=Lax cookie, Secure behind https', async () => {
    const user = await createUser(t.db);
    const plain = await new Agent(t.app).post('/api/login', { email: user.email, password: PASSWORD });
    const cookie = String(plain.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    const viaProxy = { 'x-forwarded-proto': 'https', origin: 'https://localhost:80' };
    // X-Forwarded-Proto is believed only from a proxy named in TRUST_PROXY
    const untrusted = await new Agent(t.app).request('POST', '/api/login', { email: user.email, password: PASSWORD }, viaProxy);
    expect(untrusted.status).toBe(403);
    const proxied = await createTestApp({ TRUST_PROXY: ['127.0.0.1'] });
    try {
      const u = await createUser(proxied.db);
      const https = await new Agent(proxied.app).request('POST', '/api/login', { email: u.email, password: PASSWORD }, viaProxy);
      expect(String(https.headers['set-cookie'])).toMatch(/Secure/);
    } finally {
      await proxied.close();
    }
  });

  it('answers an unknown e-mail and a wrong password the same way', async () => {
    const user = await createUser(t.db);
    const wrong = await new Agent(t.app).post('/api/login', { email: user.email, password: 'nope-nope-nope' });
    const unknown = await new Agent(t.app).post('/api/login', { email: uniqueEmail(), password: 'nope-nope-nope' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid email or password', code: 'invalid_credentials' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('validates with the spec messages', async () => {
    const res = await new Agent(t.app).post('/api/login', { email: 'nope', password: '' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ email: 'Invalid email address', password: 'Password is required' });
  });

  it('[SECURITY] throttles: more than 10 failures for one e-mail in 15 minutes → 429, even with the right password', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < 10; i++) {
      const res = await new Agent(t.app).post('/api/login', { email: user.email, password: 'wrong-password' });
      expect(res.status).toBe(401);
    }
    const blocked = await new Agent(t.app).post('/api/login', { email: user.email, password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/Too many failed sign-in attempts/);
    // failures older than the window no longer count
    await t.db.update(rateLimitHits).set({ at: new Date(Date.now() - 16 * 60_000) }).where(eq(rateLimitHits.subject, `${user.email} 127.0.0.1`));
    expect((await new Agent(t.app).post('/api/login', { email: user.email, password: PASSWORD })).status).toBe(200);
  });
});

describe('POST /api/logout', () => {
  it('deletes the session on the server and clears the cookie', async () => {
    const user = await createUser(t.db);
    const agent = new Agent(t.app);
    await agent.post('/api/login', { email: user.email, password: PASSWORD });
    const cookie = agent.cookie;
    expect(await t.db.$count(sessions, eq(sessions.userId, user.id))).toBe(1);
    const res = await agent.post('/api/logout');
    expect(res.status).toBe(200);
    expect(await t.db.$count(sessions, eq(sessions.userId, user.id))).toBe(0);
    const replay = new Agent(t.app);
    replay.cookie = cookie;
    expect((await replay.get('/api/user')).status).toBe(401);
  });
});

describe('GET /api/user', () => {
  it('answers 401 with a message for a visitor', async () => {
    const res = await new Agent(t.app).get('/api/user');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Not signed in');
  });

  it('ignores an expired session', async () => {
    const user = await createUser(t.db);
    const agent = new Agent(t.app);
    await agent.post('/api/login', { email: user.email, password: PASSWORD });
    await t.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, user.id));
    expect((await agent.get('/api/user')).status).toBe(401);
  });
});

describe('[SECURITY] cross-origin requests', () => {
  it('refuses an unsafe request from another origin or with no origin, and changes nothing', async () => {
    const email = uniqueEmail();
    const evil = await new Agent(t.app).request('POST', '/api/register', { email, password: 'longenough' }, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    const none = await t.app.inject({ method: 'POST', url: '/api/register', payload: { email, password: 'longenough' } });
    expect(none.statusCode).toBe(403);
    expect(await t.db.$count(users, eq(users.email, email))).toBe(0);
    const sameSite = await new Agent(t.app).request('POST', '/api/register', { email, password: 'longenough' }, { origin: '', 'sec-fetch-site': 'same-origin' });
    expect(sameSite.status).toBe(201);
  });

  it('sends security headers', async () => {
    const res = await new Agent(t.app).get('/api/user');
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await new Agent(t.app).request('POST', '/api/login', undefined, { 'content-type': 'application/json' });
    expect(res.status).toBeLessThan(500);
    const bad = await t.app.inject({ method: 'POST', url: '/api/login', headers: { origin: 'http://localhost:80', host: 'localhost:80', 'content-type': 'application/json' }, payload: '{"email":' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body).message).toBe('The request body is not valid JSON');
  });
});
