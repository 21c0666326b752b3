import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/client';
import { route } from '../lib/contract';
import { isDatabaseUnavailable } from '../lib/db-errors';
import { migrationsDir } from '../paths';
import type { WorkerStatus } from './worker';

const upSchema = z.object({ status: z.literal('ok') });
const notReadySchema = z
  .object({ status: z.literal('unavailable'), reason: z.enum(['database', 'migrations', 'jobs']) })
  .describe('Not ready: `reason` says which part');
type NotReady = z.infer<typeof notReadySchema>['reason'];

/** A database that takes longer than this to answer `SELECT 1` is not fit to serve. */
const DB_TIMEOUT_MS = 2_000;

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** The newest migration in the repository (drizzle/meta/_journal.json, what db/migrate.ts applies). */
function newestMigrationMillis(dir: string): number {
  const journal = JSON.parse(readFileSync(path.join(dir, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((e) => e.when));
}

class Timeout extends Error {}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * GET /healthz: the process is up. GET /readyz: this instance can serve: the database answers, its
 * migrations are the ones this code expects, and the job worker runs; else 503 with one word of
 * reason. Both unauthenticated and cheap: /readyz is one query (`SELECT 1` once the migrations have
 * been seen applied), shared by probes that arrive together. Their completion lines are not logged
 * at `info` (a load balancer probes every few seconds).
 */
export function registerHealth(app: FastifyInstance, deps: { db: Db; worker?: WorkerStatus; jobsElsewhere?: boolean }) {
  const { db, worker } = deps;
  // BYLINE_ROLE=web: the jobs are other processes' to run, this one is ready without them
  const expected = newestMigrationMillis(migrationsDir);
  // migrations are never taken back: once seen applied, only the connection is checked
  let migrated = false;
  let pending: Promise<NotReady | null> | null = null;

  async function check(): Promise<NotReady | null> {
    try {
      if (migrated) {
        await within(db.execute(sql`SELECT 1`), DB_TIMEOUT_MS);
      } else {
        const result = await within(db.execute(sql`SELECT max(created_at) AS newest FROM drizzle.__drizzle_migrations`), DB_TIMEOUT_MS);
        const newest = rowsOf<{ newest: string | number | null }>(result)[0]?.newest;
        if (newest === null || newest === undefined || Number(newest) < expected) return 'migrations';
        migrated = true;
      }
    } catch (err) {
      // a missing migrations table is "not migrated"; anything about the connection is "database"
      return err instanceof Timeout || isDatabaseUnavailable(err) || migrated ? 'database' : 'migrations';
    }
    return deps.jobsElsewhere || worker?.running() ? null : 'jobs';
  }

  const noStore = (reply: { header(k: string, v: string): unknown }) => reply.header('Cache-Control', 'no-store');

  route(
    app,
    'GET',
    '/healthz',
    { access: 'public', tags: ['Operations'], summary: 'Liveness: the process is up', logLevel: 'warn', response: { 200: upSchema } },
    async (_req, reply) => {
      noStore(reply);
      return { status: 'ok' as const };
    },
  );

  route(
    app,
    'GET',
    '/readyz',
    {
      access: 'public',
      tags: ['Operations'],
      summary: 'Readiness: the database answers, the migrations are applied and the job worker runs',
      logLevel: 'warn',
      // not ready is the probe's answer, not a refusal: it replaces the 503 every route may meet
      response: { 200: upSchema, 503: notReadySchema },
    },
    async (_req, reply) => {
      noStore(reply);
      pending ??= check().finally(() => {
        pending = null;
      });
      const reason = await pending;
      if (reason) return reply.code(503).send({ status: 'unavailable', reason });
      return { status: 'ok' as const };
    },
  );
}
