import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, DEMO_INVITE, PASSWORD, loginAs, uniqueEmail } from './support';

test('[BRAND] signs up, completes the profile, waits, and reaches opportunities once an admin approves', async ({ page, browser }) => {
  const email = uniqueEmail('journey');
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth$/);
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm password').fill('different');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(page).toHaveURL(/\/complete-profile$/);
  await expect(page.getByText('Almost there')).toBeVisible();
  await page.getByRole('button', { name: 'Complete profile' }).click();
  await expect(page.getByText('Name is required', { exact: true })).toBeVisible();
  await expect(page.getByText('Company name is required')).toBeVisible();
  await expect(page.getByText('Website is required')).toBeVisible();
  await page.getByLabel('Full name').fill('Morgan Lee Hart');
  await page.getByLabel('Company name').fill('Hart & Co');
  await page.getByLabel('Company website').fill('not a url');
  await page.getByRole('button', { name: 'Complete profile' }).click();
  await expect(page.getByText('Must be a valid URL')).toBeVisible();
  await page.getByLabel('Company website').fill('https://hart.example.com');
  await page.getByRole('button', { name: 'Complete profile' }).click();

  await expect(page).toHaveURL(/\/pending-approval$/);
  await expect(page.getByText('Your account is under review')).toBeVisible();
  // the guard keeps an unapproved brand on the pending page
  await page.goto('/brand/opportunities');
  await expect(page).toHaveURL(/\/pending-approval$/);

  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await admin.goto('/auth');
  await loginAs(admin, DEMO_ADMIN);
  await admin.goto('/admin/approvals');
  const row = admin.getByTestId('pending-brand').filter({ hasText: email });
  await expect(row).toContainText('Morgan Lee Hart');
  await expect(row).toContainText('Hart & Co');
  await expect(row).toContainText('Pending Review');
  await row.getByRole('button', { name: 'Approve' }).click();
  await expect(admin.getByTestId('toast')).toContainText('The brand account has been approved successfully.');
  await expect(admin.getByTestId('pending-brand').filter({ hasText: email })).toHaveCount(0);
  await adminCtx.close();

  await page.goto('/');
  await expect(page).toHaveURL(/\/brand\/opportunities$/);
  await expect(page.getByTestId('portal-label')).toHaveText('Brand Portal');
  await expect(page.getByTestId('escrow-balance')).toHaveText('$0.00');
});

test('[BRAND] an invite code skips the approval; a wrong one is refused and can be corrected', async ({ page }) => {
  const email = uniqueEmail('invite');
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/complete-profile$/);

  await page.getByLabel('Full name').fill('Sam Rivera');
  await page.getByLabel('Company name').fill('Rivera Labs');
  await page.getByLabel('Company website').fill('https://rivera.example.com');
  await page.getByLabel('Invite code (optional)').fill('NOT-A-CODE');
  await page.getByRole('button', { name: 'Complete profile' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This invite code is not valid or is no longer active' })).toBeVisible();
  await expect(page).toHaveURL(/\/complete-profile$/);
  // nothing was saved: the fields are still there to correct
  await expect(page.getByLabel('Full name')).toHaveValue('Sam Rivera');

  await page.getByLabel('Invite code (optional)').fill(DEMO_INVITE.toLowerCase());
  await page.getByRole('button', { name: 'Complete profile' }).click();
  await expect(page).toHaveURL(/\/brand\/opportunities$/);
  await expect(page.getByTestId('user-menu')).toContainText('Sam Rivera');
});

test('[BRAND] signs in with the wrong password, then the right one, and signs out', async ({ page }) => {
  await page.goto('/auth');
  await page.getByLabel('Email').fill('brand@byline.test');
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByTestId('toast')).toContainText('Login failed');
  await expect(page.getByTestId('toast')).toContainText('Invalid email or password');
  await page.getByLabel('Password').fill('byline-brand-demo');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/brand\/opportunities$/);

  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/brand/opportunities');
  await expect(page).toHaveURL('/auth?next=%2Fbrand%2Fopportunities');
});
