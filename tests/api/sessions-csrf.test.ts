/**
 * Sessions and CSRF: a planted session id is worthless after sign-in (fixation), signing out ends
 * the session on the server, the cookie's flags, and every unsafe route the server registers
 * refuses a request that does not come from our own pages.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { configSchema } from '../../src/server/config';
import type { Db, DbHandle } from '../../src/server/db/client';
import { sessions } from '../../src/server/db/schema';
import { diskFileStore } from '../../src/server/storage/file-store';
import { Agent, ORIGIN } from '../support/app';
import { createTestDb } from '../support/db';
import { PASSWORD, createUser, kinds, signedIn } from '../support/factories';

let t: { app: FastifyInstance; db: Db; handle: DbHandle; close(): Promise<void> };
const unsafe: { method: string; url: string }[] = [];

beforeAll(async () => {
  const handle = await createTestDb();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-csrf-'));
  // behind a proxy on this host: X-Forwarded-Proto says whether the browser used https
  const config = configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDir, TRUST_PROXY: '127.0.0.1' });
  const onRoute = (r: RouteOptions) => {
    for (const m of [r.method].flat())
      if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(m)) unsafe.push({ method: m, url: r.url! });
  };
  const app = await buildApp({ db: handle.db, config, files: diskFileStore(path.join(dataDir, 'uploads')), onRoute });
  await app.ready();
  t = {
    app,
    db: handle.db,
    handle,
    async close() {
      await app.close();
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
afterAll(() => t?.close());

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const tokenOf = (agent: Agent) => agent.cookie!.replace(/^byline_session=/, '');
const sessionRow = async (token: string) =>
  (
    await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, hash(token)))
  )[0];

async function login(agent: Agent, email: string, headers: Record<string, string> = {}) {
  return agent.request('POST', '/api/login', { email, password: PASSWORD }, headers);
}

describe('session fixation', () => {
  it('a session id planted before sign-in is replaced, and the planted id stops working', async () => {
    // the attacker's own valid session, planted in the victim's browser
    const attacker = await signedIn(t.app, t.db, kinds.approvedBrand);
    const planted = tokenOf(attacker.agent);
    const victimUser = await createUser(t.db, kinds.approvedBrand);
    const victim = new Agent(t.app);
    victim.cookie = `byline_session=${planted}`;
    const res = await login(victim, victimUser.email);
    expect(res.status).toBe(200);
    expect(tokenOf(victim)).not.toBe(planted);
    expect((await victim.get('/api/user')).body.id).toBe(victimUser.id);
    // the planted id no longer opens any session: not the attacker's, not the victim's
    expect(await sessionRow(planted)).toBeUndefined();
    const replay = new Agent(t.app);
    replay.cookie = `byline_session=${planted}`;
    expect((await replay.get('/api/user')).status).toBe(401);
  });

  it('an unknown planted id is never adopted: sign-in issues a new random one', async () => {
    const user = await createUser(t.db, kinds.approvedBrand);
    const agent = new Agent(t.app);
    const planted = 'attacker-chosen-session-id-0123456789abcdef';
    agent.cookie = `byline_session=${planted}`;
    expect((await login(agent, user.email)).status).toBe(200);
    expect(tokenOf(agent)).not.toBe(planted);
    expect(await sessionRow(planted)).toBeUndefined();
  });

  it('every sign-in gets a new id (256-bit, stored only as its hash); registering does too', async () => {
    const user = await createUser(t.db, kinds.approvedBrand);
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const agent = new Agent(t.app);
      expect((await login(agent, user.email)).status).toBe(200);
      const token = tokenOf(agent);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      seen.add(token);
      expect(await t.db.select().from(sessions).where(eq(sessions.id, token))).toHaveLength(0);
      expect(await sessionRow(token)).toBeDefined();
    }
    expect(seen.size).toBe(3);

    const before = await signedIn(t.app, t.db, kinds.approvedBrand);
    const old = tokenOf(before.agent);
    const res = await before.agent.post('/api/register', {
      email: `fix-${randomBytes(4).toString('hex')}@example.com`,
      password: 'a-long-enough-password-1',
    });
    expect(res.status).toBe(201);
    expect(tokenOf(before.agent)).not.toBe(old);
    expect(await sessionRow(old)).toBeUndefined();
  });
});

describe('signing out', () => {
  it('ends the session on the server: the old cookie, replayed, is refused', async () => {
    const { agent } = await signedIn(t.app, t.db, kinds.admin);
    const token = tokenOf(agent);
    const stolen = agent.cookie!;
    const res = await agent.post('/api/logout');
    expect(res.status).toBe(200);
    const cleared = ([] as string[])
      .concat(res.headers['set-cookie'] as string | string[])
      .find((c) => c.startsWith('byline_session='))!;
    expect(cleared).toMatch(/^byline_session=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/i);
    expect(await sessionRow(token)).toBeUndefined();
    const replay = new Agent(t.app);
    replay.cookie = stolen;
    expect((await replay.get('/api/user')).status).toBe(401);
    expect((await replay.get('/api/admin/payments')).status).toBe(401);
  });

  it('ends only that session: the same user signed in elsewhere stays signed in', async () => {
    const user = await createUser(t.db, kinds.approvedBrand);
    const [a, b] = [new Agent(t.app), new Agent(t.app)];
    await login(a, user.email);
    await login(b, user.email);
    await a.post('/api/logout');
    expect((await a.get('/api/user')).status).toBe(401);
    expect((await b.get('/api/user')).status).toBe(200);
  });

  it('an expired session is refused even though its row is still there', async () => {
    const { agent } = await signedIn(t.app, t.db, kinds.approvedBrand);
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, hash(tokenOf(agent))));
    expect((await agent.get('/api/user')).status).toBe(401);
  });
});

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/, expires with the session, and not Secure over plain http', async () => {
    const user = await createUser(t.db, kinds.approvedBrand);
    const res = await login(new Agent(t.app), user.email);
    const cookie = ([] as string[])
      .concat(res.headers['set-cookie'] as string | string[])
      .find((c) => c.startsWith('byline_session='))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/; Domain=/);
    expect(cookie).not.toMatch(/; Secure/);
    const expires = new Date(/Expires=([^;]+)/.exec(cookie)![1]).getTime();
    const row = await sessionRow(/^byline_session=([^;]+)/.exec(cookie)![1]);
    expect(Math.abs(expires - row.expiresAt.getTime())).toBeLessThan(1000);
    expect(expires).toBeGreaterThan(Date.now());
  });

  it('is Secure behind an https proxy, on sign-in and on sign-out', async () => {
    const user = await createUser(t.db, kinds.approvedBrand);
    const agent = new Agent(t.app);
    const https = { 'x-forwarded-proto': 'https', origin: 'https://localhost:80' };
    const res = await login(agent, user.email, https);
    expect(res.status).toBe(200);
    const cookie = ([] as string[])
      .concat(res.headers['set-cookie'] as string | string[])
      .find((c) => c.startsWith('byline_session='))!;
    expect(cookie).toMatch(/; Secure/);
    const out = await agent.request('POST', '/api/logout', undefined, https);
    expect(
      ([] as string[])
        .concat(out.headers['set-cookie'] as string | string[])
        .find((c) => c.startsWith('byline_session=')),
    ).toMatch(/; Secure/);
  });

  it('[SECURITY] is always Secure in production, even over plain http from a proxy TRUST_PROXY does not name', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-prod-cookie-'));
    // TLS ends at the proxy in front; without TRUST_PROXY the app sees plain http and ignores X-Forwarded-Proto
    const config = configSchema.parse({ NODE_ENV: 'production', DATA_DIR: dataDir, PUBLIC_URL: 'https://portal.example.com' });
    const app = await buildApp({ db: t.db, config, files: diskFileStore(path.join(dataDir, 'uploads')) });
    try {
      const browser = { host: 'portal.example.com', origin: 'https://portal.example.com', 'x-forwarded-proto': 'https' };
      const sessionCookie = (res: { headers: Record<string, unknown> }) =>
        ([] as string[]).concat(res.headers['set-cookie'] as string | string[]).find((c) => c?.startsWith('byline_session='));
      const user = await createUser(t.db, kinds.approvedBrand);
      const agent = new Agent(app);
      const signedIn = await agent.request('POST', '/api/login', { email: user.email, password: PASSWORD }, browser);
      expect(signedIn.status).toBe(200);
      expect(sessionCookie(signedIn)).toMatch(/; Secure/);
      const registered = await new Agent(app).request('POST', '/api/register', { email: `prod-${randomBytes(4).toString('hex')}@example.com`, password: PASSWORD }, browser);
      expect(registered.status).toBe(201);
      expect(sessionCookie(registered)).toMatch(/; Secure/);
      const out = await agent.request('POST', '/api/logout', undefined, browser);
      expect(out.status).toBe(200);
      expect(sessionCookie(out)).toMatch(/; Secure/);
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('an over-long or garbage cookie is a visitor, not an error', async () => {
    for (const value of ['x'.repeat(101), 'x'.repeat(5000), '%00', "' OR 1=1 --", '']) {
      const agent = new Agent(t.app);
      agent.cookie = `byline_session=${value}`;
      const res = await agent.get('/api/user');
      expect(res.status, value.slice(0, 20)).toBe(401);
    }
  });
});

describe('cross-origin unsafe requests', () => {
  const ATTEMPTS: [string, Record<string, string>][] = [
    ['Origin of another site', { origin: 'https://evil.example' }],
    ['Origin "null" (sandboxed frame, file:, data:)', { origin: 'null' }],
    ['no Origin and no Sec-Fetch-Site', {}],
    ['Sec-Fetch-Site cross-site without Origin', { 'sec-fetch-site': 'cross-site' }],
    [
      'Sec-Fetch-Site cross-site with the other site’s Origin',
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    ],
    [
      'Sec-Fetch-Site same-site from a sibling subdomain',
      { 'sec-fetch-site': 'same-site', origin: 'http://evil.localhost:80' },
    ],
    ['Sec-Fetch-Site none (typed or bookmarked) without Origin', { 'sec-fetch-site': 'none' }],
    ['Origin that starts like ours', { origin: 'http://localhost:80.evil.example' }],
    ['Origin with another scheme', { origin: 'https://localhost:80' }],
    ['Origin with another port', { origin: 'http://localhost:8080' }],
    ['Origin that is not a URL', { origin: 'localhost' }],
  ];

  it('the server registers unsafe routes to check (all but the signed webhook)', () => {
    expect(unsafe.length).toBeGreaterThan(25);
    expect(unsafe.map((r) => r.url)).toContain('/api/webhooks/stripe');
  });

  it('every unsafe route refuses every cross-origin attempt with 403, signed in as an admin or a brand, and changes nothing', async () => {
    const [admin, brand] = await Promise.all([
      signedIn(t.app, t.db, kinds.admin),
      signedIn(t.app, t.db, kinds.approvedBrand),
    ]);
    const countRows = async () => {
      const res = (await t.db.execute(
        sql.raw(
          'SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM sessions) + (SELECT count(*) FROM invite_codes) + (SELECT count(*) FROM opportunities) + (SELECT count(*) FROM payments) + (SELECT count(*) FROM checkouts) AS n',
        ),
      )) as unknown as { rows: { n: string | number }[] };
      return Number(res.rows[0].n);
    };
    const before = await countRows();
    let refused = 0;
    for (const route of unsafe.filter((r) => !r.url.startsWith('/api/webhooks/'))) {
      const url = route.url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');
      for (const who of [admin, brand]) {
        for (const [label, headers] of ATTEMPTS) {
          // inject directly: the test Agent would add our own Origin
          for (const contentType of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
            const res = await t.app.inject({
              method: route.method as 'POST',
              url,
              headers: { host: 'localhost:80', cookie: who.agent.cookie!, 'content-type': contentType, ...headers },
              payload:
                contentType === 'application/json' ? '{"email":"a@b.c","password":"x"}' : 'email=a@b.c&password=x',
            });
            const what = `${route.method} ${route.url} (${label}, ${contentType})`;
            expect(res.statusCode, what).toBe(403);
            expect(JSON.parse(res.body), what).toEqual({ message: 'Cross-origin request refused', code: 'cross_origin_refused' });
            refused++;
          }
        }
      }
    }
    expect(refused).toBe((unsafe.length - 1) * 2 * ATTEMPTS.length * 3);
    expect(await countRows()).toBe(before);
    // both sessions survived (sign-out from another site is refused too)
    expect((await admin.agent.get('/api/user')).status).toBe(200);
    expect((await brand.agent.get('/api/user')).status).toBe(200);
  });

  it('our own pages get through: same Origin, or Sec-Fetch-Site same-origin', async () => {
    const { agent } = await signedIn(t.app, t.db, kinds.approvedBrand);
    for (const headers of [{ origin: ORIGIN }, { 'sec-fetch-site': 'same-origin' }, { origin: 'http://localhost' }]) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: '/api/user/profile',
        headers: { host: 'localhost:80', cookie: agent.cookie!, 'content-type': 'application/json', ...headers },
        payload: JSON.stringify({ name: 'Same Origin' }),
      });
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
    }
  });

  it('reading is allowed cross-origin only as far as the browser lets it: no CORS headers are ever sent', async () => {
    const { agent } = await signedIn(t.app, t.db, kinds.approvedBrand);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { host: 'localhost:80', cookie: agent.cookie!, origin: 'https://evil.example' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/user/profile',
      headers: { host: 'localhost:80', origin: 'https://evil.example', 'access-control-request-method': 'PATCH' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.statusCode).toBeLessThan(500);
  });
});
