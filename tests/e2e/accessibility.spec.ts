/**
 * Issue 20: axe-core on every screen and dialog at 1280 px (0 critical, 0 serious; heading order
 * kept), one `main` landmark and one `h1` on every page, and the 390 px checks of the browse tabs,
 * the claim dialog's Pay button and the Projects tabs.
 *
 * The screens are the client router's routes, read from src/client/app/router.tsx: the last test
 * fails when a route was never checked here, so a new screen without the check fails the suite.
 * The tests run in order in one worker (they share the list of checked routes and the data made
 * once in beforeAll); each role signs in once. SHOTS_DIR=/tmp/… saves a screenshot of each check.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { DEMO_ADMIN, api, brandAs, buy, loginAs } from './support';

test.describe.configure({ mode: 'serial' });

// ---- the routes of the client router -------------------------------------------------------
const ROUTER = readFileSync(new URL('../../src/client/app/router.tsx', import.meta.url), 'utf8');
const NOT_FOUND = '(no route: 404)';
const ROUTES = [
  ...[...ROUTER.matchAll(/<Route\s+path="([^"]+)"/g)].map((m) => m[1]),
  // the catch-all <Route component={…} /> without a path
  ...(/<Route\s+component=/.test(ROUTER) ? [NOT_FOUND] : []),
];
const routePattern = (route: string) => new RegExp(`^${route.replace(/:[A-Za-z]+/g, '[^/]+')}/?$`);

/** The router's route a path lands on (first match, like wouter's Switch). */
function routeOf(pathname: string) {
  return ROUTES.find((r) => r !== NOT_FOUND && routePattern(r).test(pathname)) ?? NOT_FOUND;
}

const checked = new Set<string>();

// ---- the check ---------------------------------------------------------------------------------
/** Rules that must pass whatever axe calls their impact (the issue's "moderate" ones we fixed). */
const ALWAYS = new Set(['heading-order', 'landmark-one-main', 'page-has-heading-one', 'landmark-no-duplicate-main']);
const SHOTS_DIR = process.env.SHOTS_DIR;

async function settled(page: Page) {
  // dialogs and toasts fade in: a contrast read mid-animation is not what a user sees
  // (a spinner turns for ever: only animations that end are waited for)
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
}

/**
 * axe on the page as it is now (a dialog open, when one is), then the page's landmarks: one
 * `main`, one `h1`. `ready` is what shows that the screen has loaded.
 */
async function check(page: Page, name: string, ready: Locator) {
  await expect(ready).toBeVisible();
  await expect(page.getByRole('status', { name: 'Loading' })).toHaveCount(0);
  await settled(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const failing = violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious' || ALWAYS.has(v.id))
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')} ${n.failureSummary ?? ''}`).join('\n')}`);
  // soft: one run lists every screen's problems
  expect.soft(failing, `${name}: axe violations`).toEqual([]);
  expect.soft(await page.locator('main, [role="main"]').count(), `${name}: one main landmark`).toBe(1);
  expect.soft(await page.locator('h1').count(), `${name}: one h1`).toBe(1);
  checked.add(routeOf(new URL(page.url()).pathname));
  if (SHOTS_DIR) {
    mkdirSync(SHOTS_DIR, { recursive: true });
    await page.screenshot({ path: `${SHOTS_DIR}/${name.replace(/[^a-z0-9]+/gi, '-')}.png` });
  }
}

// ---- the data: made once, through the API ----------------------------------------------------
interface Data {
  brand: string; // storage state of the signed-in approved brand
  admin: string;
  brandEmail: string;
  opportunityId: string;
  title: string;
  review: string; // a draft waiting for the brand's review
  briefOnly: string; // a submitted brief, no draft yet
  approved: string; // an approved draft, not published
  fresh: string; // nothing done since the purchase
  checkoutUrl: string; // an open checkout of the built-in provider
  code: string;
}
let data: Data;

const BRIEF = {
  part1Json: { personOrBrandName: 'Riley Jordan', backgroundExperience: 'Twelve years building retail brands.' },
  part2Json: { mainGoal: 'Reach retailers', targetAudience: 'Store owners', mainMessage: 'Good goods last' },
};

async function signedIn(browser: Browser, state: string): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ storageState: JSON.parse(state) });
  return { ctx, page: await ctx.newPage() };
}

test.beforeAll(async ({ browser }) => {
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await admin.goto('/terms');
  await loginAs(admin, DEMO_ADMIN);
  const title = `Accessible story ${Date.now()}`;
  const made = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Plain Reader',
    title,
    description: 'A profile of your founder.',
    type: ['listicle'],
    priceUsd: '1250.50',
    maxSlots: 10,
  });
  expect(made.status(), await made.text()).toBe(201);
  const opportunityId = ((await made.json()) as { id: string }).id;
  const code = `A11Y-${Date.now().toString(36).toUpperCase()}`;
  expect((await api(admin, 'POST', '/api/admin/invite-codes', { code })).status()).toBe(201);

  const brandCtx = await browser.newContext();
  const brand = await brandCtx.newPage();
  await brand.goto('/terms');
  const { email } = await brandAs(brand, 'approved');
  const [review, briefOnly, approved, fresh] = [
    await buy(brand, opportunityId),
    await buy(brand, opportunityId),
    await buy(brand, opportunityId),
    await buy(brand, opportunityId),
  ];
  for (const id of [review, briefOnly, approved]) {
    expect((await api(brand, 'POST', `/api/brand/brief/${id}/submit`, BRIEF)).status()).toBe(200);
  }
  for (const id of [review, approved]) {
    const attach = await api(admin, 'PATCH', `/api/admin/payments/${id}/status`, { draftDocumentUrl: 'https://docs.example.com/d/a11y' });
    expect(attach.status(), await attach.text()).toBe(200);
  }
  expect((await api(brand, 'POST', `/api/brand/projects/${approved}/approve`)).status()).toBe(200);
  // one more, published: the admins' Placements list and the brand's Completed tab have a row
  const published = await buy(brand, opportunityId);
  expect((await api(brand, 'POST', `/api/brand/brief/${published}/submit`, BRIEF)).status()).toBe(200);
  expect((await api(admin, 'PATCH', `/api/admin/payments/${published}/status`, { draftDocumentUrl: 'https://docs.example.com/d/p' })).status()).toBe(200);
  expect((await api(brand, 'POST', `/api/brand/projects/${published}/approve`)).status()).toBe(200);
  const release = await api(admin, 'PATCH', `/api/admin/payments/${published}/status`, { status: 'released' });
  expect(release.status(), await release.text()).toBe(200);
  const checkout = await api(brand, 'POST', '/api/payments/checkout', { opportunityId });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { url } = (await checkout.json()) as { url: string };

  data = {
    brand: JSON.stringify(await brandCtx.storageState()),
    admin: JSON.stringify(await adminCtx.storageState()),
    brandEmail: email,
    opportunityId,
    title,
    review,
    briefOnly,
    approved,
    fresh,
    checkoutUrl: new URL(url, 'http://x').pathname,
    code,
  };
  await brandCtx.close();
  await adminCtx.close();
});

const dialog = (page: Page) => page.getByRole('dialog');
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, level: 1 });

// ---- the screens -------------------------------------------------------------------------------
test('[VISITOR] sign-in, sign-up, password recovery, terms and 404 pass axe', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth$/);
  checked.add('/');
  await check(page, 'auth-sign-in', page.getByRole('tab', { name: 'Sign In', selected: true }));
  // a failed sign-in: the red toast's text must be readable too
  await page.locator('#login-email').fill('nobody@example.com');
  await page.locator('#login-password').fill('wrong-password-1');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await check(page, 'auth-error-toast', page.getByTestId('toast').filter({ hasText: 'Login failed' }));
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await check(page, 'auth-sign-up', page.getByRole('tab', { name: 'Sign Up', selected: true }));
  await page.goto('/auth?session=ended&next=%2Fbrand%2Fmy-articles');
  await check(page, 'auth-session-ended', page.getByTestId('session-ended'));

  await page.goto('/forgot-password');
  await check(page, 'forgot-password', heading(page, 'Forgot your password?'));
  await page.goto('/reset-password');
  await check(page, 'reset-password-no-token', heading(page, 'Choose a new password'));
  await page.goto('/reset-password?token=abc');
  await check(page, 'reset-password', page.getByRole('button', { name: /reset|password/i }).first());
  await page.goto('/terms');
  await check(page, 'terms', heading(page, 'Terms of Service'));
  await page.goto('/no-such-page');
  await check(page, 'not-found', heading(page, '404 Page Not Found'));
});

test('[BRAND] onboarding: complete the profile, then pending approval, pass axe', async ({ page }) => {
  await page.goto('/terms');
  await brandAs(page, 'unnamed');
  await page.goto('/complete-profile');
  await check(page, 'complete-profile', page.getByLabel('Full name'));
  const res = await api(page, 'PATCH', '/api/user/profile', { name: 'Quinn Pending', brandName: 'Pending Goods', website: 'pending.example.com' });
  expect(res.status(), await res.text()).toBe(200);
  await page.goto('/pending-approval');
  await check(page, 'pending-approval', heading(page, /Thank you for signing up/));
});

test('[BRAND] browse, claim, My Articles, details, brief, payments, profile and checkout pass axe', async ({ browser }) => {
  // some twenty screens, each read by axe for about a second, and a machine busy with the rest of
  // the suite can take several times as long
  test.setTimeout(240_000);
  const { ctx, page } = await signedIn(browser, data.brand);

  await page.goto('/brand');
  await expect(page).toHaveURL(/\/brand\/opportunities$/);
  checked.add('/brand');
  const card = page.getByTestId('opportunity-card').filter({ hasText: data.title });
  await check(page, 'browse', card);
  await page.getByRole('button', { name: /^Filters/ }).click();
  await check(page, 'browse-filters', page.getByLabel(/Minimum price|Min/i).first());
  await page.getByRole('button', { name: /^Filters/ }).click();
  await card.getByRole('button', { name: new RegExp(data.title) }).click();
  await check(page, 'claim-review', dialog(page).getByRole('heading', { name: 'Review Opportunity' }));
  await dialog(page).getByRole('button', { name: 'Next' }).click();
  await dialog(page).getByRole('checkbox').check();
  await check(page, 'claim-next', dialog(page).getByRole('heading', { name: 'What Happens Next' }));
  await page.keyboard.press('Escape');

  await page.goto('/brand/my-articles');
  const article = page.getByTestId('article-card').filter({ has: page.getByRole('button', { name: 'Request Edits' }) });
  await check(page, 'my-articles', article);
  await article.getByRole('button', { name: 'Request Edits' }).click();
  await check(page, 'request-edits', dialog(page).getByRole('heading', { name: 'Submit Edit Request' }));
  await page.keyboard.press('Escape');
  await article.getByRole('button', { name: 'Approve Draft' }).click();
  await check(page, 'approve-draft', dialog(page).getByRole('heading', { name: 'Approve this draft?' }));
  await page.keyboard.press('Escape');
  for (const tab of ['Pending', 'Completed']) {
    await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
    await check(page, `my-articles-${tab}`, page.getByRole('tabpanel').getByTestId('article-card').first());
  }

  await page.goto(`/brand/my-articles/${data.review}`);
  await check(page, 'placement-details', page.getByRole('heading', { level: 1 }));

  await page.goto(`/brand/brief/${data.fresh}`);
  const name = page.getByLabel('Name (person or brand) to feature');
  await check(page, 'brief', name);
  // the same field changed in another window: the merge dialog
  await name.fill('From this window');
  await page.getByLabel('Preferred title').focus();
  await expect(page.getByText('Draft saved')).toBeVisible();
  expect((await api(page, 'POST', `/api/brand/brief/${data.fresh}`, { part1Json: { personOrBrandName: 'From another window' } })).status()).toBe(200);
  await name.fill('From this window, again');
  await page.getByLabel('Preferred title').focus();
  await check(page, 'brief-merge', page.getByTestId('merge-dialog'));

  await page.goto(`/brand/brief?opportunityId=${data.opportunityId}`);
  await check(page, 'older-brief', heading(page, 'Submit Your Brief'));
  await page.goto('/brand/payments');
  await check(page, 'payment-history', page.getByTestId('payment-row').first());
  await page.goto('/brand/profile');
  await check(page, 'profile', page.getByRole('heading', { level: 1 }));
  await page.goto(data.checkoutUrl);
  await check(page, 'checkout', page.getByTestId('checkout-amount'));
  await ctx.close();
});

test('[ADMIN] dashboard, opportunity form, projects, details, attention, payments, placements, approvals and codes pass axe', async ({
  browser,
}) => {
  // some twenty screens, each read by axe for about a second, and a machine busy with the rest of
  // the suite can take several times as long
  test.setTimeout(240_000);
  const { ctx, page } = await signedIn(browser, data.admin);
  const q = `?q=${encodeURIComponent(data.brandEmail)}`;

  await page.goto('/admin');
  await check(page, 'dashboard', page.getByRole('button', { name: `Mark Published ${data.title}` }));
  await page.getByRole('button', { name: `Mark Published ${data.title}` }).click();
  await check(page, 'mark-published', dialog(page).getByRole('radio').first());
  await page.keyboard.press('Escape');
  await page.goto('/admin/new-opportunity');
  await check(page, 'new-opportunity', heading(page, 'New Opportunity'));
  await page.goto(`/admin/edit-opportunity/${data.opportunityId}`);
  await check(page, 'edit-opportunity', page.getByLabel('Title').first());
  // changed elsewhere while the form is open, in a field this form changed too: the stale-copy dialog
  const opened = (await (await api(page, 'GET', `/api/admin/opportunities/${data.opportunityId}`)).json()) as Record<string, unknown>;
  const { id: _id, filledSlots: _f, status: _s, createdAt: _c, version: _v, ...fields } = opened;
  expect((await api(page, 'PATCH', `/api/admin/opportunities/${data.opportunityId}`, { ...fields, tat: '3 weeks' })).status()).toBe(200);
  await page.getByLabel('Turnaround Time').fill('10 days');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await check(page, 'stale-copy', page.getByTestId('stale-copy-dialog').getByRole('heading'));
  await page.getByRole('button', { name: 'Load the newer copy' }).click();

  await page.goto(`/admin/projects${q}`);
  const project = page.getByRole('tabpanel').getByTestId('project-card');
  await check(page, 'projects', project.first());
  await project.filter({ has: page.getByRole('button', { name: 'Attach Draft' }) }).first().getByRole('button', { name: 'Attach Draft' }).click();
  await check(page, 'attach-draft', dialog(page).getByRole('heading', { name: 'Attach Draft Document' }));
  await page.keyboard.press('Escape');
  await page.getByRole('tab', { name: /^Approved/ }).click();
  await project.getByRole('button', { name: 'Publish Content' }).first().click();
  await check(page, 'publish-content', dialog(page).getByRole('heading', { name: 'Publish and release the payment?' }));
  await page.keyboard.press('Escape');
  await page.goto(`/admin/projects/${data.review}`);
  await check(page, 'project-details', page.getByRole('heading', { level: 1 }));

  await page.goto('/admin/attention');
  await check(page, 'attention', heading(page, 'Needs attention'));
  await page.goto(`/admin/payments${q}`);
  const row = page.getByTestId('admin-payment-row').filter({ has: page.getByRole('button', { name: 'Refund' }) }).first();
  await check(page, 'admin-payments', row);
  await row.getByRole('button', { name: 'Refund' }).click();
  await check(page, 'refund', dialog(page).getByRole('heading', { name: 'Refund this payment?' }));
  await page.keyboard.press('Escape');
  await page.goto(`/admin/placements${q}`);
  const placement = page.getByTestId('placement-row').first();
  await check(page, 'placements', placement);
  await placement.getByRole('button', { name: 'Add URL' }).click();
  await check(page, 'add-live-url', dialog(page).getByRole('heading', { name: 'Add live URL' }));
  await page.keyboard.press('Escape');
  await page.goto('/admin/approvals');
  await check(page, 'approvals', heading(page, /Approvals|Brand Approvals/));
  await page.goto('/admin/invite-codes');
  const code = page.getByTestId('invite-code').filter({ hasText: data.code });
  await check(page, 'invite-codes', code);
  await code.getByRole('button', { name: 'Deactivate' }).click();
  await check(page, 'deactivate-code', page.getByTestId('confirm-dialog'));
  await page.keyboard.press('Escape');
  await ctx.close();
});

test('[BRAND][ADMIN] at 390 px: every browse tab in view, the Pay button above the fold, the Projects tabs on one line', async ({
  browser,
}) => {
  const phone = { width: 390, height: 844 };
  const brand = await signedIn(browser, data.brand);
  const page = brand.page;
  await page.setViewportSize(phone);
  await page.goto('/brand/opportunities');
  const list = page.getByRole('tablist');
  await expect(page.getByRole('tab')).toHaveCount(5);
  // nothing clipped: the list is as wide as its tabs, and each tab lies inside the list and the screen
  expect(await list.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  const listBox = (await list.boundingBox())!;
  for (const tab of await page.getByRole('tab').all()) {
    const box = (await tab.boundingBox())!;
    expect(box.x, await tab.innerText()).toBeGreaterThanOrEqual(listBox.x);
    expect(box.x + box.width, await tab.innerText()).toBeLessThanOrEqual(Math.min(listBox.x + listBox.width, phone.width));
  }
  await expect(page.getByRole('tab', { name: 'Listicle' })).toBeInViewport({ ratio: 1 });
  if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/browse-390.png` });

  // the claim dialog's second step: Pay is on screen without scrolling
  await page.getByTestId('opportunity-card').filter({ hasText: data.title }).getByRole('button', { name: new RegExp(data.title) }).click();
  await dialog(page).getByRole('button', { name: 'Next' }).click();
  const pay = dialog(page).getByRole('button', { name: 'Pay now and secure article' });
  await expect(pay).toBeVisible();
  await settled(page);
  expect(await dialog(page).evaluate((el) => el.scrollTop)).toBe(0);
  await expect(pay).toBeInViewport({ ratio: 1 });
  const payBox = (await pay.boundingBox())!;
  expect(payBox.y + payBox.height).toBeLessThanOrEqual(phone.height);
  // and the box it needs, beside it
  await expect(dialog(page).getByRole('checkbox')).toBeInViewport({ ratio: 1 });
  if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/claim-next-390.png` });
  await brand.ctx.close();

  const admin = await signedIn(browser, data.admin);
  await admin.page.setViewportSize(phone);
  await admin.page.goto('/admin/projects');
  const tabs = admin.page.getByRole('tab');
  await expect(tabs).toHaveCount(5);
  const tops = new Set<number>();
  for (const tab of await tabs.all()) {
    const box = (await tab.boundingBox())!;
    tops.add(Math.round(box.y));
    // each label on one line
    expect(box.height, await tab.innerText()).toBeLessThan(40);
  }
  expect(tops.size).toBe(1);
  // the list scrolls sideways: a tab reached with the keyboard comes whole into view
  await tabs.first().focus();
  await admin.page.keyboard.press('End');
  await expect(tabs.last()).toBeFocused();
  await expect(tabs.last()).toBeInViewport({ ratio: 1 });
  expect(await admin.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  if (SHOTS_DIR) await admin.page.screenshot({ path: `${SHOTS_DIR}/projects-390.png` });
  await admin.ctx.close();
});

test('every route of the client router was checked here', () => {
  // the router was read: its spec routes are there
  expect(ROUTES).toEqual(expect.arrayContaining(['/auth', '/brand/opportunities', '/admin', NOT_FOUND]));
  expect(ROUTES.filter((r) => !checked.has(r)), 'routes of src/client/app/router.tsx with no axe check in this spec').toEqual([]);
});
