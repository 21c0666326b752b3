/**
 * DATABASE_READ_URL (issue 61, "ready to outgrow one machine") against a real streaming replica of
 * the test server, made with pg_basebackup (tests/support/replica.ts). While the replica's replay
 * is paused, as a replica far behind would be:
 * - the brands' browse list and search do not yet show an opportunity written on the primary, and
 *   do once the replica has replayed it: they read the replica;
 * - a brand signed in meanwhile checks out, pays, finds its payment, saves and submits its brief,
 *   shortlists, makes a report and downloads it: each read of its own change is right, though the
 *   replica has none of it: those reads stay on the primary.
 * With the replica stopped, its reads answer 503 with Retry-After, and the primary's go on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { configSchema } from '../../src/server/config';
import { openPostgres, type Db, type DbHandle } from '../../src/server/db/client';
import { openConfiguredDb } from '../../src/server/db/open';
import { payments } from '../../src/server/db/schema';
import type { Res } from '../support/app';
import { PART1, PART2 } from '../support/content';
import { createTestDb, dbKind } from '../support/db';
import { kinds, signedIn } from '../support/factories';
import { testChecker } from '../support/outlets';
import { createOpportunity, sessionIdOf } from '../support/payments';
import { replicaUnavailable, startReplica, type Replica } from '../support/replica';
import { diskFileStore } from '../../src/server/storage/file-store';

const unavailable = dbKind === 'postgres' ? replicaUnavailable() : 'the API suite runs on PGlite here (no TEST_DATABASE_URL server to replicate)';
if (unavailable && dbKind === 'postgres') console.warn(`replica.test.ts skipped: ${unavailable}`);

const METRICS = 'replica-test-metrics-token';
const rowsOf = (r: unknown) => (r as { rows: unknown[] }).rows;
const ids = (res: Res) => {
  expect(res.status, res.text).toBe(200);
  return (res.body as { id: string }[]).map((o) => o.id);
};
const ok = (res: Res, what: string, status = 200) => {
  expect(res.status, `${what}: ${res.text}`).toBe(status);
  return res.body;
};

describe.skipIf(unavailable)('DATABASE_READ_URL on a streaming replica (pg_basebackup)', () => {
  let handle: DbHandle;
  let replica: Replica;
  let read: DbHandle;
  let app: FastifyInstance;
  let dataDir = '';

  beforeAll(async () => {
    // the test's database first: the base backup copies it, schema and all
    handle = await createTestDb();
    replica = await startReplica(process.env.TEST_DATABASE_URL!);
    read = openPostgres(replica.urlOf(handle.pool!.options.connectionString!), 4);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-replica-app-'));
    const config = configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDir, MAX_REQUESTS_IN_FLIGHT: 10_000, METRICS_TOKEN: METRICS });
    app = await buildApp({ db: handle.db, readDb: read.db, config, files: diskFileStore(path.join(dataDir, 'uploads')), checker: testChecker(config) });
    await app.ready();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await read?.close();
    await replica?.stop();
    await handle?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('is a standby of the test database', async () => {
    const rows = rowsOf(await read.db.execute(sql`SELECT pg_is_in_recovery() AS standby, current_database() AS name`));
    expect(rows).toEqual([{ standby: true, name: new URL(handle.pool!.options.connectionString!).pathname.slice(1) }]);
    const refused = await read.db.execute(sql`CREATE TABLE nope (id int)`).then(() => null, (e: Error) => e.cause as Error);
    expect(refused?.message).toMatch(/read-only transaction/);
  });

  it('the server opens it from DATABASE_READ_URL beside DATABASE_URL (main.ts passes it on as readDb)', async () => {
    const url = handle.pool!.options.connectionString!;
    const config = configSchema.parse({ NODE_ENV: 'test', DATABASE_URL: url, DATABASE_READ_URL: replica.urlOf(url), DATABASE_POOL_SIZE: '2' });
    const opened = await openConfiguredDb(config);
    try {
      const standby = async (db: Db) => rowsOf(await db.execute(sql`SELECT pg_is_in_recovery() AS standby`));
      expect(await standby(opened.db)).toEqual([{ standby: false }]);
      expect(await standby(opened.read!.db)).toEqual([{ standby: true }]);
    } finally {
      await opened.close();
    }
    // both pools closed together
    expect([opened.pool!.ended, opened.read!.pool.ended]).toEqual([true, true]);
  });

  it('the browse list and the search read the replica: a new opportunity shows once it is replayed there', async () => {
    const brand = await signedIn(app, handle.db, kinds.approvedBrand);
    const admin = await signedIn(app, handle.db, kinds.admin);
    await replica.caughtUp();
    await replica.pauseReplay();
    let oppId: string;
    try {
      const opp = await createOpportunity(handle.db, { title: 'Zeppelin freight, quarterly', maxSlots: 3 });
      oppId = opp.id;
      // the admins' form reads the primary: there at once
      expect(ok(await admin.agent.get(`/api/admin/opportunities/${opp.id}`), 'admin form').id).toBe(opp.id);
      // the catalogue and the search: not yet
      expect(ids(await brand.agent.get('/api/opportunities'))).not.toContain(opp.id);
      expect(ids(await brand.agent.get('/api/opportunities?q=zeppelin'))).toEqual([]);
      // nor on the replica itself: it is behind
      expect(rowsOf(await read.db.execute(sql`SELECT id FROM opportunities WHERE id = ${opp.id}`))).toEqual([]);
    } finally {
      await replica.resumeReplay();
    }
    await replica.caughtUp();
    expect(ids(await brand.agent.get('/api/opportunities'))).toContain(oppId);
    expect(ids(await brand.agent.get('/api/opportunities?q=zeppelin'))).toEqual([oppId]);
    // the replica's pool has its own series on /metrics, beside the primary's
    const metrics = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS}` } });
    expect(metrics.statusCode).toBe(200);
    for (const series of ['byline_db_pool_connections_in_use', 'byline_db_read_pool_connections_in_use', 'byline_db_read_pool_waiting_clients'])
      expect(metrics.body).toMatch(new RegExp(`^${series} \\d+$`, 'm'));
  }, 60_000);

  it('a write read right after it is right although the replica is behind: checkout, brief, shortlist, report', async () => {
    const opp = await createOpportunity(handle.db, { title: 'Airships for hospitals', maxSlots: 2 });
    const other = await createOpportunity(handle.db, { title: 'Balloons for schools', maxSlots: 2 });
    await replica.caughtUp();
    await replica.pauseReplay();
    try {
      // signed in while the replica is behind: the session is read on the primary
      const brand = await signedIn(app, handle.db, kinds.approvedBrand);
      expect(ok(await brand.agent.get('/api/user'), 'user').email).toBe(brand.user.email);

      // checkout, then its lookup
      const checkout = ok(await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id }), 'checkout');
      const pay = ok(await brand.agent.post(`/api/payments/checkout/${sessionIdOf(checkout.url)}/pay`), 'pay');
      expect(pay.status).toBe('paid');
      const paymentId = pay.paymentId as string;
      expect(ids(await brand.agent.get('/api/brand/payments'))).toEqual([paymentId]);

      // the brief, then its page
      const brief = `/api/brand/brief/${paymentId}`;
      ok(await brand.agent.post(brief, { part1Json: { personOrBrandName: 'Acme Airships' } }), 'brief draft');
      expect(ok(await brand.agent.get(brief), 'brief page')).toMatchObject({ part1Json: { personOrBrandName: 'Acme Airships' }, source: 'saved', submittedAt: null });
      ok(await brand.agent.post(`${brief}/submit`, { part1Json: PART1, part2Json: PART2 }), 'brief submit');
      expect(ok(await brand.agent.get(brief), 'brief page')).toMatchObject({ part1Json: PART1, part2Json: PART2, submittedAt: expect.any(String) });

      // the shortlist, right after a change
      ok(await brand.agent.put(`/api/brand/saved/${other.id}`), 'save', 204);
      expect(ids(await brand.agent.get('/api/brand/saved'))).toEqual([other.id]);

      // a report made, then downloaded (its row on the primary; its lines may trail on the replica)
      const report = ok(await brand.agent.post('/api/org/reports', { name: 'Q4', columns: ['outlet', 'title'] }), 'report', 201);
      const csv = await brand.agent.get(`/api/org/reports/${report.id}/csv`);
      expect(csv.status, csv.text).toBe(200);

      // none of it has reached the replica yet
      expect(await read.db.select({ id: payments.id }).from(payments).where(eq(payments.id, paymentId))).toEqual([]);
    } finally {
      await replica.resumeReplay();
    }
  }, 60_000);

  it('the replica gone: its reads answer 503 with Retry-After, the primary\'s go on', async () => {
    const brand = await signedIn(app, handle.db, kinds.approvedBrand);
    await replica.stop();
    for (const url of ['/api/opportunities', '/api/opportunities?q=zeppelin']) {
      const res = await brand.agent.get(url);
      expect(res.status, res.text).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
    }
    expect((await brand.agent.get('/api/brand/saved')).status).toBe(200);
  }, 30_000);
});
