import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, api, brandAs, expectNoHorizontalOverflow, loginAs } from './support';

test('the sidebar collapses with Ctrl+B and the toggle, and stays collapsed after a reload', async ({ page, context }) => {
  await page.goto('/auth');
  await brandAs(page, 'approved');
  await page.goto('/brand/opportunities');
  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar).toHaveAttribute('data-collapsed', 'false');
  expect((await sidebar.boundingBox())!.width).toBe(256);

  await page.keyboard.press('Control+b');
  await expect(sidebar).toHaveAttribute('data-collapsed', 'true');
  await expect.poll(async () => (await sidebar.boundingBox())!.width).toBe(48);
  const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state');
  expect(cookie?.value).toBe('false');
  // 7 days, give or take the test's own duration
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(604_800 - 60);

  await page.reload();
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'true');
  await page.getByTestId('sidebar-trigger').click();
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'false');
});

test.describe('phone width', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('navigation lives in an 18rem sheet opened from the top bar', async ({ page }) => {
    await page.goto('/auth');
    await brandAs(page, 'approved');
    await page.goto('/brand/profile');
    await expect(page.getByTestId('sidebar')).toHaveCount(0);
    await page.getByTestId('sidebar-trigger').click();
    const sheet = page.getByTestId('sidebar-mobile');
    await expect(sheet).toBeVisible();
    expect((await sheet.boundingBox())!.width).toBe(288);
    await sheet.getByRole('link', { name: 'My Articles' }).click();
    await expect(page).toHaveURL(/\/brand\/my-articles$/);
    await expect(sheet).toHaveCount(0);
    // nothing wider than the screen
    await expectNoHorizontalOverflow(page);
  });
});

test('[BRAND] a system that asks for less motion gets none: the sidebar folds at once, the spinners still turn', async ({ page }) => {
  await page.goto('/auth');
  await brandAs(page, 'approved');
  await page.goto('/brand/opportunities');
  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar).toHaveAttribute('data-collapsed', 'false');
  // every CSS transition that starts, by property
  await page.evaluate(() => {
    const w = window as unknown as { started: string[] };
    w.started = [];
    document.addEventListener('transitionrun', (e) => w.started.push(e.propertyName));
  });
  const started = () => page.evaluate(() => (window as unknown as { started: string[] }).started.splice(0));
  const twoFrames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

  // no preference: the sidebar slides to its new width
  await page.getByTestId('sidebar-trigger').click();
  await expect(sidebar).toHaveAttribute('data-collapsed', 'true');
  await expect.poll(started).toContain('width');

  await page.emulateMedia({ reducedMotion: 'reduce' });
  // what the pointer started before (the toggle's hover colours) is not this check's
  await twoFrames();
  await started();
  await page.getByTestId('sidebar-trigger').click();
  await expect(sidebar).toHaveAttribute('data-collapsed', 'false');
  await twoFrames();
  expect(await started()).toEqual([]);
  expect((await sidebar.boundingBox())!.width).toBe(256);
  // a spinner says that something is under way: it keeps turning
  const spinner = await page.evaluate(() => {
    const el = document.createElement('div');
    el.className = 'animate-spin';
    document.body.append(el);
    const { animationIterationCount, animationDuration } = getComputedStyle(el);
    el.remove();
    return { animationIterationCount, animationDuration };
  });
  expect(spinner).toEqual({ animationIterationCount: 'infinite', animationDuration: '1s' });
});

test('[ADMIN] creates invite codes (uppercased), sees a duplicate refused, and deactivates one', async ({ page }) => {
  await page.goto('/auth');
  await loginAs(page, DEMO_ADMIN);
  await page.goto('/admin');
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Invite Codes' }).click();
  await expect(page.getByText('Manage invite codes for automatic brand approval')).toBeVisible();

  const code = `e2e-${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Create New Code' }).click();
  await expect(page.getByText('Code will be converted to uppercase automatically')).toBeVisible();
  const submit = page.getByRole('button', { name: 'Create Code' });
  await expect(submit).toBeDisabled();
  await page.getByLabel('Code').fill('   ');
  await expect(submit).toBeDisabled();
  await page.getByLabel('Code').fill(`  ${code} `);
  await submit.click();
  await expect(page.getByTestId('toast')).toContainText('Invite code created');
  const card = page.getByTestId('invite-code').filter({ hasText: code.toUpperCase() });
  await expect(card).toContainText('Active');

  await page.getByRole('button', { name: 'Create New Code' }).click();
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Create Code' }).click();
  await expect(page.getByTestId('toast')).toContainText(`The invite code ${code.toUpperCase()} already exists`);

  await card.getByRole('button', { name: 'Deactivate' }).click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByTestId('toast')).toContainText('The invite code has been deactivated successfully.');
  await expect(card).toContainText('Deactivated');
  await expect(card.getByRole('button', { name: 'Deactivate' })).toHaveCount(0);
});

test('[BRAND] edits the profile and uploads an avatar', async ({ page }) => {
  await page.goto('/auth');
  await brandAs(page, 'approved');
  await page.goto('/brand/profile');
  await expect(page.getByText('Brand Account')).toBeVisible();
  await expect(page.getByText('Email cannot be changed')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change photo' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await page.getByLabel('Full Name').fill('');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Name is required', { exact: true })).toBeVisible();
  await page.getByLabel('Full Name').fill('Quinn Avery');
  await page.getByLabel('Brand Name').fill('Avery Outfitters');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByTestId('toast')).toContainText('Your profile has been successfully updated');
  await expect(page.getByTestId('user-menu')).toContainText('Avery Outfitters');
  await expect(page.getByTestId('user-menu')).toContainText('QA');

  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await page.getByTestId('avatar-input').setInputFiles(path.resolve('tests/e2e/fixtures/avatar.png'));
  await expect(page.getByTestId('toast')).toContainText('Profile picture updated');
  const me = await (await api(page, 'GET', '/api/user')).json();
  expect(me.avatarUrl).toMatch(/^\/uploads\/[a-f0-9]+\.png$/);
  await expect(page.locator(`img[src="${me.avatarUrl}"]`).first()).toBeVisible();

  await page.getByTestId('avatar-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByTestId('toast')).toContainText('Please upload an image file');
});
