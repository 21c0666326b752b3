/**
 * Health and readiness for a load balancer (issue 22): /healthz says the process is up; /readyz
 * says this instance can serve (database answering, migrations applied, job worker running), else
 * 503 with one word. The database going away is simulated with a loopback TCP proxy cut in front of
 * PostgreSQL (the approach of db-connection-loss.test.ts, where a closed port stands for it).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { configSchema } from '../../src/server/config';
import { openPostgres, type DbHandle } from '../../src/server/db/client';
import { payments } from '../../src/server/db/schema';
import { runMigrations } from '../../src/server/db/migrate';
import { migrationsDir } from '../../src/server/paths';
import { startJobs, type Jobs } from '../../src/server/jobs/boss';
import { WorkerStatus } from '../../src/server/ops/worker';
import { testCheckoutProvider } from '../../src/server/providers/test-checkout';
import { diskFileStore } from '../../src/server/storage/file-store';
import { createTestDb, dbKind } from '../support/db';
import { createUser } from '../support/factories';
import { createOpportunity, makePayment } from '../support/payments';
import { startTcpProxy } from '../support/tcp-proxy';

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-health-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const appOn = async (handle: DbHandle, worker?: WorkerStatus, env: 'test' | 'production' = 'test') => {
  const app = await buildApp({
    db: handle.db,
    config: configSchema.parse({ NODE_ENV: env, DATA_DIR: dataDir }),
    files: diskFileStore(path.join(dataDir, 'uploads')),
    worker,
  });
  await app.ready();
  return app;
};

const jobsOn = (handle: DbHandle, databaseUrl?: string, errors: Error[] = []) =>
  startJobs({
    handle,
    databaseUrl: databaseUrl ?? handle.pool?.options.connectionString,
    provider: testCheckoutProvider(handle.db),
    files: diskFileStore(path.join(dataDir, 'uploads')),
    rateLimitKeepMs: 86_400_000,
    onError: (err) => errors.push(err),
  });

const probe = async (app: FastifyInstance, url: string) => {
  const res = await app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: JSON.parse(res.body) as unknown, headers: res.headers };
};

describe('/healthz and /readyz', () => {
  let handle: DbHandle;
  let jobs: Jobs;
  beforeAll(async () => {
    handle = await createTestDb();
    jobs = await jobsOn(handle);
  });
  afterAll(async () => {
    await jobs?.stop();
    await handle?.close();
  });

  it('/healthz is 200 {"status":"ok"} for anyone, never cached, and says nothing more', async () => {
    const app = await appOn(handle);
    try {
      const res = await probe(app, '/healthz');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
      expect(res.headers['cache-control']).toBe('no-store');
      // a HEAD from a load balancer too
      expect((await app.inject({ method: 'HEAD', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('/readyz is 503 "jobs" until the job worker runs, 200 while it does, 503 "jobs" once it stopped', async () => {
    const worker = new WorkerStatus();
    const app = await appOn(handle, worker);
    const ownJobs = await jobsOn(handle);
    try {
      expect(await probe(app, '/readyz')).toMatchObject({ status: 503, body: { status: 'unavailable', reason: 'jobs' } });
      worker.attach(ownJobs.boss);
      const ready = await probe(app, '/readyz');
      expect(ready).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect(ready.headers['cache-control']).toBe('no-store');
      await ownJobs.stop();
      expect(await probe(app, '/readyz')).toMatchObject({ status: 503, body: { status: 'unavailable', reason: 'jobs' } });
    } finally {
      await ownJobs.stop();
      await app.close();
    }
  });

  it('/readyz is 503 "migrations" on a database without the newest migration of drizzle/, 200 once it is applied', async () => {
    const [newest] = rowsOf<{ id: number; hash: string; created_at: string }>(
      await handle.db.execute(sql`SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`),
    );
    const worker = new WorkerStatus();
    worker.attach(jobs.boss);
    await handle.db.execute(sql`DELETE FROM drizzle.__drizzle_migrations WHERE id = ${newest.id}`);
    let app: FastifyInstance | undefined;
    try {
      app = await appOn(handle, worker);
      const res = await probe(app, '/readyz');
      expect(res).toMatchObject({ status: 503, body: { status: 'unavailable', reason: 'migrations' } });
      expect(Object.keys(res.body as object).sort()).toEqual(['reason', 'status']);
    } finally {
      await handle.db.execute(
        sql`INSERT INTO drizzle.__drizzle_migrations (id, hash, created_at) VALUES (${newest.id}, ${newest.hash}, ${newest.created_at})`,
      );
    }
    try {
      expect(await probe(app, '/readyz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    } finally {
      await app.close();
    }
  });

  it('in production every answer tells browsers to keep to https (TLS ends at the proxy in front)', async () => {
    const prod = await appOn(handle, undefined, 'production');
    const dev = await appOn(handle);
    try {
      expect((await probe(prod, '/healthz')).headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
      expect((await probe(dev, '/healthz')).headers['strict-transport-security']).toBeUndefined();
    } finally {
      await prod.close();
      await dev.close();
    }
  });

  it('/readyz and /healthz need no session and are not refused cross-origin or after many probes', async () => {
    const worker = new WorkerStatus();
    worker.attach(jobs.boss);
    const app = await appOn(handle, worker);
    try {
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          app.inject({ method: 'GET', url: i % 2 ? '/readyz' : '/healthz', headers: { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' } }),
        ),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(60).fill(200));
    } finally {
      await app.close();
    }
  });
});

describe.skipIf(dbKind !== 'postgres')('/readyz while PostgreSQL cannot be reached', () => {
  it('flips to 503 "database" within its short timeout while the connection is cut, and back to 200 when it returns', async () => {
    const handle = await createTestDb();
    const url = new URL(handle.pool!.options.connectionString!);
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    const proxied = openPostgres(url.toString(), 4);
    const errors: Error[] = [];
    const jobs = await jobsOn(proxied, url.toString(), errors);
    const worker = new WorkerStatus();
    worker.attach(jobs.boss);
    const app = await appOn(proxied, worker);
    try {
      expect(await probe(app, '/readyz')).toMatchObject({ status: 200, body: { status: 'ok' } });

      await proxy.cut();
      const started = Date.now();
      const down = await probe(app, '/readyz');
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ status: 'unavailable', reason: 'database' });
      expect(Date.now() - started).toBeLessThan(3_000);
      // nothing that helps an attacker: no address, driver or error text
      expect(JSON.stringify(down.body)).not.toMatch(/ECONN|127\.0\.0\.1|postgres|select/i);
      expect((await probe(app, '/healthz')).status).toBe(200);

      await proxy.restore();
      let back = await probe(app, '/readyz');
      for (let i = 0; i < 50 && back.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 200));
        back = await probe(app, '/readyz');
      }
      expect(back).toMatchObject({ status: 200, body: { status: 'ok' } });
    } finally {
      await app.close();
      await jobs.stop(1_000);
      await proxied.close();
      await proxy.close();
      await handle.close();
    }
  }, 60_000);
});

/** PostgreSQL's client tools, of the tested server's version when installed (as scripts/faults does), else from PATH. */
const pgTool = (name: 'pg_dump' | 'pg_restore') => [path.join('/usr/lib/postgresql/15/bin', name)].find((p) => existsSync(p)) ?? name;

describe.skipIf(dbKind !== 'postgres')('a backup made with pg_dump (docs/deploy.md)', () => {
  it('restored into an empty database, is ready at once (migrations and jobs included) and holds the data', async () => {
    const handle = await createTestDb();
    const brand = await createUser(handle.db);
    const opp = await createOpportunity(handle.db);
    const payment = await makePayment(handle.db, brand.id, opp.id);
    const url = new URL(handle.pool!.options.connectionString!);
    const file = path.join(dataDir, 'byline.dump');
    const restoredName = `byline_restore_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    let restored: DbHandle | undefined;
    let jobs: Jobs | undefined;
    let app: FastifyInstance | undefined;
    try {
      const dump = spawnSync(pgTool('pg_dump'), ['--format=custom', `--file=${file}`, url.toString()], { encoding: 'utf8' });
      expect(dump.status, dump.stderr).toBe(0);
      await admin.query(`CREATE DATABASE ${restoredName}`);
      const target = new URL(url);
      target.pathname = `/${restoredName}`;
      const restore = spawnSync(pgTool('pg_restore'), ['--no-owner', `--dbname=${target.toString()}`, file], { encoding: 'utf8' });
      expect(restore.status, restore.stderr).toBe(0);

      restored = openPostgres(target.toString(), 4);
      jobs = await jobsOn(restored, target.toString());
      const worker = new WorkerStatus();
      worker.attach(jobs.boss);
      app = await appOn(restored, worker);
      expect(await probe(app, '/readyz')).toMatchObject({ status: 200, body: { status: 'ok' } });
      const [row] = await restored.db.select().from(payments).where(eq(payments.id, payment.id));
      expect(row).toMatchObject({ brandId: brand.id, amount: '1250.00', status: 'paid' });
    } finally {
      await app?.close();
      await jobs?.stop(1_000);
      await restored?.close();
      await admin.query(`DROP DATABASE IF EXISTS ${restoredName} WITH (FORCE)`);
      await admin.end();
      await handle.close();
    }
  }, 60_000);
});

describe.skipIf(dbKind !== 'postgres')('instances starting together on an empty database (docs/deploy.md)', () => {
  it('migrate it once between them (an advisory lock), and each is then ready', async () => {
    const name = `byline_fresh_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const handles = [openPostgres(url.toString(), 2), openPostgres(url.toString(), 2), openPostgres(url.toString(), 2)];
    try {
      await Promise.all(handles.map((h) => runMigrations(h)));
      const applied = rowsOf<{ n: number; distinct: number }>(
        await handles[0].db.execute(sql`SELECT count(*)::int AS n, count(DISTINCT hash)::int AS distinct FROM drizzle.__drizzle_migrations`),
      )[0];
      const journal = JSON.parse(readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
      expect(applied).toEqual({ n: journal.entries.length, distinct: journal.entries.length });
      const jobs = await jobsOn(handles[0], url.toString());
      try {
        const worker = new WorkerStatus();
        worker.attach(jobs.boss);
        for (const h of handles) {
          const app = await appOn(h, worker);
          expect(await probe(app, '/readyz')).toMatchObject({ status: 200 });
          await app.close();
        }
      } finally {
        await jobs.stop(1_000);
      }
    } finally {
      for (const h of handles) await h.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 60_000);
});
