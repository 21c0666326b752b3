import { defineConfig } from 'vitest/config';

const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * API files that take long by design (thousands of generated requests, the built server started
 * as a child process, timers and retries, load, an export of 100,000 payments): left out of
 * `npm run test:fast`, the inner loop.
 * `npm test` runs them all, on both databases.
 */
const SLOW = [
  'tests/api/fuzz.test.ts',
  'tests/api/production-start.test.ts',
  'tests/api/roles.test.ts',
  'tests/api/replica.test.ts',
  'tests/api/pgbouncer.test.ts',
  'tests/api/limits.test.ts',
  'tests/api/mail.test.ts',
  'tests/api/load.test.ts',
  'tests/api/hostile-files.test.ts',
  'tests/api/two-instances.test.ts',
  'tests/api/db-connection-loss.test.ts',
  'tests/api/ops-shutdown.test.ts',
  'tests/api/payments-export-100k.test.ts',
];

/**
 * API files that need a module graph of their own: a `vi.mock` of a server module takes effect only
 * where that module is loaded after it, so the file cannot share modules another file loaded first.
 */
const ISOLATED = ['tests/api/openapi.test.ts'];

/**
 * The API files on one database, as projects `<prefix>` (most files), `<prefix>-isolated` and
 * `<prefix>-slow`. The files of the first share one module graph per worker (`isolate: false`): the
 * server's modules are loaded once per worker instead of once per file, and loading them was the
 * largest part of a short file's time. Each file builds its own app and database (tests/support),
 * so nothing a test relies on lives in a module alone. The slow files (child processes, signals,
 * timers) and the isolated ones keep a graph of their own per file.
 */
function apiProjects(prefix: string, db: 'pglite' | 'postgres') {
  const env = { TEST_DB_KIND: db };
  return [
    {
      extends: true as const,
      test: { name: prefix, include: ['tests/api/**/*.test.ts'], exclude: [...SLOW, ...ISOLATED], isolate: false, env },
    },
    { extends: true as const, test: { name: `${prefix}-isolated`, include: ISOLATED, env } },
    { extends: true as const, test: { name: `${prefix}-slow`, include: SLOW, env } },
  ];
}

export default defineConfig({
  test: {
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ['tests/support/fail-on-console-error.ts', 'tests/support/route-statuses.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] },
      },
      ...apiProjects('api-pglite', 'pglite'),
      ...(withPostgres ? apiProjects('api-postgres', 'postgres') : []),
      // after the API suite (`npm run test:api`): the statuses each route answered, against its contract
      ...(process.env.ROUTE_STATUSES ? [{ extends: true as const, test: { name: 'routes', include: ['tests/routes/**/*.test.ts'] } }] : []),
    ],
  },
});
