import { existsSync } from 'node:fs';
import { writePromiseSettings } from './db/promise-settings';
import { writeLateCreditSettings } from './db/late-credit-settings';
import { writeDisputeSettings } from './db/dispute-settings';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import { serializerCompiler } from 'fastify-type-provider-zod';
import fastifyStatic from '@fastify/static';
import type { Config } from './config';
import type { AppDeps, ModuleDeps } from './deps';
import { invoicesModule } from './modules/invoices/routes';
import { invoiceSettingsFrom } from './modules/invoices/service';
import { limitsFor } from './limits';
import { loggingOptions } from './ops/request-log';
import { securityHeaders } from './lib/security-headers';
import { registerMetrics } from './ops/metrics';
import { registerHealth } from './ops/health';
import { compressJson } from './lib/compress-json';
import { redactAmounts } from './lib/amounts';
import { indexPageFor, testClockNotice, testModeIndexPage, type IndexPage } from './lib/index-html';
import { DomainError, forbidden, notFound } from './lib/errors';
import { registerOverloadGuard } from './ops/overload';
import { DISPUTE_NOT_FOUND, PAYMENT_NOT_FOUND, disputeInClients, placementInClients } from './db/payment-access';
import { RateLimitError } from './lib/rate-limit';
import { FileStoreUnavailableError } from './storage/file-store';
import { databaseUnavailableCause } from './lib/db-errors';
import { testCheckoutProvider } from './providers/test-checkout';
import { pageCheckerFor } from './modules/placements/page-checker';
import { SESSION_COOKIE, signIn } from './modules/auth/session';
import { authModule } from './modules/auth/routes';
import { profileModule } from './modules/profile/routes';
import { uploadsModule } from './modules/uploads/routes';
import { approvalsModule } from './modules/approvals/routes';
import { inviteCodesModule } from './modules/invite-codes/routes';
import { opportunitiesModule } from './modules/opportunities/routes';
import { paymentsModule } from './modules/payments/routes';
import { placementsModule } from './modules/placements/routes';
import { messagesModule } from './modules/messages/routes';
import { outletsModule } from './modules/outlets/routes';
import { reportsModule } from './modules/reports/routes';
import { orgModule } from './modules/org/routes';
import { timelineModule } from './modules/timeline/routes';
import { attentionModule } from './modules/attention/routes';
import { disputesModule } from './modules/disputes/routes';
import { latenessModule } from './modules/lateness/routes';
import { termsModule } from './modules/terms/routes';
import { apiDocsModule } from './modules/api-docs/routes';
import { testClockModule } from './modules/test-clock/routes';
import { lateCreditTermsOf, publicationTermsOf, runDueSweeps, timerTermsOf } from './jobs/boss';
import { clockOffsetMs, now, refreshClockOffset, resetClock, testClockAvailable } from './lib/clock';
import { checkAccess, validatorCompiler } from './lib/contract';
import { openApiOptions } from './modules/api-docs/openapi';

export type { AppDeps } from './deps';

/** Every module, each a plugin with the same dependencies (one thing users work on each). */
const MODULES = [authModule, profileModule, uploadsModule, approvalsModule, inviteCodesModule, opportunitiesModule, paymentsModule, placementsModule, timelineModule, messagesModule, disputesModule, latenessModule, outletsModule, reportsModule, attentionModule, termsModule, invoicesModule, orgModule, testClockModule, apiDocsModule];

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Unsafe requests must come from our own pages: same-origin `Origin` or Sec-Fetch-Site. */
function isSameOrigin(req: FastifyRequest, publicOrigin?: string): boolean {
  if (req.headers['sec-fetch-site'] === 'same-origin') return true;
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return false;
  try {
    const o = new URL(origin);
    if (publicOrigin && o.origin === new URL(publicOrigin).origin) return true;
    // compare as URLs so that default ports (":80", ":443") do not matter
    return o.origin === new URL(`${req.protocol}://${req.headers.host}`).origin;
  } catch {
    return false;
  }
}

/** TRUST_PROXY as Fastify takes it: a hop count becomes "trust the first n hops" (what Fastify does with a number). */
function trustProxyOption(setting: Config['TRUST_PROXY']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting ?? false;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { db, config } = deps;
  const app = Fastify({
    // JSON lines with reqId (X-Request-Id), one completion line per request at info, redacted (ops/request-log.ts)
    ...loggingOptions(deps.logger),
    // while shutting down, requests on open connections are still answered (ops/shutdown.ts)
    return503OnClosing: false,
    // X-Forwarded-* are believed only from the proxies named in TRUST_PROXY (else req.ip is the socket address)
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    // ids in paths are checked by the routes; keep the router from answering 5xx on odd input
    routerOptions: { maxParamLength: 500 },
  });

  // the settings the database's promise reads (issue 59), before any request can buy; a database
  // that does not answer at start gets them once it does (the server answers 503 meanwhile)
  let settingsRetry: NodeJS.Timeout | undefined;
  const writeSettings = async () => {
    try {
      await writePromiseSettings(db, config);
      await writeLateCreditSettings(db, config);
      await writeDisputeSettings(db, config);
    } catch (err) {
      app.log.warn({ err }, 'the promise settings could not be written: the database did not answer; trying again in 30 s');
      settingsRetry = setTimeout(() => void writeSettings(), 30_000).unref();
    }
  };
  await writeSettings();
  app.addHook('onClose', async () => clearTimeout(settingsRetry));

  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  // every answer carries the security headers and names its request id (X-Request-Id), the one in
  // the server's log lines (ops/request-log.ts)
  const headers = securityHeaders({ production: config.NODE_ENV === 'production' });
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(headers).header('x-request-id', req.id);
    done();
  });
  // past MAX_REQUESTS_IN_FLIGHT API requests at once: a fast 503 with Retry-After (ops/overload.ts)
  registerOverloadGuard(app, config.MAX_REQUESTS_IN_FLIGHT);
  await app.register(cookie);
  // a client reviewer's JSON answers without amounts (decision 035), before they are compressed
  redactAmounts(app);
  compressJson(app);
  // every route's contract (lib/contract.ts): its input checked, its JSON answers checked on the
  // way out, and the API's documentation made from the routes themselves (so before any route)
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(swagger, openApiOptions(config.PUBLIC_URL));
  // the operator's routes: /metrics (before the routes it measures), /healthz, /readyz
  registerMetrics(app, { db, readDb: deps.readDb, token: config.METRICS_TOKEN, worker: deps.worker });
  registerHealth(app, { db, worker: deps.worker, jobsElsewhere: deps.role === 'web' });

  app.decorateRequest('user', null);
  app.decorateRequest('sessionToken', null);

  app.addHook('onRequest', async (req) => {
    const url = req.url;
    // and the unsubscribe page's POST (a form on our own page; a link's token is its only credential)
    if (!url.startsWith('/api/') && !url.startsWith('/uploads/') && !url.startsWith('/unsubscribe/')) return;
    if (UNSAFE_METHODS.has(req.method) && !url.startsWith('/api/webhooks/') && !isSameOrigin(req, config.PUBLIC_URL)) {
      throw forbidden('cross_origin_refused', 'Cross-origin request refused');
    }
    const token = req.cookies[SESSION_COOKIE];
    if (token && token.length <= 100) await signIn(db, req, token);
  });
  // who may call the route, from its contract: before its input is read
  app.addHook('preValidation', async (req) => checkAccess(req));
  // a member limited to some clients reaches only their placements (decision 035): one check for
  // every `brand` route about a placement, answered as for another organisation's
  const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  // (before the body is read: another client's placement is a 404 whatever the body)
  // (what the route acts on is declared in its contract, `actsOn`: never read from a parameter's name)
  app.addHook('preValidation', async (req) => {
    const clientIds = req.user?.clientIds;
    const on = req.routeOptions.config.actsOn;
    if (!on || 'own' in on || !clientIds || !req.user?.organisationId) return;
    const params = req.params as Record<string, string>;
    if ('placement' in on) {
      const id = params[on.placement];
      if (!UUID_RE.test(id) || !(await placementInClients(db, id, req.user.organisationId, clientIds))) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
    } else {
      const id = params[on.dispute];
      if (!UUID_RE.test(id) || !(await disputeInClients(db, id, req.user.organisationId, clientIds))) throw notFound('dispute_not_found', DISPUTE_NOT_FOUND);
    }
  });

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    if (err instanceof DomainError) {
      if (err instanceof RateLimitError) reply.header('Retry-After', String(err.retryAfterSeconds));
      if (err instanceof FileStoreUnavailableError) {
        req.log.warn({ files: (err.cause as Error)?.message }, 'file store unavailable');
        reply.header('Retry-After', '5');
      }
      // errors at the edge (decision 040): the one place a refusal's kind becomes its status
      return reply
        .code(err.status)
        .send({ ...err.extra, message: err.message, code: err.code, ...(err.errors ? { errors: err.errors } : {}) });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // fastify's own refusals (the body's parser, the multipart parser): a code of ours for each
      const [message, code] =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
          ? ['The request body is not valid JSON', 'invalid_json']
          : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413
            ? ['The request is too large', 'too_large']
            : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
              ? ['Unsupported content type', 'unsupported_content_type']
              : [err.message, 'invalid_request'];
      return reply.code(status).send({ message, code });
    }
    const unavailable = databaseUnavailableCause(err);
    if (unavailable) {
      // the database is restarting or cannot be reached: the pool opens fresh connections by itself
      // once it is back, so the client is told to try again shortly. (As with any lost answer, a
      // change whose COMMIT was cut off may still have been applied.)
      req.log.warn({ db: unavailable }, 'database unavailable');
      return reply.code(503).header('Retry-After', '5').send({ message: 'The service is temporarily unavailable, please try again', code: 'unavailable' });
    }
    req.log.error({ err }, 'request failed');
    return reply.code(500).send({ message: 'Something went wrong on our side. Please try again.', code: 'internal_error' });
  });

  const provider = deps.payments ?? testCheckoutProvider(db);
  const checker = deps.checker ?? pageCheckerFor(config);
  const invoicing = invoiceSettingsFrom(config, provider);
  // the sweeps the jobs run (jobs/boss.ts), for the test clock's route: the same work, this app's deps
  const sweeps = {
    db,
    provider,
    invoicing,
    timers: timerTermsOf(config),
    lateCredit: lateCreditTermsOf(config),
    publication: { db, provider, checker, terms: publicationTermsOf(config) },
  };
  const moduleDeps: ModuleDeps = {
    db,
    readDb: deps.readDb ?? db,
    config,
    files: deps.files,
    provider,
    limits: limitsFor(config),
    checker,
    invoicing,
    runDueSweeps: (at) => runDueSweeps(sweeps, at),
  };
  // Byline's time (issue 59): this process applies the test clock's offset every instance shares;
  // while the test clock can move (test mode, never production) each API request and page reads
  // it afresh (one small query), so an instance sees another's move at once. Elsewhere it is read
  // once here (0 unless a database from test mode was kept) and no request pays for it.
  const clockMoves = testClockAvailable(config.NODE_ENV, provider.name);
  try {
    // outside test mode Byline's time is the wall clock: a database kept from test mode starts there
    if ((await refreshClockOffset(db)) !== 0 && !clockMoves) {
      app.log.warn({ offsetHours: clockOffsetMs() / 3_600_000 }, 'the test clock was moved in test mode: back to the wall clock');
      await resetClock(db);
    }
  } catch (err) {
    app.log.warn({ err }, 'the test clock could not be read: the database did not answer');
  }
  // (a database that does not answer leaves the last offset read: the request's own work reports it)
  const refreshClock = () => refreshClockOffset(db).catch(() => clockOffsetMs());
  if (clockMoves) {
    app.addHook('onRequest', async (req) => {
      if (req.url.startsWith('/api/')) await refreshClock();
    });
  }
  // a job worker (BYLINE_ROLE=worker) answers only the operator's routes above
  if (deps.role === 'worker') return app;
  for (const module of MODULES) await app.register(module, moduleDeps);

  const clientDir = deps.clientDir;
  const hasClient = clientDir && existsSync(path.join(clientDir, 'index.html'));
  if (hasClient) {
    // preCompressed: the build wrote .br/.gz beside each asset. Hashed assets never change;
    // index.html must always be revalidated.
    const assetsDir = path.join(clientDir, 'assets') + path.sep;
    await app.register(fastifyStatic, {
      root: clientDir,
      prefix: '/',
      index: false,
      wildcard: false,
      serve: true,
      preCompressed: true,
      setHeaders: (reply, file) => {
        if (file.startsWith(assetsDir)) void reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    });
  }

  // the banner names Byline's time once the test clock moved (one page per minute shown)
  const testModePages = new Map<string, IndexPage>();
  const testModePageNow = (): IndexPage => {
    const offset = clockOffsetMs();
    const clock = offset ? testClockNotice(now(), offset) : '';
    const key = `${clock}|${offset}`;
    let page = testModePages.get(key);
    if (!page) {
      if (testModePages.size > 100) testModePages.clear();
      page = testModeIndexPage(clientDir!, clock || undefined, offset);
      testModePages.set(key, page);
    }
    return page;
  };
  const testModePage = hasClient && moduleDeps.provider.name === 'test' ? testModePageNow() : null;
  app.setNotFoundHandler(async (req, reply) => {
    if (req.url.startsWith('/api/') || req.url.startsWith('/uploads/') || req.method !== 'GET' || !hasClient) {
      return reply.code(404).send({ message: 'Not found', code: 'not_found' });
    }
    // the client router draws every page, including its own 404
    reply.header('Cache-Control', 'no-cache');
    if (testModePage) {
      if (clockMoves) await refreshClock();
      const { body, encoding } = indexPageFor(testModePageNow(), req.headers['accept-encoding']);
      if (encoding) reply.header('Content-Encoding', encoding);
      return reply.header('Vary', 'Accept-Encoding').type('text/html; charset=utf-8').send(body);
    }
    return reply.type('text/html').sendFile('index.html');
  });

  return app;
}
