/**
 * Issue 43, the rest of what a new brand met: a max price below the min price said on the field
 * (and not applied), the restore dialog naming the real cause of the unsaved text, "Not you? Log
 * out" on the profile completion, a failed sign-in's toast gone once the user turns to sign-up, and
 * opportunity cards whose badges and facts are not cut mid-word.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { PASSWORD, adminPage, api, brandAs, buy, loginAs } from './support';

// SHOTS_DIR=/tmp/… saves each changed screen at 1280 and 390 px
async function shots(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const { width, height } = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const w of [1280, 390]) {
    await page.setViewportSize({ width: w, height: w === 390 ? 844 : 800 });
    await page.screenshot({ path: `${dir}/${name}-${w}.png`, fullPage: true });
  }
  await page.setViewportSize({ width, height });
}

// a first visit loads the shell's chunks and several lists: on a busy 2-core machine that takes longer than the default
const LOADED = { timeout: 30_000 };
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const token = () => `zq${randomBytes(4).toString('hex')}`;

/** The admin's outlets for one test, closed (deadline yesterday) at its end so other journeys' lists stay as they were. */
async function catalogue(browser: Browser) {
  const { admin, close } = await adminPage(browser);
  const made: { id: string; body: Record<string, unknown> }[] = [];
  return {
    async create(o: Record<string, unknown>) {
      const body = {
        description: 'A placement for the walk.',
        type: ['editorial_feature'],
        priceUsd: '1000.00',
        maxSlots: 1,
        ...o,
      };
      const res = await api(admin, 'POST', '/api/admin/opportunities', body);
      expect(res.status(), await res.text()).toBe(201);
      const { id } = (await res.json()) as { id: string };
      made.push({ id, body });
      return id;
    },
    async closeAll() {
      for (const { id, body } of made) {
        const res = await api(admin, 'PATCH', `/api/admin/opportunities/${id}`, { ...body, deadlineDate: day(-1) });
        expect(res.status(), await res.text()).toBe(200);
      }
      await close();
    },
  };
}

test('[BRAND] a max price below the min price is said on the field and not applied, whichever was typed first', async ({
  page,
  browser,
}) => {
  const t = token();
  const cat = await catalogue(browser);
  await cat.create({ outletName: `Kilo ${t}`, title: 'Kilo story', priceUsd: '400.00' });
  await cat.create({ outletName: `Oscar ${t}`, title: 'Oscar story', priceUsd: '900.00' });
  await page.goto('/auth');
  await brandAs(page, 'approved');
  await page.goto(`/brand/opportunities?q=${t}`);
  const count = page.getByTestId('result-count');
  await expect(count).toHaveText('2 opportunities', LOADED);
  await page.getByRole('button', { name: /^Filters/ }).click();
  const panel = page.getByTestId('filter-panel');
  const min = panel.getByLabel('Min price (USD)');
  const max = panel.getByLabel('Max price (USD)');

  // the min first, then a max below it: refused on the max field, in words; the URL keeps the min only
  await min.fill('500');
  await min.press('Enter');
  await expect(page).toHaveURL(new RegExp(`\\?q=${t}&priceMin=500$`));
  await expect(count).toHaveText('1 opportunity');
  await max.fill('100');
  await max.press('Enter');
  await expect(panel.getByText('Max price must be at least the min price')).toBeVisible();
  await expect(max).toHaveAttribute('aria-invalid', 'true');
  await expect(max).toHaveAccessibleDescription('Max price must be at least the min price');
  await expect(max).toHaveValue('100');
  await expect(page).toHaveURL(new RegExp(`\\?q=${t}&priceMin=500$`));
  await expect(count).toHaveText('1 opportunity');
  await shots(page, 'browse-max-below-min');
  // a max at or above the min is taken, and the message goes
  await max.fill('500');
  await max.press('Enter');
  await expect(page).toHaveURL(new RegExp(`\\?q=${t}&priceMin=500&priceMax=500$`));
  await expect(panel.getByText('Max price must be at least the min price')).toHaveCount(0);
  await expect(count).toHaveText('0 opportunities');

  // the max first, then a min above it: the min is refused, and the max is not dropped silently
  await min.fill('');
  await min.press('Enter');
  await max.fill('900');
  await max.press('Enter');
  await expect(page).toHaveURL(new RegExp(`\\?q=${t}&priceMax=900$`));
  await expect(count).toHaveText('2 opportunities');
  await min.fill('1000');
  await min.press('Enter');
  await expect(panel.getByText('Min price must not be above the max price')).toBeVisible();
  await expect(min).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(new RegExp(`\\?q=${t}&priceMax=900$`));
  await expect(max).toHaveValue('900');
  await expect(count).toHaveText('2 opportunities');
  await cat.closeAll();
});

const nameField = (page: Page) => page.getByLabel('Name (person or brand) to feature');
const backgroundField = (page: Page) => page.getByLabel('Background and experience');
const titleField = (page: Page) => page.getByLabel('Preferred title');

/** A fresh approved brand on `page` who bought a fresh opportunity: its payment and the brief's URL. */
async function brandWithPurchase(page: Page, browser: Browser) {
  const cat = await catalogue(browser);
  const opportunityId = await cat.create({
    outletName: 'The Daily Ledger',
    title: `Restore ${token()}`,
    type: ['profile_article'],
  });
  await page.goto('/auth');
  const { email } = await brandAs(page, 'approved');
  const paymentId = await buy(page, opportunityId);
  return { email, paymentId, url: `/brand/brief/${paymentId}`, cat };
}

test('[BRAND] the restore dialog names the real cause: another tab’s unsaved text, or a session that ended', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { email, paymentId, url, cat } = await brandWithPurchase(page, browser);

  // tab A types a name and leaves it unsaved (no blur: no save is due yet)
  await page.goto(url);
  await expect(nameField(page)).toBeEditable(LOADED);
  await nameField(page).fill('Name typed in tab A');
  // meanwhile the saved brief's name changes elsewhere
  expect(
    (
      await api(page, 'POST', `/api/brand/brief/${paymentId}`, {
        part1Json: { personOrBrandName: 'Name saved elsewhere' },
      })
    ).status(),
  ).toBe(200);
  // tab B opens the brief: it finds tab A's text, says where it comes from, and lets the user choose
  const tabB = await page.context().newPage();
  await tabB.goto(url);
  const dialog = tabB.getByTestId('merge-dialog');
  await expect(dialog.getByRole('heading', { name: 'Restore the text you had not saved' })).toBeVisible(LOADED);
  await expect(dialog).toContainText('Another tab of this browser has text for this brief that was not saved yet.');
  await expect(dialog).not.toContainText('signed out');
  await shots(tabB, 'restore-other-tab');
  await dialog.getByTestId('merge-personOrBrandName').getByLabel('The saved brief').check();
  await dialog.getByRole('button', { name: 'Use the combined brief' }).click();
  await expect(nameField(tabB)).toHaveValue('Name saved elsewhere');
  await expect(tabB.getByText('Draft saved')).toBeVisible();
  await tabB.close();

  // the session ends while this tab types: after signing in again, the dialog says so
  await page.goto(url);
  await expect(nameField(page)).toHaveValue('Name saved elsewhere', LOADED);
  expect((await api(page, 'POST', '/api/logout')).status()).toBe(200);
  await backgroundField(page).fill('Typed after the session ended.');
  await titleField(page).focus();
  await expect(page).toHaveURL(`/auth?next=${encodeURIComponent(url)}&session=ended`, LOADED);
  // meanwhile another signed-in browser saves a different background
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto('/auth');
  await loginAs(otherPage, { email, password: PASSWORD });
  expect(
    (
      await api(otherPage, 'POST', `/api/brand/brief/${paymentId}`, {
        part1Json: { personOrBrandName: 'Name saved elsewhere', backgroundExperience: 'Saved in the other browser.' },
      })
    ).status(),
  ).toBe(200);
  await other.close();
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(url, LOADED);
  const restored = page.getByTestId('merge-dialog');
  await expect(restored).toContainText('This browser kept what you typed before you were signed out.', LOADED);
  await restored.getByTestId('merge-backgroundExperience').getByLabel('Your unsaved text').check();
  await restored.getByRole('button', { name: 'Use the combined brief' }).click();
  await expect(backgroundField(page)).toHaveValue('Typed after the session ended.');
  await expect(page.getByText('Draft saved')).toBeVisible();
  await cat.closeAll();
});

test('[BRAND] "Almost there" offers "Not you? Log out": it signs out and goes to /auth', async ({ page }) => {
  await page.goto('/auth');
  const { email } = await brandAs(page, 'unnamed');
  await page.goto('/complete-profile');
  await expect(page.getByRole('heading', { name: 'Almost there' })).toBeVisible(LOADED);
  const notYou = page.getByTestId('not-you');
  await expect(notYou).toContainText(`Signed in as ${email}`);
  await expect(notYou).toContainText('Not you? Log out');
  await shots(page, 'complete-profile');
  await notYou.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL('/auth');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  expect((await api(page, 'GET', '/api/user')).status()).toBe(401);
  // the profile page no longer opens
  await page.goto('/complete-profile');
  await expect(page).toHaveURL('/auth');
});

test('[VISITOR] a failed sign-in’s toast goes when the user turns to the sign-up tab', async ({ page }) => {
  await page.goto('/auth');
  const toast = page.getByTestId('toast');
  const failSignIn = async () => {
    await page.locator('#login-email').fill('nobody@example.com');
    await page.locator('#login-password').fill('wrong-password-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(toast).toContainText('Login failed');
  };
  // by the tab
  await failSignIn();
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
  // well before the toast's own 5 seconds are up
  await expect(toast).toHaveCount(0, { timeout: 1500 });
  // and by the form's "Sign up" link
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await failSignIn();
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
  await expect(toast).toHaveCount(0, { timeout: 1500 });
});

test('[BRAND] an opportunity card shows its type badge and facts whole, at 1280 and 390 px', async ({
  page,
  browser,
}) => {
  const t = token();
  const cat = await catalogue(browser);
  await cat.create({
    outletName: `Quebec ${t}`,
    title: 'Quebec advertorial',
    type: ['advertorial_brand_voice'],
    country: 'GB',
    language: 'en',
    linkType: 'sponsored',
  });
  await page.goto('/auth');
  await brandAs(page, 'approved');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.goto(`/brand/opportunities?q=${t}`);
    const card = page.getByTestId('opportunity-card').filter({ hasText: `Quebec ${t}` });
    await expect(card.getByText('Advertorial (Brand Voice)', { exact: true })).toBeVisible(LOADED);
    await expect(card.getByText('United Kingdom · English · Sponsored link', { exact: true })).toBeVisible();
    // nothing in the badge or the facts is wider than its box (cut off with "…")
    for (const text of ['Advertorial (Brand Voice)', 'United Kingdom · English · Sponsored link']) {
      const cut = await card
        .getByText(text, { exact: true })
        .evaluate((el) =>
          [el, ...el.querySelectorAll('*')].some(
            (e) => e.scrollWidth > e.clientWidth + 1 || getComputedStyle(e).textOverflow === 'ellipsis',
          ),
        );
      expect(cut, `${text} at ${width} px`).toBe(false);
    }
  }
  await shots(page, 'browse-card');
  await cat.closeAll();
});
