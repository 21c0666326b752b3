import { hash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler, RouteOptions } from 'fastify';
import pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/client';
import { fileAnswer, route, type Contract } from '../lib/contract';
import { unauthorized, notFound } from '../lib/errors';
import { onCountedEvent, type CountedEvent } from './events';
import type { WorkerStatus } from './worker';

/** Label of the requests no route matched (404s, and the client's pages served by the not-found handler). */
const UNMATCHED = 'unmatched';

// a method is a label value through a small table: no string is made per request
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'OTHER'];
const METHOD_INDEX = new Map(METHODS.map((m, i) => [m, i]));
const OTHER = METHODS.length - 1;

interface HttpMetrics {
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route'>;
}

interface Series {
  requests: { inc(): void };
  duration: { observe(seconds: number): void };
}

/**
 * Records one route's requests. The label values are resolved once per method and status and kept:
 * per request this is two map lookups, an increment and an observation.
 */
function recorderFor(metrics: HttpMetrics, route: string) {
  const series = new Map<number, Series>();
  return (req: FastifyRequest, reply: FastifyReply) => {
    const method = METHOD_INDEX.get(req.method) ?? OTHER;
    const status = reply.statusCode;
    const key = status * METHODS.length + method;
    let s = series.get(key);
    if (!s) {
      s = { requests: metrics.requests.labels(METHODS[method], route, String(status)), duration: metrics.duration.labels(METHODS[method], route) };
      series.set(key, s);
    }
    s.requests.inc();
    s.duration.observe(reply.elapsedTime / 1000);
  };
}

/** GET /metrics's contract, with or without METRICS_TOKEN: the same route, documented the same. */
const METRICS = {
  access: 'operator',
  tags: ['Operations'],
  summary: 'Metrics in the Prometheus text format',
  description:
    'Requests by route template and status, their durations, payments, releases, refunds, e-mails, the database pool and the job queues. Send `Authorization: Bearer <METRICS_TOKEN>`.',
  logLevel: 'warn',
  response: { 200: fileAnswer(['text/plain'], 'The metrics (Prometheus exposition format)') },
  errors: { 401: 'The bearer token is missing or wrong', 404: 'Metrics are off (no METRICS_TOKEN is set)' },
} as const satisfies Contract<never, never, never, Record<number, unknown>>;

const digest = (value: string) => hash('sha256', value, 'buffer');

/** `Authorization: Bearer <token>` compared in constant time (both sides hashed to one length). */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const m = typeof header === 'string' ? /^Bearer +(\S+) *$/i.exec(header) : null;
  return Boolean(m) && timingSafeEqual(digest(m![1]), expected);
}

/**
 * GET /metrics in Prometheus' text format, for a scraper holding METRICS_TOKEN (`Authorization:
 * Bearer …`); without the setting the route answers 404 and nothing is measured. The registry is
 * this app's own (tests build many apps in one process). What is measured:
 * - `http_requests_total{method,route,status}` and `http_request_duration_seconds{method,route}`
 *   (a histogram; without the status, to keep the series few), `route` being the route's template
 *   (`/api/admin/payments/:id/release`), `/assets/*` for the client's hashed files, or `unmatched`
 *   (no route: 404s, and the client's pages, which the not-found handler serves);
 * - `byline_payments_total`, `byline_releases_total`, `byline_refunds_total`,
 *   `byline_emails_sent_total`, `byline_emails_failed_total`: what this process did (requests and
 *   background jobs), counted once committed (ops/events.ts);
 * - `byline_db_pool_connections_in_use`, `byline_db_pool_waiting_clients`: the app's PostgreSQL
 *   pool (absent on the embedded database, which has no pool); `byline_db_read_pool_*` the same of
 *   the replica's pool (DATABASE_READ_URL), when there is one;
 * - `byline_job_queue_depth|active|failed{queue}`: pg-boss's counts, shared by every instance;
 * - Node's process metrics (`process_*`, `nodejs_*`).
 * Must be registered before the routes (it sees them through `onRoute`).
 */
export function registerMetrics(app: FastifyInstance, deps: { db: Db; readDb?: Db; token?: string; worker?: WorkerStatus }) {
  const { token, worker } = deps;
  if (!token) {
    route(app, 'GET', '/metrics', METRICS, async () => {
      throw notFound();
    });
    return;
  }

  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const http: HttpMetrics = {
    requests: new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route template and status', labelNames: ['method', 'route', 'status'], registers }),
    duration: new Histogram({ name: 'http_request_duration_seconds', help: 'Time to answer an HTTP request, by method and route template', labelNames: ['method', 'route'], registers }),
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    // the built client's assets are one route each, with a new hashed name at every build: one label
    const record = recorderFor(http, route.url.startsWith('/assets/') ? '/assets/*' : route.url);
    const hook: onResponseHookHandler = (req, reply, done) => {
      record(req, reply);
      done();
    };
    route.onResponse = route.onResponse ? [...(Array.isArray(route.onResponse) ? route.onResponse : [route.onResponse]), hook] : hook;
  });
  const unmatched = recorderFor(http, UNMATCHED);
  app.addHook('onResponse', (req, reply, done) => {
    if (req.is404) unmatched(req, reply);
    done();
  });

  const counters: Record<Exclude<CountedEvent, 'link-check'>, Counter> = {
    payment: new Counter({ name: 'byline_payments_total', help: 'Payments booked (a paid checkout fulfilled)', registers }),
    release: new Counter({ name: 'byline_releases_total', help: 'Payments released (placements published)', registers }),
    refund: new Counter({ name: 'byline_refunds_total', help: 'Refunds recorded', registers }),
    'mail-sent': new Counter({ name: 'byline_emails_sent_total', help: 'E-mails handed to the mail server', registers }),
    'mail-failed': new Counter({ name: 'byline_emails_failed_total', help: 'E-mail delivery attempts that failed (each is retried)', registers }),
    'log-dropped': new Counter({ name: 'byline_log_lines_dropped_total', help: 'Log lines dropped because stdout fell more than 16 MB behind', registers }),
  };
  const linkChecks = new Counter({ name: 'byline_link_checks_total', help: 'Live article pages checked, by result (pass, warning, fail)', labelNames: ['result'], registers });
  const stopCounting = onCountedEvent((event, label) => {
    if (event === 'link-check') linkChecks.inc({ result: label ?? 'unknown' });
    else counters[event].inc();
  });
  app.addHook('onClose', async () => stopCounting());

  const poolGauges = (pool: pg.Pool, prefix: string, of: string) => {
    new Gauge({
      name: `${prefix}_connections_in_use`,
      help: `Connections of ${of} checked out by a query or transaction`,
      registers,
      collect() {
        this.set(pool.totalCount - pool.idleCount);
      },
    });
    new Gauge({
      name: `${prefix}_waiting_clients`,
      help: `Queries waiting for a connection of ${of}`,
      registers,
      collect() {
        this.set(pool.waitingCount);
      },
    });
  };
  const pool = deps.db.$client instanceof pg.Pool ? deps.db.$client : null;
  if (pool) poolGauges(pool, 'byline_db_pool', 'the database pool');
  const readPool = deps.readDb?.$client instanceof pg.Pool ? deps.readDb.$client : null;
  if (readPool && readPool !== pool) poolGauges(readPool, 'byline_db_read_pool', 'the replica’s pool (DATABASE_READ_URL)');

  if (worker) {
    const queueGauge = (name: string, help: string, pick: (q: Awaited<ReturnType<WorkerStatus['queues']>>[number]) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['queue'],
        registers,
        async collect() {
          const queues = await worker.queues();
          this.reset();
          for (const q of queues) this.set({ queue: q.name }, pick(q));
        },
      });
    queueGauge('byline_job_queue_depth', 'Jobs waiting in the queue (as pg-boss last counted, every minute)', (q) => q.queued);
    queueGauge('byline_job_queue_active', 'Jobs being worked on', (q) => q.active);
    queueGauge('byline_job_queue_failed', 'Failed jobs pg-boss still keeps (its retention period)', (q) => q.failed);
  }

  const expected = digest(token);
  route(app, 'GET', '/metrics', METRICS, async (req, reply) => {
    if (!bearerMatches(req.headers.authorization, expected)) {
      void reply.header('WWW-Authenticate', 'Bearer');
      throw unauthorized('bad_metrics_token', 'Unauthorized');
    }
    const body = await registry.metrics();
    return reply.header('Cache-Control', 'no-store').type(registry.contentType).send(body);
  });
}
