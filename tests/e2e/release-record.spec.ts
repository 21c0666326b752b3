/**
 * Issue 57: the spec's release call (no body) keeps its answer, and the admin's placement page, its
 * timeline and its Admin Payments row say that it went without a live URL and, where so, without
 * the brand's approval.
 */
import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, api, brandAs, expectNoHorizontalOverflow, loginAs } from './support';

test('[ADMIN] a release without a live URL (or the brand’s approval) is said on the placement page and the Payments row', async ({ browser }) => {
  // cold pages on a busy machine: the page's chunks are built on first request
  test.slow();
  const title = `Released unchecked ${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await admin.goto('/auth');
  await loginAs(admin, DEMO_ADMIN);
  const opp = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Daily Ledger',
    title,
    description: 'A profile of your founder.',
    type: ['profile_article'],
    priceUsd: '800.00',
    maxSlots: 1,
  });
  expect(opp.status(), await opp.text()).toBe(201);
  const { id: opportunityId } = (await opp.json()) as { id: string };

  // a brand pays: no brief, no draft, nothing the brand approved
  const brandCtx = await browser.newContext();
  const brand = await brandCtx.newPage();
  await brand.goto('/auth');
  const { email } = await brandAs(brand, 'approved');
  const checkout = await api(brand, 'POST', '/api/payments/checkout', { opportunityId });
  const { url } = (await checkout.json()) as { url: string };
  const pay = await api(brand, 'POST', `/api/payments/checkout/${url.split('/').pop()}/pay`);
  expect(pay.status(), await pay.text()).toBe(200);
  const { paymentId } = (await pay.json()) as { paymentId: string };
  await brandCtx.close();

  // the spec's call: no body, released as the spec says
  const released = await api(admin, 'POST', `/api/admin/payments/${paymentId}/release`);
  expect(released.status(), await released.text()).toBe(200);
  expect(((await released.json()) as { status: string }).status).toBe('released');

  // the admin's placement page: a note in its Publication section, and the timeline's entry
  await admin.goto(`/admin/projects/${paymentId}`);
  const publication = admin.getByTestId('publication-section');
  await expect(publication).toBeVisible({ timeout: 60_000 });
  await expect(publication.getByTestId('released-without')).toHaveText('Released without a live URL or the brand’s approval');
  await expect(admin.getByText('Released without a live URL or the brand’s approval').nth(1)).toBeVisible();

  // the Payments row of this payment
  await admin.goto(`/admin/payments?q=${encodeURIComponent(email)}`);
  const row = admin.getByTestId('admin-payment-row').filter({ hasText: title });
  await expect(row.getByTestId('payment-status')).toHaveText('Released');
  await expect(row.getByTestId('released-without')).toHaveText('Released without a live URL or the brand’s approval');
  await admin.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(admin);
  await adminCtx.close();
});
