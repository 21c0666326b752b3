import { randomBytes } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_ADMIN, PASSWORD, adminPage, api, axe, brandAs, buy, expectNoHorizontalOverflow, invitationToken, loginAs, shots, uniqueEmail } from './support';

/*
 * Issue 57's polish, as a new agency team met it: a page one may not open says why instead of
 * sending one elsewhere without a word; a viewer's empty Reports page says where reports come from;
 * the Team page shows an invitation accepted in another browser; a long revision badge fits a phone.
 */

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

/** A member of the owner's organisation with `role`, signed in on a page of its own browser. */
async function memberOf(owner: Page, browser: Browser, role: 'viewer' | 'buyer', name: string) {
  const email = uniqueEmail(role);
  const invited = await api(owner, 'POST', '/api/org/invitations', { email, role });
  expect(invited.status(), await invited.text()).toBe(201);
  const token = await invitationToken(email);
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto('/auth');
  expect((await api(page, 'POST', '/api/register', { email, password: PASSWORD })).status()).toBe(201);
  return {
    page,
    email,
    accept: async () => {
      const joined = await api(page, 'POST', `/api/invitations/${token}/accept`, { name });
      expect(joined.status(), await joined.text()).toBe(200);
    },
    close: () => ctx.close(),
  };
}

test('[GUARD] a page of the other portal says why it sent you to your own', async ({ page, browser }) => {
  await page.goto('/auth');
  await brandAs(page, 'approved');
  await page.goto('/admin/payments');
  await expect(page).toHaveURL(/\/brand\/opportunities$/);
  await expect(toast(page, "You don't have access to that page")).toContainText("That page is for Byline's editorial team.");

  const { admin, close } = await adminPage(browser);
  await admin.goto('/brand/my-articles');
  await expect(admin).toHaveURL(/\/admin$/);
  await expect(toast(admin, "You don't have access to that page")).toContainText('That page is part of the Brand Portal.');
  await close();
});

test('[TEAM][REPORTS] the Team page shows an invitation accepted elsewhere; a viewer is told where reports come from', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  await page.goto('/auth');
  await brandAs(page, 'approved');
  const viewer = await memberOf(page, browser, 'viewer', 'Vera Viewer');

  // the owner has the Team page open, with the invitation waiting
  await page.goto('/brand/team');
  await expect(page.getByTestId('invitation-row').filter({ hasText: viewer.email })).toBeVisible();
  await expect(page.getByTestId('member-row')).toHaveCount(1);

  // accepted in the viewer's browser; the owner goes elsewhere and back, without reloading
  await viewer.accept();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Articles' }).click();
  await expect(page.getByRole('heading', { name: 'My Articles', level: 1 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Organisation' }).getByRole('link', { name: 'Team' }).click();
  await expect(page.getByTestId('member-row').filter({ hasText: 'Vera Viewer' })).toBeVisible();
  await expect(page.getByTestId('member-row')).toHaveCount(2);
  await expect(page.getByTestId('invitation-row')).toHaveCount(0);

  // the viewer's Reports: nothing to make, told where reports come from
  const v = viewer.page;
  await v.goto('/brand/reports');
  await expect(v.getByRole('heading', { name: 'No reports yet' })).toBeVisible();
  await expect(v.getByText('Reports your team makes appear here, for you to download as PDF or CSV.', { exact: false })).toBeVisible();
  await expect(v.getByText('As a viewer you read reports but do not make them: ask a teammate for one.', { exact: false })).toBeVisible();
  await expect(v.getByRole('button', { name: 'New report' })).toHaveCount(0);
  await expect(v.getByText('Links your team makes to reports and proofs appear here.')).toBeVisible();
  await axe(v, 'viewer reports');
  await shots(v, 'polish-viewer-reports');

  await v.goto('/brand/opportunities');
  await expect(v.getByRole('heading', { level: 1 })).toHaveText('Welcome, Vera');
  await shots(v, 'polish-viewer-catalogue');

  // the owner's empty Reports offers to make one, from the empty state too
  await page.goto('/brand/reports');
  await expect(page.getByRole('button', { name: 'New report' })).toHaveCount(2);
  await shots(page, 'polish-owner-reports');
  await viewer.close();
});

test('[REVISIONS] a revision badge beyond the included rounds fits a phone', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const t = randomBytes(3).toString('hex');
  const title = `Rounds on a phone ${t}`;
  const { admin, close } = await adminPage(browser);
  const created = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: `Phone Outlet ${t}`,
    title,
    description: 'A placement whose rounds go beyond those included.',
    type: ['editorial_feature'],
    priceUsd: '300.00',
    maxSlots: 2,
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: opportunityId } = (await created.json()) as { id: string };

  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await buy(page, opportunityId);
  const ok = async (res: Awaited<ReturnType<typeof api>>, status = 200) => expect(res.status(), await res.text()).toBe(status);
  await ok(
    await api(page, 'POST', `/api/brand/brief/${paymentId}/submit`, {
      part1Json: { personOrBrandName: 'Riley Jordan', backgroundExperience: 'Fifteen years building outdoor gear.' },
      part2Json: { mainGoal: 'Reach new customers', targetAudience: 'Weekend hikers', mainMessage: 'Gear that lasts' },
    }),
  );
  await ok(await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, { draftDocumentUrl: `https://docs.example.com/d/${t}` }));
  // the two included rounds, then an extra one the team accepts
  for (let round = 0; round < 2; round++) {
    await ok(await api(page, 'POST', `/api/brand/projects/${paymentId}/request-edits`, { feedback: `Round ${round + 1}` }));
    await ok(await api(admin, 'POST', `/api/admin/projects/${paymentId}/mark-edits-complete`));
  }
  await ok(
    await api(page, 'POST', `/api/brand/projects/${paymentId}/request-edits`, {
      feedback: 'Add the founder quote.',
      reason: 'The brief asked for the founder quote; the draft leaves it out.',
    }),
    202,
  );
  await ok(await api(admin, 'POST', `/api/admin/payments/${paymentId}/revision-request/accept`));
  await close();

  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of [`/brand/my-articles/${paymentId}`, '/brand/my-articles?tab=needs-review']) {
    await page.goto(path);
    const badge = page.getByTestId('revision-count').first();
    await expect(badge).toHaveText('Revision 3 · 1 extra beyond the 2 included');
    await expectNoHorizontalOverflow(page);
    // the badge inside its panel, not running past its edge (a badge that never wraps did)
    const overflow = await badge.evaluate((el) => el.getBoundingClientRect().right - el.parentElement!.getBoundingClientRect().right);
    expect(overflow).toBeLessThanOrEqual(0.5);
  }
  await shots(page, 'polish-revision-badge');

  // the admin's side at 390 px too
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const a = await ctx.newPage();
  await a.goto('/auth');
  await loginAs(a, DEMO_ADMIN);
  await a.goto(`/admin/projects/${paymentId}`);
  const adminBadge = a.getByTestId('revision-count').first();
  await expect(adminBadge).toHaveText('Revision 3 · 1 extra beyond the 2 included');
  await expectNoHorizontalOverflow(a);
  expect(await adminBadge.evaluate((el) => el.getBoundingClientRect().right - el.parentElement!.getBoundingClientRect().right)).toBeLessThanOrEqual(0.5);
  await ctx.close();
});
