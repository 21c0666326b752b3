/**
 * One instance of the job queue as the server runs it (src/server/jobs/boss.ts startJobs: pg-boss
 * on PostgreSQL, every schedule and worker), without the HTTP side, for tests/api/deadlines.test.ts:
 * two of them share a database, and one is killed with SIGKILL in the middle of a job. It prints
 * "ready" once its workers are asking for jobs. Env: JOBS_DB_URL, STRIPE_PORT, FILES_DIR.
 */
import { openPostgres } from '../../src/server/db/client';
import { startJobs } from '../../src/server/jobs/boss';
import { TEST_INVOICING } from '../../src/server/modules/invoices/service';
import { diskFileStore } from '../../src/server/storage/file-store';
import { childStripeProvider } from './child-stripe';

const url = process.env.JOBS_DB_URL!;
const handle = openPostgres(url, 4);
const provider = childStripeProvider();
const jobs = await startJobs({
  handle,
  databaseUrl: url,
  provider,
  files: diskFileStore(process.env.FILES_DIR!),
  rateLimitKeepMs: 24 * 3_600_000,
  invoicing: TEST_INVOICING,
  onError: (err) => process.stderr.write(`jobs: ${err.message}\n`),
  pollingIntervalSeconds: 1,
});
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void jobs.stop(5_000).then(() => handle.close());
});
