import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { adminPage, api, brandAs, buy, expectNoHorizontalOverflow } from './support';

/**
 * Proof of publication (issue 17) in the browser: the admin gives the live article's URL when
 * releasing, sees Byline's check of the page before any money moves, must give a reason to release
 * despite problems or an unapproved draft, and the brand sees the live link, what was verified and
 * until when it is guaranteed. The outlet is a real HTTP server on loopback (LINK_CHECK_ALLOW).
 */

const BRAND_SITE = 'https://jordan.example.com';
const article = (body: string) =>
  `<!doctype html><html><head><title>Jordan Goods opens its repair shop</title></head><body><article><h1>Jordan Goods opens its repair shop</h1>
  <p>${'A long story about repairs, goods and the people who make them last. '.repeat(15)}</p>${body}</article></body></html>`;

let outlet: http.Server;
let base = '';
const pages: Record<string, string> = {
  '/story': article(`<p>Visit <a href="${BRAND_SITE}/">Jordan Goods</a>.</p>`),
  '/no-link': article('<p>No link in this one.</p>'),
  '/second': article(`<p>See <a href="https://www.jordan.example.com/shop">the shop</a>.</p>`),
};

test.beforeAll(async () => {
  outlet = http.createServer((req, res) => {
    const body = pages[req.url ?? ''];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(body ?? 'Not found');
  });
  await new Promise<void>((resolve) => outlet.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(outlet.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  outlet.closeAllConnections();
  await new Promise<void>((resolve) => outlet.close(() => resolve()));
});

async function createOpportunity(admin: Page, title: string, maxSlots = 1) {
  const res = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Repair Gazette',
    title,
    description: 'A feature story about your company.',
    type: ['profile_article'],
    priceUsd: '900.00',
    maxSlots,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** Brief submitted, draft attached and, when asked, approved by the brand. */
async function prepare(brand: Page, admin: Page, paymentId: string, approve: boolean) {
  const submit = await api(brand, 'POST', `/api/brand/brief/${paymentId}/submit`, {
    part1Json: { personOrBrandName: 'Riley Jordan', backgroundExperience: 'Repairs since 2001' },
    part2Json: { mainGoal: 'Awareness', targetAudience: 'Makers', mainMessage: 'Repair, do not replace' },
  });
  expect(submit.status(), await submit.text()).toBe(200);
  const attach = await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, { draftDocumentUrl: 'https://docs.google.com/document/d/pub' });
  expect(attach.status(), await attach.text()).toBe(200);
  if (approve) expect((await api(brand, 'POST', `/api/brand/projects/${paymentId}/approve`)).status()).toBe(200);
}

async function openMarkPublished(admin: Page, title: string) {
  await admin.goto('/admin');
  await admin.getByRole('button', { name: `Mark Published ${title}` }).click();
  const dialog = admin.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Mark as Published' })).toBeVisible();
  return dialog;
}

test('[ADMIN][BRAND] Mark Published with the live link: checked first, problems need a reason, the brand sees the proof', async ({ page, browser }) => {
  const title = `Repair shop story ${Date.now()}`;
  const { admin, close } = await adminPage(browser);
  const opportunityId = await createOpportunity(admin, title);
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await buy(page, opportunityId);
  await prepare(page, admin, paymentId, true);

  const dialog = await openMarkPublished(admin, title);
  const choice = dialog.getByRole('radio');
  await expect(choice.getByTestId('content-state')).toHaveText('Brand approved');
  await choice.click();

  // a page without the brand's link: the check says so and at once asks for a reason to release anyway
  const url = dialog.getByLabel('Live article URL');
  await url.fill(`${base}/no-link`);
  await dialog.getByRole('button', { name: 'Check article' }).click();
  const result = dialog.getByTestId('check-result');
  await expect(result).toContainText('Reachable (HTTP 200)');
  await expect(result).toContainText('Indexable');
  await expect(result).toContainText('The page has no link to jordan.example.com.');
  await expect(dialog.getByRole('alert')).toContainText('The live article has problems: The page has no link to jordan.example.com.');
  await expect(dialog.getByRole('button', { name: 'Release Payment' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Release anyway' })).toBeDisabled();
  const held = await (await api(admin, 'GET', `/api/admin/payments?opportunityId=${opportunityId}`)).json();
  expect(held[0].status).toBe('paid');

  // the right page passes: released with its link
  await url.fill(`${base}/story`);
  await expect(dialog.getByTestId('check-result')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Check article' }).click();
  await expect(dialog.getByTestId('check-result')).toContainText('dofollow');
  await dialog.getByRole('button', { name: 'Release Payment' }).click();
  await expect(admin.getByTestId('toast')).toContainText('The payment has been marked as released');
  await close();

  // the brand: Completed, with the live link, what was verified and the guarantee
  await page.goto('/brand/my-articles');
  await page.getByRole('tab', { name: 'Completed' }).click();
  const card = page.getByTestId('article-card').filter({ hasText: title });
  const proof = card.getByTestId('publication-panel');
  await expect(proof.getByTestId('publication-health')).toHaveText('Live');
  await expect(proof).toContainText(/Verified [A-Z][a-z]{2} \d{1,2}, \d{4}/);
  const link = proof.getByRole('link', { name: 'View live article' });
  await expect(link).toHaveAttribute('href', `${base}/story`);
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  await expect(proof).toContainText('Reachable (HTTP 200)');
  await expect(proof).toContainText('Link to jordan.example.com: dofollow');
  const until = new Date(Date.now() + 90 * 86_400_000).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
  await expect(proof).toContainText(`Guaranteed until ${until}`);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(proof).toBeVisible();
  await expectNoHorizontalOverflow(page);
});

test('[ADMIN] releasing a draft the brand has not approved, with a link, asks for a reason and keeps it', async ({ page, browser }) => {
  const title = `Unapproved story ${Date.now()}`;
  const { admin, close } = await adminPage(browser);
  const opportunityId = await createOpportunity(admin, title);
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await buy(page, opportunityId);
  await prepare(page, admin, paymentId, false);

  const dialog = await openMarkPublished(admin, title);
  await expect(dialog.getByTestId('content-state')).toHaveText('Awaiting brand review');
  await dialog.getByRole('radio').click();
  // asked at once, link or not: no release of an unapproved draft without a reason
  await expect(dialog.getByRole('alert')).toContainText('The brand has not approved the draft yet. Give a reason to publish anyway.');
  await expect(dialog.getByRole('button', { name: 'Release Payment' })).toHaveCount(0);
  const anyway = dialog.getByRole('button', { name: 'Release anyway' });
  await expect(anyway).toBeDisabled();
  await dialog.getByLabel('Live article URL').fill(`${base}/second`);
  await expect(dialog.getByRole('alert')).toContainText('has not approved');
  await dialog.getByLabel('Reason to release anyway').fill('The brand approved it by phone');
  await dialog.getByRole('button', { name: 'Release anyway' }).click();
  await expect(admin.getByTestId('toast')).toContainText('The payment has been marked as released');

  const [payment] = await (await api(admin, 'GET', `/api/admin/payments?opportunityId=${opportunityId}`)).json();
  expect(payment.status).toBe('released');
  const placements = await (await api(admin, 'GET', '/api/admin/placements?limit=200')).json();
  const placement = placements.find((p: { paymentId: string }) => p.paymentId === paymentId);
  expect(placement.publication).toMatchObject({ url: `${base}/second`, overrideReason: 'The brand approved it by phone', health: 'ok' });
  await close();
});

test('[ADMIN] Publish Content after a failed check: the primary button turns "Publish anyway" and takes a reason, which is kept', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const title = `Publish anyway ${Date.now()}`;
  const { admin, close } = await adminPage(browser);
  const opportunityId = await createOpportunity(admin, title);
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await buy(page, opportunityId);
  await prepare(page, admin, paymentId, true);

  await admin.goto('/admin/projects');
  await admin.getByRole('tab', { name: /Approved/ }).click();
  await admin.getByTestId('project-card').filter({ hasText: title }).getByRole('button', { name: 'Publish Content' }).click();
  const dialog = admin.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Publish and release' })).toBeEnabled();
  await dialog.getByLabel('Live article URL').fill(`${base}/no-link`);
  await dialog.getByRole('button', { name: 'Check article' }).click();
  await expect(dialog.getByTestId('check-result')).toContainText('The page has no link to jordan.example.com.');
  // the check failed: no "Publish and release" to press by habit; "Publish anyway" waits for the reason
  await expect(dialog.getByRole('button', { name: 'Publish and release' })).toHaveCount(0);
  const anyway = dialog.getByRole('button', { name: 'Publish anyway' });
  await expect(anyway).toBeDisabled();
  await expect(dialog.getByRole('alert')).toHaveText('The live article has problems: The page has no link to jordan.example.com.');
  const reason = dialog.getByLabel('Reason to release anyway');
  await expect(reason).toBeVisible();
  for (const width of [1280, 390]) {
    await admin.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await expect(anyway).toBeVisible();
    if (process.env.SHOTS_DIR) await admin.screenshot({ path: `${process.env.SHOTS_DIR}/publish-anyway-${width}.png` });
  }
  await reason.fill('The outlet adds the link tonight');
  await anyway.click();
  await expect(admin.getByTestId('toast')).toContainText('Project status has been updated successfully');
  const placements = await (await api(admin, 'GET', '/api/admin/placements?limit=200')).json();
  expect(placements.find((p: { paymentId: string }) => p.paymentId === paymentId).publication).toMatchObject({
    url: `${base}/no-link`,
    overrideReason: 'The outlet adds the link tonight',
  });
  await close();
});

test('[ADMIN] Publish Content on Admin Projects takes the live link too', async ({ page, browser }) => {
  const title = `Projects publish ${Date.now()}`;
  const { admin, close } = await adminPage(browser);
  const opportunityId = await createOpportunity(admin, title);
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await buy(page, opportunityId);
  await prepare(page, admin, paymentId, true);

  await admin.goto('/admin/projects');
  await admin.getByRole('tab', { name: /Approved/ }).click();
  const project = admin.locator('[data-testid="project-card"]').filter({ hasText: title });
  await project.getByRole('button', { name: 'Publish Content' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByLabel('Live article URL').fill(`${base}/gone`);
  await dialog.getByRole('button', { name: 'Publish and release' }).click();
  await expect(dialog.getByRole('alert')).toContainText('404');
  await dialog.getByLabel('Live article URL').fill(`${base}/story`);
  await dialog.getByRole('button', { name: 'Publish and release' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Project status has been updated successfully');
  const placements = await (await api(admin, 'GET', '/api/admin/placements?limit=200')).json();
  expect(placements.find((p: { paymentId: string }) => p.paymentId === paymentId).publication).toMatchObject({ url: `${base}/story`, health: 'ok' });
  await close();
});
