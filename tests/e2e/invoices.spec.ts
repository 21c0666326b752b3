/**
 * Issue 21: billing details on the profile, an invoice (and a credit note once refunded) one click
 * away on Payment History and admin Payments, and the admins' CSV export of the books.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { parse as parseCsv } from 'csv-parse/sync';
import { pdfText } from '../support/pdf';
import { adminPage, api, brandAs, buy } from './support';

async function createOpportunity(admin: Page, title: string) {
  const res = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'Invoice Weekly',
    title,
    description: 'A feature for the books.',
    type: ['editorial_feature'],
    priceUsd: '1250.50',
    maxSlots: 1,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** Clicks a download link and reads what the browser saved. */
async function downloaded(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), bytes: await readFile((await download.path())!) };
}

test('[BRAND][ADMIN] billing details go on the invoice; invoice, credit note and CSV export download in one click', async ({ page: brand, browser }) => {
  const { admin, close } = await adminPage(browser);
  const stamp = `${Date.now()}-x${Math.random().toString(36).slice(2, 6)}`;
  await brand.goto('/auth');
  const { email } = await brandAs(brand, 'approved');

  // Billing on the profile: a wrong VAT number is named on its field, nothing saved
  await brand.goto('/brand/profile');
  const billing = brand.getByTestId('billing-section');
  await expect(billing).toContainText('Not set. Invoices show your name, brand name and e-mail');
  await billing.getByRole('button', { name: 'Add billing details' }).click();
  await billing.getByLabel('Legal name').fill(`Ærø Łódź Trading ${stamp}`);
  await billing.getByLabel('Address', { exact: true }).fill('Hauptstraße 5');
  await billing.getByLabel('Postal code').fill('10115');
  await billing.getByLabel('City').fill('Berlin');
  await billing.getByLabel('Country').selectOption('DE');
  await billing.getByLabel('Tax / VAT ID (optional)').fill('DE12');
  await billing.getByRole('button', { name: 'Save billing details' }).click();
  await expect(billing.getByText('This is not a valid VAT number for Germany')).toBeVisible();
  await billing.screenshot({ path: 'test-results/shots/billing-form-1280.png' });
  await billing.getByLabel('Tax / VAT ID (optional)').fill('DE 123 456 789');
  await billing.getByRole('button', { name: 'Save billing details' }).click();
  await expect(billing).toContainText(`Ærø Łódź Trading ${stamp}`);
  await expect(billing).toContainText('DE123456789');
  await expect(billing).toContainText(email);
  await brand.screenshot({ path: 'test-results/shots/billing-1280.png', fullPage: true });
  await brand.setViewportSize({ width: 390, height: 844 });
  await brand.screenshot({ path: 'test-results/shots/billing-390.png', fullPage: true });
  await brand.setViewportSize({ width: 1280, height: 800 });

  // a purchase: Payment History offers its invoice, with the details just saved
  const title = `Books ${stamp}`;
  const paymentId = await buy(brand, await createOpportunity(admin, title));
  await brand.goto('/brand/payments');
  const row = brand.getByTestId('payment-row').filter({ hasText: title });
  await expect(row.getByRole('link', { name: 'Credit note' })).toHaveCount(0);
  const invoice = await downloaded(brand, () => row.getByRole('link', { name: 'Invoice' }).click());
  expect(invoice.name).toMatch(/^BYL-\d{4}-\d{6}\.pdf$/);
  // a long name wraps on the page: compare the words
  const text = (await pdfText(invoice.bytes)).replace(/\s+/g, ' ');
  // (it may break at a hyphen of the stamp: compare without any spacing)
  expect(text.replace(/\s/g, '')).toContain(`Ærø Łódź Trading ${stamp}`.replace(/\s/g, ''));
  expect(text).toContain(title);
  expect(text).toContain('Total paid $1,250.50 USD');
  await brand.screenshot({ path: 'test-results/shots/payment-history-1280.png', fullPage: true });

  // the admin refunds it: both sides get the credit note
  expect((await api(admin, 'POST', `/api/admin/payments/${paymentId}/refund`)).status()).toBe(200);
  await admin.goto(`/admin/payments?q=${encodeURIComponent(email)}`);
  const adminRow = admin.getByTestId('admin-payment-row').filter({ hasText: title });
  const note = await downloaded(admin, () => adminRow.getByRole('link', { name: 'Credit note' }).click());
  expect(note.name).toMatch(/^BYL-CN-\d{4}-\d{6}\.pdf$/);
  expect(await pdfText(note.bytes)).toContain(`Credits invoice ${invoice.name.replace('.pdf', '')}`);
  await brand.reload();
  await expect(brand.getByTestId('payment-row').filter({ hasText: title }).getByRole('link', { name: 'Credit note' })).toBeVisible();

  // Export CSV of what the search shows, narrowed to refunds
  const exportCard = admin.getByTestId('export-csv');
  // it says what its search covers: more than the list's search by brand
  await expect(exportCard).toContainText(`Includes only the payments whose brand, e-mail, opportunity or outlet contains “${email}”.`);
  await exportCard.getByLabel('Status').selectOption('refunded');
  const csv = await downloaded(admin, () => exportCard.getByRole('link', { name: 'Export CSV' }).click());
  expect(csv.name).toMatch(/^byline-payments-\d{4}-\d{2}-\d{2}\.csv$/);
  const rows = parseCsv(csv.bytes.toString('utf8'), { columns: true }) as Record<string, string>[];
  expect(rows).toEqual([
    expect.objectContaining({ status: 'refunded', email, opportunity: title, outlet: 'Invoice Weekly', amount: '1250.50', invoice_number: invoice.name.replace('.pdf', '') }),
  ]);
  await admin.screenshot({ path: 'test-results/shots/admin-payments-export-1280.png', fullPage: true });
  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.screenshot({ path: 'test-results/shots/admin-payments-export-390.png', fullPage: true });
  await close();
});
