import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, api, brandAs, loginAs } from './support';

const PURCHASES = 53;

test('[BRAND] a long My Articles and Payment History load page by page: 50 first, the rest on "Load more" or scrolling', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await browser.newPage();
  await loginAs(admin, DEMO_ADMIN);
  const title = `Paged placement ${Date.now()}`;
  const opp = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Long List',
    title,
    description: 'Many slots.',
    type: ['listicle'],
    priceUsd: '10.00',
    maxSlots: 100,
  });
  expect(opp.status(), await opp.text()).toBe(201);
  const { id: opportunityId } = (await opp.json()) as { id: string };

  await page.goto('/auth');
  await brandAs(page, 'approved');
  for (let i = 0; i < PURCHASES; i++) {
    const checkout = await api(page, 'POST', '/api/payments/checkout', { opportunityId });
    expect(checkout.status(), await checkout.text()).toBe(200);
    const { url } = (await checkout.json()) as { url: string };
    const pay = await api(page, 'POST', `/api/payments/checkout/${url.split('/').pop()}/pay`);
    expect(pay.status(), await pay.text()).toBe(200);
  }

  // My Articles: the count is of every purchase; the list shows the first page, then the rest
  await page.goto('/brand/my-articles');
  const pending = page.getByRole('tab', { name: /Pending/ });
  await expect(pending.getByTestId('tab-count')).toHaveText(String(PURCHASES));
  const cards = page.getByTestId('article-card');
  await expect(cards).toHaveCount(50);
  // scrolling to the end of the list loads the next page by itself
  await page.getByTestId('load-more').scrollIntoViewIfNeeded();
  await expect(cards).toHaveCount(PURCHASES);
  await expect(page.getByTestId('load-more')).toHaveCount(0);

  // Payment History in a browser without IntersectionObserver: the "Load more" button does it
  const noObserver = await page.context().newPage();
  await noObserver.addInitScript(() => {
    delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
  });
  await noObserver.goto('/brand/payments');
  await expect(noObserver.getByText(`${PURCHASES} transactions`)).toBeVisible();
  const rows = noObserver.getByTestId('payment-row');
  await expect(rows).toHaveCount(50);
  await noObserver.getByRole('button', { name: 'Load more' }).click();
  await expect(rows).toHaveCount(PURCHASES);
  await expect(noObserver.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  await admin.close();
});

test('[ADMIN] dashboard filters are answered by the server', async ({ page }) => {
  await loginAs(page, DEMO_ADMIN);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  const asked = page.waitForRequest((r) => r.url().includes('/api/admin/opportunities?') && r.url().includes('type=listicle'));
  await page.getByLabel('Type').selectOption('listicle');
  await asked;
  const full = page.waitForRequest((r) => r.url().includes('full=true'));
  await page.getByLabel('Show Full Only').click();
  await full;
  // every row shown is full (status badge) — or the empty state
  await expect(page.locator('table tbody tr').first()).toBeVisible();
  const statuses = await page.locator('table tbody tr').allInnerTexts();
  for (const row of statuses) if (row.trim() !== 'No opportunities found') expect(row).toContain('Full');
});
