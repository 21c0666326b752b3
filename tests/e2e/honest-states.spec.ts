/**
 * Issue 20: every state shown honestly (an approved draft awaiting publication, a refunded
 * purchase, a published one; admin Published and Refunded tabs; the publish toast with its amount),
 * and the small things: length counters and cut pastes, bare domains, the examples limit, the draft
 * upload's progress, empty states with a next step, Projects tabs on a phone.
 */
import { expect, test, type Page } from '@playwright/test';
import { adminPage, api, brandAs, buy, expectNoHorizontalOverflow } from './support';

const BRIEF = {
  part1Json: { personOrBrandName: 'Riley Jordan', backgroundExperience: 'Twelve years building retail brands.' },
  part2Json: { mainGoal: 'Reach retailers', targetAudience: 'Store owners', mainMessage: 'Good goods last' },
};

async function createOpportunity(admin: Page, title: string, priceUsd = '1250.50') {
  const res = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'TechCrunch',
    title,
    description: 'A profile of your founder.',
    type: ['profile_article'],
    priceUsd,
    maxSlots: 1,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** The brand buys, submits its brief; the admin attaches a draft link; the brand approves it. */
async function approvedDraft(admin: Page, brand: Page, title: string) {
  const paymentId = await buy(brand, await createOpportunity(admin, title));
  expect((await api(brand, 'POST', `/api/brand/brief/${paymentId}/submit`, BRIEF)).status()).toBe(200);
  const attach = await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, { draftDocumentUrl: 'docs.google.com/document/d/honest/edit' });
  expect(attach.status(), await attach.text()).toBe(200);
  // the bare domain was stored with https://
  expect(((await attach.json()) as { draftDocumentUrl: string }).draftDocumentUrl).toBe('https://docs.google.com/document/d/honest/edit');
  expect((await api(brand, 'POST', `/api/brand/projects/${paymentId}/approve`)).status()).toBe(200);
  return paymentId;
}

const tab = (page: Page, name: RegExp) => page.getByRole('tab', { name });

test('[BRAND][ADMIN] approved, refunded and published placements each show their state, in My Articles and admin Projects', async ({
  page: brand,
  browser,
}) => {
  const { admin, close } = await adminPage(browser);
  const stamp = `${Date.now()}-x${Math.random().toString(36).slice(2, 6)}`;
  await brand.goto('/auth');
  const { email } = await brandAs(brand, 'approved');

  await approvedDraft(admin, brand, `Awaiting ${stamp}`);
  await approvedDraft(admin, brand, `Published ${stamp}`);
  const refundedId = await buy(brand, await createOpportunity(admin, `Refunded ${stamp}`));

  // no refund yet: the brand sees the spec's three tabs and Approved (issue 43), no Refunded
  await brand.goto('/brand/my-articles');
  await expect(brand.getByRole('tab')).toHaveText([/^Pending/, /^Needs Review/, /^Approved/, /^Completed/]);

  // the admin publishes one from Projects: the toast names the money released
  await admin.goto(`/admin/projects?q=${encodeURIComponent(email)}`);
  await tab(admin, /^Approved/).click();
  const publishing = admin.getByRole('tabpanel').getByTestId('project-card').filter({ hasText: `Published ${stamp}` });
  await publishing.getByRole('button', { name: 'Publish Content' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Publish and release' }).click();
  await expect(admin.getByTestId('toast').first()).toContainText('Published – $1,250.50 released');
  // the published one leaves Approved for Published (issue 43: one tab per project)
  await expect(publishing).toHaveCount(0);

  const refund = await api(admin, 'POST', `/api/admin/payments/${refundedId}/refund`);
  expect(refund.status(), await refund.text()).toBe(200);

  // Admin Projects: Published and Refunded tabs after the spec's three, each with its project
  await admin.reload();
  await expect(admin.getByRole('tab')).toHaveText([/^Awaiting Brief/, /^Pending Review/, /^Approved/, /^Published/, /^Refunded/]);
  await tab(admin, /^Published/).click();
  const published = admin.getByRole('tabpanel').getByTestId('project-card');
  await expect(published).toHaveCount(1);
  await expect(published).toContainText(`Published ${stamp}`);
  await tab(admin, /^Refunded/).click();
  const refunded = admin.getByRole('tabpanel').getByTestId('project-card');
  await expect(refunded).toHaveCount(1);
  await expect(refunded).toContainText(`Refunded ${stamp}`);
  await expect(refunded.getByText('Refunded', { exact: true })).toBeVisible();
  await expect(refunded).toContainText('None – refunded before a brief');
  await expect(refunded).not.toContainText('Brief pending');
  await expect(tab(admin, /^Refunded/).getByTestId('tab-count')).toHaveText('1');

  // My Articles: the approved draft badged as waiting for publication, under its own tab (issue 43)
  await brand.reload();
  await tab(brand, /^Approved/).click();
  const approvedTab = brand.getByRole('tabpanel');
  await expect(approvedTab.getByTestId('article-card')).toHaveCount(1);
  const awaiting = approvedTab.getByTestId('article-card').filter({ hasText: `Awaiting ${stamp}` });
  await expect(awaiting.getByTestId('article-status')).toHaveText('Approved – awaiting publication');
  // Completed holds the published one only; the refunded one has its own tab, shown now that there is one
  await tab(brand, /^Completed/).click();
  await expect(brand.getByRole('tabpanel').getByTestId('article-card')).toHaveCount(1);
  await expect(brand.getByRole('tabpanel').getByTestId('article-card').getByTestId('article-status')).toHaveText('Released');
  await expect(brand.getByRole('tab')).toHaveCount(5);
  await tab(brand, /^Refunded/).click();
  const card = brand.getByRole('tabpanel').getByTestId('article-card');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(`Refunded ${stamp}`);
  await expect(card.getByTestId('article-status')).toHaveText('Refunded');
  await expect(card.getByTestId('refunded-note')).toHaveText('Refunded – $1,250.50 returned');
  await expect(card.getByText('Brief pending')).toHaveCount(0);

  // Payment History says each one's status in the same words as its card (one vocabulary, issue 44)
  await brand.goto('/brand/payments');
  const row = (title: string) => brand.getByTestId('payment-row').filter({ hasText: title });
  await expect(row(`Awaiting ${stamp}`).getByText('Approved – awaiting publication', { exact: true })).toBeVisible();
  await expect(row(`Published ${stamp}`).getByText('Released', { exact: true })).toBeVisible();
  await expect(row(`Refunded ${stamp}`).getByText('Refunded', { exact: true })).toBeVisible();
  await expect(brand.getByText('Draft approved, publication next')).toBeVisible();
  await close();
});

test('[BRAND] an empty My Articles offers the next step: Browse opportunities', async ({ page }) => {
  await page.goto('/auth');
  await brandAs(page, 'approved');
  await page.goto('/brand/my-articles');
  await expect(page.getByText('You have no pending articles. Once you claim an opportunity, it will appear here.')).toBeVisible();
  await page.getByRole('tabpanel').getByRole('link', { name: 'Browse opportunities' }).click();
  await expect(page).toHaveURL(/\/brand\/opportunities$/);
});

test('[BRAND] a brief field counts its characters and says when a paste was cut; the profile takes a bare domain', async ({ page, browser }) => {
  const { admin, close } = await adminPage(browser);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await buy(page, await createOpportunity(admin, `Counter ${Date.now()}`));
  await close();

  await page.goto(`/brand/brief/${paymentId}`);
  const field = page.locator('#brief-backgroundExperience');
  const counter = page.locator('#brief-backgroundExperience-count');
  await expect(counter).toContainText('0 / 5,000');
  await field.fill('Twelve years');
  await expect(counter).toContainText('12 / 5,000');

  // a 20,000-character paste keeps 5,000 and says so
  await page.evaluate((text) => navigator.clipboard.writeText(text), 'x'.repeat(20_000));
  await field.fill('');
  await field.focus();
  await page.keyboard.press('ControlOrMeta+V');
  await expect(field).toHaveValue('x'.repeat(5_000));
  await expect(counter).toContainText('5,000 / 5,000');
  await expect(counter.getByTestId('paste-cut')).toHaveText('The pasted text was cut to 5,000 characters: the last 15,000 were left out.');
  // typing again clears the notice
  await page.keyboard.press('Backspace');
  await expect(counter.getByTestId('paste-cut')).toHaveCount(0);
  await expect(counter).toContainText('4,999 / 5,000');

  // "acme.com" is a website: https:// is assumed and stored
  await page.goto('/brand/profile');
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await page.locator('#profile-website').fill('acme-honest.com');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByTestId('toast').first()).toContainText('Profile updated');
  const me = (await (await api(page, 'GET', '/api/user')).json()) as { website: string };
  expect(me.website).toBe('https://acme-honest.com');
});

test('[ADMIN] the examples control is disabled at its limit of 3; bare domains are read as https', async ({ page }) => {
  const { admin, close } = await adminPage(page.context().browser()!);
  await admin.goto('/admin/new-opportunity');
  const input = admin.getByLabel('Example URL');
  const add = admin.getByRole('button', { name: 'Add URL' });
  for (const url of ['techcrunch.com/one', 'https://techcrunch.com/two', 'techcrunch.com/three']) {
    await input.fill(url);
    await add.click();
  }
  await expect(admin.getByTestId('example-item')).toHaveCount(3);
  await expect(admin.getByTestId('example-item').first()).toContainText('https://techcrunch.com/one');
  await expect(add).toBeDisabled();
  await expect(input).toBeDisabled();
  await expect(admin.getByRole('button', { name: 'Upload Image' })).toBeDisabled();
  await expect(admin.getByText('3/3 examples')).toBeVisible();
  // removing one enables them again
  await admin.getByRole('button', { name: 'Remove example 3' }).click();
  await expect(add).toBeEnabled();
  // the description counts too
  await admin.locator('#description').fill('A profile.');
  await expect(admin.locator('#description-count')).toContainText('10 / 5,000');
  await close();
});

test('[ADMIN] the draft upload shows its progress and completes; Projects tabs stay on one line at 390 px', async ({ page: brand, browser }) => {
  const { admin, close } = await adminPage(browser);
  const title = `Upload ${Date.now()}`;
  await brand.goto('/auth');
  const { email } = await brandAs(brand, 'approved');
  const paymentId = await buy(brand, await createOpportunity(admin, title));
  expect((await api(brand, 'POST', `/api/brand/brief/${paymentId}/submit`, BRIEF)).status()).toBe(200);

  await admin.goto(`/admin/projects?q=${encodeURIComponent(email)}`);
  const card = admin.getByRole('tabpanel').getByTestId('project-card').filter({ hasText: title });
  await card.getByRole('button', { name: 'Attach Draft' }).click();
  const dialog = admin.getByTestId('draft-dialog');
  await dialog.getByText('Upload File').click();
  await expect(dialog.getByTestId('chosen-file')).toHaveText('No file chosen');
  // 6 MB of PDF, sent at 3 MB/s so the progress is there to see
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(6 * 1024 * 1024, 0x20), Buffer.from('\n%%EOF\n')]);
  await dialog.getByLabel('Document file').setInputFiles({ name: 'long-draft.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(dialog.getByTestId('chosen-file')).toHaveText('long-draft.pdf (6.0 MB)');
  const cdp = await admin.context().newCDPSession(admin);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 3 * 1024 * 1024 });
  await dialog.getByRole('button', { name: 'Mark as Needs Review' }).click();
  const progress = dialog.getByTestId('upload-progress');
  await expect(progress).toBeVisible();
  await expect(progress.getByRole('progressbar')).toBeVisible();
  await expect(progress).toContainText(/Uploading\.\.\. \d+%/);
  await expect(admin.getByTestId('toast').first()).toContainText('Draft attached');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await tab(admin, /^Pending Review/).click();
  await expect(admin.getByRole('tabpanel').getByTestId('project-card').filter({ hasText: title })).toContainText('PDF/DOC file');

  // at 390 px the five tabs keep their labels on one line; the list scrolls sideways, not the page
  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.goto('/admin/projects');
  const tabs = admin.getByRole('tab');
  await expect(tabs).toHaveCount(5);
  for (const t of await tabs.all()) {
    const lines = await t.evaluate((el) => {
      const label = el.querySelector('span') ?? el;
      const style = getComputedStyle(label);
      return Math.round(label.getBoundingClientRect().height / parseFloat(style.lineHeight || '20'));
    });
    expect(lines, await t.innerText()).toBe(1);
  }
  const tops = await Promise.all((await tabs.all()).map(async (t) => (await t.boundingBox())!.y));
  expect(new Set(tops).size).toBe(1);
  await expectNoHorizontalOverflow(admin);
  await close();
});
