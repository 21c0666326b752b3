/**
 * Production fails closed (issue 15): the built server, started as an operator would, refuses to
 * take "payments" that move no money and refuses a database whose demo accounts anyone can sign in
 * to, naming what to do; started properly it says it is in test mode and how to create an admin.
 * A refused start changes nothing: ADMIN_EMAIL naming a demo account is refused before the database
 * is opened, and the demo check comes before ADMIN_EMAIL's admin is made (issue 43).
 * Embedded database only: the refusals do not depend on the database kind.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbedded } from '../../src/server/db/pglite';
import { users } from '../../src/server/db/schema';
import { dbKind } from '../support/db';
import { buildServerBundle, freePort, ROOT } from '../support/built-server';

const root = ROOT;
let outDir: string;
let dataDir: string;

beforeAll(() => {
  if (dbKind !== 'pglite') return;
  // the very bundle `npm start` runs
  outDir = buildServerBundle('prod');
  dataDir = mkdtempSync(path.join(root, '.tmp', 'prod-data-'));
}, 60_000);
afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

// a start migrates (and in development seeds) an embedded database: slow on a loaded machine
const START_TIMEOUT_MS = 120_000;


/**
 * Starts the built server with `env` (and no Stripe or database settings from this process); resolves
 * once it exits or, when `untilReady`, once it answers. Returns its output and exit code.
 */
async function start(env: Record<string, string>, opts: { untilReady?: boolean } = {}) {
  const port = await freePort();
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(STRIPE_|DATABASE_URL|PAYMENT_PROVIDER|SEED_DEMO|NODE_ENV|ADMIN_)/.test(k)));
  const child = spawn(process.execPath, [path.join(outDir, 'main.js')], {
    cwd: root,
    env: { ...clean, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  if (!opts.untilReady) {
    const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS);
    const code = await exited;
    clearTimeout(timer);
    return { code, output, port, stop: async () => {} };
  }
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/user`).then(
      () => true,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    code: child.exitCode,
    get output() {
      return output;
    },
    port,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

describe.skipIf(dbKind !== 'pglite')('a production start (the built server)', () => {
  it('[SECURITY] refuses without a card provider, naming the variables', async () => {
    const { code, output } = await start({ NODE_ENV: 'production' });
    expect(code).toBe(1);
    expect(output).toContain('Refusing to start: no card provider is configured in production');
    expect(output).toContain('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    expect(output).toContain('PAYMENT_PROVIDER=test');
  }, 60_000);

  it('[SECURITY] refuses SEED_DEMO=1', async () => {
    const { code, output } = await start({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'test', SEED_DEMO: '1' });
    expect(code).toBe(1);
    expect(output).toContain('SEED_DEMO=1 in production would create accounts whose passwords are published');
  }, 60_000);

  it('[SECURITY] refuses a database that still has the demo accounts, until `npm run db:remove-demo`; then starts in test mode and says how to make an admin', async () => {
    // an evaluation run left the demo content behind
    const dev = await start({ NODE_ENV: 'development' }, { untilReady: true });
    await dev.stop();
    expect(dev.output).toContain('admin@byline.test / byline-admin-demo');

    const refused = await start({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'test' });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('Refusing to start: this production database still has demo access whose secrets are published');
    expect(refused.output).toContain('admin@byline.test');
    expect(refused.output).toContain('invite code BYLINE-DEMO');
    expect(refused.output).toContain('npm run db:remove-demo');

    const removed = spawnSync('npm', ['run', '--silent', 'db:remove-demo'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'production' },
      encoding: 'utf8',
    });
    expect(removed.status, removed.stderr).toBe(0);
    expect(removed.stdout).toContain('Removed 2 demo account(s) and 1 demo invite code(s).');

    const prod = await start({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'test' }, { untilReady: true });
    try {
      expect(prod.code).toBeNull();
      const demo = await fetch(`http://127.0.0.1:${prod.port}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${prod.port}` },
        body: JSON.stringify({ email: 'admin@byline.test', password: 'byline-admin-demo' }),
      });
      expect(demo.status).toBe(401);
      // in production every answer tells browsers to come back over HTTPS only, for 180 days
      expect(demo.headers.get('strict-transport-security')).toBe('max-age=15552000; includeSubDomains');
      expect(demo.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    } finally {
      await prod.stop();
    }
    expect(prod.output).toContain('No admin account exists yet. Create one with: npm run admin:create');
    expect(prod.output).toContain('Test mode: payments are simulated');
  }, 120_000);

  it('[SECURITY] a refused start changes nothing: ADMIN_EMAIL naming the demo admin is refused before the database is opened; no admin is made while demo access remains', async () => {
    const ownData = mkdtempSync(path.join(root, '.tmp', 'prod-data-'));
    const emptyData = mkdtempSync(path.join(root, '.tmp', 'prod-data-'));
    const passwordOf = async (email: string) => {
      const handle = await openEmbedded(ownData);
      try {
        const [row] = await handle.db.select({ password: users.password }).from(users).where(eq(users.email, email));
        return row?.password;
      } finally {
        await handle.close();
      }
    };
    const production = { NODE_ENV: 'production', PAYMENT_PROVIDER: 'test', DATA_DIR: ownData, ADMIN_PASSWORD: 'an-admin-password-1' };
    try {
      // an evaluation run left the demo content behind
      const dev = await start({ NODE_ENV: 'development', DATA_DIR: ownData }, { untilReady: true });
      await dev.stop();
      expect(dev.output).toContain('admin@byline.test / byline-admin-demo');
      const demoHash = await passwordOf('admin@byline.test');
      expect(demoHash).toBeTruthy();

      const demoAdmin = await start({ ...production, ADMIN_EMAIL: 'Admin@Byline.test' });
      expect(demoAdmin.code).toBe(1);
      expect(demoAdmin.output).toContain('Refusing to start: ADMIN_EMAIL is admin@byline.test, a demo account');
      expect(await passwordOf('admin@byline.test')).toBe(demoHash);

      // an address of one's own, while the demo access remains: refused before that admin is made
      const ownAdmin = await start({ ...production, ADMIN_EMAIL: 'ops@example.com' });
      expect(ownAdmin.code).toBe(1);
      expect(ownAdmin.output).toContain('still has demo access whose secrets are published');
      expect(await passwordOf('ops@example.com')).toBeUndefined();

      // on a database without the demo too: refused before the database is even opened
      const fresh = await start({ ...production, DATA_DIR: emptyData, ADMIN_EMAIL: 'admin@byline.test' });
      expect(fresh.code).toBe(1);
      expect(fresh.output).toContain('Refusing to start: ADMIN_EMAIL is admin@byline.test, a demo account');
      expect(existsSync(path.join(emptyData, 'db'))).toBe(false);
    } finally {
      rmSync(ownData, { recursive: true, force: true });
      rmSync(emptyData, { recursive: true, force: true });
    }
  }, 600_000);

  it('deletes the uploads a killed process left spooled in the temp directory, and nothing else', async () => {
    const tmp = mkdtempSync(path.join(root, '.tmp', 'prod-tmpdir-'));
    const ownData = mkdtempSync(path.join(root, '.tmp', 'prod-data-'));
    const at = (name: string, hoursAgo: number) => {
      const file = path.join(tmp, name);
      writeFileSync(file, 'partial upload');
      const then = new Date(Date.now() - hoursAgo * 3_600_000);
      utimesSync(file, then, then);
      return file;
    };
    const leftover = at('byline-upload-0123456789abcdef01234567', 7);
    // one still being written or checked by a request, and a file that is not ours
    const recent = at('byline-upload-89abcdef0123456701234567', 1);
    const notOurs = at('report-draft.pdf', 30 * 24);
    try {
      const server = await start({ NODE_ENV: 'development', TMPDIR: tmp, DATA_DIR: ownData }, { untilReady: true });
      await server.stop();
      expect(server.code).toBeNull();
      expect(existsSync(leftover)).toBe(false);
      expect(existsSync(recent)).toBe(true);
      expect(existsSync(notOurs)).toBe(true);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
      rmSync(ownData, { recursive: true, force: true });
    }
  }, 60_000);
});
