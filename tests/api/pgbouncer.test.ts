/**
 * The app through PgBouncer in transaction mode (issue 61, "ready to outgrow one machine"), with
 * Debian's pgbouncer (1.18: it keeps no named prepared statements across server connections) in
 * front of the test server, and DATABASE_TRANSACTION_POOLER=1 as docs/deploy.md says:
 * - two instances starting together migrate an empty database once through it, and leave no lock;
 * - sign-in, the browse list and the search (named statements on a direct connection, a
 *   transaction-local setting for the typo match), many at once; a one-slot opportunity raced by
 *   every brand at once (the checkout's transaction and row locks) sold once; the winner's payment,
 *   brief and its page; pg-boss started, a job queued and worked, all through the pooler;
 * - without the setting, the named statements fail there: what the setting is for.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { configSchema, type Config } from '../../src/server/config';
import { openPostgres, type DbHandle } from '../../src/server/db/client';
import { openConfiguredDb } from '../../src/server/db/open';
import { opportunities, payments } from '../../src/server/db/schema';
import { JOBS, startJobs, type Jobs } from '../../src/server/jobs/boss';
import { browseStatement } from '../../src/server/modules/opportunities/claimable';
import { testCheckoutProvider } from '../../src/server/providers/test-checkout';
import { diskFileStore } from '../../src/server/storage/file-store';
import { migrationsDir } from '../../src/server/paths';
import { Agent, type Res } from '../support/app';
import { PART1, PART2 } from '../support/content';
import { dbKind } from '../support/db';
import { createUser, kinds, PASSWORD } from '../support/factories';
import { withDatabase } from '../support/global-setup';
import { testChecker } from '../support/outlets';
import { createOpportunity, sessionIdOf } from '../support/payments';
import { pgbouncerUnavailable, startPgBouncer, type Bouncer } from '../support/pgbouncer';

const unavailable = dbKind === 'postgres' ? pgbouncerUnavailable() : 'the API suite runs on PGlite here (no TEST_DATABASE_URL server to pool)';
if (unavailable && dbKind === 'postgres') console.warn(`pgbouncer.test.ts skipped: ${unavailable}`);

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const ok = (res: Res, what: string, status = 200) => {
  expect(res.status, `${what}: ${res.text}`).toBe(status);
  return res.body;
};

describe.skipIf(unavailable)('through PgBouncer in transaction mode (DATABASE_TRANSACTION_POOLER=1)', () => {
  const serverUrl = process.env.TEST_DATABASE_URL!;
  const name = `byline_pgbouncer_${process.env.BYLINE_TEST_RUN}_${Date.now().toString(36)}`;
  const direct = withDatabase(serverUrl, name);
  let bouncer: Bouncer;
  let config: Config;
  let handle: DbHandle;
  let app: FastifyInstance;
  let jobs: Jobs | undefined;
  let dataDir = '';
  const jobErrors: Error[] = [];

  const onServer = async <T>(url: string, text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    // an empty database: the migrations run through the pooler too
    await onServer(serverUrl, `CREATE DATABASE ${name}`);
    bouncer = await startPgBouncer(serverUrl);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-pgbouncer-app-'));
    config = configSchema.parse({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: bouncer.urlOf(direct),
      DATABASE_TRANSACTION_POOLER: '1',
      DATABASE_POOL_SIZE: '8',
      MAX_REQUESTS_IN_FLIGHT: '10000',
    });
  }, 60_000);
  afterAll(async () => {
    await jobs?.stop(2_000);
    await app?.close();
    await handle?.close();
    await bouncer?.stop();
    await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('two instances starting together migrate the empty database once, and leave no lock behind', async () => {
    const [a, b] = await Promise.all([openConfiguredDb(config), openConfiguredDb(config)]);
    await b.close();
    handle = a;
    const journal = JSON.parse(readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
    const [{ n }] = await onServer<{ n: number }>(direct, 'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    expect(n).toBe(journal.entries.length);
    // the migrations' lock was their transaction's: no server connection of the pool still holds it
    expect(await onServer(serverUrl, "SELECT objid FROM pg_locks WHERE locktype = 'advisory'")).toEqual([]);
    // and each server connection has the session setting the pooler's connect_query made
    expect(rowsOf<{ enable_memoize: string }>(await handle.db.execute(sql`SHOW enable_memoize`))).toEqual([{ enable_memoize: 'off' }]);
  }, 60_000);

  it('sign-in, search, a raced checkout, the brief and pg-boss work through it', async () => {
    app = await buildApp({ db: handle.db, config, files: diskFileStore(path.join(dataDir, 'uploads')), checker: testChecker(config) });
    await app.ready();
    jobs = await startJobs({
      handle,
      databaseUrl: config.DATABASE_URL,
      provider: testCheckoutProvider(handle.db),
      files: diskFileStore(path.join(dataDir, 'uploads')),
      rateLimitKeepMs: 86_400_000,
      pollingIntervalSeconds: 0.5,
      onError: (err) => jobErrors.push(err),
    });

    // sign-in with a password, six brands
    const brands = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const user = await createUser(handle.db, kinds.approvedBrand);
        const agent = new Agent(app);
        ok(await agent.post('/api/login', { email: user.email, password: PASSWORD }), 'login');
        return { user, agent };
      }),
    );
    for (let i = 0; i < 30; i++) await createOpportunity(handle.db, { title: `Harbour logistics ${i}`, maxSlots: 2 });
    const prize = await createOpportunity(handle.db, { title: 'The one slot', maxSlots: 1 });

    // many at once on few server connections: the browse list (a prepared statement, sent unnamed),
    // the search by words (in a transaction, for its typo match's local setting) and the session's lookup
    const answers = await Promise.all(
      brands.flatMap(({ agent }) => [
        agent.get('/api/opportunities'),
        agent.get('/api/opportunities?q=harbour%20logist'),
        agent.get('/api/opportunities?q=harbour&sort=price_asc'),
        agent.get('/api/user'),
      ]),
    );
    for (const res of answers) expect(res.status, res.text).toBe(200);
    expect((answers[0].body as unknown[]).length).toBe(31);
    expect(answers[1].headers['x-total-count']).toBe('30');
    expect(answers[2].headers['x-total-count']).toBe('30');

    // every brand races for the one slot: one is sold, the others refused, none fails
    const raced = await Promise.all(
      brands.map(async ({ agent }) => {
        const checkout = await agent.post('/api/payments/checkout', { opportunityId: prize.id });
        if (checkout.status !== 200) return { agent, status: checkout.status };
        const pay = await agent.post(`/api/payments/checkout/${sessionIdOf(checkout.body.url)}/pay`);
        return { agent, status: pay.status, paymentId: pay.body?.paymentId as string | undefined };
      }),
    );
    for (const r of raced) expect(r.status).toBeLessThan(500);
    const winners = raced.filter((r) => r.paymentId);
    expect(winners).toHaveLength(1);
    expect(await handle.db.$count(payments, eq(payments.opportunityId, prize.id))).toBe(1);
    const [slot] = await handle.db.select({ filled: opportunities.filledSlots }).from(opportunities).where(eq(opportunities.id, prize.id));
    expect(slot.filled).toBe(1);

    // the winner finds its payment, saves and submits its brief and reads it back
    const { agent, paymentId } = winners[0];
    expect((ok(await agent.get('/api/brand/payments'), 'payments') as { id: string }[]).map((p) => p.id)).toEqual([paymentId]);
    const brief = `/api/brand/brief/${paymentId}`;
    ok(await agent.post(brief, { part1Json: { personOrBrandName: 'Acme Harbours' } }), 'draft');
    ok(await agent.post(`${brief}/submit`, { part1Json: PART1, part2Json: PART2 }), 'submit');
    expect(ok(await agent.get(brief), 'brief page')).toMatchObject({ part1Json: PART1, part2Json: PART2, submittedAt: expect.any(String) });

    // pg-boss (its schema made through the pooler at start): a job queued and worked
    const id = await jobs.boss.send(JOBS.rateLimitPrune, {});
    let state = '';
    for (let i = 0; i < 100 && state !== 'completed'; i++) {
      const [row] = rowsOf<{ state: string }>(await handle.db.execute(sql`SELECT state FROM pgboss.job WHERE id = ${id}`));
      state = row?.state ?? '';
      if (state !== 'completed') await new Promise((r) => setTimeout(r, 200));
    }
    expect(state, jobErrors.map((e) => e.message).join('\n')).toBe('completed');
    expect(jobErrors).toEqual([]);
  }, 60_000);

  it('without DATABASE_TRANSACTION_POOLER the named statements fail there: a server connection lacks the one its client prepared', async () => {
    const named = openPostgres(bouncer.urlOf(direct), 6);
    try {
      const failures: string[] = [];
      for (let round = 0; round < 20 && failures.length === 0; round++) {
        const results = await Promise.allSettled(Array.from({ length: 12 }, () => browseStatement(named.db, { since: new Date().toISOString(), limit: 1 })));
        for (const r of results) if (r.status === 'rejected') failures.push((r.reason as Error).message);
      }
      expect(failures[0]).toMatch(/prepared statement "claimable_opportunities" (does not exist|already exists)/);
    } finally {
      await named.close();
    }
  }, 30_000);
});
