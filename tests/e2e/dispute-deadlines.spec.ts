import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import pg from 'pg';
import { PgBoss, fromPglite } from 'pg-boss';
import { OwnServer } from './own-server';
import { openEmbedded } from '../../src/server/db/pglite';
import { JOBS } from '../../src/server/jobs/boss';
import { DEMO_ADMIN, DEMO_INVITE, PASSWORD, uniqueEmail } from './support';

/*
 * A link dispute to its end, through the screens, on a server of its own (issue 47): Byline's
 * checks confirm the problem an hour apart, the publication case is opened and linked to the
 * dispute, and the outlet does not restore the article by its deadline, so the brand is refunded in
 * full and the dispute reads "Refunded in full".
 *
 * The hour and the ten days pass the way they would for the server: it is stopped, every time of
 * the placement (its payment, publication, checks, case and dispute) is moved back in its database,
 * as if all had happened that much earlier, the job the schedule would have run next is put in the
 * job queue, and the server is started again. Nothing in the server knows it is a test; the job
 * queue, the watch and the deadlines run as in production. On the embedded database (the desktop
 * project) and PostgreSQL (the postgres project), each with its own server and data.
 */

const BRAND_SITE = 'https://jordan.example.com';
const ARTICLE = `<!doctype html><html><head><title>Jordan Goods repairs</title></head><body><article><h1>Jordan Goods repairs</h1><p>${'A long story about repairs, goods and the people who make them last. '.repeat(15)}</p><p>Visit <a href="${BRAND_SITE}/">Jordan Goods</a>.</p></article></body></html>`;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The tables whose times are the placement's (keyed by `placement_id`, or `id` for the placement and its payment). */
const PLACEMENT_TABLES = {
  payments: 'id',
  placements: 'id',
  publications: 'placement_id',
  publication_checks: 'placement_id',
  publication_cases: 'placement_id',
  disputes: 'placement_id',
  placement_events: 'placement_id',
} as const;

type Query = (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** This test's own server, and its database opened while it is stopped. */
class DeadlineServer extends OwnServer {
  constructor(onPostgres: boolean) {
    super(onPostgres ? 21 : 20, onPostgres);
  }

  /** The stopped server's database, as `fn` sees it through SQL and the job queue (pg-boss, as the server runs it). */
  async offline(fn: (query: Query, enqueue: (job: string) => Promise<void>) => Promise<void>) {
    if (this.child) throw new Error('stop the server first');
    if (this.pgUrl) {
      const client = new pg.Client({ connectionString: this.pgUrl });
      await client.connect();
      const boss = new PgBoss({ connectionString: this.pgUrl, supervise: false, schedule: false });
      await boss.start();
      try {
        await fn(
          (text, params) => client.query(text, params),
          async (job) => void (await boss.send(job, {})),
        );
      } finally {
        await boss.stop({ graceful: false });
        await client.end();
      }
      return;
    }
    const handle = await openEmbedded(this.env.DATA_DIR);
    const pglite = handle.pglite!;
    const boss = new PgBoss({ db: fromPglite(pglite), backend: 'pglite', supervise: false, schedule: false });
    await boss.start();
    try {
      await fn(
        (text, params) => pglite.query(text, params) as Promise<{ rows: Record<string, unknown>[] }>,
        async (job) => void (await boss.send(job, {})),
      );
    } finally {
      await boss.stop({ graceful: false });
      await handle.close();
    }
  }

  /** Stopped, its database changed by `fn`, started again. */
  async restartedAfter(fn: (query: Query, enqueue: (job: string) => Promise<void>) => Promise<void>) {
    await this.stop();
    await this.offline(fn);
    await this.start();
  }

  /** Every time of the placement moved back by `ms` (it all happened that much earlier), then `jobs` run. */
  async older(paymentId: string, ms: number, ...jobs: string[]) {
    await this.restartedAfter(async (query, enqueue) => {
      const { rows } = await query(
        `SELECT table_name AS t, column_name AS c FROM information_schema.columns
         WHERE table_schema = 'public' AND data_type = 'timestamp with time zone' AND table_name = ANY($1)`,
        [Object.keys(PLACEMENT_TABLES)],
      );
      for (const [table, key] of Object.entries(PLACEMENT_TABLES)) {
        const cols = rows.filter((r) => r.t === table).map((r) => `"${String(r.c)}" = "${String(r.c)}" - $2::interval`);
        if (cols.length)
          await query(`UPDATE "${table}" SET ${cols.join(', ')} WHERE "${key}" = $1`, [
            paymentId,
            `${ms} milliseconds`,
          ]);
      }
      for (const job of jobs) await enqueue(job);
    });
  }

  /** The next run of a scheduled job, as its schedule would start it. */
  async runJob(job: string) {
    await this.restartedAfter((_query, enqueue) => enqueue(job));
  }
}

let server: DeadlineServer;
let outlet: http.Server;
let outletBase = '';
const live = new Set<string>();

test.beforeAll(async () => {
  test.setTimeout(180_000);
  outlet = http.createServer((req, res) => {
    const up = live.has(req.url ?? '');
    res.writeHead(up ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(up ? ARTICLE : 'Not found');
  });
  await new Promise<void>((resolve) => outlet.listen(0, '127.0.0.1', resolve));
  outletBase = `http://127.0.0.1:${(outlet.address() as AddressInfo).port}`;
  server = new DeadlineServer(test.info().project.name === 'postgres');
  await server.create();
  await server.start();
});

test.afterAll(async () => {
  await server?.destroy();
  outlet.closeAllConnections();
  await new Promise<void>((resolve) => outlet.close(() => resolve()));
});

/** The API from the page's own cookie jar, on this test's server. */
async function call(page: Page, method: 'GET' | 'POST' | 'PATCH', url: string, data?: unknown, status = 200) {
  const res = await page.request.fetch(server.base + url, { method, data, headers: { origin: server.base } });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBe(status);
  return res.json() as Promise<Record<string, unknown>>;
}

async function signedIn(browser: Browser) {
  const ctx = await browser.newContext({ baseURL: server.base, viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await page.goto('/auth');
  return page;
}

test('[BRAND][ADMIN][DISPUTES] a link dispute confirmed by two checks an hour apart, refunded in full at the restore deadline', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const t = randomBytes(3).toString('hex');
  const path = `/story-${t}`;
  const admin = await signedIn(browser);
  await call(admin, 'POST', '/api/login', DEMO_ADMIN);
  const brand = await signedIn(browser);
  await call(brand, 'POST', '/api/register', { email: uniqueEmail('link'), password: PASSWORD }, 201);
  await call(brand, 'PATCH', '/api/user/profile', {
    name: 'Riley Jordan',
    brandName: 'Jordan Goods',
    website: BRAND_SITE,
    inviteCode: DEMO_INVITE,
  });

  // ---- bought, briefed, drafted, approved and published with its live link ----
  const { id: opportunityId } = await call(
    admin,
    'POST',
    '/api/admin/opportunities',
    {
      outletName: `Deadline Outlet ${t}`,
      title: `Link deadline ${t}`,
      description: 'A placement whose live link goes missing.',
      type: ['listicle'],
      topics: ['crypto'],
      domainAuthority: 70,
      priceUsd: '600.00',
      maxSlots: 3,
    },
    201,
  );
  const { url } = await call(brand, 'POST', '/api/payments/checkout', { opportunityId });
  const { paymentId } = (await call(brand, 'POST', `/api/payments/checkout/${String(url).split('/').pop()}/pay`)) as {
    paymentId: string;
  };
  await call(brand, 'POST', `/api/brand/brief/${paymentId}/submit`, {
    part1Json: { personOrBrandName: 'Riley Jordan', backgroundExperience: 'Fifteen years building outdoor gear.' },
    part2Json: {
      mainGoal: 'Reach new customers',
      targetAudience: 'Weekend hikers',
      mainMessage: 'Gear that lasts a lifetime',
    },
  });
  await call(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, {
    draftDocumentUrl: `https://docs.example.com/d/${paymentId}`,
  });
  await call(brand, 'POST', `/api/brand/projects/${paymentId}/approve`);
  live.add(path);
  await call(admin, 'POST', `/api/admin/payments/${paymentId}/release`, { liveUrl: `${outletBase}${path}` });

  // ---- the outlet removes the page; the brand disputes the link ----
  live.delete(path);
  await brand.goto(`/brand/my-articles/${paymentId}`);
  await brand.getByTestId('dispute-section').getByRole('button', { name: 'Open a dispute' }).click();
  const dialog = brand.getByTestId('open-dispute-dialog');
  await dialog.getByRole('radio', { name: 'The link to us is missing' }).check();
  await dialog.getByRole('radio', { name: 'A full refund' }).check();
  await dialog.getByLabel('What is wrong').fill('The article page is gone, and our link with it.');
  await dialog.getByRole('button', { name: 'Open dispute' }).click();
  await expect(brand).toHaveURL(/\/brand\/disputes\/[0-9a-f-]+$/);
  const disputeUrl = new URL(brand.url()).pathname;
  await expect(brand.getByTestId('dispute-status')).toHaveText('Checking the link');

  // ---- the checks fail (the watch checks at once, and an admin's "Recheck now"): not yet an hour apart ----
  const recheck = async () => {
    await admin.goto(`/admin/projects/${paymentId}`);
    await admin.getByTestId('publication-section').getByRole('button', { name: 'Recheck now' }).click();
    await expect(
      admin.getByTestId('toast').filter({ hasText: 'The page answered 404 Not Found.' }).first(),
    ).toBeVisible();
  };
  await recheck();
  await brand.goto(disputeUrl);
  await expect(brand.getByTestId('evidence-check').first().getByTestId('evidence-result')).toHaveText('Failed');
  const checksBefore = await brand.getByTestId('evidence-check').count();
  await expect(brand.getByTestId('dispute-checking')).not.toContainText('The checks have confirmed the problem');

  // ---- an hour later, a second failing check confirms it: the publication case ----
  await server.older(paymentId, HOUR + 60_000);
  await recheck();
  // the deadlines job (every 15 minutes) links the case to the dispute
  await server.runJob(JOBS.guaranteeRefunds);
  await brand.goto(disputeUrl);
  await expect(brand.getByTestId('dispute-checking')).toContainText(
    'The checks have confirmed the problem: the outlet is asked to restore it.',
    { timeout: 30_000 },
  );
  expect(await brand.getByTestId('evidence-check').count()).toBeGreaterThan(checksBefore);
  await expect(brand.getByTestId('dispute-status')).toHaveText('Checking the link');

  // ---- ten days on, the article is still gone: the watch refunds the brand in full ----
  await server.older(paymentId, 10 * DAY + HOUR, JOBS.publicationChecks);
  await brand.goto(`/brand/my-articles/${paymentId}`);
  await expect
    .poll(
      async () => {
        await brand.reload();
        return brand.getByTestId('money-section').innerText();
      },
      { timeout: 30_000, intervals: [1000] },
    )
    .toContain('Refunded');

  // ---- and the dispute follows the case: resolved, refunded in full ----
  await server.runJob(JOBS.guaranteeRefunds);
  await expect
    .poll(
      async () => {
        await brand.goto(disputeUrl);
        return brand.getByTestId('dispute-status').innerText();
      },
      { timeout: 30_000, intervals: [1000] },
    )
    .toBe('Refunded in full');
  await expect(brand.getByTestId('dispute-refunded')).toHaveText('$600.00 refunded');
  const refund = (await call(brand, 'GET', `/api/brand/payments/${paymentId}/credit-notes`)) as unknown as {
    amountUsd: string;
  }[];
  expect(refund.map((n) => n.amountUsd)).toEqual(['600.00']);
  await admin.context().close();
  await brand.context().close();
});
