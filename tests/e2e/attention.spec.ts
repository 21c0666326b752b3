import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_ADMIN, api, brandAs, buy, expectNoHorizontalOverflow, loginAs } from './support';

/**
 * Needs attention (issue 19): the admins' one list of what waits on the team, reachable from the
 * sidebar with a count; each row links to its placement's details page.
 */

const SHOTS = '/tmp/shots-attention';
const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** A placement whose brand asked for edits of its draft and then wrote to the team. */
async function placementWithEditsAndMessage(admin: Page, brand: Page, title: string) {
  const opp = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Daily Ledger',
    title,
    description: 'A profile of your founder.',
    type: ['profile_article'],
    priceUsd: '1500.00',
    maxSlots: 1,
  });
  expect(opp.status(), await opp.text()).toBe(201);
  await brandAs(brand, 'approved');
  const paymentId = await buy(brand, ((await opp.json()) as { id: string }).id);
  const brief = await api(brand, 'POST', `/api/brand/brief/${paymentId}/submit`, {
    part1Json: {
      personOrBrandName: 'Riley Jordan',
      preferredTitle: 'Founder',
      backgroundExperience: 'Twelve years in retail.',
      careerHighlights: '40 stores',
    },
    part2Json: {
      mainGoal: 'Reach retailers',
      targetAudience: 'Store owners',
      mainMessage: 'Good goods last',
      seoKeywords: 'retail',
      socialMediaLinks: 'twitter.com/x',
    },
  });
  expect(brief.status(), await brief.text()).toBe(200);
  expect(
    (
      await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, {
        draftDocumentUrl: 'https://docs.google.com/document/d/x',
      })
    ).status(),
  ).toBe(200);
  expect(
    (
      await api(brand, 'POST', `/api/brand/projects/${paymentId}/request-edits`, { feedback: 'Shorter intro, please.' })
    ).status(),
  ).toBe(200);
  for (const text of ['Edits are in the comments.', 'Could we also mention our 2019 expansion?']) {
    expect((await api(brand, 'POST', `/api/brand/projects/${paymentId}/messages`, { text })).status()).toBe(201);
  }
  return paymentId;
}

test('[ADMIN] the sidebar counts what needs attention; the list shows why and links to the details page', async ({
  browser,
  page,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  const title = `Attention journey ${unique()}`;
  const brandCtx = await browser.newContext();
  const brand = await brandCtx.newPage();
  await brand.goto('/auth');
  await page.goto('/auth');
  await loginAs(page, DEMO_ADMIN);
  const paymentId = await placementWithEditsAndMessage(page, brand, title);
  // the journeys running beside this one add to the list and take from it: the badge is compared
  // with the list as the server has it at that moment, again until both agree
  const attentionTotal = async () => ((await (await api(page, 'GET', '/api/admin/attention')).json()) as { total: number }).total;
  const nav = page.getByRole('navigation', { name: 'Main' });
  const linkOf = (n: number) => nav.getByRole('link', { name: new RegExp(`^Needs attention \\(${n} placements?\\)$`) });
  await expect(async () => {
    await page.goto('/admin');
    const total = await attentionTotal();
    expect(total).toBeGreaterThanOrEqual(1);
    await expect(linkOf(total)).toBeVisible({ timeout: 5_000 });
    await expect(linkOf(total).getByTestId('nav-attention-count')).toHaveText(String(total), { timeout: 1_000 });
  }).toPass({ timeout: 45_000 });
  await nav.getByRole('link', { name: /^Needs attention/ }).click();
  await expect(page).toHaveURL(/\/admin\/attention$/);
  await expect(page.getByRole('heading', { name: 'Needs attention', level: 1 })).toBeVisible();

  const row = page.getByTestId('attention-item').filter({ hasText: title });
  await expect(row).toBeVisible();
  await expect(row).toContainText('The Daily Ledger');
  await expect(row).toContainText('Jordan Goods');
  await expect(row.getByText('Edits requested', { exact: true })).toBeVisible();
  await expect(row.getByText('2 unread messages', { exact: true })).toBeVisible();
  // every item is listed (up to 200), as many as the server counts at that moment
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible();
    expect(await page.getByTestId('attention-item').count()).toBe(Math.min(await attentionTotal(), 200));
  }).toPass({ timeout: 45_000 });
  await page.screenshot({ path: `${SHOTS}/attention-1280.png`, fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page);
  await expect(row).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/attention-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await row.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/admin/projects/${paymentId}$`));
  await expect(page.getByText('Could we also mention our 2019 expansion?')).toBeVisible();
  await brandCtx.close();
});
