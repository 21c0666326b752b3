import { defineConfig } from 'vitest/config';

const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

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
        test: { name: 'api-pglite', include: ['tests/api/**/*.test.ts'], env: { TEST_DB_KIND: 'pglite' } },
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
