import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, api, brandAs, buy, loginAs } from './support';

/**
 * The whole story of one article on its timeline (issue 19): paid, brief, two drafts with a request
 * for edits between them, approval, publication and release, in that order, with who did each,
 * as the brand and the admin see it on the details page.
 */
test('[BRAND][ADMIN] the timeline tells one article from payment to release', async ({ browser }) => {
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await admin.goto('/auth');
  await loginAs(admin, DEMO_ADMIN);
  const opp = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Story Times',
    title: `Timeline story ${Date.now()}`,
    description: 'A founder profile.',
    type: ['profile_article'],
    priceUsd: '980.00',
    maxSlots: 1,
  });
  expect(opp.status(), await opp.text()).toBe(201);
  const { id: opportunityId } = (await opp.json()) as { id: string };

  const brandCtx = await browser.newContext();
  const brand = await brandCtx.newPage();
  await brand.goto('/auth');
  await brandAs(brand, 'approved');
  const paymentId = await buy(brand, opportunityId);

  const ok = async (res: Promise<import('@playwright/test').APIResponse>) => {
    const r = await res;
    expect(r.status(), await r.text()).toBeLessThan(300);
  };
  await ok(api(brand, 'POST', `/api/brand/brief/${paymentId}`, { part1Json: { personOrBrandName: 'Riley Jordan' } }));
  await ok(
    api(brand, 'POST', `/api/brand/brief/${paymentId}/submit`, {
      part1Json: { personOrBrandName: 'Riley Jordan', preferredTitle: 'Founder', backgroundExperience: 'Twelve years.', careerHighlights: '40 stores' },
      part2Json: { mainGoal: 'Reach retailers', targetAudience: 'Store owners', mainMessage: 'Good goods last', seoKeywords: 'retail', socialMediaLinks: '' },
    }),
  );
  await ok(api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, { draftDocumentUrl: 'https://docs.example.com/draft-1' }));
  await ok(api(brand, 'POST', `/api/brand/projects/${paymentId}/request-edits`, { feedback: 'Please add a quote from our CEO.' }));
  await ok(api(admin, 'POST', `/api/admin/projects/${paymentId}/mark-edits-complete`));
  await ok(api(brand, 'POST', `/api/brand/projects/${paymentId}/approve`));
  await ok(api(admin, 'POST', `/api/admin/payments/${paymentId}/release`));

  const story = [
    'Paid $980.00',
    'Brief started',
    'Brief submitted',
    'Draft attached (round 1)',
    'Edits requested',
    'Edits marked complete',
    'Draft approved',
    // the spec's release call, without a live URL, says so (issue 57)
    'Released without a live URL',
    'Payment released ($980.00)',
  ];
  for (const [page, path] of [
    [brand, `/brand/my-articles/${paymentId}`],
    [admin, `/admin/projects/${paymentId}`],
  ] as const) {
    await page.goto(path);
    const timeline = page.getByTestId('timeline');
    await expect(timeline.getByText('Payment released ($980.00)')).toBeVisible();
    // every step, in order
    const text = (await timeline.innerText()).replace(/\s+/g, ' ');
    let from = 0;
    for (const sentence of story) {
      const at = text.indexOf(sentence, from);
      expect(at, `"${sentence}" after position ${from} in: ${text}`).toBeGreaterThanOrEqual(0);
      from = at + sentence.length;
    }
    // the round's feedback in full, and who did what
    await expect(timeline.getByText('Please add a quote from our CEO.')).toBeVisible();
    // the member who approved, by name, not the organisation (issue 57), on both sides
    const approved = timeline.getByTestId('timeline-entry').filter({ hasText: 'Draft approved' });
    await expect(approved).toContainText('Riley Jordan ·');
    await expect(timeline).not.toContainText('Jordan Goods');
  }
  await adminCtx.close();
  await brandCtx.close();
});
