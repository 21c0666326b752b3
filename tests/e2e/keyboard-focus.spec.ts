import { mkdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { adminPage, api, brandAs, buy } from './support';

/**
 * Issue 43, for keyboard users: a dialog gives the focus back to what opened it (the claim
 * dialog to its card, Request Edits, Mark Published, a confirmation), "Skip to content" is the first
 * stop on every page, the test-mode banner takes no focus, and the page behind an open user menu
 * cannot be reached. SHOTS_DIR=/tmp/… saves screenshots of what changed.
 */

const SHOTS_DIR = process.env.SHOTS_DIR;
async function shot(page: Page, name: string) {
  if (!SHOTS_DIR) return;
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: `${SHOTS_DIR}/${name}.png` });
}

const unique = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

/** What has the focus, as a user would name it (for messages), and whether it is `el`. */
const focusIs = (el: Locator) => el.evaluate((node) => node === document.activeElement);
const focusedTag = (page: Page) => page.evaluate(() => document.activeElement?.tagName.toLowerCase() ?? null);

/** Closes the open dialog both ways a keyboard user does, and expects the focus back on `opener` each time. */
async function expectFocusBack(page: Page, opener: Locator, open: () => Promise<void>, cancel = 'Cancel') {
  const dialog = page.getByRole('dialog');
  await open();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
  expect(await focusedTag(page)).not.toBe('body');

  await open();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: cancel, exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
}

async function createOpportunity(admin: Page, title: string) {
  const res = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Keyboard Courier',
    title,
    description: 'A profile of your founder.',
    type: ['profile_article'],
    priceUsd: '700.00',
    maxSlots: 5,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test('[BRAND] the claim dialog gives the focus back to its card after Escape and Cancel, by mouse and by keyboard', async ({ page, browser }) => {
  // several pages and dialogs: minutes, not seconds, on a 2-core machine busy with the suite
  test.setTimeout(150_000);
  const title = `Focus claim ${unique()}`;
  const { admin, close } = await adminPage(browser);
  await createOpportunity(admin, title);
  await close();
  await page.goto('/auth');
  await brandAs(page, 'approved');
  await page.goto('/brand/opportunities');
  const card = page.getByTestId('opportunity-card').filter({ hasText: title });
  const opener = card.getByRole('button', { name: `The Keyboard Courier: ${title}`, exact: true });
  await expect(opener).toBeVisible();

  // by mouse: a click on the card
  await expectFocusBack(page, opener, () => card.click({ position: { x: 40, y: 120 } }));
  // by keyboard: Enter on the card's button
  await expectFocusBack(page, opener, async () => {
    await opener.focus();
    await page.keyboard.press('Enter');
  });
  // from the second step too
  await opener.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog').getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('dialog').getByRole('heading', { name: 'What Happens Next' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(opener).toBeFocused();
  // and the next Tab goes on from the card, not from the top of the page
  await page.keyboard.press('Tab');
  expect(await card.evaluate((el) => el.contains(document.activeElement))).toBe(true);
});

test('[BRAND] Request Edits and Approve Draft give the focus back to their buttons', async ({ page, browser }) => {
  // several pages and dialogs: minutes, not seconds, on a 2-core machine busy with the suite
  test.setTimeout(150_000);
  const title = `Focus review ${unique()}`;
  const { admin, close } = await adminPage(browser);
  const opportunityId = await createOpportunity(admin, title);
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await buy(page, opportunityId);
  const brief = await api(page, 'POST', `/api/brand/brief/${paymentId}/submit`, {
    part1Json: { personOrBrandName: 'Riley Jordan', backgroundExperience: 'Ten years of retail' },
    part2Json: { mainGoal: 'Awareness', targetAudience: 'Shops', mainMessage: 'Goods that last' },
  });
  expect(brief.status(), await brief.text()).toBe(200);
  const attach = await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, { draftDocumentUrl: 'https://docs.example.com/d/focus' });
  expect(attach.status(), await attach.text()).toBe(200);
  await close();

  await page.goto('/brand/my-articles');
  const card = page.getByTestId('article-card').filter({ hasText: title });
  const requestEdits = card.getByRole('button', { name: 'Request Edits' });
  await expectFocusBack(page, requestEdits, () => requestEdits.click());
  const approve = card.getByRole('button', { name: 'Approve Draft' });
  await expectFocusBack(page, approve, () => approve.click());
});

test('[ADMIN] Mark Published and Deactivate give the focus back to their buttons', async ({ browser }) => {
  // several pages and dialogs: minutes, not seconds, on a 2-core machine busy with the suite
  test.setTimeout(150_000);
  const title = `Focus admin ${unique()}`;
  const { admin, close } = await adminPage(browser);
  const opportunityId = await createOpportunity(admin, title);
  const brandCtx = await browser.newContext();
  const brand = await brandCtx.newPage();
  await brand.goto('/auth');
  await brandAs(brand, 'approved');
  await buy(brand, opportunityId);
  await brandCtx.close();

  await admin.goto('/admin');
  const markPublished = admin.getByRole('button', { name: `Mark Published ${title}` });
  await expectFocusBack(admin, markPublished, () => markPublished.click());
  // with the keyboard, after a payment was chosen (the dialog's content changed under the focus)
  await markPublished.focus();
  await admin.keyboard.press('Enter');
  await admin.getByRole('dialog').getByRole('radio').first().click();
  await admin.keyboard.press('Escape');
  await expect(admin.getByRole('dialog')).toHaveCount(0);
  await expect(markPublished).toBeFocused();

  const code = `FOCUS-${unique().toUpperCase()}`;
  expect((await api(admin, 'POST', '/api/admin/invite-codes', { code })).status()).toBe(201);
  await admin.goto('/admin/invite-codes');
  const deactivate = admin.getByTestId('invite-code').filter({ hasText: code }).getByRole('button', { name: 'Deactivate' });
  await expectFocusBack(admin, deactivate, () => deactivate.click());
  await close();
});

test('[BRAND][ADMIN] "Skip to content" is the first stop on every page and takes the focus into main; the test-mode banner takes none', async ({
  page,
  browser,
}) => {
  // several pages and dialogs: minutes, not seconds, on a 2-core machine busy with the suite
  test.setTimeout(150_000);
  const skip = page.getByRole('link', { name: 'Skip to content' });
  const banner = page.locator('.test-mode-banner');

  async function firstTabSkips(path: string, name: string) {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
    await expect(page.getByRole('status', { name: 'Loading' })).toHaveCount(0);
    // hidden until focused
    expect((await skip.boundingBox())!.width).toBeLessThanOrEqual(1);
    await page.keyboard.press('Tab');
    await expect(skip).toBeFocused();
    // shown while focused, on screen
    await expect(skip).toBeInViewport({ ratio: 1 });
    expect((await skip.boundingBox())!.width).toBeGreaterThan(50);
    await shot(page, `skip-link-${name}-${page.viewportSize()!.width}`);
    await page.keyboard.press('Enter');
    expect(await focusedTag(page)).toBe('main');
    // the next stop is the page's first control, inside main
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);
  }

  // the banner: text only, never focused
  await page.goto('/auth');
  await expect(banner).toHaveText('Test mode: payments are simulated');
  await expect(banner).not.toHaveAttribute('tabindex');
  expect(await banner.locator('a, button, input, select, textarea, [tabindex]').count()).toBe(0);
  await banner.click();
  expect(await focusIs(banner)).toBe(false);

  await firstTabSkips('/auth', 'auth');
  await page.goto('/terms');
  await brandAs(page, 'approved');
  await firstTabSkips('/brand/opportunities', 'browse');
  await page.setViewportSize({ width: 390, height: 844 });
  await firstTabSkips('/brand/my-articles', 'my-articles');

  const { admin, close } = await adminPage(browser);
  await admin.goto('/admin');
  await expect(admin.locator('main')).toBeVisible();
  await admin.keyboard.press('Tab');
  await expect(admin.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await admin.keyboard.press('Enter');
  expect(await focusedTag(admin)).toBe('main');
  await close();
});

test('[ADMIN] the page behind the open user menu cannot take the focus; it can again once the menu closes', async ({ browser }) => {
  const { admin, close } = await adminPage(browser);
  await admin.goto('/admin');
  const menuButton = admin.getByTestId('user-menu');
  await menuButton.click();
  const menu = admin.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(admin.getByRole('menuitem', { name: 'Invite Codes' })).toBeVisible();

  // what lies behind: a link of the sidebar and one of the page. Hidden from assistive tech while
  // the menu is open, and inert with it: the browser focuses none of it, whoever asks (axe's
  // aria-hidden-focus; Radix's focus trap alone catches only the focus that already moved)
  const nav = admin.locator('aside a[href="/admin/projects"]');
  const newOpportunity = admin.locator('main a[href="/admin/new-opportunity"]');
  const hiddenAndInert = (el: Locator) =>
    el.evaluate((node) => Boolean(node.closest('[aria-hidden="true"]')) && Boolean(node.closest('[inert]')));
  for (const el of [nav, newOpportunity]) {
    expect(await hiddenAndInert(el), 'an element behind the open menu can still take the focus').toBe(true);
    await el.evaluate((node: HTMLElement) => node.focus());
    expect(await focusIs(el), 'an element behind the open menu took the focus').toBe(false);
  }
  // Tab stays in the menu
  await admin.keyboard.press('Tab');
  expect(await admin.evaluate(() => Boolean(document.activeElement?.closest('[role="menu"]')) || document.activeElement === document.body)).toBe(true);
  await shot(admin, 'user-menu-open-1280');

  await admin.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(menuButton).toBeFocused();
  expect(await hiddenAndInert(nav)).toBe(false);
  await nav.evaluate((node: HTMLElement) => node.focus());
  expect(await focusIs(nav)).toBe(true);
  await close();
});

test('[BRAND] at 390 px the navigation sheet gives the focus back to the menu button', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/terms');
  await brandAs(page, 'approved');
  await page.goto('/brand/payments');
  const trigger = page.getByTestId('sidebar-trigger');
  const sheet = page.getByTestId('sidebar-mobile');
  await trigger.click();
  await expect(sheet).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  await expect(trigger).toBeFocused();
});
