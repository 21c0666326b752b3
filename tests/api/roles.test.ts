/**
 * BYLINE_ROLE (issue 61, "ready to outgrow one machine"): the built server started as a `web`
 * process and as a `worker` process on one PostgreSQL database. The web one serves the API and
 * queues a password-reset mail in the request's transaction but sends nothing; the worker serves
 * no API, is ready, and delivers that mail (through an SMTP stand-in on loopback). Without a
 * PostgreSQL server a split start is refused: the embedded database belongs to one process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/server/db/client';
import { buildServerBundle, freePort, ROOT } from '../support/built-server';
import { createTestDb, dbKind } from '../support/db';
import { createUser } from '../support/factories';
import { startSmtp, type TestSmtp } from '../support/mail';

const root = ROOT;
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const START_TIMEOUT_MS = 120_000;
let outDir = '';
let dataDir = '';

beforeAll(() => {
  if (dbKind !== 'postgres') return;
  // the very bundle `npm start` runs
  outDir = buildServerBundle('roles');
  dataDir = mkdtempSync(path.join(root, '.tmp', 'roles-data-'));
}, 120_000);
afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});


/** The built server with `env`, once /healthz answers (or it exited). */
async function start(env: Record<string, string>) {
  const port = await freePort();
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(STRIPE_|DATABASE_URL|PAYMENT_PROVIDER|SEED_DEMO|NODE_ENV|ADMIN_|BYLINE_ROLE|SMTP_)/.test(k)));
  const child = spawn(process.execPath, [path.join(outDir, 'main.js')], {
    cwd: root,
    env: { ...clean, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'test', SEED_DEMO: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
    await sleep(200);
  }
  return {
    base,
    get output() {
      return output;
    },
    exited,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

describe.skipIf(dbKind !== 'postgres')('BYLINE_ROLE: web and worker apart (the built server)', () => {
  let handle: DbHandle;
  let smtp: TestSmtp;
  beforeAll(async () => {
    handle = await createTestDb();
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp?.close();
    await handle?.close();
  });

  it('the web process serves and queues; the worker serves no API and delivers what the web queued', async () => {
    const env = { DATABASE_URL: handle.pool!.options.connectionString!, SMTP_URL: smtp.url, PUBLIC_URL: 'http://127.0.0.1' };
    const web = await start({ ...env, BYLINE_ROLE: 'web' });
    let worker: Awaited<ReturnType<typeof start>> | undefined;
    try {
      expect((await fetch(`${web.base}/readyz`)).status, web.output).toBe(200);
      const user = await createUser(handle.db);
      const forgot = await fetch(`${web.base}/api/password/forgot`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: web.base },
        body: JSON.stringify({ email: user.email }),
      });
      expect(forgot.status, web.output).toBe(200);
      // queued in the transaction that writes the mail (just after the answer, which waits for no
      // mail), and nobody here works it
      const queued = async () =>
        rowsOf<{ state: string }>(await handle.db.execute(sql`SELECT state FROM pgboss.job WHERE name = 'mail-send'`)).map((r) => r.state);
      for (let i = 0; i < 50 && (await queued()).length === 0; i++) await sleep(100);
      expect(await queued()).toEqual(['created']);
      await sleep(4_000);
      expect(smtp.mails).toHaveLength(0);
      expect(await queued()).toEqual(['created']);
      // nor does the web process keep the schedules: those are the workers'
      const schedules = async () => Number(rowsOf<{ n: number }>(await handle.db.execute(sql`SELECT count(*)::int AS n FROM pgboss.schedule`))[0]?.n);
      expect(await schedules()).toBe(0);

      worker = await start({ ...env, BYLINE_ROLE: 'worker' });
      expect(worker.output).toContain("Byline's job worker is running");
      // the worker answers the operator's routes only
      expect((await fetch(`${worker.base}/api/opportunities`)).status).toBe(404);
      const ready = await fetch(`${worker.base}/readyz`);
      expect(ready.status, worker.output).toBe(200);
      const mails = await smtp.waitFor(1, 30_000);
      expect(mails.map((m) => m.to)).toEqual([[user.email]]);
      expect(await schedules()).toBeGreaterThan(0);
      // the web process still answers while the worker runs
      expect((await fetch(`${web.base}/api/opportunities`)).status).toBe(401);
    } finally {
      await worker?.stop();
      await web.stop();
    }
  }, 300_000);

  it('refuses a split start without a PostgreSQL server', async () => {
    const web = await start({ BYLINE_ROLE: 'worker' });
    expect(await web.exited).toBe(1);
    expect(web.output).toContain('Refusing to start: BYLINE_ROLE=worker needs DATABASE_URL');
  }, 180_000);
});
