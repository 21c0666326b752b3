import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, DEMO_INVITE, PASSWORD, adminPage, api, axe, brandAs, invitationToken, loginAs, shots, uniqueEmail } from './support';

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

test('[BRAND] signs up from an invitation: the Sign Up tab with the address fixed, back to the invitation, never the company form; removed later, is told so', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const email = uniqueEmail('invited');
  const invited = await api(page, 'POST', '/api/org/invitations', { email, role: 'buyer' });
  expect(invited.status(), await invited.text()).toBe(201);
  const token = await invitationToken(email);

  const ctx = await browser.newContext();
  const invitee = await ctx.newPage();
  const visited: string[] = [];
  invitee.on('framenavigated', (f) => {
    if (f === invitee.mainFrame()) visited.push(new URL(f.url()).pathname);
  });
  await invitee.goto(`/invite/${token}`);
  await expect(invitee.getByText(`Jordan Goods invited ${email} to join as buyer.`)).toBeVisible();
  await invitee.getByRole('link', { name: 'Sign up' }).click();
  await expect(invitee.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await expect(invitee.getByText(`To accept your invitation, create an account with ${email} or sign in with it.`)).toBeVisible();
  const address = invitee.getByLabel('Email');
  await expect(address).toHaveValue(email);
  await expect(address).not.toBeEditable();
  await expect(invitee.getByText('The address you were invited with: the invitation can be accepted only with it.')).toBeVisible();
  await axe(invitee, 'invited sign-up');
  await shots(invitee, 'invited-sign-up');
  await invitee.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await invitee.getByLabel('Confirm password').fill(PASSWORD);
  await invitee.getByRole('button', { name: 'Create Account' }).click();
  // back on the invitation at once: only the name is asked
  await expect(invitee).toHaveURL(new RegExp(`/invite/${token}$`));
  await invitee.getByLabel('Full name').fill('Casey Invited');
  await invitee.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(invitee).toHaveURL(/\/brand\/opportunities$/);
  await expect(invitee.getByTestId('user-menu-org')).toHaveText('Jordan Goods');
  expect(visited.filter((p) => p === '/complete-profile')).toEqual([]);

  // the owner removes them: signing in again says so, before any company form
  const members = (await (await api(page, 'GET', '/api/org/members')).json()) as { id: string; email: string }[];
  const removed = await api(page, 'DELETE', `/api/org/members/${members.find((m) => m.email === email)!.id}`);
  expect(removed.status()).toBe(204);
  await invitee.goto('/auth');
  await invitee.getByLabel('Email').fill(email);
  await invitee.getByLabel('Password').fill(PASSWORD);
  await invitee.getByRole('button', { name: 'Sign In' }).click();
  await expect(invitee).toHaveURL(/\/complete-profile$/);
  await expect(invitee.getByRole('heading', { name: 'You were removed from Jordan Goods', level: 1 })).toBeVisible();
  await expect(invitee.getByTestId('removed-notice')).toContainText('An owner or admin of Jordan Goods removed you from its team on');
  await expect(invitee.getByLabel('Company name')).toHaveCount(0);
  await axe(invitee, 'removed notice');
  await shots(invitee, 'removed-notice');
  await invitee.getByRole('button', { name: 'Set up a company of my own' }).click();
  await expect(invitee.getByLabel('Company name')).toBeVisible();
  await ctx.close();

  // invited, but signed up without the link in this browser: the invitation is pointed out, no company form
  const other = uniqueEmail('elsewhere');
  expect((await api(page, 'POST', '/api/org/invitations', { email: other, role: 'viewer' })).status()).toBe(201);
  const ctx2 = await browser.newContext();
  const second = await ctx2.newPage();
  await second.goto('/auth');
  await second.getByRole('tab', { name: 'Sign Up' }).click();
  await second.getByLabel('Email').fill(other);
  await second.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await second.getByLabel('Confirm password').fill(PASSWORD);
  await second.getByRole('button', { name: 'Create Account' }).click();
  await expect(second).toHaveURL(/\/complete-profile$/);
  await expect(second.getByRole('heading', { name: 'You’re invited', level: 1 })).toBeVisible();
  await expect(second.getByTestId('invited-notice')).toContainText('Jordan Goods invited you to join as viewer. Open the link in the invitation e-mail to join');
  await expect(second.getByLabel('Company name')).toHaveCount(0);
  await axe(second, 'invited notice');
  await shots(second, 'invited-notice');
  await ctx2.close();
});

test('[ADMIN] the approval queue warns of a second organisation at an e-mail domain another organisation has', async ({ page, browser }) => {
  const domain = `northwind-${Date.now().toString(36)}.example`;
  // the first organisation, approved, with its owner at the domain
  const first = await api(page, 'POST', '/api/register', { email: `owner@${domain}`, password: PASSWORD });
  expect(first.status()).toBe(201);
  expect((await api(page, 'PATCH', '/api/user/profile', { name: 'Olive Owner', brandName: `Northwind ${domain}`, website: 'https://northwind.example.com', inviteCode: DEMO_INVITE })).status()).toBe(200);
  // a colleague starts a second one instead of being invited
  const ctx = await browser.newContext();
  const colleague = await ctx.newPage();
  expect((await api(colleague, 'POST', '/api/register', { email: `sam@${domain}`, password: PASSWORD })).status()).toBe(201);
  expect((await api(colleague, 'PATCH', '/api/user/profile', { name: 'Sam Second', brandName: 'Northwind Marketing', website: 'https://northwind.example.com' })).status()).toBe(200);
  await ctx.close();

  const { admin, close } = await adminPage(browser);
  await admin.goto(`/admin/approvals?q=${encodeURIComponent(`sam@${domain}`)}`);
  const row = admin.getByTestId('pending-brand').filter({ hasText: `sam@${domain}` });
  const warning = row.getByTestId('same-domain-warning');
  await expect(warning).toContainText(`An organisation with members at @${domain} already exists: Northwind ${domain}.`);
  await expect(warning).toContainText('If this person works there, they should be invited to it rather than start a second organisation.');
  await axe(admin, 'approvals warning');
  await shots(admin, 'approvals-same-domain');
  await warning.getByRole('link', { name: `Northwind ${domain}` }).click();
  await expect(admin).toHaveURL(/\/admin\/organisations\/[0-9a-f-]{36}$/);
  await close();
});
