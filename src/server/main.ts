import path from 'node:path';
import { loadConfig, paymentProviderKind, publicUrl, seedsDemo } from './config';
import { buildApp } from './app';
import { clientDistDir } from './paths';
import { openConfiguredDb } from './db/open';
import { demoLoginsText, isEmpty, seedDemo } from './setup/seed';
import { demoAdminEmailRefusal, hasAdmin, publishedDemoAccess } from './setup/demo';
import { upsertAdmin } from './modules/auth/service';
import { fileStoreFor } from './storage/from-config';
import { paymentProviderFor } from './providers/from-config';
import { lateCreditTermsOf, publicationTermsOf, startJobs, timerTermsOf } from './jobs/boss';
import { invoiceSettingsFrom, receiptAttachments } from './modules/invoices/service';
import { reportAttachments } from './modules/reports/documents';
import { startMailJobs, stopMailJobs } from './jobs/mail';
import { mailerFor } from './mail/mailer';
import { databaseUnavailableCause } from './lib/db-errors';
import { limitsFor, longestWindowMs } from './limits';
import { pageCheckerFor } from './modules/placements/page-checker';
import { WorkerStatus } from './ops/worker';
import { closeApp, shutdownHandler } from './ops/shutdown';
import { logDestination } from './ops/request-log';
import { sweepLeftoverSpools } from './storage/spooled-file';

async function main() {
  const config = loadConfig();
  // the refusals come first: a refused start changes nothing in the database
  const refusal = demoAdminEmailRefusal(config);
  if (refusal) throw new Error(refusal);
  if (config.BYLINE_ROLE !== 'all' && !config.DATABASE_URL) {
    throw new Error(
      `Refusing to start: BYLINE_ROLE=${config.BYLINE_ROLE} needs DATABASE_URL. The embedded database belongs to one process: without a PostgreSQL server, run everything in one (BYLINE_ROLE=all).`,
    );
  }
  const handle = await openConfiguredDb(config);
  const { db } = handle;

  // demo content only ever goes into a fresh embedded database, and by default not in production
  if (!config.DATABASE_URL && seedsDemo(config) && (await isEmpty(db))) {
    await seedDemo(db);
    console.log(demoLoginsText());
  }
  if (config.NODE_ENV === 'production') {
    const demo = await publishedDemoAccess(db);
    if (demo.length) {
      await handle.close();
      throw new Error(
        `Refusing to start: this production database still has demo access whose secrets are published: ${demo.join(', ')}.\n` +
          '  Remove the demo accounts and invite code with: npm run db:remove-demo',
      );
    }
  }
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    await upsertAdmin(db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
    console.log(`Admin ${config.ADMIN_EMAIL} is ready.`);
  }
  if (config.NODE_ENV === 'production') {
    if (!(await hasAdmin(db))) {
      console.warn(
        'No admin account exists yet. Create one with: npm run admin:create -- --email you@example.com --password <password>\n' +
          '  (or start with ADMIN_EMAIL and ADMIN_PASSWORD set).',
      );
    }
  }
  if (paymentProviderKind(config) === 'test') {
    console.warn('Test mode: payments are simulated (the built-in test checkout); no card is charged.');
  }

  const payments = await paymentProviderFor(config, db);
  const files = await fileStoreFor(config);
  // BYLINE_ROLE: `all` runs everything here; `web` serves and only queues jobs; `worker` runs the
  // jobs and answers only /healthz, /readyz and /metrics (docs/deploy.md)
  const role = config.BYLINE_ROLE;
  const works = role !== 'web';
  // the job worker, for /readyz and /metrics: attached once it runs
  const worker = new WorkerStatus();
  const app = await buildApp({
    role,
    db,
    // DATABASE_READ_URL: the catalogue, search, outlet pages and report contents read the replica
    ...(handle.read ? { readDb: handle.read.db } : {}),
    config,
    files,
    payments,
    clientDir: clientDistDir,
    logger: { level: config.LOG_LEVEL, stream: logDestination() },
    worker,
  });

  const jobs = await startJobs({
    handle,
    databaseUrl: config.DATABASE_URL,
    provider: payments,
    files,
    rateLimitKeepMs: longestWindowMs(limitsFor(config)),
    invoicing: invoiceSettingsFrom(config, payments),
    timers: timerTermsOf(config),
    lateCredit: lateCreditTermsOf(config),
    publication: {
      db,
      provider: payments,
      checker: pageCheckerFor(config),
      terms: publicationTermsOf(config),
    },
    work: works,
    onError: (err) => {
      // while the database is down pg-boss reports every failed poll; its errors carry the whole pg
      // client object, so a lost connection is logged as one short line (pg-boss keeps polling and
      // resumes by itself once the database is back)
      const unavailable = databaseUnavailableCause(err);
      if (unavailable) app.log.warn({ db: unavailable }, 'background jobs: database unavailable');
      else app.log.error({ err }, 'background job failed');
    },
  });
  const mailer = mailerFor(config, (line) => app.log.info(line));
  const receipts = receiptAttachments({ fallbackFontPath: config.INVOICE_FALLBACK_FONT });
  const reports = reportAttachments(files);
  await startMailJobs(jobs.boss, {
    db,
    mailer,
    from: config.MAIL_FROM,
    baseUrl: publicUrl(config),
    testMode: payments.name === 'test',
    // a receipt's invoice, a scheduled report's PDF and CSV (as the recipient may read them)
    attachments: async (db, data, reader) => [...(await receipts(db, data, reader)), ...(await reports(db, data, reader))],
    work: works,
  });

  if (works) worker.attach(jobs.boss);

  // uploads spooled to this machine's temp directory by a process killed mid-request
  const sweepSpools = () =>
    sweepLeftoverSpools().then(
      (deleted) => deleted.length && app.log.info({ deleted: deleted.length }, 'leftover spooled uploads deleted'),
      (err: unknown) => app.log.warn({ err }, 'could not sweep leftover spooled uploads'),
    );
  await sweepSpools();
  const spoolSweep = setInterval(() => void sweepSpools(), 60 * 60_000).unref();

  // SIGTERM: no new connections; the requests in flight are answered, then the jobs' current step
  // ends, then mail and the database close; all within SHUTDOWN_TIMEOUT_S, else exit 1
  const shutdown = shutdownHandler({
    timeoutMs: config.SHUTDOWN_TIMEOUT_S * 1000,
    log: app.log,
    stop: async (deadline) => {
      worker.detach();
      clearInterval(spoolSweep);
      await closeApp(app);
      await jobs.stop(Math.max(1_000, deadline - Date.now() - 2_000));
      stopMailJobs();
      mailer.close();
      await handle.close();
    },
  });
  process.on('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);

  await app.listen({ port: config.PORT, host: config.HOST });
  const database =
    handle.kind === 'pglite' ? `embedded database in ${path.resolve(config.DATA_DIR, 'db')}` : handle.read ? 'PostgreSQL, reads on its replica' : 'PostgreSQL';
  if (role === 'worker') console.log(`Byline's job worker is running (${database}); /healthz, /readyz and /metrics at ${publicUrl(config)}`);
  else console.log(`Byline is running at ${publicUrl(config)} (${database}${role === 'web' ? '; jobs run in BYLINE_ROLE=worker processes' : ''})`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
