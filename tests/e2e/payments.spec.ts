import { expect, test, type Page } from '@playwright/test';
import { DEMO_ADMIN, api, brandAs, loginAs } from './support';

/** A fresh single-slot opportunity, so tests never compete for the same slot. */
async function createOpportunity(page: Page, title: string, price = '1234.50', maxSlots = 1) {
  const res = await api(page, 'POST', '/api/admin/opportunities', {
    outletName: 'The Daily Ledger',
    outletUrl: 'https://ledger.example.com',
    title,
    description: 'A feature story about your company.',
    type: ['editorial_feature'],
    tat: '2 weeks',
    priceUsd: price,
    maxSlots,
    domainAuthority: 77,
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string };
}

async function claim(page: Page, title: string) {
  await page.goto('/brand/opportunities');
  await page.getByTestId('opportunity-card').filter({ hasText: title }).click();
  const dialog = page.getByTestId('claim-dialog');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('checkbox').click();
  await dialog.getByRole('button', { name: 'Pay now and secure article' }).click();
  await expect(page).toHaveURL(/\/checkout\/[A-Za-z0-9_]+$/);
  await expect(page.getByRole('note')).toContainText('Test mode: payments are simulated');
  await expect(page.locator('.test-mode-banner')).toHaveText('Test mode: payments are simulated');
}

test('[BRAND] claims, pays on the built-in checkout, and sees the payment held in escrow; the admin sees it', async ({ page, browser }) => {
  // ten pages across two sessions: on a machine busy with the rest of the suite, more than a minute
  test.setTimeout(120_000);
  const title = `Escrow journey ${Date.now()}`;
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await admin.goto('/auth');
  await loginAs(admin, DEMO_ADMIN);
  await createOpportunity(admin, title);

  await page.goto('/auth');
  await brandAs(page, 'approved');
  await claim(page, title);
  await expect(page.getByTestId('checkout-amount')).toHaveText('$1,234.50');
  await expect(page.getByText('The Daily Ledger')).toBeVisible();
  await page.getByRole('button', { name: 'Pay $1,234.50' }).click();
  await expect(page.getByTestId('toast')).toContainText('Payment received');
  await expect(page).toHaveURL(/\/brand\/my-articles$/);
  await expect(page.getByTestId('escrow-balance')).toHaveText('$1,234.50');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click();
  await expect(page.getByText('1 transaction')).toBeVisible();
  const row = page.getByTestId('payment-row').filter({ hasText: title });
  await expect(row).toContainText('Pending');
  await expect(row).toContainText('$1,234.50');
  await expect(row).toContainText(/[A-Z][a-z]{2} \d{2}, \d{4}/);
  await expect(row).toContainText(/^.*[A-Za-z0-9_]{20}\.\.\..*$/);

  // sold out now: the card is gone from the browse page
  await page.goto('/brand/opportunities');
  await expect(page.getByTestId('opportunity-card').filter({ hasText: title })).toHaveCount(0);

  await admin.goto('/admin/payments');
  const adminRow = admin.getByTestId('admin-payment-row').filter({ hasText: title });
  await expect(adminRow).toContainText('Paid - Held');
  await expect(adminRow).toContainText('Jordan Goods');
  await expect(admin.getByText('Held in Escrow')).toBeVisible();

  // refund with confirmation: the brand's balance goes back to zero
  await adminRow.getByRole('button', { name: 'Refund' }).click();
  await admin.getByRole('button', { name: 'Refund payment' }).click();
  await expect(admin.getByTestId('toast')).toContainText('has been refunded');
  await expect(adminRow).toContainText('Refunded');
  await adminCtx.close();

  await page.goto('/brand/payments');
  await expect(page.getByTestId('payment-row').filter({ hasText: title })).toContainText('Refunded');
  await expect(page.getByTestId('escrow-balance')).toHaveText('$0.00');
});

test('[BRAND] cancelling the checkout returns to the opportunities and gives the slot back', async ({ page, browser }) => {
  const title = `Cancel journey ${Date.now()}`;
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await admin.goto('/auth');
  await loginAs(admin, DEMO_ADMIN);
  const { id } = await createOpportunity(admin, title, '99.00');

  await page.goto('/auth');
  await brandAs(page, 'approved');
  await claim(page, title);
  // the slot is held while the checkout is open
  const held = await (await api(admin, 'GET', `/api/admin/opportunities/${id}`)).json();
  expect(held).toMatchObject({ filledSlots: 1, status: 'full' });

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('toast')).toContainText('Checkout cancelled');
  // the parameter is dropped, so a reload says nothing more
  await expect(page).toHaveURL(/\/brand\/opportunities$/);
  await expect(page.getByTestId('opportunity-card').filter({ hasText: title })).toBeVisible();
  const freed = await (await api(admin, 'GET', `/api/admin/opportunities/${id}`)).json();
  expect(freed).toMatchObject({ filledSlots: 0, status: 'available' });
  await adminCtx.close();
});

test('[ADMIN] releases a held payment from the dashboard with Mark Published', async ({ page, browser }) => {
  const title = `Release journey ${Date.now()}`;
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await admin.goto('/auth');
  await loginAs(admin, DEMO_ADMIN);
  const { id } = await createOpportunity(admin, title, '500.00', 3);

  await page.goto('/auth');
  await brandAs(page, 'approved');
  const checkout = await (await api(page, 'POST', '/api/payments/checkout', { opportunityId: id })).json();
  const sessionId = String(checkout.url).split('/').pop();
  expect((await api(page, 'POST', `/api/payments/checkout/${sessionId}/pay`)).status()).toBe(200);
  const [payment] = (await (await api(admin, 'GET', '/api/admin/payments')).json()).filter((p: { opportunityId: string }) => p.opportunityId === id);

  await admin.goto('/admin');
  await admin.getByRole('button', { name: `Mark Published ${title}` }).click();
  const dialog = admin.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Mark as Published' })).toBeVisible();
  await expect(dialog).toContainText('Select a payment to release for this opportunity');
  const releaseButton = dialog.getByRole('button', { name: 'Release Payment' });
  await expect(releaseButton).toBeDisabled();
  const choice = dialog.getByRole('radio', { name: new RegExp(payment.stripePaymentId.slice(-8)) });
  await expect(choice.getByTestId('content-state')).toHaveText('Brief pending');
  await choice.click();
  // the brand has not even written a brief: releasing it takes a written reason
  await dialog.getByLabel('Reason to release anyway').fill('Published from the outlet’s own material');
  await dialog.getByRole('button', { name: 'Release anyway' }).click();
  await expect(admin.getByTestId('toast')).toContainText('The payment has been marked as released');

  await admin.goto('/admin/payments');
  await expect(admin.getByTestId('admin-payment-row').filter({ hasText: title })).toContainText('Released');
  await adminCtx.close();

  await page.goto('/brand/payments');
  await expect(page.getByTestId('payment-row').filter({ hasText: title })).toContainText('Released');
  await expect(page.getByTestId('escrow-balance')).toHaveText('$0.00');
});
