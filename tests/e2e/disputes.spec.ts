import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { SECOND_ADMIN } from '../../playwright.config';
import { adminPage, api, axe, brandAs, buy, loginAs, shots } from './support';

/*
 * Disputes (issue 47), through the screens: a third edit request declined, then the content
 * disputed from "Problem with this order?" and refunded in part on an offer the brand accepts; a
 * rejected dispute escalated and decided by a second admin (the one who answered is refused); a
 * dispute about the live link, which Byline's checks of a loopback outlet decide.
 */

const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });
/** The date the screens print (date-fns 'MMM d, yyyy'), in the browser's and this process's time zone. */
const shown = (d: Date) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(d);
const inDays = (n: number) => shown(new Date(Date.now() + n * 86_400_000));

const ok = async (res: Awaited<ReturnType<typeof api>>, status = 200) => {
  expect(res.status(), await res.text()).toBe(status);
  return res;
};

/** An opportunity of its own (title unique to the run), made by the admin through the API. */
async function opportunity(admin: Page, title: string, priceUsd: string) {
  const res = await ok(
    await api(admin, 'POST', '/api/admin/opportunities', {
      outletName: `Dispute Outlet ${title.slice(-6)}`,
      title,
      description: 'A placement for the dispute journeys.',
      type: ['listicle'],
      topics: ['crypto'],
      domainAuthority: 70,
      priceUsd,
      maxSlots: 3,
    }),
    201,
  );
  return ((await res.json()) as { id: string }).id;
}

/** Bought, the brief in and the draft attached (the setup none of these journeys is about). */
async function drafted(brand: Page, admin: Page, opportunityId: string) {
  const paymentId = await buy(brand, opportunityId);
  await ok(
    await api(brand, 'POST', `/api/brand/brief/${paymentId}/submit`, {
      part1Json: { personOrBrandName: 'Riley Jordan', backgroundExperience: 'Fifteen years building outdoor gear.' },
      part2Json: {
        mainGoal: 'Reach new customers',
        targetAudience: 'Weekend hikers',
        mainMessage: 'Gear that lasts a lifetime',
      },
    }),
  );
  await ok(
    await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, {
      draftDocumentUrl: `https://docs.example.com/d/${paymentId}`,
    }),
  );
  return paymentId;
}

/** The second admin signed in on a page of its own browser context. */
async function secondAdminPage(browser: Browser) {
  const ctx = await browser.newContext();
  const admin = await ctx.newPage();
  await admin.goto('/auth');
  await loginAs(admin, SECOND_ADMIN);
  return { admin, close: () => ctx.close() };
}

/** "Problem with this order?" → "Open a dispute", filled in and sent; the dispute's page is next. */
async function openDispute(
  page: Page,
  ask: {
    reason: string;
    outcome: 'A full refund' | 'A partial refund' | 'A correction';
    amount?: string;
    text: string;
  },
) {
  const section = page.getByTestId('dispute-section');
  await expect(section.getByRole('heading', { name: 'Problem with this order?' })).toBeVisible();
  await section.getByRole('button', { name: 'Open a dispute' }).click();
  const dialog = page.getByTestId('open-dispute-dialog');
  await dialog.getByRole('radio', { name: ask.reason }).check();
  await dialog.getByRole('radio', { name: ask.outcome }).check();
  if (ask.amount) await dialog.getByLabel('Amount you ask for (USD)').fill(ask.amount);
  await dialog.getByLabel('What is wrong').fill(ask.text);
  return dialog;
}

test('[BRAND][ADMIN][DISPUTES] a third edit request declined, then disputed: an offer of a part refund, accepted', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const title = `Dispute rounds ${randomBytes(3).toString('hex')}`;
  const { admin, close } = await adminPage(browser);
  const opportunityId = await opportunity(admin, title, '500.00');
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await drafted(page, admin, opportunityId);

  // ---- setup: the two included rounds, then an extra one the editorial team declines ----
  for (const n of [1, 2]) {
    await ok(await api(page, 'POST', `/api/brand/projects/${paymentId}/request-edits`, { feedback: `Round ${n}` }));
    await ok(await api(admin, 'POST', `/api/admin/projects/${paymentId}/mark-edits-complete`));
  }
  await ok(
    await api(page, 'POST', `/api/brand/projects/${paymentId}/request-edits`, {
      feedback: 'Add the founder quote.',
      reason: 'The brief asked for the founder quote; the draft leaves it out.',
    }),
    202,
  );
  await ok(
    await api(admin, 'POST', `/api/admin/payments/${paymentId}/revision-request/decline`, {
      reason: 'The founder quote was not in the submitted brief.',
    }),
  );

  // ---- the brand disputes the content from "Problem with this order?" ----
  await page.goto(`/brand/my-articles/${paymentId}`);
  await expect(page.getByTestId('draft-section').getByTestId('extra-revision')).toHaveText(
    'Extra revision declined: The founder quote was not in the submitted brief.',
  );
  const section = page.getByTestId('dispute-section');
  await expect(section.getByTestId('dispute-rule')).toContainText(
    'Dispute the content until 7 days after publication: the editorial team answers within 3 days, or you get what you ask for.',
  );
  await shots(page, 'dispute-entry');
  await section.getByRole('button', { name: 'Open a dispute' }).click();
  const dialog = page.getByTestId('open-dispute-dialog');
  // not published: only the content's reasons are offered
  await expect(dialog.getByRole('radio')).toHaveCount(5);
  await expect(dialog.getByRole('group', { name: 'What is the problem?' }).getByRole('radio')).toHaveCount(2);
  await expect(dialog.getByRole('radio', { name: 'The link to us is missing' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Open dispute' }).click();
  await expect(dialog).toContainText('Choose what the problem is');
  await expect(dialog).toContainText('Choose what you ask for');
  await expect(dialog).toContainText('Describe the problem');
  await dialog.getByRole('radio', { name: 'The article is not as briefed' }).check();
  await dialog.getByRole('radio', { name: 'A partial refund' }).check();
  await dialog.getByRole('button', { name: 'Open dispute' }).click();
  await expect(dialog).toContainText('Give the amount you ask for');
  await dialog.getByLabel('Amount you ask for (USD)').fill('150');
  await dialog
    .getByLabel('What is wrong')
    .fill('The brief asked for the founder quote and our repair programme; the article has neither.');
  await dialog.getByLabel('Evidence (optional)').setInputFiles({
    name: 'brief-excerpt.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n'),
  });
  await expect(dialog.getByTestId('dispute-who-decides')).toContainText('The editorial team answers within 3 days');
  await axe(page, 'open dispute dialog');
  await shots(page, 'open-dispute-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Open dispute' }).click();
  const respondBy = inDays(3);
  await expect(toast(page, 'Dispute opened')).toContainText(`The editorial team answers by ${respondBy}.`);

  // ---- its page: what was asked, the deadline, the text in the conversation ----
  await expect(page).toHaveURL(/\/brand\/disputes\/[0-9a-f-]+$/);
  const disputeUrl = new URL(page.url()).pathname;
  const disputeId = disputeUrl.split('/').pop()!;
  await expect(page.getByTestId('dispute-title')).toHaveText(title);
  await expect(page.getByTestId('dispute-status')).toHaveText('Awaiting the team');
  await expect(page.getByTestId('dispute-reason')).toHaveText('The article is not as briefed');
  await expect(page.getByTestId('dispute-asked')).toHaveText('A partial refund of $150.00');
  await expect(page.getByTestId('dispute-text')).toHaveText(
    'The brief asked for the founder quote and our repair programme; the article has neither.',
  );
  await expect(page.getByTestId('deadline-respond-by')).toHaveText(respondBy);
  await expect(page.getByTestId('dispute-due')).toHaveText(
    `The editorial team answers by ${respondBy}. Not answered by then, you get what you asked for.`,
  );
  const conversation = page.getByTestId('conversation');
  await expect(conversation).toContainText(
    'Dispute opened: The article is not as briefed. Asking for: A partial refund of $150.00.',
  );
  await expect(conversation).toContainText('brief-excerpt.pdf');
  await expect(page.getByRole('button', { name: 'Accept offer' })).toHaveCount(0);
  await axe(page, 'brand dispute page, open');
  await shots(page, 'brand-dispute-open');

  // the placement's page and the My Articles card say it too
  await page.getByRole('link', { name: 'Back to the placement' }).click();
  await expect(page).toHaveURL(new RegExp(`/brand/my-articles/${paymentId}$`));
  await expect(section.getByTestId('dispute-line-status')).toHaveText('Awaiting the team');
  await expect(section.getByTestId('dispute-line-due')).toHaveText(`The editorial team answers by ${respondBy}`);
  await expect(section.getByRole('button', { name: 'Open a dispute' })).toHaveCount(0);
  await page.goto('/brand/my-articles?tab=needs-review');
  const card = page.getByTestId('article-card').filter({ hasText: title });
  await expect(
    card.getByTestId('dispute-note').getByRole('link', { name: 'Dispute: Awaiting the team' }),
  ).toHaveAttribute('href', disputeUrl);
  await expect(card.getByTestId('dispute-note')).toContainText(`The editorial team answers by ${respondBy}`);
  await axe(page, 'my articles with a dispute');
  await shots(page, 'my-articles-dispute');

  // ---- the editorial team: Disputes, then an offer of $150.00 ----
  await admin.goto('/admin');
  await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Disputes' }).click();
  await expect(admin).toHaveURL(/\/admin\/disputes$/);
  await expect(admin.getByRole('tab', { name: /Open/ })).toHaveAttribute('aria-selected', 'true');
  const row = admin.getByTestId('dispute-row').filter({ hasText: title });
  await expect(row.getByTestId('dispute-row-brand')).toHaveText('Jordan Goods');
  await expect(row).toContainText('The article is not as briefed');
  await expect(row.getByTestId('dispute-row-status')).toHaveText('To answer');
  await expect(row.getByTestId('dispute-row-due')).toHaveText(`Answer by ${respondBy}`);
  await axe(admin, 'admin disputes list');
  await shots(admin, 'admin-disputes-open');
  await row.getByRole('link', { name: title }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/disputes/${disputeId}$`));
  await expect(admin.getByTestId('dispute-asked')).toHaveText('A partial refund of $150.00');
  await expect(admin.getByTestId('conversation')).toContainText('brief-excerpt.pdf');
  await admin.getByRole('button', { name: 'Offer' }).click();
  const offer = admin.getByTestId('answer-dispute-dialog');
  await expect(offer.getByRole('heading', { name: 'Make an offer' })).toBeVisible();
  await offer.getByRole('button', { name: 'Send offer' }).click();
  await expect(offer).toContainText('Give the reason, the brand will read it');
  await offer.getByLabel('Amount to refund (USD)').fill('150.00');
  await offer.getByLabel('Reason', { exact: true }).fill('The quote was missed: we refund the part you asked for.');
  await axe(admin, 'offer dialog');
  await shots(admin, 'admin-dispute-offer', { fullPage: false });
  await offer.getByRole('button', { name: 'Send offer' }).click();
  await expect(toast(admin, 'Offer sent')).toBeVisible();
  await expect(admin.getByTestId('dispute-status')).toHaveText('Awaiting the brand');
  await expect(admin.getByTestId('dispute-answer')).toContainText('The team offered $150.00 back');
  const escalateBy = inDays(3);
  await expect(admin.getByTestId('deadline-escalate-by')).toHaveText(escalateBy);
  await shots(admin, 'admin-dispute-offered');
  // the placement's page links it
  await admin.getByRole('link', { name: 'Back to the placement' }).click();
  const adminLine = admin.getByTestId('dispute-section');
  await expect(adminLine.getByTestId('dispute-line-status')).toHaveText('Awaiting the brand');
  await expect(adminLine.getByTestId('dispute-line-due')).toHaveText(`The brand answers by ${escalateBy}`);
  await expect(adminLine.getByRole('link', { name: 'View dispute' })).toHaveAttribute(
    'href',
    disputeUrl.replace('/brand/', '/admin/'),
  );

  // ---- the brand accepts the offer ----
  await page.goto(disputeUrl);
  await expect(page.getByTestId('dispute-status')).toHaveText('Offer made');
  await expect(page.getByTestId('dispute-answer')).toContainText('The editorial team offered $150.00 back');
  await expect(page.getByTestId('dispute-answer')).toContainText(
    'Reason: The quote was missed: we refund the part you asked for.',
  );
  await expect(page.getByTestId('deadline-escalate-by')).toHaveText(escalateBy);
  await shots(page, 'brand-dispute-offered');
  await page.getByRole('button', { name: 'Accept offer' }).click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm).toContainText('$150.00 goes back to your card, with a credit note, and the dispute ends.');
  await confirm.getByRole('button', { name: 'Accept offer' }).click();
  await expect(toast(page, 'Offer accepted')).toContainText('$150.00 is on its way back to your card.');
  await expect(page.getByTestId('dispute-status')).toHaveText('Partially refunded');
  await expect(page.getByTestId('dispute-resolution-label')).toHaveText('Partially refunded');
  await expect(page.getByTestId('dispute-refunded')).toHaveText('$150.00 refunded');
  await expect(page.getByRole('button', { name: 'Accept offer' })).toHaveCount(0);
  await axe(page, 'brand dispute page, resolved');
  await shots(page, 'brand-dispute-resolved');

  // ---- the placement: partially refunded, with its credit note ----
  await page.getByRole('link', { name: 'Back to the placement' }).click();
  await expect(page.getByTestId('partly-refunded').first()).toHaveText('Partially refunded');
  const money = page.getByTestId('money-section');
  await expect(money.getByTestId('money-refunded')).toHaveText('$150.00 refunded');
  await expect(money.getByTestId('credit-note')).toHaveCount(1);
  await expect(money.getByTestId('credit-note')).toContainText('$150.00');
  await expect(section.getByTestId('dispute-line-status')).toHaveText('Partially refunded');
  await shots(page, 'placement-dispute-refunded');
  await close();
});

test('[BRAND][ADMIN][DISPUTES] a rejected dispute escalated: the admin who answered may not decide, a second admin does', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const title = `Dispute escalated ${randomBytes(3).toString('hex')}`;
  const { admin, close } = await adminPage(browser);
  const opportunityId = await opportunity(admin, title, '400.00');
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await drafted(page, admin, opportunityId);

  await page.goto(`/brand/my-articles/${paymentId}`);
  const dialog = await openDispute(page, {
    reason: 'Something else',
    outcome: 'A full refund',
    text: 'The article is about another company altogether.',
  });
  await dialog.getByRole('button', { name: 'Open dispute' }).click();
  await expect(page).toHaveURL(/\/brand\/disputes\/[0-9a-f-]+$/);
  const disputeUrl = new URL(page.url()).pathname;
  const adminUrl = disputeUrl.replace('/brand/', '/admin/');

  // ---- the demo admin rejects it, with a reason ----
  await admin.goto(adminUrl);
  await admin.getByRole('button', { name: 'Reject' }).click();
  const reject = admin.getByTestId('answer-dispute-dialog');
  await reject.getByLabel('Reason', { exact: true }).fill('The article follows the brief you submitted.');
  await shots(admin, 'admin-dispute-reject', { fullPage: false });
  await reject.getByRole('button', { name: 'Reject dispute' }).click();
  await expect(toast(admin, 'Dispute rejected')).toBeVisible();
  await expect(admin.getByTestId('dispute-answer')).toContainText('The team rejected the dispute');

  // ---- the brand escalates ----
  await page.reload();
  await expect(page.getByTestId('dispute-status')).toHaveText('Rejected: accept or escalate');
  await expect(page.getByTestId('dispute-answer')).toContainText('The editorial team rejected the dispute');
  await expect(page.getByTestId('dispute-answer')).toContainText(
    'Reason: The article follows the brief you submitted.',
  );
  await expect(page.getByRole('button', { name: 'Accept offer' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Escalate' }).click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm.getByRole('heading', { name: 'Escalate this dispute?' })).toBeVisible();
  await expect(confirm).toContainText(
    'Another member of the editorial team, one who neither published your placement nor answered your dispute, decides it within 10 days, with a written reason.',
  );
  await axe(page, 'escalate confirmation');
  await shots(page, 'brand-dispute-escalate', { fullPage: false });
  await confirm.getByRole('button', { name: 'Escalate' }).click();
  const decideBy = inDays(10);
  await expect(toast(page, 'Dispute escalated')).toContainText(`Another member of the editorial team decides by ${decideBy}.`);
  await expect(page.getByTestId('dispute-status')).toHaveText('Escalated');
  await expect(page.getByTestId('deadline-decide-by')).toHaveText(decideBy);
  await expect(page.getByRole('button', { name: 'Escalate' })).toHaveCount(0);

  // ---- the admin who answered may not decide it: told so, and who may, with no Decide to press (issue 57) ----
  await admin.goto('/admin/disputes?status=escalated');
  const row = admin.getByTestId('dispute-row').filter({ hasText: title });
  await expect(row.getByTestId('dispute-row-due')).toHaveText(`Decision due by ${decideBy}`);
  await shots(admin, 'admin-disputes-escalated');
  await row.getByRole('link', { name: title }).click();
  await expect(admin.getByTestId('deciders')).toContainText('You released this placement or answered the dispute, so you may not decide it:');
  await expect(admin.getByTestId('deciders')).toContainText('second-admin@byline.test');
  await expect(admin.getByRole('button', { name: 'Decide' })).toHaveCount(0);
  await axe(admin, 'escalated dispute, conflicted admin');
  await shots(admin, 'admin-dispute-not-yours');
  await expect(admin.getByTestId('dispute-status')).toHaveText('Escalated');
  await close();

  // ---- a second admin decides: a part refund, with a written reason ----
  const second = await secondAdminPage(browser);
  await second.admin.goto(adminUrl);
  await second.admin.getByRole('button', { name: 'Decide' }).click();
  const decideB = second.admin.getByTestId('decide-dispute-dialog');
  await decideB.getByRole('radio', { name: /Refund part/ }).check();
  await decideB.getByLabel('Amount to refund (USD)').fill('250.00');
  await decideB.getByLabel('Written reason').fill('Half the brief was missed; the rest of the article stands.');
  await shots(second.admin, 'admin-dispute-decide', { fullPage: false });
  await decideB.getByRole('button', { name: 'Decide' }).click();
  await expect(toast(second.admin, 'Dispute decided')).toContainText('$250.00 has been refunded to the brand.');
  await expect(second.admin.getByTestId('dispute-status')).toHaveText('Partially refunded');
  await second.close();

  // ---- the brand reads the decision ----
  await page.reload();
  await expect(page.getByTestId('dispute-status')).toHaveText('Partially refunded');
  await expect(page.getByTestId('dispute-refunded')).toHaveText('$250.00 refunded');
  await expect(page.getByTestId('dispute-decision')).toContainText(
    'Half the brief was missed; the rest of the article stands.',
  );
  await shots(page, 'brand-dispute-decided');
  await page.getByRole('link', { name: 'Back to the placement' }).click();
  await expect(page.getByTestId('money-section').getByTestId('money-refunded')).toHaveText('$250.00 refunded');
});

/*
 * A link dispute is decided by Byline's checks: a failure two checks an hour apart confirm becomes
 * the publication case, and the brand is refunded in full if the outlet does not restore the
 * article by its deadline. The hour and the deadline need the clock moved: dispute-deadlines.spec.ts
 * runs that journey on a server of its own. Here: the outlet removes the page, the brand opens the
 * dispute, an admin's "Recheck now" runs a check, and its failure shows on the dispute's page as
 * evidence.
 */
const BRAND_SITE = 'https://jordan.example.com';
const ARTICLE = `<!doctype html><html><head><title>Jordan Goods repairs</title></head><body><article><h1>Jordan Goods repairs</h1><p>${'A long story about repairs, goods and the people who make them last. '.repeat(15)}</p><p>Visit <a href="${BRAND_SITE}/">Jordan Goods</a>.</p></article></body></html>`;
let outlet: http.Server;
let base = '';
const live = new Set<string>();

test.beforeAll(async () => {
  outlet = http.createServer((req, res) => {
    const up = live.has(req.url ?? '');
    res.writeHead(up ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(up ? ARTICLE : 'Not found');
  });
  await new Promise<void>((resolve) => outlet.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(outlet.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  outlet.closeAllConnections();
  await new Promise<void>((resolve) => outlet.close(() => resolve()));
});

test('[BRAND][ADMIN][DISPUTES] the link to us is missing: Byline checks the live article, and the failing check is the evidence', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const t = randomBytes(3).toString('hex');
  const title = `Dispute link ${t}`;
  const path = `/story-${t}`;
  const { admin, close } = await adminPage(browser);
  const opportunityId = await opportunity(admin, title, '600.00');
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await drafted(page, admin, opportunityId);
  await ok(await api(page, 'POST', `/api/brand/projects/${paymentId}/approve`));
  live.add(path);
  await ok(await api(admin, 'POST', `/api/admin/payments/${paymentId}/release`, { liveUrl: `${base}${path}` }));

  // ---- the outlet removes the page; the brand disputes the link ----
  live.delete(path);
  await page.goto(`/brand/my-articles/${paymentId}`);
  const section = page.getByTestId('dispute-section');
  await expect(section.getByTestId('dispute-rule')).toContainText(
    `The page or its link to you gone? Byline’s checks decide a dispute about the live link until ${inDays(90)}.`,
  );
  await section.getByRole('button', { name: 'Open a dispute' }).click();
  const dialog = page.getByTestId('open-dispute-dialog');
  // published just now: the link's reasons, and the content's (until 7 days after release)
  await expect(dialog.getByRole('group', { name: 'What is the problem?' }).getByRole('radio')).toHaveCount(5);
  await dialog.getByRole('radio', { name: 'The link to us is missing' }).check();
  await dialog.getByRole('radio', { name: 'A full refund' }).check();
  await dialog.getByLabel('What is wrong').fill('The article page is gone, and our link with it.');
  await expect(dialog.getByTestId('dispute-who-decides')).toContainText(
    'Byline checks the live article at once: when two checks at least an hour apart confirm the problem, the outlet must restore it within 10 days or you are refunded in full.',
  );
  await shots(page, 'open-link-dispute-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Open dispute' }).click();
  await expect(toast(page, 'Dispute opened')).toContainText('Byline is checking the live article.');
  await expect(page).toHaveURL(/\/brand\/disputes\/[0-9a-f-]+$/);
  const disputeUrl = new URL(page.url()).pathname;
  await expect(page.getByTestId('dispute-status')).toHaveText('Checking the link');
  await expect(page.getByTestId('dispute-due')).toHaveText('Byline’s checks decide it.');
  await expect(page.getByTestId('dispute-checking')).toContainText('Byline checks the live article now.');
  await expect(page.getByTestId('dispute-deadlines')).toHaveCount(0);
  await axe(page, 'link dispute page');
  await shots(page, 'brand-link-dispute-open');

  // ---- an admin runs the check now (the watch would within minutes) ----
  await admin.goto(`/admin/projects/${paymentId}`);
  await expect(admin.getByTestId('dispute-section').getByTestId('dispute-line-status')).toHaveText('Checking the link');
  await admin.getByTestId('publication-section').getByRole('button', { name: 'Recheck now' }).click();
  await expect(admin.getByTestId('toast').filter({ hasText: 'The page answered 404 Not Found.' })).toBeVisible();
  await admin.getByTestId('dispute-section').getByRole('link', { name: 'View dispute' }).click();
  const adminCheck = admin.getByTestId('evidence-check').first();
  await expect(adminCheck.getByTestId('evidence-result')).toHaveText('Failed');
  await shots(admin, 'admin-link-dispute');
  await close();

  // ---- the brand sees the failing check as the dispute's evidence ----
  await page.goto(disputeUrl);
  const check = page.getByTestId('evidence-check').first();
  await expect(check.getByTestId('evidence-result')).toHaveText('Failed');
  await expect(check).toContainText(`${base}${path}`);
  await expect(check).toContainText('The page answered 404 Not Found.');
  await expect(page.getByTestId('dispute-status')).toHaveText('Checking the link');
  await shots(page, 'brand-link-dispute-evidence');
});
