import { expect, test, type Page } from '@playwright/test';
import { adminPage, api, brandAs, buy, expectNoHorizontalOverflow } from './support';

/** A fresh single-slot opportunity created by the admin. */
async function createOpportunity(admin: Page, title: string, price = '1250.00') {
  const res = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Daily Ledger',
    title,
    description: 'A feature story about your company.',
    type: ['profile_article'],
    priceUsd: price,
    maxSlots: 1,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const card = (page: Page, title: string) => page.getByTestId('article-card').filter({ hasText: title });

test('[BRAND] submits the brief over two steps with autosave, gets the next one pre-filled, reviews the draft until it is published', async ({
  page,
  browser,
}) => {
  // one long journey of many pages: on a busy 2-core machine it comes near the default limit
  test.setTimeout(120_000);
  const { admin, close } = await adminPage(browser);
  const title = `Content journey ${Date.now()}`;
  const secondTitle = `Second purchase ${Date.now()}`;
  const opportunityId = await createOpportunity(admin, title);
  const secondId = await createOpportunity(admin, secondTitle, '480.00');

  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await buy(page, opportunityId);

  // My Articles: the purchase waits for its brief under Pending
  await page.goto('/brand/my-articles');
  await expect(page.getByRole('heading', { name: 'My Articles' })).toBeVisible();
  await expect(page.getByText('Track your content placements and submissions')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Pending' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Pending' }).getByTestId('tab-count')).toHaveText('1');
  await expect(page.getByRole('tab', { name: 'Needs Review' }).getByTestId('tab-count')).toHaveCount(0);
  const pending = card(page, title);
  await expect(pending).toContainText('Brief pending');
  await expect(pending).toContainText('Profile Article');
  await expect(pending).toContainText('The Daily Ledger');
  await expect(pending).toContainText('$1,250.00');
  await expect(pending.getByTestId('article-status')).toHaveText('Pending');
  await page.getByRole('tab', { name: 'Needs Review' }).click();
  await expect(page.getByText('No drafts are ready for your review yet. Articles will appear here once the draft is complete.')).toBeVisible();
  await page.getByRole('tab', { name: 'Completed' }).click();
  await expect(page.getByText("You have no completed articles yet. Completed articles will appear here once they're published.")).toBeVisible();
  await page.getByRole('tab', { name: 'Pending' }).click();
  await pending.getByRole('link', { name: 'Submit Brief' }).click();

  // step 1: required messages first
  await expect(page).toHaveURL(new RegExp(`/brand/brief/${paymentId}$`));
  await expect(page.getByText('Step 1 of 2')).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');
  await expect(page.getByRole('heading', { name: 'About You / Your Brand' })).toBeVisible();
  await page.getByRole('button', { name: 'Next: Article Guidelines' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('Background and experience is required')).toBeVisible();

  // a field losing focus saves the draft a second later
  await page.getByLabel('Name (person or brand) to feature').fill('Riley Jordan');
  await page.getByLabel('Preferred title').focus();
  await expect(page.getByText('Draft saved')).toBeVisible();
  // typed but never left: reloading saves it on the way out
  await page.getByLabel('Background and experience').fill('Fifteen years building outdoor gear.');
  await page.reload();
  await expect(page.getByText('Step 1 of 2')).toBeVisible();
  await expect(page.getByLabel('Name (person or brand) to feature')).toHaveValue('Riley Jordan');
  await expect(page.getByLabel('Background and experience')).toHaveValue('Fifteen years building outdoor gear.');
  const saved = await (await api(page, 'GET', `/api/brand/brief/${paymentId}`)).json();
  expect(saved).toMatchObject({ source: 'saved', submittedAt: null, part1Json: { personOrBrandName: 'Riley Jordan' } });

  // step 2: its own required messages, social links one per line
  await page.getByRole('button', { name: 'Next: Article Guidelines' }).click();
  await expect(page.getByText('Step 2 of 2')).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByRole('heading', { name: 'Article Guidelines' })).toBeVisible();
  await page.getByRole('button', { name: 'Submit Brief' }).click();
  await expect(page.getByText('Main goal is required')).toBeVisible();
  await expect(page.getByText('Target audience is required')).toBeVisible();
  await expect(page.getByText('Main message is required')).toBeVisible();
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page.getByText('Step 1 of 2')).toBeVisible();
  await expect(page.getByLabel('Name (person or brand) to feature')).toHaveValue('Riley Jordan');
  await page.getByRole('button', { name: 'Next: Article Guidelines' }).click();
  await expect(page.getByText('Step 2 of 2')).toBeVisible();
  await page.getByLabel('Main goal of the article').fill('Reach new customers');
  await page.getByLabel('Target audience').fill('Weekend hikers');
  await page.getByLabel('Main message').fill('Gear that lasts a lifetime');
  await page.getByLabel('Social media links').fill('https://x.com/jordan\nhttps://linkedin.com/company/jordan');
  await page.getByRole('button', { name: 'Submit Brief' }).click();
  await expect(page.getByTestId('toast')).toContainText('Brief submitted successfully');
  await expect(page.getByTestId('toast')).toContainText('Your content brief has been submitted to the editorial team.');
  await expect(page).toHaveURL(/\/brand\/my-articles$/);
  await expect(card(page, title)).toContainText('Brief submitted');
  await expect(card(page, title)).toContainText('Awaiting first draft');
  await expect(card(page, title).getByRole('link', { name: 'Edit Brief' })).toHaveAttribute('href', `/brand/brief/${paymentId}`);

  // a second purchase starts from the first brief
  const secondPayment = await buy(page, secondId);
  await page.goto(`/brand/brief/${secondPayment}`);
  await expect(page.getByTestId('fallback-banner')).toContainText('pre-filled this form from your previous brief');
  await expect(page.getByLabel('Name (person or brand) to feature')).toHaveValue('Riley Jordan');
  await page.getByRole('link', { name: 'Back to My Articles' }).click();
  await expect(page).toHaveURL(/\/brand\/my-articles$/);

  // the admin attaches a draft: the card moves to Needs Review
  const attach = await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, { draftDocumentUrl: 'https://docs.google.com/document/d/x' });
  expect(attach.status(), await attach.text()).toBe(200);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Needs Review' })).toHaveAttribute('aria-selected', 'true');
  const review = card(page, title);
  await expect(review.getByTestId('article-status')).toHaveText('Needs Review');
  await expect(review).toContainText('Draft Ready for Review');
  const open = review.getByRole('link', { name: 'Open Document' });
  await expect(open).toHaveAttribute('href', 'https://docs.google.com/document/d/x');
  await expect(open).toHaveAttribute('target', '_blank');
  await expect(open).toHaveAttribute('rel', /noopener/);

  // request edits with feedback
  await review.getByRole('button', { name: 'Request Edits' }).click();
  const dialog = page.getByTestId('request-edits-dialog');
  await expect(dialog.getByRole('heading', { name: 'Submit Edit Request' })).toBeVisible();
  await expect(dialog).toContainText('0/1000 characters');
  await dialog.getByLabel('Feedback').fill('  Please mention the repair programme.  ');
  await expect(dialog).toContainText('40/1000 characters');
  await dialog.getByRole('button', { name: 'Send Edit Request' }).click();
  await expect(page.getByTestId('toast')).toContainText('Edits requested');
  await expect(page.getByTestId('toast')).toContainText('The admin has been notified of your edit request.');
  await expect(review.getByTestId('brand-feedback')).toHaveText('Please mention the repair programme.');

  // the admin marks the edits complete; the brand re-reviews and approves
  const complete = await api(admin, 'POST', `/api/admin/projects/${paymentId}/mark-edits-complete`);
  expect(complete.status(), await complete.text()).toBe(200);
  await page.reload();
  await expect(review).toContainText('Edits complete - please re-review');
  await review.getByRole('button', { name: 'Approve Draft' }).click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Approve Draft' }).click();
  await expect(page.getByTestId('toast')).toContainText('Draft approved');
  await expect(page.getByTestId('toast')).toContainText("Thank you! The admin has been notified that you've approved the draft.");
  // approved, it leaves Needs Review for Approved (issue 43)
  await expect(review).toHaveCount(0);
  await page.getByRole('tab', { name: 'Approved' }).click();
  await expect(review.getByTestId('article-status')).toHaveText('Approved – awaiting publication');
  await expect(review.getByRole('button', { name: 'Approve Draft' })).toHaveCount(0);
  await expect(review.getByRole('button', { name: 'Request Edits' })).toHaveCount(0);

  // published: Completed, Released, the brief can no longer be edited
  const release = await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, { status: 'released' });
  expect(release.status(), await release.text()).toBe(200);
  await close();
  await page.reload();
  await page.getByRole('tab', { name: 'Completed' }).click();
  const done = card(page, title);
  await expect(done.getByTestId('article-status')).toHaveText('Released');
  await expect(done.getByRole('link', { name: /Brief/ })).toHaveCount(0);
  await page.goto('/brand/payments');
  await expect(page.getByTestId('payment-row').filter({ hasText: title })).toContainText('Released');
  await page.goto(`/brand/brief/${paymentId}`);
  await expect(page.getByText('This article has been published, so its brief can no longer be changed.')).toBeVisible();
  await expect(page.getByLabel('Name (person or brand) to feature')).toHaveAttribute('readonly', '');
});

test('[BRAND] the earlier brief flow: access check, older form with a local draft, submit back to /brand', async ({ page, browser }) => {
  const { admin, close } = await adminPage(browser);
  const title = `Older form ${Date.now()}`;
  const opportunityId = await createOpportunity(admin, title, '300.00');
  await close();

  await page.goto('/auth');
  await brandAs(page, 'approved');
  // without the parameter, and for an opportunity not paid for: back to /brand
  await page.goto('/brand/brief');
  await expect(page).toHaveURL(/\/brand\/opportunities$/);
  await page.goto(`/brand/brief?opportunityId=${opportunityId}`);
  await expect(page).toHaveURL(/\/brand\/opportunities$/);

  const paymentId = await buy(page, opportunityId);
  await page.goto(`/brand/brief?opportunityId=${opportunityId}`);
  await expect(page.getByRole('heading', { name: 'Submit Your Brief' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your Story' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue to Part 2' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('Background is required')).toBeVisible();
  await page.getByLabel('Name to use in articles').fill('Riley Jordan');
  await page.getByLabel('Your background').fill('Started in a garage.');

  // the draft lives in the browser: a reload keeps it
  await expect(page.getByTestId('local-draft-note')).toHaveText('Your answers are kept on this device until you submit');
  await page.reload();
  await expect(page.getByTestId('local-draft-note')).toHaveText('Restored the answers you had not sent yet');
  await expect(page.getByLabel('Name to use in articles')).toHaveValue('Riley Jordan');
  await expect(page.getByLabel('Your background')).toHaveValue('Started in a garage.');
  await page.getByRole('button', { name: 'Continue to Part 2' }).click();
  await expect(page.getByRole('heading', { name: 'Goals & Strategy' })).toBeVisible();
  await page.getByRole('button', { name: 'Back to Part 1' }).click();
  await expect(page.getByLabel('Name to use in articles')).toHaveValue('Riley Jordan');
  await page.getByRole('button', { name: 'Continue to Part 2' }).click();
  await page.getByLabel('Goal of the article').fill('Awareness');
  await page.getByRole('textbox', { name: 'Audience', exact: true }).fill('Hikers');
  await page.getByLabel('Main message').fill('Repair, not replace');
  await page.getByRole('button', { name: 'Submit Brief' }).click();
  await expect(page.getByTestId('toast')).toContainText('Brief submitted');
  await expect(page.getByTestId('toast')).toContainText('Your brief has been saved successfully');
  await expect(page).toHaveURL(/\/brand\/opportunities$/);
  const left = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('byline:brief-draft:')));
  expect(left).toEqual([]);

  // the server mapped the older names onto the current brief
  const brief = await (await api(page, 'GET', `/api/brand/brief/${paymentId}`)).json();
  expect(brief).toMatchObject({
    source: 'saved',
    part1Json: { personOrBrandName: 'Riley Jordan', backgroundExperience: 'Started in a garage.' },
    part2Json: { mainGoal: 'Awareness', targetAudience: 'Hikers', mainMessage: 'Repair, not replace' },
  });
  expect(brief.submittedAt).toBeTruthy();
  await page.goto('/brand/my-articles');
  await expect(card(page, title)).toContainText('Brief submitted');
});

test('[BRAND] My Articles and the brief form fit a phone', async ({ page, browser }) => {
  const { admin, close } = await adminPage(browser);
  const title = `Phone article with a rather long title that has to wrap on a small screen ${Date.now()}`;
  const opportunityId = await createOpportunity(admin, title);
  await close();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await buy(page, opportunityId);

  await page.goto('/brand/my-articles');
  await expect(card(page, title)).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await page.goto(`/brand/brief/${paymentId}`);
  await expect(page.getByText('Step 1 of 2')).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await page.getByLabel('Name (person or brand) to feature').fill('Riley');
  await page.getByLabel('Background and experience').fill('Background');
  await page.getByRole('button', { name: 'Next: Article Guidelines' }).click();
  await expect(page.getByText('Step 2 of 2')).toBeVisible();
  await expectNoHorizontalOverflow(page);

  // leaving the form right after typing saves the change on the way out
  await page.getByLabel('Main goal of the article').fill('Saved on leaving');
  await page.getByRole('link', { name: 'Back to My Articles' }).click();
  await expect(page).toHaveURL(/\/brand\/my-articles$/);
  await expect
    .poll(async () => ((await (await api(page, 'GET', `/api/brand/brief/${paymentId}`)).json()) as { part2Json: { mainGoal?: string } }).part2Json.mainGoal)
    .toBe('Saved on leaving');
});

test('[BRAND] a failed autosave is retried and says so; a file draft downloads', async ({ page, browser }) => {
  const { admin, close } = await adminPage(browser);
  const title = `File draft ${Date.now()}`;
  const opportunityId = await createOpportunity(admin, title, '640.00');
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await buy(page, opportunityId);

  // the first save fails (network): the form says so, retries, and the text arrives
  let failed = 0;
  await page.route(`**/api/brand/brief/${paymentId}`, (route) => {
    if (route.request().method() === 'POST' && failed === 0) {
      failed++;
      return route.abort('failed');
    }
    return route.continue();
  });
  await page.goto(`/brand/brief/${paymentId}`);
  await page.getByLabel('Name (person or brand) to feature').fill('Riley Jordan');
  await page.getByLabel('Background and experience').fill('Retried background');
  await page.getByLabel('Preferred title').focus();
  await expect(page.getByText('Draft not saved - retrying...')).toBeVisible();
  await expect(page.getByText('Draft saved')).toBeVisible();
  expect(failed).toBe(1);
  const saved = await (await api(page, 'GET', `/api/brand/brief/${paymentId}`)).json();
  expect(saved.part1Json).toMatchObject({ personOrBrandName: 'Riley Jordan', backgroundExperience: 'Retried background' });

  // a submitted brief and an uploaded file draft
  const submit = await api(page, 'POST', `/api/brand/brief/${paymentId}/submit`, {
    part1Json: { personOrBrandName: 'Riley Jordan', backgroundExperience: 'Retried background' },
    part2Json: { mainGoal: 'Goal', targetAudience: 'Audience', mainMessage: 'Message' },
  });
  expect(submit.status(), await submit.text()).toBe(200);
  const upload = await admin.request.post('/api/upload/document', {
    multipart: { file: { name: 'draft.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n') } },
    headers: { origin: new URL(admin.url()).origin },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const { path } = (await upload.json()) as { path: string };
  const attach = await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, { draftDocumentFile: path });
  expect(attach.status(), await attach.text()).toBe(200);
  await close();

  await page.goto('/brand/my-articles');
  const review = card(page, title);
  await expect(review).toContainText('Draft Ready for Review');
  const link = review.getByRole('link', { name: 'Download File' });
  await expect(link).toHaveAttribute('href', path);
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe('draft.pdf');
});
