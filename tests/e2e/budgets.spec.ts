import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, adminPage, api, brandAs, invitationToken, uniqueEmail } from './support';


async function createOpportunity(page: Page, title: string, priceUsd: string) {
  const res = await api(page, 'POST', '/api/admin/opportunities', {
    outletName: 'The Budget Ledger',
    outletUrl: 'https://budget-ledger.example.com',
    title,
    description: 'A feature story about your company.',
    type: ['editorial_feature'],
    tat: '2 weeks',
    priceUsd,
    maxSlots: 1,
    domainAuthority: 70,
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** Opens the claim dialog of `title` and goes on to its second step, the box ticked. */
async function openClaim(page: Page, title: string) {
  await page.goto('/brand/opportunities');
  const dialog = page.getByTestId('claim-dialog');
  // a click landing while the list still settles (its first page refetched) may open nothing: again
  await expect(async () => {
    await page.getByTestId('opportunity-card').filter({ hasText: title }).click();
    await expect(dialog).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 20_000 });
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('checkbox').click();
  return dialog;
}

test('[BUDGETS] the owner sets a budget and a buyer’s approval threshold; the buyer asks, the owner approves, the buyer pays; over the budget is refused', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const big = `Approval journey ${stamp}`;
  const small = `Over budget journey ${stamp}`;
  const { admin, close } = await adminPage(browser);
  await createOpportunity(admin, big, '1500.00');
  await createOpportunity(admin, small, '800.00');
  await close();

  // the owner invites a buyer, who signs up and joins
  await page.goto('/auth');
  await brandAs(page, 'approved');
  await page.goto('/brand/team');
  const email = uniqueEmail('buyer');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Role').selectOption('buyer');
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(page.getByTestId('toast')).toContainText(`${email} was invited as buyer.`);
  const token = await invitationToken(email);
  const ctx = await browser.newContext();
  const buyer = await ctx.newPage();
  await buyer.goto('/auth');
  expect((await api(buyer, 'POST', '/api/register', { email, password: PASSWORD })).status()).toBe(201);
  const joined = await api(buyer, 'POST', `/api/invitations/${token}/accept`, { name: 'Casey Morgan' });
  expect(joined.status(), await joined.text()).toBe(200);

  // the owner sets the monthly budget and the buyer's approval threshold on Team
  await page.reload();
  const budget = page.getByTestId('budget-card');
  await expect(budget.getByTestId('budget-cap')).toHaveText('No cap');
  await budget.getByLabel('Monthly cap (USD)').fill('2000');
  await budget.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'The monthly cap is $2,000.00.' })).toBeVisible();
  await expect(budget.getByTestId('budget-cap')).toHaveText('$2,000.00');
  await expect(budget.getByTestId('budget-left')).toHaveText('$2,000.00');
  const member = page.getByTestId('member-row').filter({ hasText: 'Casey Morgan' });
  await member.getByRole('button', { name: 'Limits of Casey Morgan' }).click();
  const limits = page.getByTestId('limits-dialog');
  await limits.getByLabel('Approval threshold (USD)').fill('1000');
  await limits.getByRole('button', { name: 'Save limits' }).click();
  await expect(limits).toBeHidden();
  await expect(member.getByTestId('member-limits')).toHaveText('Approval above $1,000.00');

  // the buyer opens a placement above the threshold: it needs approval, and is requested
  let dialog = await openClaim(buyer, big);
  await expect(dialog.getByTestId('claim-budget')).toContainText('Budget left this month: $2,000.00');
  await expect(dialog.getByTestId('claim-needs-approval')).toContainText('This purchase needs approval from an owner or admin');
  await expect(dialog.getByRole('button', { name: 'Pay now and secure article' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Request approval' }).click();
  await expect(buyer.getByTestId('toast').filter({ hasText: 'Sent for approval' })).toBeVisible();
  await expect(dialog).toBeHidden();
  await buyer.goto('/brand/requests');
  await expect(buyer.getByRole('heading', { name: 'Purchase requests', level: 1 })).toBeVisible();
  const mine = buyer.getByTestId('purchase-request').filter({ hasText: big });
  await expect(mine).toContainText('Pending');
  await expect(mine).toContainText('$1,500.00');
  await expect(mine.getByRole('button')).toHaveCount(0);

  // the owner sees the pending count in the sidebar and approves
  await page.goto('/brand/team');
  const link = page.getByRole('link', { name: /Purchase requests/ });
  await expect(link.getByTestId('nav-requests-count')).toHaveText('1');
  await link.click();
  await expect(page).toHaveURL(/\/brand\/requests$/);
  const request = page.getByTestId('purchase-request').filter({ hasText: big });
  await expect(request).toContainText('requested by Casey Morgan');
  await request.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Request approved' })).toBeVisible();
  await expect(request).toHaveCount(0);
  await expect(page.getByTestId('nav-requests-count')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Approved' }).click();
  await expect(page.getByTestId('purchase-request').filter({ hasText: big })).toContainText('Approved by Riley Jordan');

  // the buyer pays it from Purchase requests on the built-in checkout; it is in My Articles
  await buyer.goto('/brand/requests?status=approved');
  await buyer.getByTestId('purchase-request').filter({ hasText: big }).getByRole('button', { name: 'Pay now' }).click();
  await expect(buyer).toHaveURL(/\/checkout\/[A-Za-z0-9_]+$/);
  await buyer.getByRole('button', { name: 'Pay $1,500.00' }).click();
  await expect(buyer.getByTestId('toast')).toContainText('Payment received');
  await expect(buyer).toHaveURL(/\/brand\/my-articles$/);
  await expect(buyer.getByText(big)).toBeVisible();
  await buyer.goto('/brand/requests?status=paid');
  await expect(buyer.getByTestId('purchase-request').filter({ hasText: big })).toContainText('Paid');

  // a purchase over what is left of the budget is refused in the dialog
  dialog = await openClaim(buyer, small);
  await expect(dialog.getByTestId('claim-budget')).toContainText('Budget left this month: $500.00');
  await dialog.getByRole('button', { name: 'Pay now and secure article' }).click();
  await expect(dialog.getByTestId('claim-refusal')).toHaveText(
    'This purchase of $800.00 is over your organisation’s monthly budget of $2,000.00: $500.00 is left this month.',
  );
  await expect(buyer).toHaveURL(/\/brand\/opportunities$/);
  await ctx.close();

  // the owner's Team page shows what was spent
  await page.goto('/brand/team');
  await expect(page.getByTestId('budget-spent')).toHaveText('$1,500.00');
  await expect(page.getByTestId('budget-left')).toHaveText('$500.00');
});
