import path from 'node:path';
import { loadConfig, publicUrl } from './config';
import { buildApp } from './app';
import { clientDistDir } from './paths';
import { openConfiguredDb } from './db/open';
import { demoLoginsText, isEmpty, seedDemo } from './db/seed';
import { upsertAdmin } from './modules/auth/service';
import { diskFileStore } from './storage/file-store';
import { paymentProviderFor } from './payments/from-config';
import { startJobs } from './jobs/boss';
import { startMailJobs, stopMailJobs } from './jobs/mail';
import { mailerFor } from './mail/mailer';
import { databaseUnavailableCause } from './lib/db-errors';

async function main() {
  const config = loadConfig();
  const handle = await openConfiguredDb(config);
  const { db } = handle;

  // demo content only ever goes into a fresh embedded database
  if (!config.DATABASE_URL && config.SEED_DEMO && (await isEmpty(db))) {
    await seedDemo(db);
    console.log(demoLoginsText());
  }
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    await upsertAdmin(db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
    console.log(`Admin ${config.ADMIN_EMAIL} is ready.`);
  }

  const payments = await paymentProviderFor(config, db);
  const app = await buildApp({
    db,
    config,
    files: diskFileStore(path.join(config.DATA_DIR, 'uploads')),
    payments,
    clientDir: clientDistDir,
    logger: { level: config.LOG_LEVEL },
  });

  const jobs = await startJobs({
    handle,
    databaseUrl: config.DATABASE_URL,
    provider: payments,
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
  await startMailJobs(jobs.boss, { db, mailer, from: config.MAIL_FROM, baseUrl: publicUrl(config) });

  const shutdown = async () => {
    await app.close();
    await jobs.stop();
    stopMailJobs();
    mailer.close();
    await handle.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  await app.listen({ port: config.PORT, host: config.HOST });
  console.log(`Byline is running at ${publicUrl(config)} (${handle.kind === 'pglite' ? `embedded database in ${path.resolve(config.DATA_DIR, 'db')}` : 'PostgreSQL'})`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
