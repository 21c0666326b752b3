import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, adminPage, api, brandAs, buy } from './support';

// SHOTS_DIR=/tmp/… saves the merge dialog and the sign-in notice at 1280 and 390 px
const SHOTS_DIR = process.env.SHOTS_DIR;
async function shots(page: Page, name: string) {
  if (!SHOTS_DIR) return;
  mkdirSync(SHOTS_DIR, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.screenshot({ path: `${SHOTS_DIR}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** An approved brand signed in on `page`, who bought a fresh opportunity: the payment's brief URL. */
async function brandWithPurchase(page: Page, browser: import('@playwright/test').Browser) {
  const { admin, close } = await adminPage(browser);
  const res = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Daily Ledger',
    title: `No lost work ${Date.now()}`,
    description: 'A feature story about your company.',
    type: ['profile_article'],
    priceUsd: '900.00',
    maxSlots: 1,
  });
  expect(res.status(), await res.text()).toBe(201);
  const opportunityId = ((await res.json()) as { id: string }).id;
  await close();
  await page.goto('/auth');
  const { email } = await brandAs(page, 'approved');
  const paymentId = await buy(page, opportunityId);
  return { email, paymentId, url: `/brand/brief/${paymentId}` };
}

const nameField = (page: Page) => page.getByLabel('Name (person or brand) to feature');
const titleField = (page: Page) => page.getByLabel('Preferred title');
const backgroundField = (page: Page) => page.getByLabel('Background and experience');

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test('[BRAND] the session ends mid-brief: sign-in with a notice, back on the brief, the text typed meanwhile kept and saved', async ({
  page,
  browser,
}) => {
  const { email, paymentId, url } = await brandWithPurchase(page, browser);
  await page.goto(url);
  await nameField(page).fill('Riley Jordan');
  await titleField(page).focus();
  await expect(page.getByText('Draft saved')).toBeVisible();
  await expect(page.getByText('Jordan Goods')).toBeVisible(); // the sidebar's user

  // the session ends on the server (signed out elsewhere) while the page is open
  expect((await api(page, 'POST', '/api/logout')).status()).toBe(200);
  await backgroundField(page).fill('Typed after the session ended.');
  await titleField(page).focus();

  // the save's 401 sends the user to sign in, saying why; nothing of the user stays on screen
  await expect(page).toHaveURL(`/auth?next=${encodeURIComponent(url)}&session=ended`);
  await expect(page.getByTestId('session-ended')).toHaveText(
    'Your session has ended. Sign in again to continue where you left off.',
  );
  await expect(page.getByText('Jordan Goods')).toHaveCount(0);
  await expect(page.getByText('Draft not saved')).toHaveCount(0);
  await shots(page, 'sign-in-notice');

  await signIn(page, email);
  await expect(page).toHaveURL(url);
  await expect(page.getByTestId('restored-note')).toHaveText('Restored the text you had not saved yet.');
  await expect(nameField(page)).toHaveValue('Riley Jordan');
  await expect(backgroundField(page)).toHaveValue('Typed after the session ended.');
  await expect(page.getByText('Draft saved')).toBeVisible();

  // saved on the server; the browser's copy is dropped once saved
  const brief = await (await api(page, 'GET', `/api/brand/brief/${paymentId}`)).json();
  expect(brief.part1Json).toEqual({
    personOrBrandName: 'Riley Jordan',
    backgroundExperience: 'Typed after the session ended.',
  });
  await expect
    .poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('byline:brief-unsaved:'))))
    .toEqual([]);
});

test('[BRAND] two pages edit one brief: the later save is offered the newer copy merged field by field, nothing is lost', async ({
  page,
  browser,
}) => {
  const { paymentId, url } = await brandWithPurchase(page, browser);
  // tab 2 is opened first, on the empty brief
  const tab2 = await page.context().newPage();
  await tab2.goto(url);
  await expect(nameField(tab2)).toHaveValue('');
  await page.goto(url);

  // tab 1 saves the name
  await nameField(page).fill('Name from tab one');
  await titleField(page).focus();
  await expect(page.getByText('Draft saved')).toBeVisible();

  // tab 2 edits the background: its save is refused, and the merge is offered
  await backgroundField(tab2).fill('Background from tab two');
  await titleField(tab2).focus();
  const dialog = tab2.getByTestId('merge-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'This brief was changed in another window' })).toBeVisible();
  await expect(dialog).toContainText('Taken from the newer copy: Name (person or brand) to feature');
  await expect(dialog).toContainText('Kept from your text: Background and experience');
  await expect(tab2.getByText('Draft saved')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Use the combined brief' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(nameField(tab2)).toHaveValue('Name from tab one');
  await expect(backgroundField(tab2)).toHaveValue('Background from tab two');
  await expect(tab2.getByText('Draft saved')).toBeVisible();
  const merged = await (await api(page, 'GET', `/api/brand/brief/${paymentId}`)).json();
  expect(merged.part1Json).toEqual({
    personOrBrandName: 'Name from tab one',
    backgroundExperience: 'Background from tab two',
  });

  // both change the title: the later one chooses, with both texts shown
  await titleField(tab2).fill('Title from tab two');
  await nameField(tab2).focus();
  await expect(tab2.getByText('Draft saved')).toBeVisible();
  await titleField(page).fill('Title from tab one');
  await nameField(page).focus();
  const choose = page.getByTestId('merge-dialog');
  await expect(choose).toBeVisible();
  await expect(choose).toContainText('Taken from the newer copy: Background and experience');
  const field = choose.getByTestId('merge-preferredTitle');
  await expect(field).toContainText('Preferred title: changed in both, choose one');
  await expect(field).toContainText('Title from tab one');
  await expect(field).toContainText('Title from tab two');
  await expect(choose.getByRole('button', { name: 'Choose a version for each field' })).toBeDisabled();
  await shots(page, 'merge-dialog');
  await field.getByLabel('Your text in this window').check();
  await choose.getByRole('button', { name: 'Use the combined brief' }).click();
  await expect(page.getByText('Draft saved')).toBeVisible();
  await expect(backgroundField(page)).toHaveValue('Background from tab two');

  const final = await (await api(page, 'GET', `/api/brand/brief/${paymentId}`)).json();
  expect(final.part1Json).toEqual({
    personOrBrandName: 'Name from tab one',
    preferredTitle: 'Title from tab one',
    backgroundExperience: 'Background from tab two',
  });
  await tab2.close();
});

test('[GUARD] a deep link survives signing in; a next that leaves the site is ignored', async ({ page }) => {
  await page.goto('/auth');
  const { email } = await brandAs(page, 'approved');
  expect((await api(page, 'POST', '/api/logout')).status()).toBe(200);

  await page.goto('/brand/my-articles');
  await expect(page).toHaveURL('/auth?next=%2Fbrand%2Fmy-articles');
  await expect(page.getByTestId('session-ended')).toHaveCount(0);
  await signIn(page, email);
  await expect(page).toHaveURL('/brand/my-articles');
  await expect(page.getByRole('heading', { name: 'My Articles' })).toBeVisible();

  expect((await api(page, 'POST', '/api/logout')).status()).toBe(200);
  for (const next of ['//evil.example/x', '/\\evil.example', 'https://evil.example/']) {
    await page.goto(`/auth?next=${encodeURIComponent(next)}`);
    await signIn(page, email);
    await expect(page).toHaveURL('/brand/opportunities');
    expect((await api(page, 'POST', '/api/logout')).status()).toBe(200);
  }
});

test('[SHELL] an error toast stays on the page it was raised on', async ({ page }) => {
  await page.goto('/auth');
  await signIn(page, 'nobody@example.com', 'wrong-password-1');
  const toast = page.getByTestId('toast');
  await expect(toast).toContainText('Login failed');
  // the user reads it, then moves on (a toast raised with a navigation, e.g. "Sold out", goes along)
  await page.waitForTimeout(800);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL('/forgot-password');
  // well before the toast's own 5 seconds are up
  await expect(toast).toHaveCount(0, { timeout: 1500 });
});
