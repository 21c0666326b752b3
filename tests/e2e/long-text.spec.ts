/**
 * What users type can hold words longer than a phone is wide: an e-mail address, an outlet's name,
 * a title pasted without spaces, a link. Such words break where they must; no screen that shows
 * them scrolls sideways on a phone, and the admin's table keeps every column in view on a desktop.
 */
import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, DEMO_INVITE, PASSWORD, api, expectNoHorizontalOverflow, loginAs } from './support';

const WORD = 'Averyveryverylongunbrokenwordwithoutanyspacesatall';

test('[ADMIN][BRAND] long unbroken words in titles, names, e-mails and links never widen a page', async ({ browser }) => {
  // two users and a dozen screens at two widths: about a minute on a slow 2-core machine
  test.setTimeout(150_000);
  const stamp = Date.now();
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await admin.goto('/auth');
  await loginAs(admin, DEMO_ADMIN);
  const created = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: `TheOutlet${WORD}`,
    outletUrl: `https://www.${WORD.toLowerCase()}.example.com/${WORD}`,
    title: `${WORD}${stamp}`,
    description: `${WORD}${WORD}`,
    type: ['profile_article'],
    priceUsd: '1250.00',
    maxSlots: 3,
  });
  expect(created.status(), await created.text()).toBe(201);
  const opportunityId = ((await created.json()) as { id: string }).id;

  // an approved brand with a long e-mail address and names buys it; another waits for approval
  const email = `marketing-partnerships-and-communications-${stamp}@averyveryverylongcompanyname-example.com`;
  const brandCtx = await browser.newContext();
  const brand = await brandCtx.newPage();
  await brand.goto('/auth');
  expect((await api(brand, 'POST', '/api/register', { email, password: PASSWORD })).status()).toBe(201);
  const profile = { name: `Riley${WORD}`, brandName: `Goods${WORD}`, website: `https://${WORD.toLowerCase()}.example.com/${WORD}` };
  expect((await api(brand, 'PATCH', '/api/user/profile', { ...profile, inviteCode: DEMO_INVITE })).status()).toBe(200);
  const checkout = await api(brand, 'POST', '/api/payments/checkout', { opportunityId });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { url } = (await checkout.json()) as { url: string };
  const pay = await api(brand, 'POST', `/api/payments/checkout/${url.split('/').pop()}/pay`);
  expect(pay.status(), await pay.text()).toBe(200);
  const paymentId = ((await pay.json()) as { paymentId: string }).paymentId;
  const pendingCtx = await browser.newContext();
  const pending = await pendingCtx.newPage();
  await pending.goto('/auth');
  expect((await api(pending, 'POST', '/api/register', { email: `pending-${email}`, password: PASSWORD })).status()).toBe(201);
  expect((await api(pending, 'PATCH', '/api/user/profile', { ...profile, brandName: `Pending${WORD}` })).status()).toBe(200);

  await admin.setViewportSize({ width: 390, height: 844 });
  await brand.setViewportSize({ width: 390, height: 844 });
  const screens = [
    { page: admin, path: '/admin', text: `${WORD}${stamp}` },
    { page: admin, path: '/admin/approvals', text: `Pending${WORD}` },
    { page: admin, path: '/admin/projects', text: email },
    { page: admin, path: '/admin/payments', text: email },
    { page: brand, path: '/brand/opportunities', text: `TheOutlet${WORD}` },
    { page: brand, path: '/brand/my-articles', text: `${WORD}${stamp}` },
    { page: brand, path: '/brand/payments', text: `${WORD}${stamp}` },
    { page: brand, path: `/brand/brief/${paymentId}`, text: `${WORD}${stamp}` },
    { page: brand, path: '/brand/profile', text: email },
  ];
  for (const { page, path, text } of screens) {
    await page.goto(path);
    await expect(page.getByText(text).first(), path).toBeVisible();
    await expectNoHorizontalOverflow(page);
  }

  // the claim dialog with the outlet's long name, link and description fits the phone's screen
  await brand.goto('/brand/opportunities');
  await brand.getByTestId('opportunity-card').filter({ hasText: `${WORD}${stamp}` }).click();
  const dialog = brand.getByRole('dialog');
  await expect(dialog).toContainText(`${WORD}${WORD}`);
  await expect.poll(async () => (await dialog.boundingBox())!.x + (await dialog.boundingBox())!.width).toBeLessThanOrEqual(390);
  await expect.poll(() => dialog.evaluate((d) => d.scrollWidth - d.clientWidth)).toBeLessThanOrEqual(0);

  // a desktop: the dashboard's table fits its card, no sideways scrolling inside it either
  await admin.setViewportSize({ width: 1280, height: 800 });
  await admin.goto('/admin');
  const row = admin.getByTestId('opportunity-row').filter({ hasText: `${WORD}${stamp}` });
  await expect(row).toBeVisible();
  await expect(row.getByRole('button', { name: 'Mark Published' })).toBeInViewport();
  await expect
    .poll(() => admin.locator('table').evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth))
    .toBeLessThanOrEqual(0);

  await Promise.all([adminCtx.close(), brandCtx.close(), pendingCtx.close()]);
});
