import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { DEMO_ADMIN, api, brandAs, expectNoHorizontalOverflow, loginAs } from './support';

const PDF = fileURLToPath(new URL('./fixtures/draft.pdf', import.meta.url));

/** Admin creates a single-slot opportunity; a fresh approved brand pays for it and submits its brief. */
async function paidProjectWithBrief(admin: Page, brand: Page, title: string) {
  const opp = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Daily Ledger',
    title,
    description: 'A profile of your founder.',
    type: ['profile_article', 'listicle'],
    priceUsd: '1500.00',
    maxSlots: 1,
  });
  expect(opp.status(), await opp.text()).toBe(201);
  const { id: opportunityId } = (await opp.json()) as { id: string };

  await brand.goto('/auth');
  const { email } = await brandAs(brand, 'approved');
  const checkout = await api(brand, 'POST', '/api/payments/checkout', { opportunityId });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { url } = (await checkout.json()) as { url: string };
  const pay = await api(brand, 'POST', `/api/payments/checkout/${url.split('/').pop()}/pay`);
  expect(pay.status(), await pay.text()).toBe(200);
  const { paymentId } = (await pay.json()) as { paymentId: string };

  const brief = await api(brand, 'POST', `/api/brand/brief/${paymentId}/submit`, {
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
      seoKeywords: 'retail, durable goods',
      socialMediaLinks: 'twitter.com/x\nhttps://linkedin.com/in/y',
    },
  });
  expect(brief.status(), await brief.text()).toBe(200);
  return { paymentId, email };
}

async function openTab(page: Page, name: RegExp) {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('data-state', 'active');
}

const toast = (page: Page) => page.getByTestId('toast');
const cardIn = (page: Page, title: string): Locator => page.getByRole('tabpanel').getByTestId('project-card').filter({ hasText: title });

test('[ADMIN] runs a project from brief to publication: view and copy the brief, attach, edits, edit draft, publish', async ({ browser }) => {
  // one long journey of many pages: on a busy 2-core machine it comes near the default limit
  test.setTimeout(120_000);
  const title = `Projects journey ${Date.now()}-x${Math.random().toString(36).slice(2, 8)}`;
  const adminCtx = await browser.newContext();
  await adminCtx.grantPermissions(['clipboard-read', 'clipboard-write']);
  const admin = await adminCtx.newPage();
  await admin.goto('/auth');
  await loginAs(admin, DEMO_ADMIN);
  const brandCtx = await browser.newContext();
  const brand = await brandCtx.newPage();
  const { paymentId, email } = await paidProjectWithBrief(admin, brand, title);

  // Awaiting Brief is the default tab, with a count
  await admin.goto('/admin/projects');
  await expect(admin.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  await expect(admin.getByText('Track all paid opportunities and their progress')).toBeVisible();
  await expect(admin.getByRole('tab', { name: /Awaiting Brief/ })).toHaveAttribute('data-state', 'active');
  await expect(admin.getByRole('tab', { name: /Awaiting Brief/ }).getByTestId('tab-count')).toBeVisible();
  const card = cardIn(admin, title);
  await expect(card).toContainText('Profile Article');
  await expect(card).toContainText('The Daily Ledger');
  await expect(card).toContainText('Jordan Goods');
  await expect(card).toContainText(email);
  await expect(card).toContainText('$1,500.00');
  await expect(card).toContainText('Brief submitted');

  // View Brief: filled fields, no empty optional ones, social links as https links in a new tab
  await card.getByRole('button', { name: 'View Brief' }).click();
  const details = card.getByTestId('brief-details');
  await expect(details).toContainText('Part 1: About You / Your Brand');
  await expect(details).toContainText('Part 2: Article Guidelines');
  await expect(card.getByTestId('brief-personOrBrandName')).toContainText('Riley Jordan');
  await expect(card.getByTestId('brief-backgroundExperience')).toContainText('Twelve years building retail brands.');
  await expect(card.getByTestId('brief-careerHighlights')).toContainText('Opened 40 stores');
  await expect(card.getByTestId('brief-mainMessage')).toContainText('Good goods last');
  await expect(card.getByTestId('brief-inspiration')).toHaveCount(0);
  await expect(card.getByTestId('brief-toneStyleGuidelines')).toHaveCount(0);
  await expect(details.getByText('N/A')).toHaveCount(0);
  const twitter = details.getByRole('link', { name: 'https://twitter.com/x' });
  await expect(twitter).toHaveAttribute('href', 'https://twitter.com/x');
  await expect(twitter).toHaveAttribute('target', '_blank');
  await expect(twitter).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(details.getByRole('link', { name: 'https://linkedin.com/in/y' })).toHaveAttribute('href', 'https://linkedin.com/in/y');
  await card.getByRole('button', { name: 'Hide Brief' }).click();
  await expect(card.getByTestId('brief-details')).toHaveCount(0);

  // Copy Brief: plain text with headings and rule lines
  await card.getByRole('button', { name: 'Copy Brief' }).click();
  await expect(toast(admin)).toContainText('Brief copied!');
  const copied = await admin.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('CONTENT BRIEF\n=============');
  expect(copied).toContain(`Opportunity: ${title}`);
  expect(copied).toContain('PART 1: ABOUT YOU / YOUR BRAND\n==============================');
  expect(copied).toContain('PART 2: ARTICLE GUIDELINES\n==========================');
  expect(copied).toContain('-'.repeat(60));
  expect(copied).toContain('Name:\nRiley Jordan');
  expect(copied).toContain('Social Media Links:\n- https://twitter.com/x\n- https://linkedin.com/in/y');

  // Attach Draft: no file → "No file selected"; a text file named .pdf is refused by the server; then a real PDF
  await card.getByRole('button', { name: 'Attach Draft' }).click();
  const dialog = admin.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Attach Draft Document' })).toBeVisible();
  await dialog.getByRole('radio', { name: 'Upload File' }).click();
  await dialog.getByRole('button', { name: 'Mark as Needs Review' }).click();
  await expect(toast(admin)).toContainText('No file selected');
  await expect(toast(admin)).toContainText('Error');
  await dialog.getByLabel('Document file').setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('just some text') });
  await dialog.getByRole('button', { name: 'Mark as Needs Review' }).click();
  await expect(toast(admin)).toContainText('Please upload a .doc, .docx or .pdf file');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Document file').setInputFiles(PDF);
  await dialog.getByRole('button', { name: 'Mark as Needs Review' }).click();
  await expect(toast(admin)).toContainText('Draft attached');
  await expect(toast(admin)).toContainText('The project has been marked as needs review with the draft document attached.');
  await expect(dialog).toHaveCount(0);
  await expect(cardIn(admin, title)).toHaveCount(0);

  await openTab(admin, /Pending Review/);
  const review = cardIn(admin, title);
  const panel = review.getByTestId('draft-panel');
  await expect(panel).toContainText('Draft Document Attached');
  await expect(panel).toContainText('PDF/DOC file');
  await expect(panel).toContainText('Awaiting brand review');
  await expect(panel.getByRole('button', { name: 'Mark Edits Complete' })).toHaveCount(0);
  const download = panel.getByRole('link', { name: 'Download File' });
  const href = await download.getAttribute('href');
  expect(href).toMatch(/^\/api\/files\/[A-Za-z0-9_-]+\.pdf$/);
  const file = await api(admin, 'GET', href!);
  expect(file.status()).toBe(200);
  expect((await file.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // the brand asks for edits: the admin sees them, with the feedback in the yellow box
  const edits = await api(brand, 'POST', `/api/brand/projects/${paymentId}/request-edits`, { feedback: 'Please mention our 2019 expansion.' });
  expect(edits.status(), await edits.text()).toBe(200);
  await admin.reload();
  await openTab(admin, /Pending Review/);
  await expect(panel).toContainText('Brand requested edits');
  await expect(review.getByTestId('brand-feedback')).toContainText('Please mention our 2019 expansion.');

  // phone width: the card, the panel and the expanded brief fit without sideways scrolling
  await admin.setViewportSize({ width: 390, height: 844 });
  await review.getByRole('button', { name: 'View Brief' }).click();
  await expect(review.getByTestId('brief-details')).toBeVisible();
  await expectNoHorizontalOverflow(admin);
  await review.getByRole('button', { name: 'Edit Draft' }).click();
  await expect(dialog).toBeVisible();
  await expectNoHorizontalOverflow(admin);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await admin.setViewportSize({ width: 1280, height: 800 });

  await panel.getByRole('button', { name: 'Mark Edits Complete' }).click();
  await expect(toast(admin)).toContainText('Edits marked complete');
  await expect(toast(admin)).toContainText('The brand will be notified to re-review the draft');
  await expect(panel).toContainText('Edits complete - awaiting brand re-review');
  await expect(panel.getByRole('button', { name: 'Mark Edits Complete' })).toHaveCount(0);
  await expect(review.getByTestId('brand-feedback')).toHaveCount(0);

  // Edit Draft: the current file is shown; an empty URL is refused; then switch to a Google Docs link
  await panel.getByRole('button', { name: 'Edit Draft' }).click();
  await expect(dialog.getByRole('heading', { name: 'Edit Draft Document' })).toBeVisible();
  await expect(dialog.getByTestId('current-file')).toContainText(href!.split('/').pop()!);
  await dialog.getByRole('radio', { name: 'Google Docs URL' }).click();
  await dialog.getByRole('button', { name: 'Update Draft' }).click();
  await expect(toast(admin)).toContainText('Please provide either a URL or upload a file');
  await dialog.getByLabel('Document URL').fill('https://docs.google.com/document/d/abc123/edit');
  await dialog.getByRole('button', { name: 'Update Draft' }).click();
  await expect(toast(admin)).toContainText('Draft updated');
  await expect(dialog).toHaveCount(0);
  await expect(panel).toContainText('Google Docs link');
  await expect(panel).toContainText('Edits complete - awaiting brand re-review');
  const open = panel.getByRole('link', { name: 'Open Document' });
  await expect(open).toHaveAttribute('href', 'https://docs.google.com/document/d/abc123/edit');
  await expect(open).toHaveAttribute('target', '_blank');
  await expect(open).toHaveAttribute('rel', /noopener/);

  // the brand approves: Approved tab, "Brand approved", Publish Content releases the payment
  const approve = await api(brand, 'POST', `/api/brand/projects/${paymentId}/approve`);
  expect(approve.status(), await approve.text()).toBe(200);
  await admin.reload();
  await openTab(admin, /Approved/);
  const approved = cardIn(admin, title);
  await expect(approved).toContainText('Brand approved');
  await admin.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(admin);
  await admin.setViewportSize({ width: 1280, height: 800 });
  await approved.getByRole('button', { name: 'Publish Content' }).click();
  // releasing money asks first
  await expect(admin.getByRole('dialog')).toContainText('cannot be undone');
  await admin.getByRole('dialog').getByRole('button', { name: 'Publish and release' }).click();
  await expect(toast(admin)).toContainText('Status updated');
  await expect(toast(admin)).toContainText('Project status has been updated successfully');
  // published, it leaves Approved for Published (one tab per project), without Publish Content
  await expect(approved).toHaveCount(0);
  await openTab(admin, /Published/);
  await expect(cardIn(admin, title)).toContainText('Published');
  await expect(cardIn(admin, title).getByRole('button', { name: 'Publish Content' })).toHaveCount(0);

  const payments = (await (await api(admin, 'GET', '/api/admin/payments')).json()) as { id: string; status: string }[];
  expect(payments.find((p) => p.id === paymentId)?.status).toBe('released');

  await brandCtx.close();
  await adminCtx.close();
});

test('[ADMIN] a paid project without a brief waits under Awaiting Brief with no draft or brief actions', async ({ browser }) => {
  const title = `Brief pending ${Date.now()}-x${Math.random().toString(36).slice(2, 8)}`;
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await admin.goto('/auth');
  await loginAs(admin, DEMO_ADMIN);
  const opp = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'Morning Wire',
    title,
    description: 'An editorial feature.',
    type: ['editorial_feature'],
    priceUsd: '99.90',
    maxSlots: 1,
  });
  expect(opp.status()).toBe(201);
  const { id: opportunityId } = (await opp.json()) as { id: string };
  const brandCtx = await browser.newContext();
  const brand = await brandCtx.newPage();
  await brand.goto('/auth');
  await brandAs(brand, 'approved');
  const { url } = (await (await api(brand, 'POST', '/api/payments/checkout', { opportunityId })).json()) as { url: string };
  expect((await api(brand, 'POST', `/api/payments/checkout/${url.split('/').pop()}/pay`)).status()).toBe(200);

  await admin.goto('/admin/projects');
  const card = cardIn(admin, title);
  await expect(card).toContainText('Brief pending');
  await expect(card).toContainText('Editorial Feature');
  await expect(card).toContainText('$99.90');
  for (const name of ['Attach Draft', 'Copy Brief', 'View Brief']) await expect(card.getByRole('button', { name })).toHaveCount(0);

  // the other tabs: their own empty text, or cards that are not this one
  await openTab(admin, /Pending Review/);
  await expect(cardIn(admin, title)).toHaveCount(0);
  await admin.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(admin);
  await brandCtx.close();
  await adminCtx.close();
});

test('[ADMIN] a stale screen: mark edits complete and publish refused by the server show the server message', async ({ browser }) => {
  const title = `Stale project ${Date.now()}-x${Math.random().toString(36).slice(2, 8)}`;
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await admin.goto('/auth');
  await loginAs(admin, DEMO_ADMIN);
  const brandCtx = await browser.newContext();
  const brand = await brandCtx.newPage();
  const { paymentId } = await paidProjectWithBrief(admin, brand, title);
  expect((await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, { draftDocumentUrl: 'https://docs.google.com/document/d/x' })).status()).toBe(200);
  expect((await api(brand, 'POST', `/api/brand/projects/${paymentId}/request-edits`, {})).status()).toBe(200);

  await admin.goto('/admin/projects');
  await openTab(admin, /Pending Review/);
  const card = cardIn(admin, title);
  await expect(card.getByTestId('brand-feedback')).toContainText('without a comment');
  // meanwhile the brand approves: marking edits complete is refused, and the screen catches up
  expect((await api(brand, 'POST', `/api/brand/projects/${paymentId}/approve`)).status()).toBe(200);
  await card.getByRole('button', { name: 'Mark Edits Complete' }).click();
  await expect(toast(admin)).toContainText('Error');
  await expect(toast(admin)).toContainText('Edits can only be marked complete after the brand has requested them');
  await expect(cardIn(admin, title)).toHaveCount(0);

  await openTab(admin, /Approved/);
  const approved = cardIn(admin, title);
  await expect(approved).toContainText('Brand approved');
  // meanwhile released elsewhere (the dashboard's Mark Published): Publish Content is refused
  expect((await api(admin, 'POST', `/api/admin/payments/${paymentId}/release`)).status()).toBe(200);
  await approved.getByRole('button', { name: 'Publish Content' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Publish and release' }).click();
  await expect(toast(admin)).toContainText('Error');
  await expect(toast(admin)).toContainText('Only a payment held in escrow can be released');
  // the screen catches up: the project is under Published now
  await expect(approved).toHaveCount(0);
  await openTab(admin, /Published/);
  await expect(cardIn(admin, title)).toContainText('Published');
  await brandCtx.close();
  await adminCtx.close();
});

// the seeded admin's name (src/server/setup/seed.ts)
const DEMO_ADMIN_NAME = 'Alex Morgan';

test('[ADMIN] gives a project an editor and finds it under Mine (issue 59)', async ({ browser }) => {
  const title = `Editor journey ${Date.now()}-x${Math.random().toString(36).slice(2, 8)}`;
  const admin = await (await browser.newContext()).newPage();
  await admin.goto('/auth');
  await loginAs(admin, DEMO_ADMIN);
  const brand = await (await browser.newContext()).newPage();
  const { email } = await paidProjectWithBrief(admin, brand, title);

  // the brand's projects alone: unassigned, so not the admin's own yet
  await admin.goto(`/admin/projects?q=${encodeURIComponent(email)}`);
  const card = cardIn(admin, title);
  const editor = card.getByLabel('Editor');
  await expect(editor).toHaveValue('');
  await expect(editor.locator('option:checked')).toHaveText('Unassigned');
  await admin.getByRole('switch', { name: 'Mine' }).click();
  await expect(admin).toHaveURL(/mine=1/);
  await expect(admin.getByRole('tabpanel').getByTestId('project-card')).toHaveCount(0);
  await admin.getByRole('switch', { name: 'Mine' }).click();

  // the admin takes it: the toast says so, and Mine lists it (a reload keeps the filter)
  await cardIn(admin, title).getByLabel('Editor').selectOption({ label: DEMO_ADMIN_NAME });
  await expect(toast(admin)).toContainText(`Assigned to ${DEMO_ADMIN_NAME}`);
  await admin.getByRole('switch', { name: 'Mine' }).click();
  await expect(cardIn(admin, title)).toBeVisible();
  await admin.reload();
  await expect(admin.getByRole('switch', { name: 'Mine' })).toHaveAttribute('aria-checked', 'true');
  await expect(cardIn(admin, title).getByLabel('Editor').locator('option:checked')).toHaveText(DEMO_ADMIN_NAME);
  await expectNoHorizontalOverflow(admin);
});
