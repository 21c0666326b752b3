import { expect, test } from '@playwright/test';
import { PASSWORD, api, brandAs, invitationToken, uniqueEmail } from './support';


test('[TEAM] the owner invites a buyer, who signs up and joins; the owner makes them a viewer and sees it in the audit log', async ({ page, browser }) => {
  const owner = await brandAs(page, 'approved');
  await page.goto('/brand/team');
  await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
  await expect(page.getByTestId('org-name')).toHaveText('Jordan Goods');
  const me = page.getByTestId('member-row').filter({ hasText: 'Riley Jordan' });
  await expect(me).toContainText('You');
  await expect(me).toContainText('Owner');

  const email = uniqueEmail('teammate');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Role').selectOption('buyer');
  await expect(page.getByText('Search, shortlist, buy, briefs, messages and draft review')).toBeVisible();
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(page.getByTestId('toast')).toContainText(`${email} was invited as buyer.`);
  const invitation = page.getByTestId('invitation-row').filter({ hasText: email });
  await expect(invitation).toContainText('Buyer');
  await expect(invitation).toContainText(/Expires \w{3} \d{1,2}, \d{4}/);

  // refusals show on the field: a member already (409), an address that is none (400)
  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This person is already a member of your organisation' })).toBeVisible();
  await page.getByLabel('E-mail').fill('not-an-address');
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid email address' })).toBeVisible();

  const token = await invitationToken(email);

  // the invited person, signed out, in a browser of their own
  const ctx = await browser.newContext();
  const invitee = await ctx.newPage();
  await invitee.goto(`/invite/${token}`);
  await expect(invitee.getByText(`Jordan Goods invited ${email} to join as buyer.`)).toBeVisible();
  await expect(invitee.getByText(`To accept, sign up or sign in with ${email}.`, { exact: false })).toBeVisible();
  expect(JSON.parse((await invitee.evaluate(() => localStorage.getItem('byline.pendingInvite'))) ?? '{}')).toEqual({ token, email });
  // Sign up opens the Sign Up tab with the invited address fixed (issue 57)
  await invitee.getByRole('link', { name: 'Sign up' }).click();
  await expect(invitee).toHaveURL(/\/auth\?tab=signup&/);
  await expect(invitee.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await expect(invitee.getByLabel('Email')).toHaveValue(email);
  await expect(invitee.getByLabel('Email')).not.toBeEditable();
  await invitee.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await invitee.getByLabel('Confirm password').fill(PASSWORD);
  await invitee.getByRole('button', { name: 'Create Account' }).click();

  // straight back on the invitation, signed in with the invited address: only the name is asked
  await expect(invitee).toHaveURL(new RegExp(`/invite/${token}$`));
  await invitee.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(invitee.getByText('Name is required')).toBeVisible();
  await invitee.getByLabel('Full name').fill('Casey Morgan');
  await invitee.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(invitee).toHaveURL(/\/brand\/opportunities$/);
  await expect(invitee.getByTestId('portal-label')).toHaveText('Brand Portal');
  await expect(invitee.getByTestId('user-menu-org')).toHaveText('Jordan Goods');
  // a buyer sees the team but not the audit log
  await invitee.getByRole('link', { name: 'Team' }).click();
  await expect(invitee.getByText('Only the owner or an admin can change the team.')).toBeVisible();
  await expect(invitee.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
  await invitee.goto('/brand/audit');
  await expect(invitee.getByText('Only the owner or an admin can see the audit log')).toBeVisible();
  // the link was used once
  await invitee.goto(`/invite/${token}`);
  await expect(invitee.getByText('This invitation has expired, was already used or was revoked. Ask for a new one.')).toBeVisible();
  await ctx.close();

  await page.reload();
  const member = page.getByTestId('member-row').filter({ hasText: 'Casey Morgan' });
  await expect(member).toContainText(email);
  const role = member.getByLabel('Role of Casey Morgan');
  await expect(role.locator('option:checked')).toHaveText('Buyer');
  await expect(page.getByTestId('invitation-row')).toHaveCount(0);
  await role.selectOption('viewer');
  await expect(page.getByTestId('toast').filter({ hasText: 'Casey Morgan is now viewer.' })).toBeVisible();
  await expect(role.locator('option:checked')).toHaveText('Viewer');

  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/brand\/audit$/);
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  // in words (issue 57): who did what to whom, no codes
  const joined = page.getByTestId('audit-entry').filter({ hasText: 'Joined as Buyer' });
  await expect(joined).toContainText('Casey Morgan');
  await expect(joined).toContainText(email);
  const changed = page.getByTestId('audit-entry').filter({ hasText: 'Changed Casey Morgan’s role to Viewer' });
  await expect(changed).toContainText('Riley Jordan');
  await expect(changed).toContainText('Was Buyer');
  await expect(page.getByTestId('audit-entry').filter({ hasText: "Invited Casey Morgan as Buyer" })).toHaveCount(1);
  await expect(page.locator('table')).not.toContainText('role_changed');

  // the filters live in the URL, and the export carries them
  await page.getByLabel('Action').selectOption('role_changed');
  await expect(page).toHaveURL(/action=role_changed/);
  await expect(page.getByTestId('audit-entry')).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/org/audit.csv?action=role_changed');

  // removed, Casey can still be chosen in the Member filter, and their entries found (issue 57)
  const members = (await (await api(page, 'GET', '/api/org/members')).json()) as { id: string; email: string }[];
  const casey = members.find((m) => m.email === email)!;
  expect((await api(page, 'DELETE', `/api/org/members/${casey.id}`)).status()).toBe(204);
  await page.goto('/brand/audit');
  await page.getByLabel('Member').selectOption({ label: 'Casey Morgan (no longer a member)' });
  await expect(page).toHaveURL(new RegExp(`actor=${casey.id}`));
  await expect(page.getByTestId('audit-entry')).toHaveCount(1);
  await expect(page.getByTestId('audit-entry')).toContainText('Joined as Buyer');
});
