import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { adminPage, api, axe, brandAs, buy, shots } from './support';
import { pdfText } from '../support/pdf';

/*
 * Fair terms (issue 47), through the screens: the included edit rounds ("Revision n of N") and an
 * extra one the editorial team declines with a reason; a part refund from Admin Payments with its
 * own credit note; a cancellation before writing (refunded in full at once) and one after writing
 * started (a request the team answers with a part refund); the rules on the terms page.
 */

const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });
/** The date the screens print (date-fns 'MMM d, yyyy'), in the browser's and this process's time zone. */
const shown = (d: Date) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(d);

/** An opportunity of its own (title unique to the run), made by the admin through the API. */
async function opportunity(admin: Page, title: string, priceUsd: string) {
  const res = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: `Fair Outlet ${title.slice(-6)}`,
    title,
    description: 'A placement for the fair terms journeys.',
    type: ['listicle'],
    topics: ['crypto'],
    domainAuthority: 70,
    priceUsd,
    maxSlots: 3,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function submitBrief(brand: Page, paymentId: string) {
  const res = await api(brand, 'POST', `/api/brand/brief/${paymentId}/submit`, {
    part1Json: { personOrBrandName: 'Riley Jordan', backgroundExperience: 'Fifteen years building outdoor gear.' },
    part2Json: {
      mainGoal: 'Reach new customers',
      targetAudience: 'Weekend hikers',
      mainMessage: 'Gear that lasts a lifetime',
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test('[BRAND][ADMIN][REVISIONS] two included rounds, an extra one declined, then a part refund with its credit note', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const t = randomBytes(3).toString('hex');
  const title = `Fair rounds ${t}`;
  const { admin, close } = await adminPage(browser);
  const opportunityId = await opportunity(admin, title, '500.00');

  await page.goto('/auth');
  const { email } = await brandAs(page, 'approved');
  const paymentId = await buy(page, opportunityId);
  await submitBrief(page, paymentId);
  const draft = await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, {
    draftDocumentUrl: `https://docs.example.com/d/${t}`,
  });
  expect(draft.status(), await draft.text()).toBe(200);

  // ---- the two included rounds: "Revision n of 2" on both sides ----
  await page.goto(`/brand/my-articles/${paymentId}`);
  const brandDraft = page.getByTestId('draft-section');
  await expect(brandDraft.getByTestId('revision-count')).toHaveText('2 revisions included');
  for (const n of [1, 2]) {
    await brandDraft.getByRole('button', { name: 'Request Edits' }).click();
    await page.getByLabel('Feedback (optional)').fill(`Round ${n}: tighten the opening paragraph.`);
    await page.getByRole('button', { name: 'Send Edit Request' }).click();
    await expect(toast(page, 'Edits requested')).toBeVisible();
    await expect(brandDraft.getByTestId('revision-count')).toHaveText(`Revision ${n} of 2`);

    await admin.goto(`/admin/projects/${paymentId}`);
    const adminDraft = admin.getByTestId('draft-section');
    await expect(adminDraft.getByTestId('revision-count')).toHaveText(`Revision ${n} of 2`);
    await adminDraft.getByRole('button', { name: 'Mark Edits Complete' }).click();
    await expect(toast(admin, 'Edits marked complete')).toBeVisible();
    await page.reload();
  }
  // the My Articles card says it too
  await page.goto('/brand/my-articles?tab=needs-review');
  await expect(page.getByTestId('article-card').filter({ hasText: title }).getByTestId('revision-count')).toHaveText(
    'Revision 2 of 2',
  );
  await shots(page, 'my-articles-revision');

  // ---- a third request is an extra revision: it needs a reason tied to the brief ----
  await page.goto(`/brand/my-articles/${paymentId}`);
  await brandDraft.getByRole('button', { name: 'Request Edits' }).click();
  const ask = page.getByTestId('request-edits-dialog');
  await expect(ask.getByRole('heading', { name: 'Ask for an extra revision' })).toBeVisible();
  await expect(ask).toContainText(
    'Your 2 included revisions are used. An extra revision needs a reason tied to the brief; the editorial team will accept or decline it.',
  );
  await ask.getByRole('button', { name: 'Send to the editorial team' }).click();
  await expect(ask.getByRole('alert').first()).toBeVisible();
  await expect(ask).toContainText('Say how the draft departs from the brief');
  await ask.getByLabel('Feedback', { exact: true }).fill('Add the founder quote from the brief.');
  await ask
    .getByLabel('Reason', { exact: true })
    .fill('The brief asked for the founder quote; the draft leaves it out.');
  await axe(page, 'extra revision dialog');
  await shots(page, 'extra-revision-dialog');
  await ask.getByRole('button', { name: 'Send to the editorial team' }).click();
  await expect(toast(page, 'Extra revision sent to the editorial team')).toBeVisible();
  await expect(brandDraft.getByTestId('extra-revision')).toContainText('Extra revision awaiting the editorial team');
  await expect(brandDraft.getByRole('button', { name: 'Request Edits' })).toBeDisabled();
  await shots(page, 'extra-revision-pending');

  // ---- the editorial team declines it, with the reason the brand reads ----
  await admin.goto(`/admin/projects/${paymentId}`);
  const request = admin.getByTestId('extra-revision');
  await expect(request).toContainText('The brief asked for the founder quote; the draft leaves it out.');
  await expect(request.getByRole('button', { name: 'Accept extra revision' })).toBeVisible();
  await shots(admin, 'extra-revision-admin');
  await request.getByRole('button', { name: 'Decline' }).click();
  const decline = admin.getByTestId('decline-revision-dialog');
  await decline.getByRole('button', { name: 'Decline extra revision' }).click();
  await expect(decline).toContainText('Give the reason, the brand will read it');
  await decline.getByLabel('Reason', { exact: true }).fill('The founder quote was not in the submitted brief.');
  await axe(admin, 'decline extra revision dialog');
  await shots(admin, 'decline-extra-revision');
  await decline.getByRole('button', { name: 'Decline extra revision' }).click();
  await expect(toast(admin, 'Extra revision declined')).toBeVisible();
  await expect(request).toContainText('Extra revision declined: The founder quote was not in the submitted brief.');

  await page.reload();
  await expect(brandDraft.getByTestId('extra-revision')).toHaveText(
    'Extra revision declined: The founder quote was not in the submitted brief.',
  );
  await expect(brandDraft.getByRole('button', { name: 'Request Edits' })).toBeEnabled();

  // ---- a part refund from Admin Payments: $100.00 of $500.00 ----
  await admin.goto(`/admin/payments?q=${encodeURIComponent(email)}`);
  const row = admin.getByTestId('admin-payment-row').filter({ hasText: title });
  await row.getByRole('button', { name: 'Refund' }).click();
  const refund = admin.getByTestId('refund-dialog');
  await expect(refund.getByRole('heading', { name: 'Refund this payment?' })).toBeVisible();
  await refund.getByRole('radio', { name: 'Refund part of it' }).check();
  const amount = refund.getByLabel('Amount to refund (USD)');
  await expect(amount).toHaveValue('500.00');
  await amount.fill('600.00');
  await refund.getByLabel('Reason', { exact: true }).fill('Published two days late.');
  await refund.getByRole('button', { name: 'Refund part' }).click();
  await expect(refund.getByRole('alert')).toHaveText('That is more than is left to refund: $500.00 of $500.00');
  await amount.fill('100');
  await axe(admin, 'part refund dialog');
  await shots(admin, 'part-refund-dialog');
  await refund.getByRole('button', { name: 'Refund part' }).click();
  await expect(toast(admin, 'Payment refunded')).toContainText('$100.00 has been refunded to the brand.');
  await expect(row.getByTestId('payment-status')).toHaveText('Paid - Held');
  await expect(row.getByTestId('partly-refunded')).toHaveText('Partially refunded');
  await expect(row.getByTestId('refunded-amount')).toHaveText('$100.00 refunded');
  // what is left is offered next
  await row.getByRole('button', { name: 'Refund' }).click();
  await expect(refund.getByTestId('refunded-so-far')).toHaveText('$100.00 refunded so far · $400.00 left');
  await shots(admin, 'admin-payments-part-refunded');
  await refund.getByRole('button', { name: 'Cancel' }).click();

  // ---- the brand: Payment History, the placement's page, the credit note ----
  await page.goto('/brand/payments');
  const payment = page.getByTestId('payment-row').filter({ hasText: title });
  await expect(payment.getByTestId('partly-refunded')).toHaveText('Partially refunded');
  await expect(payment.getByTestId('refunded-amount')).toHaveText('$100.00 refunded');
  await expect(payment.getByRole('link', { name: 'Credit note', exact: true })).toBeVisible();
  await shots(page, 'payment-history-part-refunded');

  await page.goto(`/brand/my-articles/${paymentId}`);
  // beside the status in the header, and beside the money's state
  await expect(page.getByTestId('partly-refunded')).toHaveText(['Partially refunded', 'Partially refunded']);
  const money = page.getByTestId('money-section');
  await expect(money.getByTestId('money-refunded')).toHaveText('$100.00 refunded');
  await expect(money).toContainText(
    '$100.00 of $500.00 was refunded to your card; the other $400.00 is held until the article is published.',
  );
  const note = money.getByTestId('credit-note');
  await expect(note).toHaveCount(1);
  await expect(note).toContainText('$100.00');
  const number = (await note.locator('.font-mono').textContent())!.trim();
  expect(number).toMatch(/^BYL-CN-\d{4}-\d{6}$/);
  await shots(page, 'money-part-refunded');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    note.getByRole('link', { name: `Credit note ${number} PDF`, exact: true }).click(),
  ]);
  const text = await pdfText(readFileSync((await download.path())!));
  expect(text).toContain(number);
  expect(text).toContain('100.00');
  await close();
});

test('[BRAND] cancelling before writing starts: refunded in full at once, with a credit note', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const title = `Fair cancel early ${randomBytes(3).toString('hex')}`;
  const { admin, close } = await adminPage(browser);
  const opportunityId = await opportunity(admin, title, '300.00');
  await close();

  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await buy(page, opportunityId);
  await page.goto(`/brand/my-articles/${paymentId}`);
  const section = page.getByTestId('cancellation-section');
  await expect(section.getByTestId('cancellation-rule')).toHaveText(
    'Until the editorial team starts writing, cancelling refunds you in full at once.',
  );
  await section.getByRole('button', { name: 'Cancel placement' }).click();
  const dialog = page.getByTestId('cancel-dialog');
  await expect(dialog).toContainText('$300.00 goes back to your card in full at once');
  await axe(page, 'cancel dialog');
  await shots(page, 'cancel-before-writing');
  await dialog.getByRole('button', { name: 'Cancel and refund' }).click();
  await expect(toast(page, 'Placement cancelled')).toContainText('$300.00 is on its way back to your card.');

  await expect(page.getByTestId('article-status')).toHaveText('Refunded');
  await expect(section.getByTestId('cancellation-state')).toContainText('Cancellation granted');
  await expect(section.getByTestId('cancellation-state')).toContainText('$300.00 refunded to your card in full.');
  await expect(section.getByRole('button', { name: 'Cancel placement' })).toHaveCount(0);
  const money = page.getByTestId('money-section');
  await expect(money.getByTestId('money-status')).toHaveText('Refunded');
  await expect(money.getByTestId('credit-note')).toHaveCount(1);
  await expect(money.getByTestId('credit-note')).toContainText('$300.00');
  await expect(money.getByRole('link', { name: 'Credit note', exact: true })).toBeVisible();
  await shots(page, 'cancelled-before-writing');
});

test('[BRAND][ADMIN] cancelling after writing started: a request the editorial team answers with a part refund', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const title = `Fair cancel late ${randomBytes(3).toString('hex')}`;
  const { admin, close } = await adminPage(browser);
  const opportunityId = await opportunity(admin, title, '400.00');

  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await buy(page, opportunityId);
  await submitBrief(page, paymentId);

  // ---- the editorial team marks the writing as started ----
  await admin.goto(`/admin/projects/${paymentId}`);
  await admin.getByRole('button', { name: 'Mark writing started' }).click();
  await expect(toast(admin, 'Writing marked as started')).toBeVisible();
  await expect(admin.getByTestId('draft-section').getByTestId('writing-started')).toHaveText(
    `Writing started ${shown(new Date())}`,
  );
  await expect(admin.getByRole('button', { name: 'Mark writing started' })).toHaveCount(0);
  await shots(admin, 'writing-started');

  // ---- the brand asks to cancel, with a reason ----
  await page.goto(`/brand/my-articles/${paymentId}`);
  await expect(page.getByTestId('draft-section').getByTestId('writing-started')).toBeVisible();
  const section = page.getByTestId('cancellation-section');
  await expect(section.getByTestId('cancellation-rule')).toHaveText(
    'Writing has started: cancelling is a request the editorial team answers within 3 days, granted in full if they do not.',
  );
  await section.getByRole('button', { name: 'Cancel placement' }).click();
  const dialog = page.getByTestId('cancel-dialog');
  await expect(dialog.getByRole('heading', { name: 'Ask to cancel this placement?' })).toBeVisible();
  await expect(dialog).toContainText('The editorial team answers within 3 days');
  await expect(dialog).toContainText('A request not answered within 3 days is granted in full.');
  await dialog.getByRole('button', { name: 'Ask to cancel' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Say why you want to cancel: the editorial team reads it');
  await dialog.getByLabel('Reason', { exact: true }).fill('Our launch moved to next quarter.');
  await axe(page, 'cancel request dialog');
  await shots(page, 'cancel-after-writing');
  await dialog.getByRole('button', { name: 'Ask to cancel' }).click();
  const respondBy = shown(new Date(Date.now() + 3 * 86_400_000));
  await expect(toast(page, 'Cancellation requested')).toContainText(`The editorial team answers by ${respondBy}.`);
  const state = section.getByTestId('cancellation-state');
  await expect(state).toContainText('Cancellation requested');
  await expect(state.getByTestId('respond-by')).toHaveText(respondBy);
  await expect(state).toContainText('Your reason: Our launch moved to next quarter.');
  await expect(section.getByRole('button', { name: 'Cancel placement' })).toHaveCount(0);
  await shots(page, 'cancel-requested');

  // ---- Projects lists the open request; the placement's page answers it ----
  await admin.goto('/admin/projects');
  const open = admin.getByTestId('open-cancellations');
  await expect(open.getByRole('heading', { name: 'Cancellations awaiting an answer' })).toBeVisible();
  const line = open.getByTestId('open-cancellation').filter({ hasText: title });
  await expect(line).toContainText('Jordan Goods');
  await expect(line).toContainText(`Answer by ${respondBy}`);
  await shots(admin, 'open-cancellations');
  await line.getByRole('link', { name: title }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/projects/${paymentId}$`));
  const adminSection = admin.getByTestId('cancellation-section');
  await expect(adminSection.getByTestId('cancellation-state')).toContainText(
    "The brand's reason: Our launch moved to next quarter.",
  );
  await adminSection.getByRole('button', { name: 'Answer cancellation' }).click();
  const answer = admin.getByTestId('answer-cancellation-dialog');
  await answer.getByRole('radio', { name: /Refund part/ }).check();
  await answer.getByLabel('Amount to refund (USD)').fill('150.00');
  await answer.getByRole('button', { name: 'Send answer' }).click();
  await expect(answer).toContainText('Give the reason, the brand will read it');
  await answer.getByLabel('Reason', { exact: true }).fill('The draft was half written.');
  await axe(admin, 'answer cancellation dialog');
  await shots(admin, 'answer-cancellation');
  await answer.getByRole('button', { name: 'Send answer' }).click();
  await expect(toast(admin, 'Cancellation granted')).toContainText('$150.00 has been refunded to the brand.');
  await expect(adminSection.getByTestId('cancellation-state')).toContainText(
    "$150.00 of $400.00 refunded to the brand's card",
  );
  await expect(admin.getByTestId('project-state')).toHaveText('Partially refunded');
  await admin.goto('/admin/projects');
  await expect(admin.getByTestId('open-cancellation').filter({ hasText: title })).toHaveCount(0);

  // ---- the brand reads the outcome ----
  await page.reload();
  await expect(page.getByTestId('article-status')).toHaveText('Partially refunded');
  await expect(state).toContainText('Cancellation granted');
  await expect(state).toContainText('$150.00 of $400.00 refunded to your card; the rest was kept for the work done.');
  await expect(state).toContainText("The editorial team's reason: The draft was half written.");
  const money = page.getByTestId('money-section');
  await expect(money.getByTestId('money-status')).toHaveText('Partially refunded');
  await expect(money.getByTestId('money-refunded')).toHaveText('$150.00 refunded');
  await expect(money.getByTestId('credit-note')).toContainText('$150.00');
  await shots(page, 'cancel-granted-part');
  await close();
});

test('[PUBLIC] the terms page states the rules of revisions, cancellation and refunds', async ({ page }) => {
  await page.goto('/terms');
  const rules = page.getByTestId('fair-rules');
  await expect(rules.getByRole('heading', { name: 'Revisions, cancellation, disputes and refunds' })).toBeVisible();
  await expect(rules).toContainText('2 rounds of edits');
  await expect(rules).toContainText('3 days');
  await shots(page, 'terms-rules');
});
