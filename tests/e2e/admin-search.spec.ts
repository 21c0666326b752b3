import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_INVITE, PASSWORD, adminPage, api, buy, expectNoHorizontalOverflow, uniqueEmail } from './support';

/** A brand with its own names, signed in on `page`: approved with the demo invite code, or left pending. */
async function brandNamed(page: Page, brandName: string, approved: boolean) {
  await page.goto('/auth');
  const email = uniqueEmail(brandName.split(' ')[0].toLowerCase());
  expect((await api(page, 'POST', '/api/register', { email, password: PASSWORD })).status()).toBe(201);
  const profile = await api(page, 'PATCH', '/api/user/profile', {
    name: `${brandName} Founder`,
    brandName,
    website: 'https://brand.example.com',
    ...(approved ? { inviteCode: DEMO_INVITE } : {}),
  });
  expect(profile.status(), await profile.text()).toBe(200);
  return email;
}

const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search by brand or e-mail' });

/** Types a search as a person would and waits for the URL to carry it. */
async function search(page: Page, text: string) {
  await searchBox(page).fill(text);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text).replace(/%20/g, '(\\+|%20)')}(&|$)`));
}

test('[ADMIN][SEARCH] finds one brand’s rows on Projects, Payments and Approvals, and a reload keeps the search', async ({
  browser,
}) => {
  // four sign-ups, two purchases and three admin lists: on a machine busy with the rest of the suite, more than a minute
  test.setTimeout(120_000);
  const tag = randomBytes(3).toString('hex');
  const quokka = `Quokka ${tag}`;
  const wombat = `Wombat ${tag}`;
  const { admin, close } = await adminPage(browser);
  const opp = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Search Gazette',
    title: `Searchable story ${tag}`,
    description: 'A profile of your founder.',
    type: ['profile_article'],
    priceUsd: '400.00',
    maxSlots: 5,
  });
  expect(opp.status(), await opp.text()).toBe(201);
  const { id: opportunityId } = (await opp.json()) as { id: string };

  // two approved brands that bought, two pending brands
  const brandCtx = await browser.newContext();
  const brand = await brandCtx.newPage();
  const quokkaEmail = await brandNamed(brand, quokka, true);
  await buy(brand, opportunityId);
  await brandCtx.clearCookies();
  await brandNamed(brand, wombat, true);
  await buy(brand, opportunityId);
  await brandCtx.clearCookies();
  await brandNamed(brand, `${quokka} Pending`, false);
  await brandCtx.clearCookies();
  await brandNamed(brand, `${wombat} Pending`, false);
  await brandCtx.close();

  // Projects: both brands' projects at first, only Quokka's once searched; the tab count follows
  await admin.goto('/admin/projects');
  const cards = admin.getByRole('tabpanel').getByTestId('project-card');
  // other journeys buy at the same time: the first page without a search need not show either brand
  await expect.poll(() => cards.count()).toBeGreaterThan(1);
  await search(admin, quokka.toUpperCase());
  await expect(cards.filter({ hasText: quokka })).toHaveCount(1);
  await expect(cards).toHaveCount(1);
  await expect(admin.getByRole('tab', { name: /Awaiting Brief/ }).getByTestId('tab-count')).toHaveText('1');
  await admin.reload();
  await expect(searchBox(admin)).toHaveValue(quokka.toUpperCase());
  await expect(cards.filter({ hasText: quokka })).toHaveCount(1);
  await expect(cards).toHaveCount(1);
  // by e-mail too; a search that finds nothing says so, and clearing it brings the list back
  await search(admin, quokkaEmail);
  await expect(cards).toHaveCount(1);
  await search(admin, `nobody-${tag}`);
  await expect(admin.getByText(`No projects match “nobody-${tag}”`)).toBeVisible();
  await admin.getByRole('search').getByRole('button', { name: 'Clear search' }).click();
  await expect(admin).not.toHaveURL(/[?&]q=/);
  await expect.poll(() => cards.count()).toBeGreaterThan(1);
  await search(admin, wombat);
  await expect(cards.filter({ hasText: wombat })).toHaveCount(1);
  await expect(cards).toHaveCount(1);

  // Payments: the rows and the totals are Quokka's
  await admin.goto('/admin/payments');
  const rows = admin.getByTestId('admin-payment-row');
  await expect.poll(() => rows.count()).toBeGreaterThan(1);
  await search(admin, quokka);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(quokkaEmail);
  await expect(admin.getByTestId('totals-scope')).toHaveText(`Totals of the payments matching “${quokka}”`);
  await expect(admin.getByText('Held in Escrow').locator('..')).toContainText('$400.00');
  await admin.reload();
  await expect(searchBox(admin)).toHaveValue(quokka);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(quokka);
  await search(admin, `nobody-${tag}`);
  await expect(admin.getByText(`No payments match “nobody-${tag}”`)).toBeVisible();
  // the empty state's own button clears it as well
  await admin.getByRole('main').getByText('Clear search').click();
  await expect(searchBox(admin)).toHaveValue('');
  await expect(admin).not.toHaveURL(/[?&]q=/);
  await expect.poll(() => rows.count()).toBeGreaterThan(1);

  // Approvals: only the pending Quokka brand; at 390 px nothing spills over
  await admin.goto(`/admin/approvals?q=${encodeURIComponent(quokka)}`);
  const pending = admin.getByTestId('pending-brand');
  await expect(searchBox(admin)).toHaveValue(quokka);
  await expect(pending).toHaveCount(1);
  await expect(pending.first()).toContainText(`${quokka} Pending`);
  await search(admin, wombat.toLowerCase());
  await expect(pending).toHaveCount(1);
  await expect(pending.first()).toContainText(`${wombat} Pending`);
  await admin.reload();
  await expect(pending).toHaveCount(1);
  await expect(pending.first()).toContainText(`${wombat} Pending`);
  await search(admin, `nobody-${tag}`);
  await expect(admin.getByText(`No pending brands match “nobody-${tag}”`)).toBeVisible();
  await admin.setViewportSize({ width: 390, height: 844 });
  for (const path of ['/admin/approvals', '/admin/payments', '/admin/projects']) {
    await admin.goto(`${path}?q=${encodeURIComponent(quokka)}`);
    await expect(searchBox(admin)).toBeVisible();
    await expectNoHorizontalOverflow(admin);
  }
  await close();
});
