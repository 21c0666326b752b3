import { expect, test, type Page } from '@playwright/test';
import { DEMO_ADMIN, api, expectNoHorizontalOverflow, loginAs } from './support';

/**
 * The admin's catalogue fields beyond the spec (turnaround days, link type, topics, country,
 * language) in the opportunity form, and the dashboard's search.
 */

async function asAdmin(page: Page) {
  await page.goto('/auth');
  await loginAs(page, DEMO_ADMIN);
}

async function fillRequired(page: Page, outlet: string, title: string) {
  await page.getByLabel('Outlet Name').fill(outlet);
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Description').fill('A guest article in the business section.');
  await page.getByLabel('Profile Article').check();
  await page.getByLabel('Price (USD)').fill('1400');
}

test('[ADMIN] creates an opportunity with the catalogue fields, sees them when editing, and changes them', async ({ page }) => {
  const stamp = Date.now();
  const outlet = `Handelsblatt E2E ${stamp}`;
  const title = `Gastbeitrag ${stamp}`;
  await asAdmin(page);
  await page.goto('/admin/new-opportunity');
  await fillRequired(page, outlet, title);
  await page.getByLabel('Turnaround Time').fill('2 weeks');

  // a value out of range is refused under its field, and nothing is sent
  await page.getByLabel('Turnaround days').fill('400');
  await page.getByRole('button', { name: 'Create Opportunity' }).click();
  await expect(page.locator('#tatDays-error')).toHaveText('Turnaround days must be at most 365');
  await expect(page.getByLabel('Turnaround days')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/admin\/new-opportunity$/);

  await page.getByLabel('Turnaround days').fill('14');
  await page.getByLabel('Link type').selectOption({ label: 'Sponsored' });
  await page.getByLabel('Country').selectOption({ label: 'Germany' });
  await page.getByLabel('Language').selectOption({ label: 'German' });
  await page.getByLabel('Finance', { exact: true }).check();
  await page.getByLabel('Fintech', { exact: true }).check();
  await page.getByRole('button', { name: 'Create Opportunity' }).click();
  await expect(page.getByTestId('toast')).toContainText('Opportunity created');
  await expect(page).toHaveURL(/\/admin$/);

  const list = (await (await api(page, 'GET', `/api/admin/opportunities?q=${encodeURIComponent(title)}`)).json()) as { id: string; title: string }[];
  const created = list.find((o) => o.title === title)!;
  expect(created).toMatchObject({ tat: '2 weeks', tatDays: 14, linkType: 'sponsored', topics: ['finance', 'fintech'], country: 'DE', language: 'de' });

  // the edit form shows what is stored
  await page.goto(`/admin/edit-opportunity/${created.id}`);
  await expect(page.getByLabel('Turnaround Time')).toHaveValue('2 weeks');
  await expect(page.getByLabel('Turnaround days')).toHaveValue('14');
  await expect(page.getByLabel('Link type')).toHaveValue('sponsored');
  await expect(page.getByLabel('Country')).toHaveValue('DE');
  await expect(page.getByLabel('Language')).toHaveValue('de');
  await expect(page.getByLabel('Finance', { exact: true })).toBeChecked();
  await expect(page.getByLabel('Fintech', { exact: true })).toBeChecked();
  await expect(page.getByLabel('Travel', { exact: true })).not.toBeChecked();

  // change some, clear others
  await page.getByLabel('Turnaround days').fill('');
  await page.getByLabel('Link type').selectOption({ label: 'Dofollow' });
  await page.getByLabel('Country').selectOption({ label: 'Austria' });
  await page.getByLabel('Language').selectOption({ label: 'Not specified' });
  await page.getByLabel('Finance', { exact: true }).uncheck();
  await page.getByLabel('Travel', { exact: true }).check();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByTestId('toast')).toContainText('Opportunity updated');
  await expect(page).toHaveURL(/\/admin$/);
  const stored = await (await api(page, 'GET', `/api/admin/opportunities/${created.id}`)).json();
  expect(stored).toMatchObject({ tat: '2 weeks', tatDays: null, linkType: 'dofollow', topics: ['fintech', 'travel'], country: 'AT', language: null });

  await page.goto(`/admin/edit-opportunity/${created.id}`);
  await expect(page.getByLabel('Turnaround days')).toHaveValue('');
  await expect(page.getByLabel('Link type')).toHaveValue('dofollow');
  await expect(page.getByLabel('Country')).toHaveValue('AT');
  await expect(page.getByLabel('Language')).toHaveValue('');
});

test('[ADMIN] the country and language lists are sorted by name; the form fits a phone', async ({ page }) => {
  await asAdmin(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin/new-opportunity');
  await expect(page.getByLabel('Language')).toBeVisible();
  for (const id of ['country', 'language']) {
    const names = await page.locator(`#${id} option`).allTextContents();
    expect(names[0]).toBe('Not specified');
    expect(names.length).toBeGreaterThan(50);
    expect(names.slice(1)).toEqual([...names.slice(1)].sort((a, b) => a.localeCompare(b, 'en')));
  }
  await expect(page.getByLabel('Link type').locator('option')).toHaveText(['Not specified', 'Dofollow', 'Nofollow', 'Sponsored']);
  await expectNoHorizontalOverflow(page);
});

test('[ADMIN] typing in the dashboard search narrows the table, keeps the search in the URL, and clears', async ({ page }) => {
  const stamp = Date.now();
  const outlet = `Zeitungsverlag${stamp}`;
  await asAdmin(page);
  for (const title of ['Energiewende feature', 'Mittelstand profile']) {
    const res = await api(page, 'POST', '/api/admin/opportunities', {
      outletName: outlet,
      title: `${title} ${stamp}`,
      description: 'A guest article.',
      type: ['editorial_feature'],
      priceUsd: '900',
      maxSlots: 1,
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  await page.goto('/admin');
  const rows = page.getByTestId('opportunity-row');
  // the demo catalogue and others: more than the two this test made
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThan(2);

  const box = page.getByRole('searchbox', { name: 'Search' });
  await box.fill(outlet.toLowerCase());
  await expect(rows).toHaveCount(2);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${outlet.toLowerCase()}`));
  // a word of one title (the last word may be the start of one): one
  await box.fill('energiew');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`Energiewende feature ${stamp}`);
  // combined with a filter that excludes it: nothing
  await page.getByLabel('Status').selectOption({ label: 'Full' });
  await expect(page.getByText('No opportunities found')).toBeVisible();
  await page.getByLabel('Status').selectOption({ label: 'All' });
  await expect(rows).toHaveCount(1);

  // a reload keeps the search
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('energiew');
  await expect(rows).toHaveCount(1);

  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(page).not.toHaveURL(/[?&]q=/);
  await expect.poll(() => rows.count()).toBeGreaterThan(2);
});
