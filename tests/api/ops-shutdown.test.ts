/**
 * SIGTERM (issue 22): the built server, started as an operator would, stops accepting connections,
 * answers every request already sent (including ones whose body is still arriving and ones busy
 * hashing a password), lets the job under way finish its step (a mail in the middle of its SMTP
 * conversation is delivered once and recorded sent), and exits 0. Embedded database: the behaviour
 * does not depend on the database kind. The deadline (SHUTDOWN_TIMEOUT_S) is tested in process.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { createPglite } from '../../src/server/db/pglite';
import { shutdownHandler } from '../../src/server/ops/shutdown';
import { dbKind } from '../support/db';

const root = path.resolve(__dirname, '../..');

describe('the shutdown deadline (SHUTDOWN_TIMEOUT_S)', () => {
  const quietLog = () => {
    const lines: string[] = [];
    return { lines, log: { info: (_o: object, m: string) => void lines.push(m), error: (_o: object, m: string) => void lines.push(m) } };
  };

  it('runs the stop once however often the signal comes, then exits 0', async () => {
    const codes: number[] = [];
    let stops = 0;
    const { log } = quietLog();
    const handler = shutdownHandler({ timeoutMs: 1_000, log, exit: (c) => void codes.push(c), stop: async () => void stops++ });
    await Promise.all([handler('SIGTERM'), handler('SIGTERM'), handler('SIGINT')]);
    expect(stops).toBe(1);
    expect(codes).toEqual([0]);
  });

  it('exits 1 when the stop has not finished in time, and when it fails', async () => {
    const codes: number[] = [];
    const { log, lines } = quietLog();
    const started = Date.now();
    const handler = shutdownHandler({ timeoutMs: 300, log, exit: (c) => void codes.push(c), stop: () => new Promise(() => {}) });
    void handler('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    expect(codes).toEqual([1]);
    expect(lines.at(-1)).toBe('shutdown did not finish within 0.3 s; exiting');
    expect(Date.now() - started).toBeLessThan(1_000);

    const failed: number[] = [];
    await shutdownHandler({ timeoutMs: 1_000, log, exit: (c) => void failed.push(c), stop: async () => Promise.reject(new Error('db gone')) })('SIGTERM');
    expect(failed).toEqual([1]);
  });

  it('gives the stop its deadline', async () => {
    let deadline = 0;
    const before = Date.now();
    await shutdownHandler({ timeoutMs: 20_000, log: quietLog().log, exit: () => {}, stop: async (d) => void (deadline = d) })('SIGTERM');
    expect(deadline - before).toBeGreaterThanOrEqual(20_000);
    expect(deadline - before).toBeLessThan(21_000);
  });
});

describe.skipIf(dbKind !== 'pglite')('SIGTERM under load (the built server)', () => {
  let outDir: string;
  let dataDir: string;
  let child: ChildProcess | undefined;
  beforeAll(() => {
    outDir = mkdtempSync(path.join(root, '.tmp', 'shutdown-build-'));
    const built = spawnSync(process.execPath, ['scripts/build-server.mjs', outDir], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('esbuild failed');
    dataDir = mkdtempSync(path.join(root, '.tmp', 'shutdown-data-'));
  }, 60_000);
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(outDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  const freePort = () =>
    new Promise<number>((resolve, reject) => {
      const srv = net.createServer();
      srv.once('error', reject);
      srv.listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as net.AddressInfo;
        srv.close(() => resolve(port));
      });
    });

  interface Outcome {
    started: number;
    status?: number;
    body?: string;
    error?: string;
  }

  it('answers every request sent before the signal, refuses new connections, and exits 0', async () => {
    const port = await freePort();
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(STRIPE_|DATABASE_URL|PAYMENT_PROVIDER|SEED_DEMO|NODE_ENV|ADMIN_|METRICS_TOKEN)/.test(k)));
    child = spawn(process.execPath, [path.join(outDir, 'main.js')], {
      cwd: root,
      env: {
        ...clean,
        NODE_ENV: 'development',
        SEED_DEMO: '0',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        SHUTDOWN_TIMEOUT_S: '20',
        // every sign-in below fails from one address on purpose
        LIMIT_SIGNIN_FAILURES_PER_ADDRESS: '100000/1m',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));

    // ready: database, migrations and the job worker (GET /readyz)
    const deadline = Date.now() + 45_000;
    let ready = false;
    while (!ready && Date.now() < deadline && child.exitCode === null) {
      ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (!ready) await new Promise((r) => setTimeout(r, 200));
    }
    expect(ready, output).toBe(true);

    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const outcomes: Outcome[] = [];
    /** One request; its outcome is recorded once the whole body has arrived (or the socket failed). */
    const send = (method: string, url: string, body?: string) => {
      const outcome: Outcome = { started: Date.now() };
      outcomes.push(outcome);
      return new Promise<void>((resolve) => {
        const req = http.request(
          { host: '127.0.0.1', port, method, path: url, agent, headers: body ? { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` } : {} },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c) => (text += c));
            res.on('end', () => {
              Object.assign(outcome, { status: res.statusCode, body: text });
              resolve();
            });
            res.on('error', (err) => {
              outcome.error = err.message;
              resolve();
            });
          },
        );
        req.on('error', (err) => {
          outcome.error = err.message;
          resolve();
        });
        req.end(body);
      });
    };

    // requests whose body is still on its way when the signal comes: headers and half the body now
    const slow = Array.from({ length: 4 }, () => {
      const body = JSON.stringify({ email: `slow-${randomBytes(4).toString('hex')}@example.com`, password: 'not-the-password' });
      const outcome: Outcome = { started: Date.now() };
      outcomes.push(outcome);
      const socket = net.connect(port, '127.0.0.1');
      let raw = '';
      socket.on('data', (d) => (raw += d));
      const done = new Promise<void>((resolve) => {
        socket.on('close', () => {
          const [head, text] = raw.split('\r\n\r\n');
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1]);
          if (status) Object.assign(outcome, { status, body: text });
          else outcome.error = 'no answer';
          resolve();
        });
        socket.on('error', (err) => (outcome.error = err.message));
      });
      socket.write(
        `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 20)}`,
      );
      return { rest: body.slice(20), socket, done };
    });

    // load: cheap reads and sign-ins (a password hash each) on keep-alive connections
    let signalled = false;
    const loops = [
      ...Array.from({ length: 6 }, async () => {
        while (!signalled) await send('GET', '/api/terms');
      }),
      ...Array.from({ length: 4 }, async () => {
        while (!signalled) await send('POST', '/api/login', JSON.stringify({ email: `load-${randomBytes(4).toString('hex')}@example.com`, password: 'wrong-password' }));
      }),
    ];
    await new Promise((r) => setTimeout(r, 1_500));

    signalled = true;
    const signalAt = Date.now();
    child.kill('SIGTERM');

    // the listening socket closes at once: a new connection is refused
    await new Promise((r) => setTimeout(r, 300));
    const refused = await new Promise<string>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.on('connect', () => {
        s.destroy();
        resolve('connected');
      });
      s.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
    expect(refused).toBe('ECONNREFUSED');

    // the slow requests' bodies arrive after the signal: they are still answered
    for (const s of slow) s.socket.write(s.rest);
    await Promise.all([...loops, ...slow.map((s) => s.done)]);
    const code = await exited;
    agent.destroy();

    const before = outcomes.filter((o) => o.started < signalAt);
    expect(before.length).toBeGreaterThan(20);
    const cut = before.filter((o) => o.error || !o.status);
    expect(cut, output).toEqual([]);
    for (const o of before) {
      expect([200, 401]).toContain(o.status);
      expect(() => JSON.parse(o.body!)).not.toThrow();
    }
    // the slow ones: a full sign-in answer, not a 503
    for (const o of outcomes.slice(0, 4)) expect(o).toMatchObject({ status: 401, body: JSON.stringify({ message: 'Invalid email or password', code: 'invalid_credentials' }) });
    expect(code, output).toBe(0);
    expect(output).not.toMatch(/error|fail/i);
  }, 90_000);

  it('lets the job running at the signal finish its step: a mail half-sent is delivered once and recorded sent', async () => {
    // an SMTP server that takes 2 s to accept each message: SIGTERM comes while one is in flight
    const received: { to: string[]; at: number }[] = [];
    let inFlight: (() => void) | undefined;
    const dataStarted = new Promise<void>((resolve) => (inFlight = resolve));
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          inFlight?.();
          setTimeout(() => {
            received.push({ to: session.envelope.rcptTo.map((r) => r.address), at: Date.now() });
            callback();
          }, 2000);
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const smtpPort = (smtp.server.address() as net.AddressInfo).port;
    const jobData = mkdtempSync(path.join(root, '.tmp', 'shutdown-jobs-'));
    try {
      const port = await freePort();
      const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(STRIPE_|DATABASE_URL|PAYMENT_PROVIDER|SEED_DEMO|NODE_ENV|ADMIN_|METRICS_TOKEN|SMTP_URL)/.test(k)));
      const server = spawn(process.execPath, [path.join(outDir, 'main.js')], {
        cwd: root,
        env: { ...clean, NODE_ENV: 'development', SEED_DEMO: '0', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: jobData, LOG_LEVEL: 'warn', SHUTDOWN_TIMEOUT_S: '20', SMTP_URL: `smtp://127.0.0.1:${smtpPort}` },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = server;
      let output = '';
      server.stdout!.on('data', (d) => (output += d));
      server.stderr!.on('data', (d) => (output += d));
      const exited = new Promise<{ code: number | null; at: number }>((resolve) => server.once('exit', (code) => resolve({ code, at: Date.now() })));
      const origin = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 45_000;
      while (Date.now() < deadline && !(await fetch(`${origin}/readyz`).then((r) => r.status === 200, () => false))) await new Promise((r) => setTimeout(r, 200));

      const email = `shutdown-${randomBytes(4).toString('hex')}@example.com`;
      const headers = { 'content-type': 'application/json', origin };
      expect((await fetch(`${origin}/api/register`, { method: 'POST', headers, body: JSON.stringify({ email, password: 'correct-horse-battery' }) })).status).toBe(201);
      expect((await fetch(`${origin}/api/password/forgot`, { method: 'POST', headers, body: JSON.stringify({ email }) })).status).toBe(200);
      await Promise.race([dataStarted, new Promise((_, reject) => setTimeout(() => reject(new Error(`no mail started: ${output}`)), 30_000))]);
      const signalAt = Date.now();
      server.kill('SIGTERM');
      const { code, at } = await exited;
      expect(code, output).toBe(0);
      // the send under way finished before the process left, and only once
      expect(received.filter((m) => m.to.includes(email))).toHaveLength(1);
      expect(received[0].at).toBeGreaterThan(signalAt);
      expect(at).toBeGreaterThanOrEqual(received[0].at);
      // and the outbox knows it was sent: nothing for a restart to send again
      const db = await createPglite({ dataDir: path.join(jobData, 'db') });
      try {
        const rows = await db.query<{ status: string; attempts: number }>(`SELECT status, attempts FROM mail_outbox WHERE to_address = $1 AND kind = 'password_reset'`, [email]);
        expect(rows.rows).toEqual([{ status: 'sent', attempts: 1 }]);
      } finally {
        await db.close();
      }
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      rmSync(jobData, { recursive: true, force: true });
    }
  }, 90_000);
});
