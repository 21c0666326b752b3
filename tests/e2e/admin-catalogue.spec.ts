import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_ADMIN, DEMO_BRAND, api, expectNoHorizontalOverflow, loginAs } from './support';

const PNG = path.resolve('tests/e2e/fixtures/avatar.png');

/** A day a month from now, as a date input takes it. */
function inAMonth(): string {
  const d = new Date(Date.now() + 30 * 86_400_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

async function asAdmin(page: Page) {
  await page.goto('/auth');
  await loginAs(page, DEMO_ADMIN);
}

test('[ADMIN] creates an opportunity with a logo and two examples, finds it with the filters, and edits it; a brand sees it', async ({ page, browser }) => {
  const stamp = Date.now();
  const title = `E2E listicle ${stamp}`;
  const outlet = `E2E Outlet ${stamp}`;
  const deadline = inAMonth();
  await asAdmin(page);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText('Manage opportunities and payments', { exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'New Opportunity' }).click();
  await expect(page).toHaveURL(/\/admin\/new-opportunity$/);
  await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/admin');

  // an empty form: each required field says so, and nothing is sent
  const submit = page.getByRole('button', { name: 'Create Opportunity' });
  await submit.click();
  for (const message of ['Outlet name is required', 'Title is required', 'Description is required', 'At least one type is required', 'Price is required']) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await expect(page).toHaveURL(/\/admin\/new-opportunity$/);

  await page.getByLabel('Outlet Name').fill(outlet);
  await page.getByLabel('Outlet URL').fill('https://outlet.example.com');
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Description').fill('Be one of ten tools in our curated list.');
  await page.getByLabel('Listicle').check();
  await page.getByLabel('Profile Article').check();
  await page.getByLabel('Turnaround Time').fill('2-3 weeks');
  await page.getByLabel('Price (USD)').fill('1234.5');
  await page.getByLabel('Max Slots').fill('5');
  await page.getByLabel('Deadline').fill(deadline);
  await page.getByLabel('Domain Authority').fill('101');
  await submit.click();
  await expect(page.getByText('Domain Authority must be at most 100', { exact: true })).toBeVisible();
  await expect(page.getByText('Title is required', { exact: true })).toHaveCount(0);
  await page.getByLabel('Domain Authority').fill('88');

  // logo: an uploaded PNG shows as a preview (its stored path is in no text field: issue 43)
  await page.getByTestId('logo-input').setInputFiles(PNG);
  await expect(page.getByAltText('Logo preview')).toHaveAttribute('src', /^\/uploads\/[a-z0-9]+\.png$/);
  await expect(page.getByLabel('Logo', { exact: true })).toHaveCount(0);
  const logoUrl = (await page.getByAltText('Logo preview').getAttribute('src'))!;

  // examples: a typed URL must parse; one URL and one uploaded screenshot
  const exampleUrl = page.getByLabel('Example URL');
  const addUrl = page.getByRole('button', { name: 'Add URL' });
  await exampleUrl.fill('not a url');
  await addUrl.click();
  await expect(page.getByTestId('toast')).toContainText('Invalid URL');
  await expect(page.getByTestId('toast')).toContainText('Please enter a valid URL');
  await expect(page.getByTestId('example-item')).toHaveCount(0);
  await exampleUrl.fill('https://outlet.example.com/best-tools');
  await addUrl.click();
  await page.getByTestId('example-input').setInputFiles(PNG);
  await expect(page.getByTestId('toast')).toContainText('Example image added successfully');
  await expect(page.getByTestId('example-item')).toHaveCount(2);

  // at most 3: at the limit the controls are disabled (issue 20), and any one can be removed
  await exampleUrl.fill('https://outlet.example.com/third');
  await addUrl.click();
  await expect(page.getByTestId('example-item')).toHaveCount(3);
  await expect(exampleUrl).toBeDisabled();
  await expect(addUrl).toBeDisabled();
  await page.getByRole('button', { name: 'Remove example 3' }).click();
  await expect(page.getByTestId('example-item')).toHaveCount(2);

  await submit.click();
  await expect(page.getByTestId('toast')).toContainText('Opportunity created');
  await expect(page.getByTestId('toast')).toContainText('The opportunity has been created successfully');
  await expect(page).toHaveURL(/\/admin$/);

  // what was stored
  const list = (await (await api(page, 'GET', '/api/admin/opportunities')).json()) as { id: string; title: string }[];
  const created = list.find((o) => o.title === title)!;
  const stored = await (await api(page, 'GET', `/api/admin/opportunities/${created.id}`)).json();
  expect(stored).toMatchObject({
    outletName: outlet,
    outletUrl: 'https://outlet.example.com',
    type: ['listicle', 'profile_article'],
    tat: '2-3 weeks',
    priceUsd: '1234.50',
    maxSlots: 5,
    filledSlots: 0,
    domainAuthority: 88,
    logoUrl,
    status: 'available',
  });
  expect(stored.deadlineDate.slice(0, 10)).toBe(deadline);
  expect(stored.exampleUrls).toHaveLength(2);
  expect(stored.exampleUrls[0]).toBe('https://outlet.example.com/best-tools');
  expect(stored.exampleUrls[1]).toMatch(/^\/uploads\/[a-z0-9]+\.png$/);

  // the dashboard row: first type only, USD price, status, slots with a bar (listicle)
  const row = page.getByTestId('opportunity-row').filter({ hasText: title });
  await expect(row).toContainText(outlet);
  await expect(row).toContainText('Listicle');
  await expect(row).not.toContainText('Profile Article');
  await expect(row).toContainText('$1,234.50');
  await expect(row).toContainText('Available');
  await expect(row).toContainText('0/5');
  await expect(row.getByRole('progressbar')).toBeVisible();
  await expect(row.getByRole('button', { name: `Mark Published ${title}` })).toBeDisabled();

  // filters
  const typeFilter = page.getByLabel('Type', { exact: true });
  const statusFilter = page.getByLabel('Status', { exact: true });
  await typeFilter.selectOption('listicle');
  await expect(row).toBeVisible();
  await typeFilter.selectOption('profile_article');
  await expect(row).toBeVisible();
  await typeFilter.selectOption('advertorial_brand_voice');
  await expect(row).toHaveCount(0);
  await typeFilter.selectOption('all');
  await statusFilter.selectOption('available');
  await expect(row).toBeVisible();
  await statusFilter.selectOption('published');
  await expect(row).toHaveCount(0);
  await statusFilter.selectOption('available');
  await page.getByLabel('Show Full Only').check();
  await expect(row).toHaveCount(0);
  // full only and status available exclude each other: nothing is left
  await expect(page.getByText('No opportunities found', { exact: true })).toBeVisible();
  await page.getByLabel('Show Full Only').uncheck();
  await statusFilter.selectOption('all');
  await expect(row).toBeVisible();

  // edit: the form starts from the stored values; a new title shows in the table
  await row.getByRole('link', { name: `Edit ${title}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/edit-opportunity/${created.id}$`));
  await expect(page.getByLabel('Title')).toHaveValue(title);
  await expect(page.getByLabel('Price (USD)')).toHaveValue('1234.50');
  await expect(page.getByLabel('Deadline')).toHaveValue(deadline);
  await expect(page.getByLabel('Listicle')).toBeChecked();
  await expect(page.getByTestId('example-item')).toHaveCount(2);
  await expect(page.getByAltText('Logo preview')).toHaveAttribute('src', logoUrl);
  const renamed = `${title} (edited)`;
  await page.getByLabel('Title').fill(renamed);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByTestId('toast')).toContainText('Opportunity updated');
  await expect(page.getByTestId('toast')).toContainText('The opportunity has been updated successfully');
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId('opportunity-row').filter({ hasText: renamed })).toBeVisible();
  const after = await (await api(page, 'GET', `/api/admin/opportunities/${created.id}`)).json();
  expect(after).toMatchObject({ title: renamed, priceUsd: '1234.50', logoUrl, exampleUrls: stored.exampleUrls });

  // a brand sees exactly that card, under All and under its type tabs, and opens it with the keyboard
  const brandCtx = await browser.newContext();
  const brand = await brandCtx.newPage();
  await brand.goto('/auth');
  await loginAs(brand, DEMO_BRAND);
  await brand.goto('/brand/opportunities');
  const card = brand.getByTestId('opportunity-card').filter({ hasText: renamed });
  await expect(card).toContainText(outlet);
  await expect(card).toContainText('$1,234.50');
  await expect(card.locator(`img[src="${logoUrl}"]`)).toBeVisible();
  await brand.getByRole('tab', { name: 'Listicle' }).click();
  await expect(card).toBeVisible();
  await brand.getByRole('tab', { name: 'Editorial' }).click();
  await expect(card).toHaveCount(0);
  await brand.getByRole('tab', { name: 'Profile' }).click();
  await card.getByRole('button', { name: `${outlet}: ${renamed}`, exact: true }).focus();
  await brand.keyboard.press('Enter');
  const dialog = brand.getByTestId('claim-dialog');
  await expect(dialog.getByRole('heading', { name: 'Review Opportunity' })).toBeVisible();
  await expect(dialog).toContainText(renamed);
  await expect(dialog.getByRole('link', { name: /View example/ })).toHaveCount(2);
  await brandCtx.close();
});

test('[ADMIN] an unknown opportunity shows "Opportunity not found"', async ({ page }) => {
  await asAdmin(page);
  for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
    await page.goto(`/admin/edit-opportunity/${id}`);
    await expect(page.getByText('Opportunity not found', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);
  }
});

test.describe('phone width', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('[ADMIN] the dashboard, the create form with its errors and the edit form fit the screen', async ({ page }) => {
    await asAdmin(page);
    await page.goto('/admin');
    const row = page.getByTestId('opportunity-row').first();
    await expect(row).toBeVisible();
    await expectNoHorizontalOverflow(page);
    // every action is reachable without scrolling sideways
    const edit = row.getByRole('link', { name: /^Edit / });
    const box = (await edit.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);

    await page.goto('/admin/new-opportunity');
    await page.getByRole('button', { name: 'Create Opportunity' }).click();
    await expect(page.getByText('Title is required', { exact: true })).toBeVisible();
    await expectNoHorizontalOverflow(page);

    await page.goto('/admin');
    await edit.click();
    await expect(page.getByRole('button', { name: 'Save Changes' })).toBeVisible();
    await expectNoHorizontalOverflow(page);
  });
});
