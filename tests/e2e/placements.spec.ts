import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_ADMIN, api, brandAs, expectNoHorizontalOverflow, loginAs } from './support';

/**
 * Admin Placements (issue 17): the published placements, each with its live article, its health and
 * its last check; the admin rechecks an article now, moves a placement to a new URL (a reason
 * accepts problems), and refunds one. The outlet is a real HTTP server on loopback
 * (LINK_CHECK_ALLOW in playwright.config.ts); the brand's site is its profile's website.
 */

const BRAND_SITE = 'https://jordan.example.com'; // what brandAs puts in the profile
const article = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>
  <p>${'A long story about a shop that repairs what others throw away, and the people behind it. '.repeat(12)}</p>${body}</article></body></html>`;

/** The outlet's pages by path: a test adds its own and removes them when the outlet "takes one down". */
const pages = new Map<string, string>();
let outlet: http.Server;
let base = '';

test.beforeAll(async () => {
  outlet = http.createServer((req, res) => {
    const body = pages.get(req.url ?? '');
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(body ?? 'Not found');
  });
  await new Promise<void>((resolve) => outlet.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(outlet.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  outlet.closeAllConnections();
  await new Promise<void>((resolve) => outlet.close(() => resolve()));
});

const unique = () => `${Date.now()}-x${Math.random().toString(36).slice(2, 8)}`;

/** Publishes a page on the outlet and returns its URL. */
function serve(path: string, title: string, linksToBrand: boolean) {
  pages.set(
    path,
    article(title, linksToBrand ? `<p>Visit <a href="${BRAND_SITE}/">Jordan Goods</a>.</p>` : '<p>No link here.</p>'),
  );
  return base + path;
}

async function signedInAdmin(browser: Browser) {
  const ctx = await browser.newContext();
  const admin = await ctx.newPage();
  await admin.goto('/auth');
  await loginAs(admin, DEMO_ADMIN);
  return { admin, close: () => ctx.close() };
}

/**
 * A published placement: the admin creates a one-slot opportunity, a fresh approved brand (website
 * jordan.example.com) pays for it and submits its brief, the admin attaches a draft, the brand
 * approves it, and the admin releases it with the live article's URL (checked by the server).
 */
async function publishedPlacement(admin: Page, brand: Page, title: string, liveUrl: string) {
  const opp = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Repair Gazette',
    title,
    description: 'A feature story about your company.',
    type: ['profile_article'],
    priceUsd: '900.00',
    maxSlots: 1,
  });
  expect(opp.status(), await opp.text()).toBe(201);
  const { id: opportunityId } = (await opp.json()) as { id: string };

  await brand.goto('/auth');
  await brandAs(brand, 'approved');
  const checkout = await api(brand, 'POST', '/api/payments/checkout', { opportunityId });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { url } = (await checkout.json()) as { url: string };
  const pay = await api(brand, 'POST', `/api/payments/checkout/${url.split('/').pop()}/pay`);
  expect(pay.status(), await pay.text()).toBe(200);
  const { paymentId } = (await pay.json()) as { paymentId: string };

  const brief = await api(brand, 'POST', `/api/brand/brief/${paymentId}/submit`, {
    part1Json: { personOrBrandName: 'Riley Jordan', backgroundExperience: 'Repairs since 2001' },
    part2Json: { mainGoal: 'Awareness', targetAudience: 'Makers', mainMessage: 'Repair, do not replace' },
  });
  expect(brief.status(), await brief.text()).toBe(200);
  const attach = await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, {
    draftDocumentUrl: 'https://docs.google.com/document/d/placements',
  });
  expect(attach.status(), await attach.text()).toBe(200);
  const approve = await api(brand, 'POST', `/api/brand/projects/${paymentId}/approve`);
  expect(approve.status(), await approve.text()).toBe(200);

  const release = await api(admin, 'POST', `/api/admin/payments/${paymentId}/release`, { liveUrl });
  expect(release.status(), await release.text()).toBe(200);
  return paymentId;
}

const toast = (page: Page) => page.getByTestId('toast');
const rowOf = (page: Page, title: string) =>
  page.getByRole('tabpanel').getByTestId('placement-row').filter({ hasText: title });

test('[ADMIN] Placements: the live article and its check, a recheck after the page went, a new URL accepted with a reason, a refund', async ({
  page,
  browser,
}) => {
  const id = unique();
  const title = `Repair shop story ${id}`;
  const storyPath = `/story-${id}`;
  const { admin, close } = await signedInAdmin(browser);
  const paymentId = await publishedPlacement(admin, page, title, serve(storyPath, title, true));

  // the sidebar's Placements entry (after Payments) opens the page
  await admin.goto('/admin');
  const nav = admin.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: /Placements/ }).click();
  await expect(admin).toHaveURL(/\/admin\/placements$/);
  await expect(admin.getByRole('heading', { name: 'Placements', exact: true })).toBeVisible();
  await expect(admin.getByText('Live articles and their guarantee')).toBeVisible();
  await expect(nav.getByRole('link', { name: /Placements/ })).toHaveAttribute('aria-current', 'page');
  await expect(admin.getByRole('tab', { name: /All/ })).toHaveAttribute('data-state', 'active');

  // the row: what, where, for whom, how much, the live link, "Live" and what the check found
  const row = rowOf(admin, title);
  await expect(row.getByTestId('publication-health')).toHaveText('Live');
  await expect(row).toContainText('The Repair Gazette');
  await expect(row).toContainText('Jordan Goods');
  await expect(row).toContainText('$900.00');
  await expect(row).toContainText(/Published\s*[A-Z][a-z]{2} \d{1,2}, \d{4}/);
  await expect(row).toContainText(/Guaranteed until\s*[A-Z][a-z]{2} \d{1,2}, \d{4}/);
  await expect(row).toContainText('Next check');
  const link = row.getByRole('link', { name: `${base}${storyPath}` });
  await expect(link).toHaveAttribute('href', `${base}${storyPath}`);
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  const lastCheck = row.getByTestId('check-result');
  await expect(lastCheck).toContainText('Reachable (HTTP 200)');
  await expect(lastCheck).toContainText('Indexable');
  await expect(lastCheck).toContainText('Link to jordan.example.com: dofollow');

  // the outlet takes the page down: Recheck now reports it; one failure is not a case yet
  pages.delete(storyPath);
  await row.getByRole('button', { name: 'Recheck now' }).click();
  await expect(toast(admin)).toContainText('The check found problems');
  await expect(toast(admin)).toContainText('The page answered 404 Not Found.');
  await expect(row.getByTestId('check-result')).toContainText('The page answered 404 Not Found.');
  await expect(row.getByTestId('publication-health')).toHaveText('Live');
  await expect(row.getByTestId('placement-case')).toHaveCount(0);
  await expect(row.getByTestId('placement-last-check')).toContainText('Not confirmed yet');

  // Change URL: the preview shows the new page's problem; Save is refused with the check; a reason saves it
  const movedPath = `/moved-${id}`;
  const moved = serve(movedPath, title, false);
  await row.getByRole('button', { name: 'Change URL' }).click();
  const dialog = admin.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Change live URL' })).toBeVisible();
  const url = dialog.getByLabel('Live article URL');
  await expect(url).toHaveValue(`${base}${storyPath}`);
  await url.fill('not a url at all');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('Enter the address of the live article (https://…)');
  await url.fill(moved);
  await dialog.getByRole('button', { name: 'Check article' }).click();
  await expect(dialog.getByTestId('check-result')).toContainText('Reachable (HTTP 200)');
  await expect(dialog.getByTestId('check-result')).toContainText('The page has no link to jordan.example.com.');
  await expect(dialog.getByLabel('Reason')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('The page has problems');
  await expect(dialog.getByTestId('check-result')).toContainText('The page has no link to jordan.example.com.');
  const reason = dialog.getByLabel('Reason');
  await expect(reason).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await reason.fill('The outlet adds the link on Monday; agreed by email.');
  await dialog.getByRole('button', { name: 'Save anyway' }).click();
  await expect(toast(admin)).toContainText('Live URL updated');
  await expect(dialog).toHaveCount(0);
  await expect(row.getByRole('link', { name: moved })).toHaveAttribute('href', moved);
  await expect(row.getByTestId('publication-health')).toHaveText('Live with warnings');
  await expect(row).toContainText('The outlet adds the link on Monday; agreed by email.');
  await expect(row.getByTestId('check-result')).toContainText('The page has no link to jordan.example.com.');

  // Refund: confirmed, the row reads Refunded without actions, and the Refunded filter counts it
  await row.getByRole('button', { name: 'Refund' }).click();
  await expect(admin.getByRole('dialog')).toContainText('cannot be undone');
  await admin.getByRole('dialog').getByRole('button', { name: 'Refund payment' }).click();
  await expect(toast(admin)).toContainText('has been refunded');
  await expect(row.getByTestId('publication-health')).toHaveText('Refunded');
  for (const name of ['Recheck now', 'Change URL', 'Refund'])
    await expect(row.getByRole('button', { name, exact: true })).toHaveCount(0);
  const counts = (await (await api(admin, 'GET', '/api/admin/placements/counts')).json()) as { refunded: number };
  expect(counts.refunded).toBeGreaterThan(0);
  const refundedTab = admin.getByRole('tab', { name: /Refunded/ });
  await expect(refundedTab.getByTestId('tab-count')).toHaveText(String(counts.refunded));
  await refundedTab.click();
  await expect(refundedTab).toHaveAttribute('data-state', 'active');
  await expect(rowOf(admin, title).getByTestId('publication-health')).toHaveText('Refunded');
  await admin.getByRole('tab', { name: /Healthy/ }).click();
  await expect(rowOf(admin, title)).toHaveCount(0);

  const payments = (await (await api(admin, 'GET', '/api/admin/payments')).json()) as { id: string; status: string }[];
  expect(payments.find((p) => p.id === paymentId)?.status).toBe('refunded');
  await close();
});

test('[ADMIN] Placements at phone width: a long live URL wraps and nothing scrolls sideways, the Change URL dialog included', async ({
  page,
  browser,
}) => {
  const id = unique();
  const title = `A very long headline about repairing everything that breaks in a household, told by ${id}`;
  const longPath = `/2026/11/${'an-extremely-long-article-slug-that-never-seems-to-end-'.repeat(4)}${id}?utm_source=newsletter&utm_medium=email`;
  const { admin, close } = await signedInAdmin(browser);
  const liveUrl = serve(longPath, title, true);
  await publishedPlacement(admin, page, title, liveUrl);

  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.goto('/admin/placements');
  const row = rowOf(admin, title);
  await expect(row.getByTestId('publication-health')).toHaveText('Live');
  await expect(row.getByRole('link', { name: liveUrl })).toBeVisible();
  await expectNoHorizontalOverflow(admin);
  // the row itself stays within the screen
  await expect
    .poll(async () => {
      const box = (await row.boundingBox())!;
      return box.x + box.width;
    })
    .toBeLessThanOrEqual(390);

  // the sidebar sheet has the Placements entry too
  await admin.getByTestId('sidebar-trigger').click();
  await expect(admin.getByTestId('sidebar-mobile').getByRole('link', { name: /Placements/ })).toBeVisible();
  await admin.keyboard.press('Escape');
  await expect(admin.getByTestId('sidebar-mobile')).toHaveCount(0);

  await row.getByRole('button', { name: 'Change URL' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Check article' }).click();
  await expect(dialog.getByTestId('check-result')).toContainText('Reachable (HTTP 200)');
  await expectNoHorizontalOverflow(admin);
  await expect
    .poll(async () => {
      const box = (await dialog.boundingBox())!;
      return box.x + box.width;
    })
    .toBeLessThanOrEqual(390);
  await close();
});
