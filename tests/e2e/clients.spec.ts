import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, adminPage, api, brandAs, expectNoHorizontalOverflow, invitationToken, uniqueEmail } from './support';

const BRIEF = {
  part1Json: { personOrBrandName: 'Northwind Foods', backgroundExperience: 'Forty years of cold-chain logistics.' },
  part2Json: { mainGoal: 'Reach grocers', targetAudience: 'Independent grocers', mainMessage: 'Fresh travels well' },
};

// SHOTS_DIR=/tmp/… saves screenshots of each screen at 1280 and 390 px
const SHOTS_DIR = process.env.SHOTS_DIR;
async function shots(page: Page, name: string) {
  if (!SHOTS_DIR) return;
  const size = page.viewportSize();
  await page.screenshot({ path: `${SHOTS_DIR}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS_DIR}/${name}-390.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}

/** No serious or critical axe violation on the page as it is. */
async function axe(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
}

test('[CLIENTS] an agency buys for a client; its client reviewer approves the draft without seeing a price; the owner reads it in the audit log', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const title = `Client journey ${stamp}`;
  const client = `Northwind Foods ${stamp}`;
  const { admin, close } = await adminPage(browser);
  const created = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Grocer Gazette',
    outletUrl: 'https://grocer-gazette.example.com',
    title,
    description: 'A feature story about your company.',
    type: ['editorial_feature'],
    tat: '2 weeks',
    priceUsd: '2345.67',
    maxSlots: 1,
    domainAuthority: 60,
  });
  expect(created.status(), await created.text()).toBe(201);

  // the owner adds the client and its billing details on Clients
  await page.goto('/auth');
  await brandAs(page, 'approved');
  await page.goto('/brand/clients');
  await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
  await page.getByLabel('Client name').fill(client);
  await page.getByRole('button', { name: 'Add client' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: `${client} was added.` })).toBeVisible();
  const row = page.getByTestId('client-row').filter({ hasText: client });
  await expect(row).toContainText('No billing details');
  await row.getByRole('button', { name: 'Billing details' }).click();
  const billing = page.getByTestId('client-billing-dialog');
  await billing.getByLabel('Legal name').fill('Northwind Foods SAS');
  await billing.getByLabel('Address', { exact: true }).fill('12 quai de Bercy');
  await billing.getByLabel('City').fill('Paris');
  await billing.getByLabel('Country').selectOption('FR');
  await billing.getByRole('button', { name: 'Save billing details' }).click();
  await expect(billing).toBeHidden();
  await expect(row).toContainText('Own billing details');
  await axe(page);
  await shots(page, 'clients');

  // the owner invites a reviewer limited to the client, who signs up and joins
  await page.goto('/brand/team');
  const email = uniqueEmail('client-reviewer');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Role').selectOption('reviewer');
  await page.getByTestId('invite-clients').getByLabel(client).check();
  await expect(page.getByTestId('invite-clients')).toContainText('no prices or amounts');
  await shots(page, 'team-invite');
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(page.getByTestId('toast')).toContainText(`${email} was invited as reviewer.`);
  const token = await invitationToken(email);
  const ctx = await browser.newContext();
  const reviewer = await ctx.newPage();
  await reviewer.goto('/auth');
  expect((await api(reviewer, 'POST', '/api/register', { email, password: PASSWORD })).status()).toBe(201);
  const joined = await api(reviewer, 'POST', `/api/invitations/${token}/accept`, { name: 'Rita Client' });
  expect(joined.status(), await joined.text()).toBe(200);
  await page.reload();
  await expect(page.getByTestId('member-row').filter({ hasText: 'Rita Client' }).getByTestId('member-clients')).toHaveText(`Clients: ${client}`);

  // the owner buys for the client: the claim dialog asks for whom
  await page.goto('/brand/opportunities');
  const dialog = page.getByTestId('claim-dialog');
  await expect(async () => {
    await page.getByTestId('opportunity-card').filter({ hasText: title }).click();
    await expect(dialog).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 20_000 });
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByLabel('For client').selectOption({ label: client });
  await dialog.getByRole('checkbox').click();
  await shots(page, 'claim-client');
  await dialog.getByRole('button', { name: 'Pay now and secure article' }).click();
  await expect(page).toHaveURL(/\/checkout\/[A-Za-z0-9_]+$/);
  await page.getByRole('button', { name: 'Pay $2,345.67' }).click();
  await expect(page).toHaveURL(/\/brand\/my-articles$/);
  const card = page.getByTestId('article-card').filter({ hasText: title });
  await expect(card.getByTestId('article-client')).toHaveText(`For ${client}`);
  // its own view: the client filter keeps it, and the URL says so
  await page.getByTestId('client-filter').selectOption({ label: client });
  await expect(page).toHaveURL(/client=/);
  await expect(card).toBeVisible();
  await shots(page, 'my-articles-client');
  const paymentId = (await (await api(page, 'GET', `/api/brand/my-articles?clientId=${new URL(page.url()).searchParams.get('client')}`)).json())[0]
    .payment.id as string;
  // and in Payment History
  await page.goto('/brand/payments');
  await page.getByTestId('client-filter').selectOption({ label: client });
  await expect(page.getByTestId('payment-row')).toHaveCount(1);
  await expect(page.getByTestId('payment-row').getByTestId('payment-client')).toContainText(`for ${client}`);

  // the reviewer writes the brief; the editorial team attaches a draft
  expect((await api(reviewer, 'POST', `/api/brand/brief/${paymentId}/submit`, BRIEF)).status()).toBe(200);
  const draft = await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, { draftDocumentUrl: 'https://docs.example.com/d/northwind' });
  expect(draft.status(), await draft.text()).toBe(200);
  await close();

  // the client reviewer: My Articles (and its clients' reports) only, no money anywhere, and approves the draft
  await reviewer.goto('/brand/opportunities');
  await expect(reviewer).toHaveURL(/\/brand\/my-articles/);
  const nav = reviewer.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(['My Articles', 'Reports']);
  await expect(reviewer.getByTestId('escrow-card')).toHaveCount(0);
  const theirs = reviewer.getByTestId('article-card').filter({ hasText: title });
  await expect(theirs).toContainText(`For ${client}`);
  await expect(reviewer.locator('body')).not.toContainText('$');
  await axe(reviewer);
  await shots(reviewer, 'reviewer-my-articles');
  await theirs.getByRole('button', { name: 'Approve Draft' }).click();
  await reviewer.getByTestId('confirm-dialog').getByRole('button', { name: 'Approve Draft' }).click();
  await expect(reviewer.getByTestId('toast')).toContainText('Draft approved');
  await reviewer.goto(`/brand/my-articles/${paymentId}`);
  await expect(reviewer.getByTestId('details-title')).toHaveText(title);
  await expect(reviewer.getByTestId('placement-price')).toHaveCount(0);
  await expect(reviewer.locator('body')).not.toContainText('$');
  await shots(reviewer, 'reviewer-placement');
  await reviewer.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(reviewer);
  await ctx.close();

  // the owner reads it all in the audit log
  await page.goto('/brand/audit');
  const entries = page.getByTestId('audit-entry');
  await expect(entries.filter({ hasText: 'Draft approved' })).toContainText('Rita Client');
  await expect(entries.filter({ hasText: 'Client added' })).toContainText(client);
  await expect(entries.filter({ hasText: 'Member joined' })).toContainText(email);
  // the invoice is addressed to the client
  const pdf = await api(page, 'GET', `/api/brand/payments/${paymentId}/invoice`);
  expect(pdf.status()).toBe(200);
});
