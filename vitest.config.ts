import { defineConfig } from 'vitest/config';

const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * API files that take long by design (thousands of generated requests, the built server started
 * as a child process, timers and retries, load): left out of `npm run test:fast`, the inner loop.
 * `npm test` runs them all, on both databases.
 */
const SLOW = [
  'tests/api/fuzz.test.ts',
  'tests/api/production-start.test.ts',
  'tests/api/limits.test.ts',
  'tests/api/mail.test.ts',
  'tests/api/load.test.ts',
  'tests/api/hostile-files.test.ts',
  'tests/api/two-instances.test.ts',
  'tests/api/db-connection-loss.test.ts',
  'tests/api/ops-shutdown.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ['tests/support/fail-on-console-error.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'api-pglite', include: ['tests/api/**/*.test.ts'], exclude: SLOW, env: { TEST_DB_KIND: 'pglite' } },
      },
      {
        extends: true,
        test: { name: 'api-pglite-slow', include: SLOW, env: { TEST_DB_KIND: 'pglite' } },
      },
      ...(withPostgres
        ? [
            {
              extends: true as const,
              test: { name: 'api-postgres', include: ['tests/api/**/*.test.ts'], env: { TEST_DB_KIND: 'postgres' } },
            },
          ]
        : []),
    ],
  },
});
