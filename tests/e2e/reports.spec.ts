import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { pdfText } from '../support/pdf';
import { adminPage, api, axe, brandAs, invitationToken, PASSWORD, shots, uniqueEmail } from './support';

/*
 * Reports (issue 48), through the screens: an agency makes a white-label report of one client's
 * placements on /brand/reports, downloads its PDF (its name and footer, no "Byline", no price),
 * shares it by a link that opens signed out with that client's placements only, sees the view
 * counted under Share links and revokes the link (the page then answers 404). A published
 * placement's proof is shared from its page. A client reviewer makes reports too, without prices.
 * SHOTS_DIR=/tmp/… saves screenshots at 1280 and 390 px.
 */

const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });
/** The date the screens print (date-fns 'MMM d, yyyy'), in the browser's and this process's time zone. */
const inDays = (n: number) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(
    new Date(Date.now() + n * 86_400_000),
  );

const ok = async (res: Awaited<ReturnType<typeof api>>, status = 200) => {
  expect(res.status(), await res.text()).toBe(status);
  return res;
};

/** A run's tag: no "740" in it, so the price can be looked for in what the reports print. */
function tag() {
  for (;;) {
    const t = randomBytes(3).toString('hex');
    if (!t.includes('740')) return t;
  }
}

/** A 1×1 PNG: the agency's logo. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const BRIEF = {
  part1Json: { personOrBrandName: 'Acme Foods', backgroundExperience: 'Forty years of family kitchens.' },
  part2Json: { mainGoal: 'Reach grocers', targetAudience: 'Independent grocers', mainMessage: 'Fresh travels well' },
};

/** An opportunity of its own (title unique to the run) at $740, made by the admin through the API. */
async function opportunity(admin: Page, title: string, outlet: string) {
  const res = await ok(
    await api(admin, 'POST', '/api/admin/opportunities', {
      outletName: outlet,
      title,
      description: 'A placement for the reports journeys.',
      type: ['listicle'],
      topics: ['technology'],
      domainAuthority: 55,
      priceUsd: '740.00',
      maxSlots: 3,
    }),
    201,
  );
  return ((await res.json()) as { id: string }).id;
}

/** The brand on `page` buys the opportunity for a client (or none) through the API; the payment's id. */
async function buyFor(page: Page, opportunityId: string, clientId?: string) {
  const checkout = await ok(
    await api(page, 'POST', '/api/payments/checkout', { opportunityId, ...(clientId ? { clientId } : {}) }),
  );
  const { url } = (await checkout.json()) as { url: string };
  const pay = await ok(await api(page, 'POST', `/api/payments/checkout/${url.split('/').pop()}/pay`));
  return ((await pay.json()) as { paymentId: string }).paymentId;
}

/** The brief in, a draft attached, approved by the brand and released by the admin (no live URL). */
async function publish(brand: Page, admin: Page, paymentId: string) {
  await ok(await api(brand, 'POST', `/api/brand/brief/${paymentId}/submit`, BRIEF));
  await ok(
    await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, {
      draftDocumentUrl: `https://docs.example.com/d/${paymentId}`,
    }),
  );
  await ok(await api(brand, 'POST', `/api/brand/projects/${paymentId}/approve`));
  await ok(await api(admin, 'POST', `/api/admin/payments/${paymentId}/release`));
}

async function addClient(page: Page, name: string) {
  const res = await ok(await api(page, 'POST', '/api/org/clients', { name }), 201);
  return ((await res.json()) as { id: string }).id;
}

/** A page in a browser context of its own that never signed in. */
async function signedOut(browser: Browser) {
  const ctx = await browser.newContext();
  return { visitor: await ctx.newPage(), close: () => ctx.close() };
}

test('[BRAND][REPORTS] a white-label report for one client: PDF, a share link opened signed out, counted and revoked', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const t = tag();
  const { admin, close } = await adminPage(browser);
  const outlet = `The Daily Ledger ${t}`;
  const titles = {
    kitchens: `Acme rebuilt its kitchens ${t}`,
    lyon: `Acme opens in Lyon ${t}`,
    bolt: `Bolt goes electric ${t}`,
  };
  const [kitchensOpp, lyonOpp, boltOpp] = [
    await opportunity(admin, titles.kitchens, outlet),
    await opportunity(admin, titles.lyon, outlet),
    await opportunity(admin, titles.bolt, outlet),
  ];

  // ---- setup: an agency with two clients, two placements for Acme (one published), one for Bolt ----
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const acme = await addClient(page, 'Acme Foods');
  const bolt = await addClient(page, 'Bolt Bikes');
  const kitchens = await buyFor(page, kitchensOpp, acme);
  await buyFor(page, lyonOpp, acme);
  await buyFor(page, boltOpp, bolt);
  await publish(page, admin, kitchens);
  await close();

  // ---- Reports in the Organisation navigation; none yet ----
  await page.goto('/brand/my-articles');
  await page.getByRole('navigation', { name: 'Organisation' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page).toHaveURL(/\/brand\/reports$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(page.getByText('No reports yet')).toBeVisible();
  await expect(page.getByTestId('share-links')).toContainText('No share links yet');

  // ---- New report: the defaults, a server refusal on its field, then the white label ----
  await page.getByRole('button', { name: 'New report' }).first().click();
  const dialog = page.getByTestId('new-report-dialog');
  await expect(dialog.getByRole('heading', { name: 'New report' })).toBeVisible();
  const columns = dialog.getByTestId('report-columns');
  for (const label of ['Outlet', 'Article', 'Client', 'Status', 'Published', 'Live URL', 'Link status'])
    await expect(columns.getByRole('checkbox', { name: label, exact: true })).toBeChecked();
  for (const label of ['Ordered', 'Last checked'])
    await expect(columns.getByRole('checkbox', { name: label, exact: true })).not.toBeChecked();
  // the price column waits for "Show prices", which is off
  await expect(columns.getByRole('checkbox', { name: /^Price/ })).toBeDisabled();
  await expect(dialog.getByRole('switch', { name: 'Show prices' })).toHaveAttribute('aria-checked', 'false');
  await expect(dialog.getByText('Prices are left out unless you turn this on.')).toBeVisible();
  await dialog.getByRole('switch', { name: 'Show prices' }).click();
  await expect(columns.getByRole('checkbox', { name: 'Price' })).toBeEnabled();
  await dialog.getByRole('switch', { name: 'Show prices' }).click();
  await expect(columns.getByRole('checkbox', { name: /^Price/ })).toBeDisabled();
  await expect(dialog.getByRole('combobox', { name: 'Client' })).toHaveValue('');
  await expect(dialog.getByRole('combobox', { name: 'Client' }).locator('option:checked')).toHaveText('All clients');
  // no name: the server's message under the field
  await dialog.getByRole('button', { name: 'Create report' }).click();
  await expect(dialog.locator('#report-name-error')).toHaveText('Give the report a name');

  const name = `Acme — November ${t}`;
  const footer = 'Prepared by Northwind for Acme Foods';
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByRole('combobox', { name: 'Client' }).selectOption({ label: 'Acme Foods' });
  await dialog.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'All' });
  await expect(dialog.getByTestId('white-label-fields')).toHaveCount(0);
  await dialog.getByRole('switch', { name: 'White label' }).click();
  await dialog.getByLabel('Logo').setInputFiles({ name: 'northwind.png', mimeType: 'image/png', buffer: PNG });
  await expect(dialog.getByRole('img', { name: 'Logo preview' })).toBeVisible();
  await expect(dialog.getByTestId('report-logo-name')).toHaveText('northwind.png');
  await expect(dialog.getByRole('button', { name: 'Replace logo' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Remove logo' })).toBeVisible();
  await dialog.getByLabel('Colour as hex').fill('#1D4ED8');
  await expect(dialog.locator('#report-color')).toHaveValue('#1d4ed8');
  await dialog.getByLabel('Footer').fill(footer);
  await expect(dialog.getByTestId('length-counter')).toContainText(`${footer.length} / 200`);
  await axe(page, 'new-report-dialog');
  await shots(page, 'new-report-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Create report' }).click();
  await expect(toast(page, 'Report created')).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId('report-row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText('White label');
  await expect(row.getByTestId('report-filters')).toHaveText('Acme Foods · every status');
  await expect(row.getByTestId('report-columns-summary')).toContainText(
    'Outlet, Article, Client, Status, Published, Live URL, Link status',
  );
  await expect(row.getByTestId('report-schedule')).toHaveText('Not sent by e-mail');

  // ---- the PDF, downloaded from the row: its name and footer, no Byline, no price ----
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: /^PDF/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const words = await pdfText(readFileSync((await download.path())!));
  expect(words).toContain(name);
  expect(words).toContain(footer);
  expect(words).toContain(titles.kitchens);
  expect(words).not.toContain(titles.bolt);
  expect(words).not.toMatch(/byline/i);
  expect(words).not.toContain('740');

  // ---- the schedule: weekly to two recipients ----
  await row.getByRole('button', { name: /^Schedule/ }).click();
  const schedule = page.getByTestId('schedule-dialog');
  await expect(schedule).toContainText('Sent at the start of each week or month, only when something changed.');
  await expect(schedule).toContainText('Each recipient can unsubscribe from the e-mail.');
  await schedule.getByRole('radio', { name: /^Weekly/ }).check();
  await schedule.getByLabel('Recipients').fill('not-an-address\nmarketing@acme.example');
  await expect(schedule.getByTestId('recipients-count')).toContainText('2 of 20 recipients');
  await schedule.getByRole('button', { name: 'Save' }).click();
  await expect(schedule.locator('#report-recipients-error')).toContainText('not-an-address');
  await schedule.getByLabel('Recipients').fill('ceo@acme.example\nmarketing@acme.example');
  await schedule.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Schedule saved')).toBeVisible();
  await expect(row.getByTestId('report-schedule')).toHaveText('Weekly to 2 recipients');

  // ---- Share: a link for 30 days ----
  await row.getByRole('button', { name: /^Share/ }).click();
  const share = page.getByTestId('share-dialog');
  await expect(share.getByLabel('Expires after (days)')).toHaveValue('30');
  await share.getByRole('button', { name: 'Create link' }).click();
  const url = await share.getByTestId('share-url').inputValue();
  expect(url).toMatch(/^https?:\/\/.+\/share\/[A-Za-z0-9_-]+$/);
  await expect(share.getByTestId('share-expires')).toContainText(inDays(30));
  await expect(share.getByRole('button', { name: 'Copy' })).toBeVisible();
  await share.getByRole('button', { name: 'Done' }).click();

  // ---- signed out: the report, Acme's placements only, no Byline anywhere ----
  const { visitor, close: closeVisitor } = await signedOut(browser);
  const opened = await visitor.goto(url);
  expect(opened?.status()).toBe(200);
  await expect(visitor.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(visitor.getByText(titles.kitchens)).toBeVisible();
  await expect(visitor.getByText(titles.lyon)).toBeVisible();
  await expect(visitor.getByText(titles.bolt)).toHaveCount(0);
  await expect(visitor.getByText(footer)).toBeVisible();
  const html = await visitor.content();
  expect(html).not.toMatch(/byline/i);
  expect(html).not.toContain('740');
  await axe(visitor, 'shared report page');
  await shots(visitor, 'shared-report-page');

  // ---- back on Reports: the view counted ----
  await page.reload();
  const link = page.getByTestId('share-row').filter({ hasText: name });
  await expect(link).toContainText('Report');
  await expect(link.getByTestId('share-status')).toHaveText('Active');
  await expect(link.getByTestId('share-views')).toHaveText('1 view');
  await expect(link).toContainText(`Expires ${inDays(30)}`);
  await expect(link).toContainText('last opened');
  // the active link copied again, the same URL (issue 57)
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await link.getByTestId('share-copy').click();
  await expect(toast(page, 'Link copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await axe(page, 'reports-page');
  await shots(page, 'reports-page');

  // ---- Revoke, confirmed: the link answers 404 at once ----
  await link.getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm.getByRole('heading', { name: 'Revoke this link?' })).toBeVisible();
  await confirm.getByRole('button', { name: 'Revoke link' }).click();
  await expect(toast(page, 'Link revoked')).toBeVisible();
  await expect(link.getByTestId('share-status')).toHaveText('Revoked');
  await expect(link.getByRole('button', { name: 'Revoke' })).toHaveCount(0);
  await expect(link.getByTestId('share-copy')).toHaveCount(0);
  const gone = await visitor.reload();
  expect(gone?.status()).toBe(404);
  await expect(visitor.getByRole('heading', { name: 'This link is not available' })).toBeVisible();
  await expect(visitor.getByText(titles.kitchens)).toHaveCount(0);
  await closeVisitor();
});

test('[BRAND][REPORTS] "Share proof" on a published placement makes a link that opens signed out', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const t = tag();
  const { admin, close } = await adminPage(browser);
  const title = `Proof story ${t}`;
  const waiting = `Unpublished story ${t}`;
  const publishedOpp = await opportunity(admin, title, `The Morning Courier ${t}`);
  const waitingOpp = await opportunity(admin, waiting, `The Morning Courier ${t}`);
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await buyFor(page, publishedOpp);
  const unpublished = await buyFor(page, waitingOpp);
  await publish(page, admin, paymentId);
  await close();

  // not published yet: nothing to prove
  await page.goto(`/brand/my-articles/${unpublished}`);
  await expect(page.getByTestId('publication-section')).toContainText('Not published yet');
  await expect(page.getByRole('button', { name: 'Share proof' })).toHaveCount(0);

  await page.goto(`/brand/my-articles/${paymentId}`);
  const section = page.getByTestId('publication-section');
  await expect(section.getByTestId('publication-panel')).toBeVisible();
  await section.getByRole('button', { name: 'Share proof' }).click();
  const share = page.getByTestId('share-dialog');
  await expect(share.getByRole('heading', { name: 'Share proof of publication' })).toBeVisible();
  // a number out of range is said on the field
  await share.getByLabel('Expires after (days)').fill('400');
  await share.getByRole('button', { name: 'Create link' }).click();
  await expect(share.locator('#share-days-error')).toHaveText('A number of days from 1 to 365');
  await share.getByLabel('Expires after (days)').fill('7');
  await share.getByRole('button', { name: 'Create link' }).click();
  const url = await share.getByTestId('share-url').inputValue();
  await expect(share.getByTestId('share-expires')).toContainText(inDays(7));
  await axe(page, 'share-proof-dialog');
  await shots(page, 'share-proof-dialog', { fullPage: false });
  await share.getByRole('button', { name: 'Done' }).click();

  const { visitor, close: closeVisitor } = await signedOut(browser);
  expect((await visitor.goto(url))?.status()).toBe(200);
  await expect(visitor.getByText('Proof of publication')).toBeVisible();
  await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
  expect(await visitor.content()).not.toContain('740');
  await axe(visitor, 'shared proof page');
  await shots(visitor, 'shared-proof-page');
  await closeVisitor();

  // the link is listed on Reports as a placement proof, opened once
  await page.goto('/brand/reports');
  const link = page.getByTestId('share-row').filter({ hasText: title });
  await expect(link).toContainText('Placement proof');
  await expect(link.getByTestId('share-views')).toHaveText('1 view');
});

test('[BRAND][REPORTS] a client reviewer makes a report of its client without prices', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const t = tag();
  const { admin, close } = await adminPage(browser);
  const opportunityId = await opportunity(admin, `Acme reviewed ${t}`, `The Evening Post ${t}`);
  await close();
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const acme = await addClient(page, 'Acme Foods');
  await addClient(page, 'Bolt Bikes');
  // the reviewer may not read the client list (it shows spend): its client is named by its placement
  await buyFor(page, opportunityId, acme);
  const email = uniqueEmail('client-reviewer');
  await ok(await api(page, 'POST', '/api/org/invitations', { email, role: 'reviewer', clientIds: [acme] }), 201);
  const token = await invitationToken(email);
  const ctx = await browser.newContext();
  const reviewer = await ctx.newPage();
  await reviewer.goto('/auth');
  await ok(await api(reviewer, 'POST', '/api/register', { email, password: PASSWORD }), 201);
  await ok(await api(reviewer, 'POST', `/api/invitations/${token}/accept`, { name: 'Rita Client' }));

  await reviewer.goto('/brand/my-articles');
  await reviewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await expect(reviewer.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await reviewer.getByRole('button', { name: 'New report' }).first().click();
  const dialog = reviewer.getByTestId('new-report-dialog');
  await expect(dialog.getByRole('heading', { name: 'New report' })).toBeVisible();
  // no prices for a client reviewer, and its own client only
  await expect(dialog.getByRole('switch', { name: 'Show prices' })).toHaveCount(0);
  await expect(dialog.getByTestId('report-columns').getByRole('checkbox', { name: /^Price/ })).toHaveCount(0);
  await expect(dialog.getByRole('combobox', { name: 'Client' }).locator('option')).toHaveText(['Acme Foods']);
  await dialog.getByLabel('Name', { exact: true }).fill(`Acme for review ${t}`);
  await dialog.getByRole('button', { name: 'Create report' }).click();
  await expect(toast(reviewer, 'Report created')).toBeVisible();
  await expect(reviewer.getByTestId('report-row').filter({ hasText: `Acme for review ${t}` })).toContainText(
    'Acme Foods',
  );
  await ctx.close();
});
