import { randomBytes } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { OwnServer } from './own-server';
import { DEMO_ADMIN, DEMO_BRAND } from './support';
import { addBusinessDays, businessDaysBetween } from '../support/business-days';

/*
 * A date Byline can be held to (issue 59), through the screens, on a server of its own: the test
 * clock moves Byline's time for the whole server, so no other journey may share it. The demo brand
 * buys through the claim dialog and the test checkout and sees "Live by …"; it sends the brief
 * late and sees the date move, with the reason; the demo admin takes the placement and works from
 * Projects' "Mine", sorted by due; the editorial team never sends a draft, so the placement runs
 * past its "Live by" date: the brand sees it late and is credited 2% a business day, each with its
 * credit note; ten business days late it cancels in one click for all that is left.
 *
 * Time is moved with POST /api/admin/test-clock (it runs every sweep due before it answers); the
 * dates expected are computed from the API's answers with the business-day model of the tests
 * (tests/support/business-days.ts), so the journey holds whatever today's weekday is.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PRICE = '1000.00';
/** The server's "Live by" form: "Jan 12, 2027", in UTC (components/promise/live-by.tsx). */
const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const liveByText = (iso: string) => `Live by ${day.format(new Date(iso))}`;

/** drizzle/0053 business_days_late: business days past due, a part of a day counting whole (decision 048). */
const businessDaysLate = (due: Date, at: Date) => {
  if (at <= due) return 0;
  const whole = businessDaysBetween(due, at);
  return whole + (addBusinessDays(due, whole) < at ? 1 : 0);
};

let server: OwnServer;

test.beforeAll(async () => {
  // the test clock moves time for the whole server: its own, on the embedded database only
  test.skip(test.info().project.name === 'postgres', 'the test clock journey runs on the embedded database');
  test.setTimeout(120_000);
  server = new OwnServer(22, false);
  await server.create();
  await server.start();
});

test.afterAll(async () => {
  await server?.destroy();
});

/** The API from the page's own cookie jar, on this test's server. */
async function call<T = Record<string, unknown>>(page: Page, method: 'GET' | 'POST' | 'PATCH', url: string, data?: unknown, status = 200) {
  const res = await page.request.fetch(server.base + url, { method, data, headers: { origin: server.base } });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBe(status);
  return res.json() as Promise<T>;
}

async function signedIn(browser: Browser, who: { email: string; password: string }) {
  const ctx = await browser.newContext({ baseURL: server.base, viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await page.goto('/auth');
  await call(page, 'POST', '/api/login', who);
  return page;
}

interface Clock {
  stage: string | null;
  state: string | null;
  dueAt: string | null;
  liveBy: string | null;
  promiseMovedDays: number;
  promiseMoved: string | null;
}
interface Placement {
  promisedBy: string | null;
  life: { clock: Clock };
  payment: { id: string; status: string; refundedAmount: string };
}

test('[BRAND][ADMIN][DUE DATES] Live by, moved by a late brief, late credit, the late cancel, and "mine, sorted by due"', async ({ browser }) => {
  test.setTimeout(150_000);
  const t = randomBytes(3).toString('hex');
  const title = `Due dates ${t}`;
  const admin = await signedIn(browser, DEMO_ADMIN);
  const brand = await signedIn(browser, DEMO_BRAND);
  const { id: adminId } = await call<{ id: string }>(admin, 'GET', '/api/user');

  /** Byline's time moved forward by `hours` (every due sweep run); Byline's time after. */
  const advance = async (hours: number) => {
    const moved = await call<{ now: string; offsetHours: number }>(admin, 'POST', '/api/admin/test-clock', { advanceHours: Math.ceil(hours) });
    return new Date(moved.now);
  };
  const placement = (id: string) => call<Placement>(brand, 'GET', `/api/brand/placements/${id}`);

  // an outlet with no record yet: its promise comes from the listed turnaround
  await call(
    admin,
    'POST',
    '/api/admin/opportunities',
    {
      outletName: `Due Dates Outlet ${t}`,
      title,
      description: 'A placement whose dates the brand can plan with.',
      // the profile article's brief (a listicle asks other questions)
      type: ['profile_article'],
      domainAuthority: 70,
      priceUsd: PRICE,
      tatDays: 10,
      maxSlots: 3,
    },
    201,
  );

  // ---- (1) the brand buys: the claim dialog, the test checkout, then "Live by" on its card and page ----
  await brand.goto('/brand/opportunities');
  const offer = brand.getByTestId('opportunity-card').filter({ hasText: title });
  await expect(offer.getByTestId('live-by')).toContainText(/^Live by [A-Z][a-z]{2} \d{1,2}, \d{4}/);
  const dialog = brand.getByTestId('claim-dialog');
  await expect(async () => {
    await offer.click();
    await expect(dialog).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 20_000 });
  await expect(dialog.getByTestId('live-by')).toContainText(/Live by [A-Z][a-z]{2} \d{1,2}, \d{4}/);
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('checkbox').click();
  await dialog.getByRole('button', { name: 'Pay now and secure article' }).click();
  await expect(brand).toHaveURL(/\/checkout\/[A-Za-z0-9_]+$/);
  await brand.getByRole('button', { name: 'Pay $1,000.00' }).click();
  await expect(brand).toHaveURL(/\/brand\/my-articles$/);
  const card = brand.getByTestId('article-card').filter({ hasText: title });
  await expect(card).toBeVisible();
  const briefHref = await card.getByRole('link', { name: 'Submit Brief' }).getAttribute('href');
  const paymentId = /\/brand\/brief\/([0-9a-f-]+)$/.exec(briefHref ?? '')![1];

  const bought = await placement(paymentId);
  expect(bought.life.clock).toMatchObject({ stage: 'brief', promiseMovedDays: 0, promiseMoved: null });
  const promised = bought.life.clock.liveBy!;
  expect(promised).toBe(bought.promisedBy);
  await expect(card.getByTestId('live-by')).toHaveText(liveByText(promised));
  await brand.goto(`/brand/my-articles/${paymentId}`);
  await expect(brand.getByTestId('live-by')).toHaveText(liveByText(promised));
  await expect(brand.getByTestId('live-by-moved')).toHaveCount(0);
  await expect(brand.getByTestId('stage-clock-line')).toContainText('Brief (yours): due');

  // ---- (2) a week later less an hour (the brief was due in 3 business days) the brand sends it: "Live by" moves ----
  const briefDue = new Date(bought.life.clock.dueAt!);
  const sentAt = await advance(7 * 24 - 1);
  await brand.reload();
  await expect(brand.getByTestId('stage-clock-line').getByTestId('stage-clock')).toHaveAttribute('data-state', 'late');
  await brand.goto(`/brand/brief/${paymentId}`);
  await brand.getByLabel('Name (person or brand) to feature').fill('Riley Jordan');
  await brand.getByLabel('Background and experience').fill('Fifteen years building outdoor gear.');
  await brand.getByRole('button', { name: 'Next: Article Guidelines' }).click();
  await expect(brand.getByText('Step 2 of 2')).toBeVisible();
  await brand.getByLabel('Main goal of the article').fill('Reach new customers');
  await brand.getByLabel('Target audience').fill('Weekend hikers');
  await brand.getByLabel('Main message').fill('Gear that lasts a lifetime');
  await brand.getByRole('button', { name: 'Submit Brief' }).click();
  await expect(brand.getByTestId('toast')).toContainText('Brief submitted successfully');
  await expect(brand).toHaveURL(/\/brand\/my-articles$/);

  const briefed = await placement(paymentId);
  // sent a minute after `sentAt` at most: the same business days late unless a day's hour was crossed in that minute
  const moved = businessDaysLate(briefDue, sentAt);
  expect(moved).toBeGreaterThanOrEqual(1);
  expect(briefed.life.clock.promiseMovedDays).toBe(moved);
  const liveBy = briefed.life.clock.liveBy!;
  expect(new Date(liveBy).toISOString()).toBe(addBusinessDays(new Date(promised), moved).toISOString());
  const because = `moved ${moved} day${moved === 1 ? '' : 's'}: brief sent ${moved} day${moved === 1 ? '' : 's'} late`;
  expect(briefed.life.clock.promiseMoved).toBe(because);
  await expect(card.getByTestId('live-by')).toContainText(liveByText(liveBy));
  await expect(card.getByTestId('live-by-moved')).toHaveText(`· ${because}`);
  await brand.goto(`/brand/my-articles/${paymentId}`);
  await expect(brand.getByTestId('live-by')).toContainText(liveByText(liveBy));
  await expect(brand.getByTestId('live-by-moved')).toHaveText(`· ${because}`);
  await expect(brand.getByTestId('stage-clock-line')).toContainText('First draft (the editorial team’s): due');

  // ---- (3) the admin takes the placement and works from "mine, sorted by due" ----
  await admin.goto(`/admin/projects/${paymentId}`);
  await admin.getByTestId('project-editor').selectOption(adminId);
  await expect(admin.getByTestId('toast').first()).toContainText('Assigned to');
  await admin.goto('/admin/projects');
  await admin.getByTestId('projects-mine').click();
  await expect(admin).toHaveURL(/mine=1/);
  await admin.getByTestId('projects-sort').selectOption('due');
  await expect(admin).toHaveURL(/sort=due/);
  const projects = admin.getByRole('tabpanel').getByTestId('project-card');
  const mine = projects.filter({ hasText: title });
  await expect(mine).toBeVisible();
  await expect(mine.getByTestId('live-by')).toContainText(liveByText(liveBy));
  await expect(mine.getByTestId('live-by-moved')).toHaveText(`· ${because}`);
  // "Mine" lists only the admin's own placements
  for (const editor of await projects.getByTestId('project-editor').all()) await expect(editor).toHaveValue(adminId);

  // ---- (4) the team runs late: past "Live by", the brand sees it late and is credited each business day ----
  const lateAt = await advance((Date.parse(liveBy) - sentAt.getTime() + 4 * DAY + HOUR) / HOUR);
  const lateDays = businessDaysBetween(new Date(liveBy), lateAt);
  expect(lateDays).toBeGreaterThanOrEqual(2);
  await brand.goto('/brand/my-articles');
  await expect(card.getByTestId('stage-clock')).toHaveAttribute('data-state', 'late');
  // the time over, worded in Byline's time (the banner's offset, client lib/byline-time.ts): the
  // first draft was due by "Live by" at the latest, four days and an hour ago or more
  await expect(card.getByTestId('stage-clock')).toHaveText(/^\d+ days late$/);
  await brand.goto(`/brand/my-articles/${paymentId}`);
  await expect(brand.getByTestId('stage-clock-line').getByTestId('stage-clock')).toHaveAttribute('data-state', 'late');
  const money = brand.getByTestId('money-section');
  const credited = (20 * lateDays).toFixed(2);
  await expect(money.getByTestId('money-refunded')).toHaveText(`$${credited} refunded`);
  const notes = money.getByTestId('credit-note');
  await expect(notes).toHaveCount(lateDays);
  for (const note of await notes.all()) {
    await expect(note).toContainText('$20.00');
    await expect(note.getByRole('link', { name: /^Credit note .+ PDF$/ })).toHaveAttribute('href', new RegExp(`/api/brand/payments/${paymentId}/credit-notes/`));
  }
  // the note's PDF downloads
  const [pdf] = await Promise.all([brand.waitForEvent('download'), notes.first().getByRole('link', { name: /PDF$/ }).click()]);
  expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
  await expect(brand.getByTestId('cancel-late')).toHaveCount(0);

  // ---- (5) ten business days late: the brand cancels in one click for all that is left ----
  await advance((Date.parse(liveBy) - lateAt.getTime() + 15 * DAY + HOUR) / HOUR);
  await brand.reload();
  await expect(money.getByTestId('money-refunded')).toHaveText('$200.00 refunded'); // the credit's cap: 20%
  await expect(brand.getByTestId('cancel-late-rule')).toContainText('10 or more business days past its “Live by” date');
  await brand.getByTestId('cancel-late').click();
  await expect(brand.getByTestId('toast').first()).toContainText('$800.00 is on its way back to your card.');
  await expect(money.getByTestId('money-status')).toHaveText('Refunded');
  await expect(money.getByTestId('money-refunded')).toHaveText('$1,000.00 refunded');
  await expect(money.getByTestId('credit-note')).toHaveCount(11);
  await expect(money.getByTestId('credit-note').filter({ hasText: '$800.00' })).toHaveCount(1);
  await expect(brand.getByTestId('cancel-late')).toHaveCount(0);
  await brand.goto('/brand/my-articles');
  await brand.getByRole('tab', { name: /^Refunded/ }).click();
  await expect(brand.getByTestId('article-card').filter({ hasText: title }).getByTestId('refunded-note')).toHaveText('Refunded – $1,000.00 returned');

  await admin.context().close();
  await brand.context().close();
});
