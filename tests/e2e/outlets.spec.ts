import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { adminPage, api, axe, brandAs, buy, shots } from './support';

/*
 * Outlets (issue 48), through the screens: an admin checks a Moz export on /admin/outlets/import
 * (the changes, a host no outlet has), applies it and checks it again (nothing left to change); a
 * brand reads the outlet's page (the metric with its source and date, Byline's record, what it can
 * buy) and reaches it from the catalogue's card and claim dialog. A file with a bad row shows the
 * row's line and cannot be applied. Each test makes its own outlet (a host of its own) and closes
 * its opportunities at the end, so the catalogue other journeys read is left as it was.
 */

const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });
/** A metric's day as the screens print it ('MMM d, yyyy' of its UTC day): an import without a date column is as of today. */
const today = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
}).format(new Date());
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

const ok = async (res: Awaited<ReturnType<typeof api>>, status = 200) => {
  expect(res.status(), await res.text()).toBe(status);
  return res;
};

/** An opportunity at an outlet of its own (a host unique to the run), made by the admin through the API. */
async function listed(admin: Page, host: string) {
  const body = {
    outletName: `Outlet ${host.split('.')[0]}`,
    outletUrl: `https://www.${host}/news`,
    title: `Metrics story ${host.split('.')[0]}`,
    description: 'A placement for the outlet journeys.',
    type: ['listicle'],
    tat: '2 weeks',
    tatDays: 14,
    topics: ['technology'],
    country: 'DE',
    language: 'de',
    domainAuthority: 41,
    priceUsd: '640.00',
    maxSlots: 2,
  };
  const res = await ok(await api(admin, 'POST', '/api/admin/opportunities', body), 201);
  const { id, outletId } = (await res.json()) as { id: string; outletId: string };
  return {
    id,
    outletId,
    name: body.outletName,
    title: body.title,
    /** out of the catalogue (its deadline passed): the list other journeys read stays as it was */
    close: async () =>
      ok(await api(admin, 'PATCH', `/api/admin/opportunities/${id}`, { ...body, deadlineDate: yesterday })),
  };
}

const csv = (lines: string[]) => ({
  name: 'moz-export.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(`${lines.join('\n')}\n`),
});
const MOZ_HEADER = 'URL,Domain Authority,Spam Score,Linking Root Domains';

/** On the import page: the tool and the file chosen, then "Check file". */
async function checkFile(admin: Page, tool: 'Ahrefs' | 'Moz' | 'Semrush', file: ReturnType<typeof csv>) {
  await admin.getByRole('radio', { name: new RegExp(`^${tool}`) }).check();
  await admin.getByLabel('CSV file').setInputFiles(file);
  await admin.getByRole('button', { name: 'Check file' }).click();
}

test('[ADMIN][BRAND][OUTLETS] a Moz export checked, applied and checked again; the brand reads the outlet from the catalogue', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const t = randomBytes(4).toString('hex');
  const host = `outlet-${t}.example.com`;
  const unknown = `nobody-${t}.example.com`;
  const { admin, close } = await adminPage(browser);
  const o = await listed(admin, host);
  const file = csv([MOZ_HEADER, `https://${host}/,57,3%,"12,480"`, `${unknown},20,1%,40`]);

  // ---- the admin: Outlet metrics in the navigation, the file checked ----
  await admin.goto('/admin');
  await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Outlet metrics' }).click();
  await expect(admin).toHaveURL(/\/admin\/outlets\/import$/);
  await expect(admin.getByRole('heading', { level: 1, name: 'Outlet metrics' })).toBeVisible();
  await checkFile(admin, 'Moz', file);
  const result = admin.getByTestId('import-result');
  await expect(result.getByTestId('import-summary')).toContainText(
    '3 changes, 1 host not on Byline, 0 rows with problems',
  );
  const changes = result.getByTestId('import-change');
  await expect(changes).toHaveCount(3);
  const da = changes.filter({ hasText: 'Domain Authority' });
  await expect(da).toContainText(o.name);
  await expect(da).toContainText(host);
  await expect(da.getByTestId('import-change-values')).toHaveText(/none\s*to\s*57/);
  await expect(da).toContainText(today);
  await expect(changes.filter({ hasText: 'Referring domains' }).getByTestId('import-change-values')).toHaveText(
    /none\s*to\s*12,480/,
  );
  await expect(changes.filter({ hasText: 'Spam score' })).toHaveCount(1);
  await expect(result.getByTestId('import-unmatched')).toHaveText([unknown]);
  await expect(result.getByTestId('import-error')).toHaveCount(0);
  await shots(admin, 'outlets-import-check');
  await axe(admin, 'import, checked');

  // ---- applied: the toast, the result as imported ----
  await result.getByRole('button', { name: 'Apply 3 changes' }).click();
  await expect(toast(admin, 'Metrics imported: 3 changes')).toBeVisible();
  await expect(result.getByRole('heading', { name: 'Imported' })).toBeVisible();
  await expect(result.getByRole('button', { name: /^Apply/ })).toHaveCount(0);

  // ---- checked again: nothing left to change ----
  await admin.getByRole('button', { name: 'Check file' }).click();
  await expect(result.getByRole('heading', { name: 'What this file would change' })).toBeVisible();
  await expect(result.getByTestId('import-summary')).toContainText('0 changes, 1 host not on Byline');
  await expect(result.getByTestId('import-change')).toHaveCount(0);
  await expect(result.getByRole('button', { name: 'Apply 0 changes' })).toBeDisabled();
  await expect(result.getByTestId('apply-note')).toHaveText('Nothing to apply: the outlets already have these values.');

  // ---- the admins' outlet page: the imported values, the opportunity with its Edit link ----
  await admin.goto(`/admin/outlets/${o.outletId}`);
  await expect(admin.getByRole('heading', { level: 1, name: o.name })).toBeVisible();
  const adminMoz = admin.locator('[data-testid="outlet-metric"][data-metric="da"][data-source="moz"]');
  await expect(adminMoz.getByTestId('metric-value')).toHaveText('57');
  await expect(
    admin.getByTestId('outlet-opportunity').filter({ hasText: o.title }).getByRole('link', { name: /Edit/ }),
  ).toHaveAttribute('href', `/admin/edit-opportunity/${o.id}`);

  // ---- an older Semrush export (its own date column, 200 days ago): a stale value ----
  const origin = new URL(admin.url()).origin;
  const old = new Date(Date.now() - 200 * 86_400_000);
  const semrush = await admin.request.post(`${origin}/api/admin/outlets/metrics/import?source=semrush`, {
    headers: { origin },
    multipart: {
      file: {
        name: 'semrush.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`Domain;Organic Traffic;Date\n${host};1204300;${old.toISOString().slice(0, 10)}\n`),
      },
    },
  });
  await ok(semrush);

  // ---- the brand: the outlet's page ----
  await page.goto('/auth');
  await brandAs(page, 'approved');
  await page.goto(`/brand/outlets/${o.outletId}`);
  await expect(page.getByRole('heading', { level: 1, name: o.name })).toBeVisible();
  const website = page.getByTestId('outlet-website');
  await expect(website).toHaveAttribute('href', `https://www.${host}/news`);
  await expect(website).toHaveAttribute('target', '_blank');
  await expect(website).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(website).toContainText(host);
  await expect(page.getByTestId('outlet-facts')).toHaveText('Germany · German');
  const metric = (name: string, source: string) =>
    page.locator(`[data-testid="outlet-metric"][data-metric="${name}"][data-source="${source}"]`);
  const moz = metric('da', 'moz');
  await expect(moz.getByTestId('metric-name')).toHaveText('Domain Authority');
  await expect(moz.getByTestId('metric-value')).toHaveText('57');
  await expect(moz.getByTestId('metric-source')).toHaveText('Moz');
  await expect(moz.getByTestId('metric-as-of')).toHaveText(today);
  await expect(moz.getByTestId('metric-stale')).toHaveCount(0);
  // the domain authority typed on the listing is one source among them
  await expect(metric('da', 'admin').getByTestId('metric-value')).toHaveText('41');
  await expect(metric('da', 'admin').getByTestId('metric-source')).toHaveText('Byline catalogue');
  await expect(metric('referringDomains', 'moz').getByTestId('metric-value')).toHaveText('12,480');
  await expect(metric('spamScore', 'moz').getByTestId('metric-value')).toHaveText('3');
  const stale = metric('organicTraffic', 'semrush');
  await expect(stale.getByTestId('metric-value')).toHaveText('1,204,300');
  await expect(stale.getByTestId('metric-as-of')).toHaveText(
    new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(old),
  );
  await expect(stale.getByTestId('metric-stale')).toHaveText('Stale');
  await expect(stale).toContainText('older than 180 days');
  const record = page.getByTestId('outlet-record');
  await expect(record.getByRole('heading', { name: 'Byline’s record' })).toBeVisible();
  await expect(record).toContainText('From Byline’s own placements and the daily checks of their live links.');
  await expect(record.getByTestId('record-delivered')).toHaveText('0');
  await expect(record.getByTestId('record-on-time')).toHaveText('—');
  await expect(record.getByTestId('record-median-days')).toHaveText('—');
  await expect(record.getByTestId('record-live-30')).toHaveText('—');
  await expect(record.getByTestId('record-live-90')).toHaveText('—');
  await expect(record.getByTestId('record-as-listed')).toHaveText('0/0');
  const listedHere = page.getByTestId('outlet-opportunity').filter({ hasText: o.title });
  await expect(listedHere).toContainText('$640.00');
  await expect(listedHere).toContainText('Turnaround: 2 weeks');
  await shots(page, 'outlets-brand-page');
  await axe(page, 'outlet page');
  // its details open the catalogue's claim dialog (without a link to the page it is on)
  await listedHere.getByRole('button', { name: /View details/ }).click();
  const dialog = page.getByTestId('claim-dialog');
  await expect(dialog.getByRole('heading', { name: 'Review Opportunity' })).toBeVisible();
  await expect(dialog).toContainText(o.title);
  await expect(dialog.getByTestId('claim-outlet-link')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // ---- a placement bought and published at once (through the API): Byline's record counts it ----
  const paymentId = await buy(page, o.id);
  await ok(
    await api(page, 'POST', `/api/brand/brief/${paymentId}/submit`, {
      part1Json: { personOrBrandName: 'Riley Jordan', backgroundExperience: 'Ten years of outdoor gear.' },
      part2Json: { mainGoal: 'Reach hikers', targetAudience: 'Weekend hikers', mainMessage: 'Gear that lasts' },
    }),
  );
  await ok(
    await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, {
      draftDocumentUrl: `https://docs.example.com/d/${paymentId}`,
    }),
  );
  await ok(await api(page, 'POST', `/api/brand/projects/${paymentId}/approve`));
  await ok(await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, { status: 'released' }));

  // ---- from the catalogue: the card's outlet name, and "About this outlet" in the dialog ----
  await page.goto(`/brand/opportunities?q=${encodeURIComponent(o.title)}`);
  const card = page.getByTestId('opportunity-card').filter({ hasText: o.title });
  await expect(card).toHaveCount(1);
  // the newest domain authority an SEO tool reported, with its date
  await expect(card.getByTestId('card-outlet-score')).toHaveText(`DA 57 (Moz, ${today})`);
  // what DR and DA are, beside the score (issue 57)
  await card.getByTestId('score-hint').hover();
  await expect(page.getByRole('tooltip')).toContainText('compare DR with DR and DA with DA');
  await page.mouse.move(0, 0);
  // published within its turnaround (14 days); one placement is no record to give a share of (issue 57)
  await expect(card.getByTestId('card-outlet-record')).toHaveText('Delivered 1');
  await shots(page, 'outlets-catalogue-card');
  const outletLink = card.getByRole('link', { name: o.name });
  await outletLink.focus();
  await expect(outletLink).toBeFocused();
  await outletLink.click();
  await expect(page).toHaveURL(new RegExp(`/brand/outlets/${o.outletId}$`));
  await expect(page.getByRole('heading', { level: 1, name: o.name })).toBeVisible();
  await expect(record.getByTestId('record-delivered')).toHaveText('1');
  await expect(record.getByTestId('record-on-time')).toHaveText('1 of 1');
  await expect(record.getByTestId('record-median-days')).toHaveText('0 days');
  // the click was the link's alone: no dialog opened on the way
  await expect(page.getByTestId('claim-dialog')).toHaveCount(0);
  await page.goBack();
  await card.getByRole('button', { name: new RegExp(o.title) }).click();
  await dialog.getByRole('link', { name: 'About this outlet' }).click();
  await expect(page).toHaveURL(new RegExp(`/brand/outlets/${o.outletId}$`));
  await expect(page.getByRole('heading', { level: 1, name: o.name })).toBeVisible();

  // ---- the search: "Fresh metrics" finds the outlet, "Most on time" is an order ----
  await page.goto(`/brand/opportunities?q=${encodeURIComponent(o.title)}`);
  await page.getByRole('button', { name: /^Filters/ }).click();
  await page.getByRole('checkbox', { name: /Fresh metrics/ }).check();
  await expect(page).toHaveURL(/[?&]fresh=1/);
  await expect(card).toHaveCount(1);
  await shots(page, 'outlets-catalogue-fresh');
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Most on time' });
  await expect(page).toHaveURL(/[?&]sort=on_time_desc/);
  await expect(card).toHaveCount(1);

  await o.close();
  await close();
});

test('[ADMIN][OUTLETS] a file with a bad row shows its line and cannot be applied; another tool’s file is refused', async ({
  browser,
}) => {
  const t = randomBytes(4).toString('hex');
  const host = `outlet-${t}.example.com`;
  const { admin, close } = await adminPage(browser);
  const o = await listed(admin, host);
  await admin.goto('/admin/outlets/import');
  await expect(admin.getByRole('heading', { level: 1, name: 'Outlet metrics' })).toBeVisible();

  // nothing chosen: each field says what it needs
  await admin.getByRole('button', { name: 'Check file' }).click();
  await expect(admin.getByText('Choose the tool the file comes from')).toBeVisible();
  await expect(admin.getByText('Choose the CSV file to import')).toBeVisible();

  await checkFile(admin, 'Moz', csv([MOZ_HEADER, `${host},57,3%,120`, `other-${t}.example.com,high,2%,130`]));
  const result = admin.getByTestId('import-result');
  await expect(result.getByTestId('import-summary')).toContainText('1 row with problems');
  await expect(result.getByTestId('import-error')).toHaveText([
    'Line 3: Domain Authority must be a number from 0 to 100, not "high"',
  ]);
  const apply = result.getByRole('button', { name: /^Apply \d+ changes?$/ });
  await expect(apply).toBeDisabled();
  await expect(result.getByTestId('apply-note')).toHaveText('Nothing can be imported until every row can be used.');
  await axe(admin, 'import, a bad row');

  // the same file as an Ahrefs export: refused, on the file
  await admin.getByRole('radio', { name: /^Ahrefs/ }).check();
  await expect(result).toHaveCount(0);
  await admin.getByRole('button', { name: 'Check file' }).click();
  await expect(admin.getByText('This looks like an export of Moz, not of Ahrefs: import it as Moz')).toBeVisible();
  await expect(admin.getByTestId('import-result')).toHaveCount(0);

  // nothing was imported: the outlet has only the listing's own domain authority
  const detail = await ok(await api(admin, 'GET', `/api/admin/outlets/${o.outletId}`));
  const { metrics } = (await detail.json()) as { metrics: { source: string }[] };
  expect(metrics.map((m) => m.source)).toEqual(['admin']);

  await o.close();
  await close();
});
