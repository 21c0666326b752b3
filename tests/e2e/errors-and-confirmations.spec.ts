import { expect, test, type Page } from '@playwright/test';
import { adminPage, api, brandAs, buy } from './support';

/** A fresh single-slot opportunity created by the admin. */
async function createOpportunity(admin: Page, title: string, price = '640.00') {
  const res = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Daily Ledger',
    title,
    description: 'A feature story about your company.',
    type: ['profile_article'],
    priceUsd: price,
    maxSlots: 1,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** The brand's purchase as the API has it now. */
async function myArticle(page: Page, paymentId: string) {
  const res = await api(page, 'GET', `/api/brand/my-articles?paymentId=${paymentId}&limit=1`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { payment: { status: string; draftReviewStatus: string } }[])[0].payment;
}

async function paymentStatus(admin: Page, email: string, title: string) {
  const res = await api(admin, 'GET', `/api/admin/payments?q=${encodeURIComponent(email)}`);
  const rows = (await res.json()) as { status: string; opportunity: { title: string } }[];
  return rows.find((r) => r.opportunity.title === title)?.status;
}

async function codeActive(admin: Page, id: string) {
  const rows = (await (await api(admin, 'GET', '/api/admin/invite-codes?limit=100')).json()) as {
    id: string;
    active: boolean;
  }[];
  return rows.find((c) => c.id === id)?.active;
}

test('[ADMIN] a list that fails says so with "Try again", not "No payments yet"; trying again loads it', async ({
  browser,
}) => {
  const { admin, close } = await adminPage(browser);
  const title = `Failing list ${Date.now()}`;
  const brandCtx = await browser.newContext();
  const brand = await brandCtx.newPage();
  await brand.goto('/auth');
  await brandAs(brand, 'approved');
  await buy(brand, await createOpportunity(admin, title));

  // the first request of the payments list fails with a 500, the next ones reach the server
  let failed = 0;
  await admin.route(/\/api\/admin\/payments(\?|$)/, async (route) => {
    if (failed++ === 0)
      return route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Something went wrong on our side. Please try again.' }),
      });
    return route.fallback();
  });
  await admin.goto('/admin/payments');
  const error = admin.getByTestId('query-error');
  await expect(error).toContainText("Couldn't load the payments");
  await expect(error).toContainText('Something went wrong on our side. Please try again.');
  await expect(admin.getByText('No payments yet')).toHaveCount(0);
  await error.getByRole('button', { name: 'Try again' }).click();
  await expect(admin.getByTestId('admin-payment-row').filter({ hasText: title })).toContainText('Paid - Held');
  await expect(admin.getByTestId('query-error')).toHaveCount(0);
  expect(failed).toBe(2);
  await brandCtx.close();
  await close();
});

test('[BRAND] offline, a list says "You\'re offline…" instead of "Failed to fetch" or an empty tab; back online it loads', async ({
  page,
  context,
}) => {
  await page.goto('/auth');
  await brandAs(page, 'approved');
  await page.goto('/brand/my-articles');
  await expect(page.getByText('Nothing pending')).toBeVisible();

  await context.setOffline(true);
  // the Completed tab asks the server for its list only when opened
  await page.getByRole('tab', { name: 'Completed' }).click();
  const error = page.getByTestId('query-error');
  await expect(error).toContainText("Couldn't load your articles");
  await expect(error).toContainText("You're offline. Check your connection and try again.");
  await expect(page.getByText('Failed to fetch')).toHaveCount(0);
  await expect(page.getByText('Nothing completed yet')).toHaveCount(0);

  await context.setOffline(false);
  await error.getByRole('button', { name: 'Try again' }).click();
  // a brand with no purchases: the real empty state, with the text it always had
  await expect(page.getByText('Nothing completed yet')).toBeVisible();
  await expect(page.getByTestId('query-error')).toHaveCount(0);

  // a page whose code has not been loaded yet: said, not a blank screen
  await context.setOffline(true);
  await page.getByRole('link', { name: 'Payments', exact: true }).click();
  await expect(page.getByRole('heading', { name: "Couldn't open this page" })).toBeVisible();
  await expect(page.getByTestId('query-error')).toContainText("You're offline. Check your connection and try again.");
  await context.setOffline(false);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'Payment History' })).toBeVisible();
});

test('[BRAND][ADMIN] approving a draft and releasing the payment each ask first: cancel and Escape change nothing', async ({
  page,
  browser,
}) => {
  const { admin, close } = await adminPage(browser);
  const title = `Confirm journey ${Date.now()}`;
  const opportunityId = await createOpportunity(admin, title);
  await page.goto('/auth');
  const { email } = await brandAs(page, 'approved');
  const paymentId = await buy(page, opportunityId);
  const brief = await api(page, 'POST', `/api/brand/brief/${paymentId}/submit`, {
    part1Json: {
      personOrBrandName: 'Riley Jordan',
      preferredTitle: 'Founder & CEO',
      backgroundExperience: 'Twelve years building retail brands.',
      careerHighlights: 'Opened 40 stores',
    },
    part2Json: {
      mainGoal: 'Reach independent retailers',
      targetAudience: 'Store owners',
      mainMessage: 'Good goods last',
      seoKeywords: 'retail',
    },
  });
  expect(brief.status(), await brief.text()).toBe(200);
  const attach = await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, {
    draftDocumentUrl: 'https://docs.google.com/document/d/confirm',
  });
  expect(attach.status(), await attach.text()).toBe(200);

  await page.goto('/brand/my-articles');
  const card = page.getByTestId('article-card').filter({ hasText: title });
  const dialog = page.getByTestId('confirm-dialog');
  const before = (await myArticle(page, paymentId)).draftReviewStatus;
  expect(before).not.toBe('approved');

  // Cancel
  await card.getByRole('button', { name: 'Approve Draft' }).click();
  await expect(dialog.getByRole('heading', { name: 'Approve this draft?' })).toBeVisible();
  await expect(dialog).toContainText(`"${title}" goes to publication as it is`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await myArticle(page, paymentId)).draftReviewStatus).toBe(before);
  // Escape
  await card.getByRole('button', { name: 'Approve Draft' }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect((await myArticle(page, paymentId)).draftReviewStatus).toBe(before);
  await expect(card.getByRole('button', { name: 'Approve Draft' })).toBeEnabled();
  // confirm: the dialog's button repeats the action
  await card.getByRole('button', { name: 'Approve Draft' }).click();
  await dialog.getByRole('button', { name: 'Approve Draft' }).click();
  await expect(page.getByTestId('toast')).toContainText('Draft approved');
  await expect(dialog).toHaveCount(0);
  expect((await myArticle(page, paymentId)).draftReviewStatus).toBe('approved');

  // the release: Publish Content's dialog is the confirmation
  await admin.goto(`/admin/projects?q=${encodeURIComponent(email)}`);
  await admin.getByRole('tab', { name: /Approved/ }).click();
  const project = admin.getByTestId('project-card').filter({ hasText: title });
  const publish = admin.getByRole('dialog');
  await project.getByRole('button', { name: 'Publish Content' }).click();
  await expect(publish.getByRole('heading', { name: 'Publish and release the payment?' })).toBeVisible();
  await publish.getByRole('button', { name: 'Cancel' }).click();
  await expect(publish).toHaveCount(0);
  expect(await paymentStatus(admin, email, title)).toBe('paid');
  await project.getByRole('button', { name: 'Publish Content' }).click();
  await admin.keyboard.press('Escape');
  await expect(publish).toHaveCount(0);
  expect(await paymentStatus(admin, email, title)).toBe('paid');
  await project.getByRole('button', { name: 'Publish Content' }).click();
  await publish.getByRole('button', { name: 'Publish and release' }).click();
  await expect(admin.getByTestId('toast')).toContainText('released');
  expect(await paymentStatus(admin, email, title)).toBe('released');
  expect((await myArticle(page, paymentId)).status).toBe('released');
  await close();
});

test('[ADMIN] refunding asks first: cancel and Escape leave the payment held, confirming refunds it', async ({
  browser,
}) => {
  const { admin, close } = await adminPage(browser);
  const title = `Refund confirm ${Date.now()}`;
  const brandCtx = await browser.newContext();
  const brand = await brandCtx.newPage();
  await brand.goto('/auth');
  const { email } = await brandAs(brand, 'approved');
  await buy(brand, await createOpportunity(admin, title));

  await admin.goto(`/admin/payments?q=${encodeURIComponent(email)}`);
  const row = admin.getByTestId('admin-payment-row').filter({ hasText: title });
  const dialog = admin.getByRole('dialog');
  await row.getByRole('button', { name: 'Refund' }).click();
  await expect(dialog.getByRole('heading', { name: 'Refund this payment?' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await row.getByRole('button', { name: 'Refund' }).click();
  await admin.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(await paymentStatus(admin, email, title)).toBe('paid');
  await expect(row).toContainText('Paid - Held');

  await row.getByRole('button', { name: 'Refund' }).click();
  await dialog.getByRole('button', { name: 'Refund payment' }).click();
  await expect(admin.getByTestId('toast')).toContainText('has been refunded');
  await expect(row).toContainText('Refunded');
  expect(await paymentStatus(admin, email, title)).toBe('refunded');
  await brandCtx.close();
  await close();
});

test('[ADMIN] deactivating a code asks first; a deactivated code can be reactivated', async ({ browser }) => {
  const { admin, close } = await adminPage(browser);
  const code = `CONFIRM-${Date.now().toString(36).toUpperCase()}`;
  const made = await api(admin, 'POST', '/api/admin/invite-codes', { code });
  expect(made.status()).toBe(201);
  const { id } = (await made.json()) as { id: string };

  await admin.goto('/admin/invite-codes');
  const card = admin.getByTestId('invite-code').filter({ hasText: code });
  const dialog = admin.getByTestId('confirm-dialog');
  await card.getByRole('button', { name: 'Deactivate' }).click();
  await expect(dialog.getByRole('heading', { name: `Deactivate ${code}?` })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await card.getByRole('button', { name: 'Deactivate' }).click();
  await admin.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(await codeActive(admin, id)).toBe(true);
  await expect(card).toContainText('Active');

  await card.getByRole('button', { name: 'Deactivate' }).click();
  await dialog.getByRole('button', { name: 'Deactivate' }).click();
  await expect(admin.getByTestId('toast')).toContainText('The invite code has been deactivated successfully.');
  await expect(card).toContainText('Deactivated');
  expect(await codeActive(admin, id)).toBe(false);

  await card.getByRole('button', { name: 'Reactivate' }).click();
  await expect(admin.getByTestId('toast').filter({ hasText: 'Invite code reactivated' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Deactivate' })).toBeVisible();
  await expect(card).not.toContainText('Deactivated');
  expect(await codeActive(admin, id)).toBe(true);
  await close();
});

test('[VISITOR] the terms page is public, and sign-up links to it', async ({ page }) => {
  await page.goto('/auth');
  await page.getByRole('tab', { name: /sign up/i }).click();
  const link = page.getByRole('link', { name: /Terms of Service/ });
  await expect(link).toHaveAttribute('href', '/terms');
  await expect(link).toHaveAttribute('target', '_blank');
  const [terms] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await expect(terms).toHaveURL(/\/terms$/);
  await expect(terms.getByRole('main')).toHaveCount(1);
  await expect(terms.getByRole('heading', { level: 1 })).toHaveText('Terms of Service');
  await expect(terms.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(terms.getByRole('heading', { name: '6. The 90-day guarantee' })).toBeVisible();
  await expect(terms.getByRole('main')).toContainText('held in escrow');
  // the sign-up form kept its place
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
});
