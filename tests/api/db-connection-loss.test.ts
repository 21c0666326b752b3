/**
 * The database connection is lost while the app runs (PostgreSQL restarted, a backend killed, a
 * failover). The process must survive it, answer a clear 503 while the database cannot be reached,
 * and use fresh connections once it can. The full outage under load (a throwaway PostgreSQL stopped
 * and started again under a running server) is in `npm run test:faults` (scripts/faults/pg-restart.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { configSchema } from '../../src/server/config';
import { openPostgres, type DbHandle } from '../../src/server/db/client';
import { isDatabaseUnavailable } from '../../src/server/lib/db-errors';
import { diskFileStore } from '../../src/server/storage/file-store';
import { createTestDb, dbKind } from '../support/db';

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** A loopback port nobody listens on: connecting is refused at once. */
const closedPort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

describe('a database that cannot be reached', () => {
  it('is answered 503 with a clear message, no details, for a signed-in request and a sign-in', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-dbdown-'));
    const handle = openPostgres(`postgres://postgres@127.0.0.1:${await closedPort()}/nowhere`, 2);
    const app = await buildApp({
      db: handle.db,
      config: configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDir }),
      files: diskFileStore(path.join(dataDir, 'uploads')),
    });
    try {
      const cookie = await app.inject({
        method: 'GET',
        url: '/api/brand/payments',
        headers: { cookie: 'byline_session=0123456789abcdef0123456789abcdef0123456789a' },
      });
      const login = await app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { origin: 'http://localhost:80', host: 'localhost:80', 'content-type': 'application/json' },
        payload: { email: 'someone@example.com', password: 'a-password-1' },
      });
      for (const res of [cookie, login]) {
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(JSON.parse(res.body)).toEqual({ message: 'The service is temporarily unavailable, please try again', code: 'unavailable' });
        expect(res.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|select|postgres/i);
      }
    } finally {
      await app.close();
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('tells connection failures from other errors', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const wrapped = new Error('Failed query: select 1', { cause: refused });
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '53300'])
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).toBe(true);
    // a bug or a constraint is not an outage: those stay 500 / their own answer
    for (const code of ['23505', '42P01', '40001', '22P02'])
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    // pg-boss reports a failed poll as a plain copy of the error
    expect(
      isDatabaseUnavailable({ message: 'the database system is starting up (Queue: mail-send)', code: '57P03' }),
    ).toBe(true);
    expect(isDatabaseUnavailable({ message: 'job failed', code: '23505' })).toBe(false);
    // a cause chain that loops does not hang
    const a = new Error('a') as Error & { cause?: unknown };
    a.cause = a;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});

describe.skipIf(dbKind !== 'postgres')('a connection that dies while the app holds it (PostgreSQL)', () => {
  let handle: DbHandle;
  let admin: pg.Client;
  beforeAll(async () => {
    handle = await createTestDb();
    const dbName = rowsOf<{ d: string }>(await handle.db.execute(sql`SELECT current_database() AS d`))[0].d;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${dbName}`;
    admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await handle?.close();
  });

  it('a backend terminated in the middle of a transaction fails that transaction only; the process lives and the pool reconnects', async () => {
    // pg-pool takes its own 'error' listener off a client while it is checked out; a connection
    // that dies between two statements of a transaction then emits 'error' with nobody listening,
    // which is an uncaught exception: the whole server would exit. Vitest fails the run on one.
    for (let round = 0; round < 3; round++) {
      const failed = await handle.db
        .transaction(async (tx) => {
          const pid = rowsOf<{ pid: number }>(await tx.execute(sql`SELECT pg_backend_pid() AS pid`))[0].pid;
          // the server ends this backend while the transaction waits between statements
          await admin.query('SELECT pg_terminate_backend($1)', [pid]);
          await new Promise((r) => setTimeout(r, 200));
          await tx.execute(sql`SELECT 1`);
          return 'committed';
        })
        .then(
          (v) => v,
          (err: unknown) => err,
        );
      expect(failed).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(failed)).toBe(true);
      // the dead client was not given back to the pool: the next queries get live connections
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          handle.db.execute(sql`SELECT 1 AS one`).then((r) => rowsOf<{ one: number }>(r)[0].one),
        ),
      );
      expect(results).toEqual([1, 1, 1, 1, 1]);
    }
  });

  it('idle pooled connections killed by the server are replaced on the next query', async () => {
    await Promise.all(Array.from({ length: 4 }, () => handle.db.execute(sql`SELECT pg_sleep(0.05)`)));
    const { rows } = await admin.query(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    expect(rows[0].n).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200));
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        handle.db.execute(sql`SELECT 1 AS one`).then((r) => rowsOf<{ one: number }>(r)[0].one),
      ),
    );
    expect(results).toEqual([1, 1, 1, 1, 1, 1]);
  });
});
