/**
 * Issue 44, point 3: the placement's page is its home on each side. The brand opens it from My
 * Articles and finds the brief, the draft (approved from here), the publication and the money above
 * the timeline and the conversation; the editorial team opens it from Projects and attaches the
 * draft, marks the edits complete and publishes from here. Payment History and Placements rows
 * link to it too. SHOTS_DIR=/tmp/… saves the pages at 1280 and 390 px.
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_ADMIN, api, brandAs, buy, expectNoHorizontalOverflow, loginAs } from './support';

const LOADED = { timeout: 30_000 };
// the letter after the hyphen: PostgreSQL's text parser reads "-30eh" as the number -30 and "eh", so a
// random part that began with a digit could not be found by the catalogue's search for its own title
const stamp = () => `${Date.now()}-x${Math.random().toString(36).slice(2, 6)}`;
const toast = (page: Page) => page.getByTestId('toast');

const BRIEF = {
  part1Json: {
    personOrBrandName: 'Riley Jordan',
    preferredTitle: 'Founder & CEO',
    backgroundExperience: 'Twelve years building retail brands.',
  },
  part2Json: {
    mainGoal: 'Reach independent retailers',
    targetAudience: 'Store owners',
    mainMessage: 'Good goods last',
    socialMediaLinks: 'https://linkedin.com/in/riley',
  },
};

async function signedInPage(browser: Browser) {
  const ctx = await browser.newContext();
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await ctx.newPage();
  await page.goto('/auth');
  return { page, close: () => ctx.close() };
}

/** The demo admin and a fresh approved brand, each in a browser of its own; the brand has bought `title` and sent its brief. */
async function briefedPlacement(browser: Browser, title: string) {
  const admin = await signedInPage(browser);
  await loginAs(admin.page, DEMO_ADMIN);
  const opp = await api(admin.page, 'POST', '/api/admin/opportunities', {
    outletName: 'The Placement Post',
    title,
    description: 'A profile of your founder.',
    type: ['profile_article'],
    priceUsd: '1250.00',
    maxSlots: 1,
  });
  expect(opp.status(), await opp.text()).toBe(201);
  const brand = await signedInPage(browser);
  const { email } = await brandAs(brand.page, 'approved');
  const paymentId = await buy(brand.page, ((await opp.json()) as { id: string }).id);
  const brief = await api(brand.page, 'POST', `/api/brand/brief/${paymentId}/submit`, BRIEF);
  expect(brief.status(), await brief.text()).toBe(200);
  return { admin, brand, paymentId, email };
}

async function shots(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  // the page, not the last toast over it
  await expect(toast(page)).toHaveCount(0, { timeout: 15_000 });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('[BRAND] opens a placement from My Articles: its brief, the draft approved from the page, the publication and the money', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const title = `Placement home ${stamp()}`;
  const { admin, brand, paymentId } = await briefedPlacement(browser, title);
  const attach = await api(admin.page, 'PATCH', `/api/admin/payments/${paymentId}/status`, {
    draftDocumentUrl: 'https://docs.google.com/document/d/home/edit',
  });
  expect(attach.status(), await attach.text()).toBe(200);
  const page = brand.page;

  await page.goto('/brand/my-articles');
  const card = page.getByTestId('article-card').filter({ hasText: title });
  await card.getByRole('link', { name: 'Messages' }).click(LOADED);
  await expect(page).toHaveURL(new RegExp(`/brand/my-articles/${paymentId}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title, LOADED);
  await expect(page.getByTestId('article-status')).toHaveText('Needs Review');
  await expect(page.getByTestId('placement-price')).toHaveText('$1,250.00');

  // the brief, read-only, with Copy Brief and the link to its form
  const brief = page.getByTestId('brief-section');
  await expect(brief).toContainText('Brief submitted');
  await expect(brief.getByTestId('brief-personOrBrandName')).toContainText('Riley Jordan');
  await expect(brief.getByTestId('brief-mainMessage')).toContainText('Good goods last');
  await expect(brief.getByRole('link', { name: 'https://linkedin.com/in/riley' })).toBeVisible();
  await expect(brief.getByRole('link', { name: 'Edit Brief' })).toHaveAttribute('href', `/brand/brief/${paymentId}`);
  await brief.getByRole('button', { name: 'Copy Brief' }).click();
  await expect(toast(page)).toContainText('Brief copied!');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(`Opportunity: ${title}`);
  expect(copied).toContain('Name:\nRiley Jordan');
  expect(copied).not.toContain('Brand:');

  // the money, held in escrow, with its invoice
  const money = page.getByTestId('money-section');
  await expect(money.getByTestId('money-status')).toHaveText('Held in escrow');
  await expect(money.getByTestId('money-amount')).toHaveText('$1,250.00');
  await expect(money.getByRole('link', { name: 'Invoice' })).toHaveAttribute('href', `/api/brand/payments/${paymentId}/invoice`);
  await expect(money.getByRole('link', { name: 'Credit note' })).toHaveCount(0);
  // no processor id for the brand: its reference is the invoice (issue 57)
  await expect(money.getByTestId('money-provider-ref')).toHaveCount(0);
  await expect(money).not.toContainText(/\b(pi|cs)_/);
  await expect(page.getByTestId('publication-section')).toContainText('Not published yet');

  // the draft the message would point at: ready for review, and approved from here
  const draft = page.getByTestId('draft-section');
  await expect(draft.getByTestId('draft-heading')).toHaveText('Draft Ready for Review');
  await expect(draft.getByRole('link', { name: 'Open Document' })).toHaveAttribute('href', 'https://docs.google.com/document/d/home/edit');
  await shots(page, 'brand-review');
  await expect(page.getByTestId('timeline').getByText('Draft attached')).toBeVisible();
  const entries = await page.getByTestId('timeline-entry').count();
  await draft.getByRole('button', { name: 'Approve Draft' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Approve this draft?' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Approve Draft' }).click();
  await expect(toast(page)).toContainText('Draft approved');
  await expect(draft.getByTestId('draft-heading')).toHaveText('Approved draft');
  await expect(draft.getByRole('button', { name: 'Approve Draft' })).toHaveCount(0);
  await expect(page.getByTestId('article-status')).toHaveText('Approved – awaiting publication');
  // an approved draft's brief no longer changes; the timeline has the step
  await expect(brief.getByRole('link', { name: 'Edit Brief' })).toHaveCount(0);
  await expect(page.getByTestId('timeline').getByText('Draft approved')).toBeVisible();
  expect(await page.getByTestId('timeline-entry').count()).toBe(entries + 1);
  // the conversation is still there, under it all
  await expect(page.getByTestId('conversation')).toContainText('No messages yet');

  // published: the live article and the released money; Payment History links back to the page
  const release = await api(admin.page, 'POST', `/api/admin/payments/${paymentId}/release`);
  expect(release.status(), await release.text()).toBe(200);
  await page.goto('/brand/payments');
  await page.getByTestId('payment-row').filter({ hasText: title }).getByRole('link', { name: 'Details' }).click(LOADED);
  await expect(page).toHaveURL(new RegExp(`/brand/my-articles/${paymentId}$`));
  await expect(page.getByTestId('money-status')).toHaveText('Released', LOADED);
  await expect(page.getByTestId('publication-section').getByTestId('publication-panel')).toBeVisible();
  await expect(page.getByTestId('article-status')).toHaveText('Released');
  await shots(page, 'brand-released');

  await admin.close();
  await brand.close();
});

test('[ADMIN] opens a placement from Projects: attaches the draft, marks the edits complete and publishes from the page', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const title = `Placement work ${stamp()}`;
  const { admin, brand, paymentId, email } = await briefedPlacement(browser, title);
  const page = admin.page;

  await page.goto('/admin/projects');
  const card = page.getByRole('tabpanel').getByTestId('project-card').filter({ hasText: title });
  await card.getByRole('link', { name: 'Messages' }).click(LOADED);
  await expect(page).toHaveURL(new RegExp(`/admin/projects/${paymentId}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title, LOADED);
  await expect(page.getByTestId('project-state')).toHaveText('Brief in – draft to write');
  await expect(page.getByTestId('placement-brand')).toHaveText('Jordan Goods');

  // the brief: open, hidden and shown again, copied with its brand
  const brief = page.getByTestId('brief-section');
  await expect(brief.getByTestId('brief-backgroundExperience')).toContainText('Twelve years building retail brands.');
  await brief.getByRole('button', { name: 'Hide Brief' }).click();
  await expect(brief.getByTestId('brief-details')).toHaveCount(0);
  await brief.getByRole('button', { name: 'View Brief' }).click();
  await expect(brief.getByTestId('brief-details')).toBeVisible();
  await brief.getByRole('button', { name: 'Copy Brief' }).click();
  await expect(toast(page)).toContainText('Brief copied!');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('Brand: Jordan Goods <');

  // Attach Draft from the page
  const draft = page.getByTestId('draft-section');
  await draft.getByRole('button', { name: 'Attach Draft' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Attach Draft Document' })).toBeVisible();
  await dialog.getByRole('radio', { name: 'Google Docs URL' }).click();
  await dialog.getByLabel('Document URL').fill('https://docs.google.com/document/d/work/edit');
  await dialog.getByRole('button', { name: 'Mark as Needs Review' }).click();
  await expect(toast(page)).toContainText('Draft attached');
  await expect(dialog).toHaveCount(0);
  const panel = draft.getByTestId('draft-panel');
  await expect(panel).toContainText('Awaiting brand review');
  await expect(page.getByTestId('project-state')).toHaveText('Pending Review');
  await expect(page.getByTestId('timeline').getByText('Draft attached')).toBeVisible();
  // issue 58: the header says where it stands and whose turn it is, as the server says
  await expect(page.getByTestId('life-label')).toHaveText('Awaiting brand review');
  await expect(page.getByTestId('life-waiting')).toHaveText('Waiting on the brand');

  // the brand asks for edits; the page shows the feedback and Mark Edits Complete
  const edits = await api(brand.page, 'POST', `/api/brand/projects/${paymentId}/request-edits`, { feedback: 'Please mention our repair workshop.' });
  expect(edits.status(), await edits.text()).toBe(200);
  await page.reload();
  await expect(panel).toContainText('Brand requested edits', LOADED);
  await expect(draft.getByTestId('brand-feedback')).toContainText('Please mention our repair workshop.');
  await expect(page.getByTestId('life-waiting')).toHaveText('Waiting on you');
  await shots(page, 'admin-review');
  await panel.getByRole('button', { name: 'Mark Edits Complete' }).click();
  await expect(toast(page)).toContainText('Edits marked complete');
  await expect(panel).toContainText('Edits complete - awaiting brand re-review');
  await expect(panel.getByRole('button', { name: 'Mark Edits Complete' })).toHaveCount(0);

  // approved by the brand: Publish Content from the page releases the money
  const approve = await api(brand.page, 'POST', `/api/brand/projects/${paymentId}/approve`);
  expect(approve.status(), await approve.text()).toBe(200);
  await page.reload();
  await expect(page.getByTestId('project-state')).toHaveText('Brand approved', LOADED);
  await expect(page.getByTestId('money-status')).toHaveText('Held in escrow');
  await draft.getByRole('button', { name: 'Publish Content' }).click();
  await expect(dialog).toContainText('cannot be undone');
  await dialog.getByRole('button', { name: 'Publish and release' }).click();
  await expect(toast(page)).toContainText('Status updated');
  await expect(page.getByTestId('project-state')).toHaveText('Published');
  await expect(page.getByTestId('money-status')).toHaveText('Released');
  await expect(page.getByTestId('life-label')).toHaveText('Released');
  await expect(page.getByTestId('life-waiting')).toHaveCount(0);
  await expect(draft.getByRole('button', { name: 'Publish Content' })).toHaveCount(0);
  const publication = page.getByTestId('publication-section');
  await expect(publication).toContainText('Published without a live link');
  await expect(publication.getByRole('button', { name: 'Add URL' })).toBeVisible();
  await expect(page.getByTestId('money-section').getByRole('link', { name: 'Invoice' })).toHaveAttribute(
    'href',
    `/api/admin/payments/${paymentId}/invoice`,
  );
  await expect(page.getByTestId('timeline').getByText(/^Payment released/)).toBeVisible();
  await shots(page, 'admin-published');

  // Placements and Payments rows link to the page
  await page.goto('/admin/placements');
  await page.getByTestId('placement-row').filter({ hasText: title }).getByRole('link', { name: 'Details' }).click(LOADED);
  await expect(page).toHaveURL(new RegExp(`/admin/projects/${paymentId}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title, LOADED);
  await page.goto(`/admin/payments?q=${encodeURIComponent(email)}`);
  await expect(page.getByTestId('admin-payment-row').filter({ hasText: title }).getByRole('link', { name: 'Details' })).toHaveAttribute(
    'href',
    `/admin/projects/${paymentId}`,
  );

  await admin.close();
  await brand.close();
});

test('[BRAND] another brand’s placement, or none, says the article was not found', async ({ browser }) => {
  const brand = await signedInPage(browser);
  await brandAs(brand.page, 'approved');
  await brand.page.goto('/brand/my-articles/00000000-0000-4000-8000-000000000000');
  await expect(brand.page.getByRole('alert')).toContainText('Article not found', LOADED);
  await expect(brand.page.getByRole('alert')).toContainText('Payment not found');
  await brand.close();
});

test('[BRAND] "Live by" on the card, then fixed on the placement bought (issue 59)', async ({ browser }) => {
  test.setTimeout(120_000);
  const title = `Promised home ${stamp()}`;
  const admin = await signedInPage(browser);
  await loginAs(admin.page, DEMO_ADMIN);
  const opp = await api(admin.page, 'POST', '/api/admin/opportunities', {
    outletName: 'The Promise Post',
    title,
    description: 'A profile of your founder.',
    type: ['profile_article'],
    priceUsd: '1250.00',
    maxSlots: 1,
    tatDays: 10,
  });
  expect(opp.status(), await opp.text()).toBe(201);
  const brand = await signedInPage(browser);
  await brandAs(brand.page, 'approved');
  // a new outlet has no record: the listed turnaround makes the date, without "usually by"
  await brand.page.goto(`/brand/opportunities?q=${encodeURIComponent(title)}`);
  const card = brand.page.getByTestId('opportunity-card').filter({ hasText: title });
  await expect(card.getByTestId('live-by')).toHaveText(/^Live by [A-Z][a-z]{2} \d{1,2}, \d{4}$/, LOADED);
  const promised = await card.getByTestId('live-by').textContent();

  const paymentId = await buy(brand.page, ((await opp.json()) as { id: string }).id);
  await brand.page.goto(`/brand/my-articles/${paymentId}`);
  await expect(brand.page.getByTestId('details-title')).toHaveText(title, LOADED);
  await expect(brand.page.getByTestId('live-by')).toHaveText(promised!);
  await brand.page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(brand.page);
  await admin.close();
  await brand.close();
});
