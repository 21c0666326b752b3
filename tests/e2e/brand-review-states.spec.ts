/**
 * Issue 43, what a new brand met in review: after "Request edits" the card says the team is
 * revising (with the brand's feedback), an empty request asks "Send without comments?" first, and
 * Approve then confirms it takes the current version as it is. An approved draft has its own tab
 * (Approved) and offers "View Brief", not "Edit Brief". The tab is in the URL; five tabs fit a phone.
 * Admin Projects: Awaiting Brief says what each project waits for; a published one is in one tab.
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { adminPage, api, brandAs, buy, expectNoHorizontalOverflow } from './support';

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

const BRIEF = {
  part1Json: { personOrBrandName: 'Riley Jordan', backgroundExperience: 'Twelve years building retail brands.' },
  part2Json: { mainGoal: 'Reach retailers', targetAudience: 'Store owners', mainMessage: 'Good goods last' },
};
// a first visit loads the shell's chunks and several lists: on a busy 2-core machine that takes longer than the default
const LOADED = { timeout: 30_000 };
const stamp = () => `${Date.now()}-x${Math.random().toString(36).slice(2, 6)}`;

async function createOpportunity(admin: Page, title: string, type = ['profile_article']) {
  const res = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Review Gazette',
    title,
    description: 'A profile of your founder.',
    type,
    priceUsd: '1250.00',
    maxSlots: 1,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** The brand on `brand` buys `title`; then as far as `to` goes: the brief, a draft, approval, publication or a refund. */
async function placement(
  admin: Page,
  brand: Page,
  title: string,
  to: 'paid' | 'brief' | 'draft' | 'approved' | 'released' | 'refunded',
) {
  const paymentId = await buy(brand, await createOpportunity(admin, title));
  if (to === 'paid') return paymentId;
  if (to === 'refunded') {
    const refund = await api(admin, 'POST', `/api/admin/payments/${paymentId}/refund`);
    expect(refund.status(), await refund.text()).toBe(200);
    return paymentId;
  }
  expect((await api(brand, 'POST', `/api/brand/brief/${paymentId}/submit`, BRIEF)).status()).toBe(200);
  if (to === 'brief') return paymentId;
  const attach = await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, {
    draftDocumentUrl: 'https://docs.google.com/document/d/review/edit',
  });
  expect(attach.status(), await attach.text()).toBe(200);
  if (to === 'draft') return paymentId;
  expect((await api(brand, 'POST', `/api/brand/projects/${paymentId}/approve`)).status()).toBe(200);
  if (to === 'approved') return paymentId;
  const release = await api(admin, 'POST', `/api/admin/payments/${paymentId}/release`);
  expect(release.status(), await release.text()).toBe(200);
  return paymentId;
}

/** The purchase as the server has it. */
async function serverState(page: Page, paymentId: string) {
  const res = await api(page, 'GET', `/api/brand/my-articles?paymentId=${paymentId}`);
  expect(res.status()).toBe(200);
  return (
    (await res.json()) as { payment: { status: string; draftReviewStatus: string; brandFeedback: string | null } }[]
  )[0].payment;
}

const cardOf = (page: Page, title: string) =>
  page.getByRole('tabpanel').getByTestId('article-card').filter({ hasText: title });
const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });

async function signedInBrand(browser: Browser, page: Page) {
  const admin = await adminPage(browser);
  await page.goto('/auth');
  const { email } = await brandAs(page, 'approved');
  return { ...admin, email };
}

test('[BRAND] edits requested: the team is revising, an empty request asks first, Approve takes the current version; then Approved with View Brief', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { admin, close } = await signedInBrand(browser, page);
  const title = `Review states ${stamp()}`;
  const paymentId = await placement(admin, page, title, 'draft');

  // a draft waits for the brand: the page opens on Needs Review, its default, with no parameter
  await page.goto('/brand/my-articles');
  await expect(tab(page, 'Needs Review')).toHaveAttribute('aria-selected', 'true', LOADED);
  await expect(page).toHaveURL(/\/brand\/my-articles$/);
  const card = cardOf(page, title);
  await expect(card.getByTestId('draft-heading')).toHaveText('Draft Ready for Review');

  // an empty request asks first; Back returns to the text and sends nothing
  await card.getByRole('button', { name: 'Request Edits' }).click();
  const dialog = page.getByTestId('request-edits-dialog');
  await expect(dialog.getByRole('heading', { name: 'Submit Edit Request' })).toBeVisible();
  await expect(dialog).toContainText('0/1000 characters');
  await dialog.getByRole('button', { name: 'Send Edit Request' }).click();
  await expect(dialog.getByRole('heading', { name: 'Send without comments?' })).toBeVisible();
  await expect(dialog).toContainText('The editorial team will get your edit request with no reason.');
  await expect(dialog.getByRole('button', { name: 'Send without comments' })).toBeFocused();
  await shots(page, 'send-without-comments');
  await dialog.getByRole('button', { name: 'Back' }).click();
  await expect(dialog.getByRole('heading', { name: 'Submit Edit Request' })).toBeVisible();
  await expect(dialog.getByLabel('Feedback')).toBeFocused();
  expect((await serverState(page, paymentId)).draftReviewStatus).toBe('pending_brand_review');
  // spaces alone are no comment either; confirming sends the request without feedback
  await dialog.getByLabel('Feedback').fill('   ');
  await dialog.getByRole('button', { name: 'Send Edit Request' }).click();
  await dialog.getByRole('button', { name: 'Send without comments' }).click();
  await expect(page.getByTestId('toast')).toContainText('Edits requested');
  await expect(page.getByTestId('toast')).toContainText('The admin has been notified of your edit request.');
  await expect(dialog).toHaveCount(0);
  expect(await serverState(page, paymentId)).toMatchObject({
    draftReviewStatus: 'edits_requested',
    brandFeedback: null,
  });

  // the card says plainly that the team is revising, not that a draft waits for review
  await expect(card.getByTestId('draft-heading')).toHaveText('Edits requested – the team is revising');
  await expect(card).not.toContainText('Draft Ready for Review');
  await expect(card.getByTestId('revising-note')).toContainText('The editorial team is revising the draft.');
  await expect(card.getByTestId('brand-feedback')).toHaveText('You sent the edit request without comments.');

  // with feedback it goes at once, and the card shows it
  await card.getByRole('button', { name: 'Request Edits' }).click();
  await dialog.getByLabel('Feedback').fill('Please mention the repair programme.');
  await dialog.getByRole('button', { name: 'Send Edit Request' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(card.getByTestId('brand-feedback')).toHaveText('Please mention the repair programme.');
  expect((await serverState(page, paymentId)).brandFeedback).toBe('Please mention the repair programme.');
  await shots(page, 'my-articles-revising');

  // Approve while edits are requested confirms it takes the current version as it is; Cancel changes nothing
  await card.getByRole('button', { name: 'Approve Draft' }).click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm.getByRole('heading', { name: 'Approve the current version as it is?' })).toBeVisible();
  await expect(confirm).toContainText(
    'Approving now accepts the current version as it is: the edits you asked for will not be made',
  );
  await shots(page, 'approve-current-version');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  expect((await serverState(page, paymentId)).draftReviewStatus).toBe('edits_requested');
  await card.getByRole('button', { name: 'Approve Draft' }).click();
  await confirm.getByRole('button', { name: 'Approve current version' }).click();
  await expect(page.getByTestId('toast')).toContainText('Draft approved');
  expect((await serverState(page, paymentId)).draftReviewStatus).toBe('approved');

  // the approved draft leaves Needs Review for Approved, where the brief is read, not edited
  await expect(card).toHaveCount(0);
  await expect(tab(page, 'Approved').getByTestId('tab-count')).toHaveText('1');
  await tab(page, 'Approved').click();
  await expect(page).toHaveURL(/\/brand\/my-articles\?tab=approved$/);
  const approved = cardOf(page, title);
  await expect(approved.getByTestId('article-status')).toHaveText('Approved – awaiting publication');
  await expect(approved.getByRole('link', { name: 'Edit Brief' })).toHaveCount(0);
  await expect(approved.getByRole('button', { name: 'Approve Draft' })).toHaveCount(0);
  await shots(page, 'my-articles-approved');
  await approved.getByRole('link', { name: 'View Brief' }).click();
  await expect(page).toHaveURL(`/brand/brief/${paymentId}`);
  await expect(page.getByRole('note')).toContainText(
    'You approved the draft, so its brief can no longer be changed.',
    LOADED,
  );
  await expect(page.getByLabel('Name (person or brand) to feature')).toHaveValue('Riley Jordan');
  await expect(page.getByLabel('Name (person or brand) to feature')).not.toBeEditable();
  await page.getByRole('button', { name: 'Next: Article Guidelines' }).click();
  await expect(page.getByLabel('Main goal')).toHaveValue('Reach retailers');
  await expect(page.getByRole('button', { name: 'Submit Brief' })).toHaveCount(0);
  await shots(page, 'brief-approved-read-only');
  // Back returns to the tab it came from
  await page.goBack();
  await expect(page).toHaveURL(/\/brand\/my-articles\?tab=approved$/);
  await expect(tab(page, 'Approved')).toHaveAttribute('aria-selected', 'true');
  await expect(cardOf(page, title)).toBeVisible();
  await close();
});

test('[BRAND] My Articles: five tabs, one per purchase; the tab is in the URL through reload, Back and Forward; all on screen at 390 px', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { admin, close } = await signedInBrand(browser, page);
  const s = stamp();
  await placement(admin, page, `Pending ${s}`, 'paid');
  await placement(admin, page, `Review ${s}`, 'draft');
  await placement(admin, page, `Approved ${s}`, 'approved');
  await placement(admin, page, `Published ${s}`, 'released');
  await placement(admin, page, `Refunded ${s}`, 'refunded');
  await close();

  await page.goto('/brand/my-articles');
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveCount(5, LOADED);
  await expect(tabs).toHaveText([
    /^Pending\s*1$/,
    /^Needs Review\s*1$/,
    /^Approved\s*1$/,
    /^Completed\s*1$/,
    /^Refunded\s*1$/,
  ]);
  // each purchase in one tab only
  for (const [name, title] of [
    ['Pending', `Pending ${s}`],
    ['Needs Review', `Review ${s}`],
    ['Approved', `Approved ${s}`],
    ['Completed', `Published ${s}`],
    ['Refunded', `Refunded ${s}`],
  ]) {
    await tab(page, name).click();
    await expect(page.getByRole('tabpanel').getByTestId('article-card')).toHaveCount(1);
    await expect(cardOf(page, title)).toBeVisible();
  }
  await expect(page).toHaveURL(/\?tab=refunded$/);

  // reload keeps the tab; Back and Forward walk the tabs chosen
  await tab(page, 'Completed').click();
  await expect(page).toHaveURL(/\?tab=completed$/);
  await page.reload();
  await expect(tab(page, 'Completed')).toHaveAttribute('aria-selected', 'true', LOADED);
  await expect(cardOf(page, `Published ${s}`)).toBeVisible();
  await tab(page, 'Approved').click();
  await expect(page).toHaveURL(/\?tab=approved$/);
  await page.goBack();
  await expect(page).toHaveURL(/\?tab=completed$/);
  await expect(tab(page, 'Completed')).toHaveAttribute('aria-selected', 'true');
  await expect(cardOf(page, `Published ${s}`)).toBeVisible();
  await page.goForward();
  await expect(tab(page, 'Approved')).toHaveAttribute('aria-selected', 'true');
  await expect(cardOf(page, `Approved ${s}`)).toBeVisible();
  // the default tab (a draft waits: Needs Review) has no parameter
  await tab(page, 'Needs Review').click();
  await expect(page).toHaveURL(/\/brand\/my-articles$/);
  await expect(cardOf(page, `Review ${s}`)).toBeVisible();

  // the keyboard's arrows still move between the tabs, and the URL follows
  await tab(page, 'Needs Review').focus();
  await page.keyboard.press('ArrowRight');
  await expect(tab(page, 'Approved')).toBeFocused();
  await expect(tab(page, 'Approved')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\?tab=approved$/);

  // a phone: no tab off screen, nothing wider than the window
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page);
  for (const t of await tabs.all()) {
    await expect(t).toBeInViewport({ ratio: 1 });
    const box = (await t.boundingBox())!;
    expect(box.x, await t.innerText()).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, await t.innerText()).toBeLessThanOrEqual(390);
  }
  await shots(page, 'my-articles-tabs');
});

test('[ADMIN] Projects: Awaiting Brief says what each project waits for; a published project is under Published only', async ({
  page: brand,
  browser,
}) => {
  test.setTimeout(120_000);
  const { admin, close, email } = await signedInBrand(browser, brand);
  const s = stamp();
  await placement(admin, brand, `No brief ${s}`, 'paid');
  await placement(admin, brand, `Brief in ${s}`, 'brief');
  await placement(admin, brand, `Approved ${s}`, 'approved');
  await placement(admin, brand, `Published ${s}`, 'released');

  await admin.goto(`/admin/projects?q=${encodeURIComponent(email)}`);
  const tabs = admin.getByRole('tab');
  await expect(tabs).toHaveCount(5, LOADED);
  await expect(tabs).toHaveText([
    /^Awaiting Brief\s*2$/,
    /^Pending Review$/,
    /^Approved\s*1$/,
    /^Published\s*1$/,
    /^Refunded$/,
  ]);
  const project = (title: string) => admin.getByRole('tabpanel').getByTestId('project-card').filter({ hasText: title });
  await expect(project(`No brief ${s}`).getByTestId('project-state')).toHaveText("Waiting for the brand's brief");
  await expect(project(`Brief in ${s}`).getByTestId('project-state')).toHaveText('Brief in – draft to write');
  await expect(project(`Brief in ${s}`).getByRole('button', { name: 'Attach Draft' })).toBeVisible();
  await expect(project(`No brief ${s}`).getByRole('button', { name: 'Attach Draft' })).toHaveCount(0);
  await shots(admin, 'admin-projects-awaiting');

  // Approved: the approved draft still to publish, and not the published one
  await admin.getByRole('tab', { name: /^Approved/ }).click();
  await expect(admin.getByRole('tabpanel').getByTestId('project-card')).toHaveCount(1);
  await expect(project(`Approved ${s}`)).toContainText('Brand approved');
  await expect(project(`Approved ${s}`).getByRole('button', { name: 'Publish Content' })).toBeVisible();
  await expect(project(`Published ${s}`)).toHaveCount(0);
  await admin.getByRole('tab', { name: /^Published/ }).click();
  await expect(admin.getByRole('tabpanel').getByTestId('project-card')).toHaveCount(1);
  await expect(project(`Published ${s}`).getByText('Published', { exact: true })).toBeVisible();

  // publishing the approved one moves it: Approved empties, Published counts both
  await admin.getByRole('tab', { name: /^Approved/ }).click();
  await project(`Approved ${s}`).getByRole('button', { name: 'Publish Content' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Publish and release' }).click();
  await expect(admin.getByTestId('toast').first()).toContainText('released');
  await expect(project(`Approved ${s}`)).toHaveCount(0);
  await expect(tabs).toHaveText([
    /^Awaiting Brief\s*2$/,
    /^Pending Review$/,
    /^Approved$/,
    /^Published\s*2$/,
    /^Refunded$/,
  ]);
  await close();
});
