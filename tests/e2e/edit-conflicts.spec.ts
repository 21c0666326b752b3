/**
 * Issue 20: no silent overwrite of an opportunity or a profile edited from two places (decision
 * 019). The form saves with the version it was opened on; a save on an older copy is refused and
 * the page offers to combine the two copies or to load the newer one.
 */
import { expect, test } from '@playwright/test';
import { adminPage, api, brandAs } from './support';

test('[ADMIN] an opportunity changed elsewhere while its form is open: combined, nothing lost', async ({ browser }) => {
  const { admin, close } = await adminPage(browser);
  const title = `Conflict story ${Date.now()}`;
  const made = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Second Window',
    title,
    description: 'A profile of your founder.',
    type: ['profile_article'],
    priceUsd: '900.00',
    maxSlots: 2,
  });
  expect(made.status(), await made.text()).toBe(201);
  const { id } = (await made.json()) as { id: string };

  await admin.goto(`/admin/edit-opportunity/${id}`);
  const price = admin.getByLabel('Price (USD)');
  await expect(price).toHaveValue('900.00');
  // meanwhile another admin renames it (the spec's body: no version, the last save wins for them)
  const opened = (await (await api(admin, 'GET', `/api/admin/opportunities/${id}`)).json()) as Record<string, unknown>;
  const { id: _id, filledSlots: _f, status: _s, createdAt: _c, version: _v, ...fields } = opened;
  expect((await api(admin, 'PATCH', `/api/admin/opportunities/${id}`, { ...fields, title: `${title} (renamed)` })).status()).toBe(200);

  // this window changes the price and saves: refused, and offered the newer copy
  await price.fill('1100.00');
  await admin.getByRole('button', { name: 'Save Changes' }).click();
  const dialog = admin.getByTestId('stale-copy-dialog');
  await expect(dialog.getByRole('heading', { name: 'This opportunity was changed by someone else' })).toBeVisible();
  await expect(dialog).toContainText('Changed in the newer copy: Title');
  await expect(dialog).toContainText('Changed by you: Price (USD)');
  await expect(admin).toHaveURL(`/admin/edit-opportunity/${id}`);
  // Escape does not drop either side
  await admin.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Combine with the newer copy' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(admin.getByLabel('Title')).toHaveValue(`${title} (renamed)`);
  await expect(price).toHaveValue('1100.00');

  await admin.getByRole('button', { name: 'Save Changes' }).click();
  await expect(admin.getByTestId('toast').first()).toContainText('The opportunity has been updated successfully');
  await expect(admin).toHaveURL('/admin');
  const saved = (await (await api(admin, 'GET', `/api/admin/opportunities/${id}`)).json()) as { title: string; priceUsd: string };
  expect(saved).toMatchObject({ title: `${title} (renamed)`, priceUsd: '1100.00' });
  await close();
});

test('[BRAND] a profile changed in another window while editing: the newer copy can be loaded', async ({ page }) => {
  await page.goto('/auth');
  await brandAs(page, 'approved');
  await page.goto('/brand/profile');
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  const brandName = page.getByLabel('Brand Name');
  await expect(brandName).toHaveValue('Jordan Goods');
  // the other window saves a new company name
  const other = await api(page, 'PATCH', '/api/user/profile', { name: 'Riley Jordan', brandName: 'Jordan Goods & Co', website: 'https://jordan.example.com' });
  expect(other.status()).toBe(200);

  await brandName.fill('Jordan Brothers');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  const dialog = page.getByTestId('stale-copy-dialog');
  await expect(dialog.getByRole('heading', { name: 'Your profile was changed in another window' })).toBeVisible();
  await expect(dialog).toContainText('Brand Name (the newer copy has “Jordan Goods & Co”)');
  await dialog.getByRole('button', { name: 'Load the newer copy' }).click();
  await expect(brandName).toHaveValue('Jordan Goods & Co');
  // nothing was saved over the other window's change
  expect(((await (await api(page, 'GET', '/api/user')).json()) as { brandName: string }).brandName).toBe('Jordan Goods & Co');
  // saved on the newer copy, it goes through
  await brandName.fill('Jordan Brothers');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByTestId('toast').first()).toContainText('Your profile has been successfully updated');
  expect(((await (await api(page, 'GET', '/api/user')).json()) as { brandName: string }).brandName).toBe('Jordan Brothers');
});
