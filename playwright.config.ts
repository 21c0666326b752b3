import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 5174);
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

// With TEST_DATABASE_URL (CI sets it), the organisation journeys run a second time on a server
// backed by PostgreSQL (issue 45: "tested on both databases"), in a database made afresh per run.
const PG_URL = process.env.TEST_DATABASE_URL;
const PG_PORT = PORT + 1;
const PG_DATABASE = `byline_e2e_${PG_PORT}`;
const ON_BOTH_DATABASES = ['team.spec.ts', 'budgets.spec.ts', 'clients.spec.ts', 'clients-apart.spec.ts', 'cart.spec.ts', 'order-work.spec.ts', 'fair-terms.spec.ts', 'disputes.spec.ts', 'dispute-deadlines.spec.ts'];
const pgUrl = (base: string) => {
  const url = new URL(base);
  url.pathname = `/${PG_DATABASE}`;
  return url.toString();
};

/**
 * A second admin besides the demo one (made at the server's start from ADMIN_EMAIL/ADMIN_PASSWORD):
 * an escalated dispute is decided by an admin who did not answer it (disputes.spec.ts).
 */
export const SECOND_ADMIN = { email: 'second-admin@byline.test', password: 'byline-second-admin' };

/** The server's settings for the suite, on its own port and data folder (dispute-deadlines.spec.ts starts its own). */
export const serverEnv = (port: number) => ({
  PORT: String(port),
  DATA_DIR: `.tmp/e2e-data-${port}`,
  SEED_DEMO: '1',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'test',
  // every journey of the suite comes from this one address: its per-address limits are the
  // whole suite's, not a visitor's (the limits have their own API tests)
  LIMIT_SIGNUPS_PER_ADDRESS: '1000/1h',
  LIMIT_SIGNIN_FAILURES_PER_ADDRESS: '1000/15m',
  LIMIT_PASSWORD_RESETS_PER_ADDRESS: '1000/1h',
  // the paging journey buys more placements in a minute than a person would
  LIMIT_CHECKOUTS: '1000/1m',
  // the message-limit journey reaches it; every other journey's brand sends a few messages
  LIMIT_MESSAGES: '10/1h',
  // the publication journeys serve the outlet's article from a server on loopback
  LINK_CHECK_ALLOW: '127.0.0.1:1024-65535', // a bare address opens only ports 80 and 443; the outlets take any free port
  ADMIN_EMAIL: SECOND_ADMIN.email,
  ADMIN_PASSWORD: SECOND_ADMIN.password,
});

export const SERVE = 'node --enable-source-maps --max-semi-space-size=16 dist/server/main.js';

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, channel: undefined } },
    ...(PG_URL
      ? [
          {
            name: 'postgres',
            testMatch: ON_BOTH_DATABASES,
            use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, channel: undefined, baseURL: `http://localhost:${PG_PORT}` },
          },
        ]
      : []),
  ],
  // the servers start one after the other: the first builds the server bundle the second runs
  webServer: [
    {
      // a fresh embedded database, seeded with the demo content, for every run
      command: `rm -rf .tmp/e2e-data-${PORT} && npm run --silent build:server && ${SERVE}`,
      url: `http://localhost:${PORT}/api/user`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: serverEnv(PORT),
    },
    ...(PG_URL
      ? [
          {
            // the demo content too (the server seeds only the embedded database by itself)
            command: `rm -rf .tmp/e2e-data-${PG_PORT} && node scripts/e2e-database.mjs ${PG_DATABASE} && npm run --silent db:seed > /dev/null && ${SERVE}`,
            url: `http://localhost:${PG_PORT}/api/user`,
            reuseExistingServer: false,
            timeout: 120_000,
            env: { ...serverEnv(PG_PORT), DATABASE_URL: pgUrl(PG_URL) },
          },
        ]
      : []),
  ],
});
