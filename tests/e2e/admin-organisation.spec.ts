import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_ADMIN, DEMO_INVITE, PASSWORD, api, buy, expectNoHorizontalOverflow, loginAs, uniqueEmail } from './support';

// the rules of the accessibility journey (WCAG 2.2 AA and the best-practice ones), and those that
// must pass whatever axe calls their impact
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const ALWAYS = new Set(['heading-order', 'landmark-one-main', 'page-has-heading-one', 'landmark-no-duplicate-main']);
// SHOTS_DIR=/tmp/… saves screenshots of the page at 1280 and 390 px
const SHOTS_DIR = process.env.SHOTS_DIR;

async function expectNoSeriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  const failing = violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious' || ALWAYS.has(v.id))
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}`).join('\n')}`);
  expect(failing).toEqual([]);
}

/**
 * A fresh approved brand whose organisation has its own name and one client, with two placements:
 * one for the organisation itself, one for the client.
 */
async function organisationWithPlacements(admin: Page, brand: Page) {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const orgName = `Harbour Tea Co ${tag}`;
  const clientName = `Lantern Bakery ${tag}`;
  const opp = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Daily Ledger',
    title: `Organisation page story ${tag}`,
    description: 'A feature story about your company.',
    type: ['editorial_feature'],
    priceUsd: '1234.50',
    maxSlots: 2,
  });
  expect(opp.status(), await opp.text()).toBe(201);
  const { id: opportunityId } = (await opp.json()) as { id: string };

  await brand.goto('/auth');
  const email = uniqueEmail('org');
  expect((await api(brand, 'POST', '/api/register', { email, password: PASSWORD })).status()).toBe(201);
  const profile = await api(brand, 'PATCH', '/api/user/profile', {
    name: 'Morgan Lee',
    brandName: orgName,
    website: 'https://harbour.example.com',
    inviteCode: DEMO_INVITE,
  });
  expect(profile.status(), await profile.text()).toBe(200);
  const client = await api(brand, 'POST', '/api/org/clients', { name: clientName });
  expect(client.status(), await client.text()).toBe(201);
  const { id: clientId } = (await client.json()) as { id: string };

  await buy(brand, opportunityId);
  const checkout = await api(brand, 'POST', '/api/payments/checkout', { opportunityId, clientId });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { url } = (await checkout.json()) as { url: string };
  const pay = await api(brand, 'POST', `/api/payments/checkout/${url.split('/').pop()}/pay`);
  expect(pay.status(), await pay.text()).toBe(200);
  return { email, orgName, clientName };
}

test('[ADMIN] opens a brand’s organisation from Payments: members, clients and spend; a bad id is not found', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const brandCtx = await browser.newContext();
  const brand = await brandCtx.newPage();
  await page.goto('/auth');
  await loginAs(page, DEMO_ADMIN);
  const { email, orgName, clientName } = await organisationWithPlacements(page, brand);
  await brandCtx.close();

  // Payments: each row names its organisation (a link) and, when bought for one, the client
  await page.goto(`/admin/payments?q=${encodeURIComponent(email)}`);
  const rows = page.getByTestId('admin-payment-row');
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) await expect(row.getByTestId('organisation-link')).toHaveText(orgName);
  await expect(page.getByTestId('payment-client')).toHaveCount(1);
  await expect(page.getByTestId('payment-client')).toHaveText(`for ${clientName}`);
  // the brand contact (its company name, then its e-mail) is still there, the client next to it
  await expect(rows.filter({ has: page.getByTestId('payment-client') })).toContainText(`${orgName} for ${clientName}`);

  if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/payments-1280.png` });
  await rows.first().getByRole('link', { name: orgName }).click();
  await expect(page).toHaveURL(/\/admin\/organisations\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(orgName);
  await expect(page.getByTestId('org-approval')).toHaveText('Approved');
  await expect(page.getByTestId('org-created')).toHaveText(/^\s*Created [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  const member = page.getByTestId('org-member');
  await expect(member).toHaveCount(1);
  await expect(member).toContainText('Morgan Lee');
  await expect(member).toContainText(email);
  await expect(member).toContainText('Owner');
  await expect(member.getByTestId('org-member-clients')).toHaveText('All clients');
  await expect(page.getByTestId('org-clients')).toHaveText(clientName);
  // 1234.50 twice, this month: spent, paid in total, two placements
  await expect(page.getByText(/^Spent in [A-Z][a-z]+ \d{4}$/)).toBeVisible();
  await expect(page.getByTestId('org-spent')).toHaveText('$2,469.00');
  await expect(page.getByTestId('org-paid-total')).toHaveText('$2,469.00');
  await expect(page.getByTestId('org-placements')).toHaveText('2');
  await expectNoSeriousViolations(page);
  expect(await page.locator('h1').count()).toBe(1);
  if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/organisation-1280.png`, fullPage: true });

  // a phone: the members table stacks, nothing is wider than the window
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(member).toContainText(email);
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousViolations(page);
  if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/organisation-390.png`, fullPage: true });

  // to every organisation by the page's own link; the sidebar has it too (issue 57), and a search finds this one
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('link', { name: 'All organisations' }).click();
  await expect(page).toHaveURL(/\/admin\/organisations$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Organisations');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Organisations' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Invite codes' })).toHaveAttribute('href', '/admin/invite-codes');
  await page.getByRole('searchbox').fill(email);
  await page.getByRole('searchbox').press('Enter');
  const listed = page.getByTestId('organisation-row');
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText(orgName);
  await expect(listed).toContainText(`Owner Morgan Lee (${email})`);
  await expect(listed).toContainText('1 member');
  await expect(listed).toContainText('1 client');
  await expect(listed).toContainText('2 placements');
  await expectNoSeriousViolations(page);
  if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/organisations-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page);
  if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/organisations-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await listed.getByRole('link', { name: orgName }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(orgName);

  // an id of no organisation, and something that is not an id
  for (const bad of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
    await page.goto(`/admin/organisations/${bad}`);
    await expect(page.getByTestId('org-not-found')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Organisation not found');
  }
  await expectNoSeriousViolations(page);
  if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/organisation-not-found.png` });
});
