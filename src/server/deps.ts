import type { FastifyPluginAsync, FastifyServerOptions, RouteOptions } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Limits } from './limits';
import type { PaymentProvider } from './providers/provider';
import type { FileStore } from './storage/file-store';
import type { PageChecker } from './modules/placements/page-checker';
import type { WorkerStatus } from './ops/worker';
import type { InvoiceSettings } from './modules/invoices/service';

/** What buildApp is given (main.ts, the tests). */
export interface AppDeps {
  db: Db;
  /**
   * A streaming replica (DATABASE_READ_URL) for the reads that may trail a change by the
   * replication lag: absent, `db` serves them too.
   */
  readDb?: Db;
  config: Config;
  files: FileStore;
  /** The card payment provider; the built-in test checkout (providers/test-checkout.ts) when absent. */
  payments?: PaymentProvider;
  /** The publication checker; the configured one (modules/placements/page-checker.ts) when absent. */
  checker?: PageChecker;
  /** Built client (index.html and assets); when absent only the API is served. */
  clientDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** Sees every route as it is registered (the permission matrix compares them with its table). */
  onRoute?: (route: RouteOptions) => void;
  /** This process's job worker, for /readyz and /metrics (ops/); absent: /readyz says "jobs". */
  worker?: WorkerStatus;
  /**
   * BYLINE_ROLE (main.ts): `web` serves the API and pages while the jobs run in other processes
   * (/readyz does not wait for a worker here); `worker` serves only /healthz, /readyz and /metrics.
   * Absent: `all`.
   */
  role?: 'all' | 'web' | 'worker';
}

/** What every module is registered with: the app's dependencies, resolved once. */
export interface ModuleDeps {
  /** The primary: every write, every transaction, and every read of what its user may just have changed. */
  db: Db;
  /**
   * The replica when there is one (DATABASE_READ_URL), else `db`: only for reads that may lag a
   * change by a moment without anyone missing their own change: the brands' catalogue and search,
   * an outlet's page, a report's contents. Never in a transaction, never for a row just written.
   */
  readDb: Db;
  config: Config;
  files: FileStore;
  provider: PaymentProvider;
  limits: Limits;
  checker: PageChecker;
  /** The seller and tax printed on new invoices, and whether they are test-mode documents. */
  invoicing: InvoiceSettings;
  /**
   * Runs once every sweep that has come due at `at` (jobs/boss.ts `runDueSweeps`: the jobs' work,
   * with this app's provider, timers' terms and publication watch): the test clock's route.
   */
  runDueSweeps: (at: Date) => Promise<void>;
}

/** A module: a Fastify plugin that registers the routes of one thing users work on. */
export type Module = FastifyPluginAsync<ModuleDeps>;
