import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, DEMO_BRAND, brandAs, loginAs } from './support';

test.describe('route guard', () => {
  test('a visitor goes to /auth from every guarded page and from the onboarding pages', async ({ page }) => {
    for (const path of ['/', '/complete-profile', '/pending-approval']) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/auth$/);
    }
    // a guarded page is asked for again after signing in
    for (const path of ['/brand', '/brand/opportunities', '/brand/profile', '/admin', '/admin/invite-codes']) {
      await page.goto(path);
      await expect(page, path).toHaveURL(`/auth?next=${encodeURIComponent(path)}`);
    }
  });

  test('a brand with no name goes to /complete-profile', async ({ page }) => {
    await page.goto('/auth');
    await brandAs(page, 'unnamed');
    for (const path of ['/brand/opportunities', '/brand/profile', '/auth', '/pending-approval']) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/complete-profile$/);
    }
  });

  test('a named, unapproved brand goes to /pending-approval', async ({ page }) => {
    await page.goto('/auth');
    await brandAs(page, 'pending');
    for (const path of ['/brand/my-articles', '/auth', '/complete-profile', '/']) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/pending-approval$/);
    }
  });

  test('an approved brand reaches its pages; /auth and admin pages send it to its portal', async ({ page }) => {
    await page.goto('/auth');
    await loginAs(page, DEMO_BRAND);
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/brand\/opportunities$/);
    await page.goto('/admin/approvals');
    await expect(page).toHaveURL(/\/brand\/opportunities$/);
    await page.goto('/brand/payments');
    await expect(page.getByRole('heading', { name: 'Payment History' })).toBeVisible();
    // the demo brand owns its organisation: it buys, so it has a cart (its count, if any, after the word)
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText(['Opportunities', /^Cart/, 'My Articles', 'Orders', 'Payments']);
  });

  test('an admin goes to /admin from / and /auth and sees the admin navigation', async ({ page }) => {
    await page.goto('/auth');
    await loginAs(page, DEMO_ADMIN);
    await page.goto('/');
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByTestId('portal-label')).toHaveText('Admin Portal');
    // the demo admin is every journey's editor: a brand's message sent meanwhile shows as an unread count
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText(['Dashboard', /Needs attention/, /^Projects/, 'Payments', 'Placements', 'Disputes', 'Outlet metrics', 'Approvals', 'Organisations', 'Invite codes']);
    await expect(page.getByTestId('escrow-card')).toHaveCount(0);
    await page.getByTestId('user-menu').click();
    await expect(page.getByRole('menuitem')).toHaveText(['Profile', 'Invite Codes', 'Log out']);
  });

  test('shows a spinner while the user loads', async ({ page }) => {
    await page.route('**/api/user', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await page.goto('/brand/opportunities');
    await expect(page.getByTestId('full-screen-spinner')).toBeVisible();
    await expect(page).toHaveURL('/auth?next=%2Fbrand%2Fopportunities');
  });

  test('an unknown path shows the 404 page', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  });
});
