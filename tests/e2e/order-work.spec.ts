import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { adminPage, api, brandAs, buy, expectNoHorizontalOverflow } from './support';
import { pdfText } from '../support/pdf';

/*
 * After a cart is paid (issue 46): one brief written and copied to the rest of the order, three
 * ready drafts approved at once (a fourth skipped with why), a placement the outlet declined and
 * swapped for a cheaper alternative (the difference refunded on its own credit note), the order's
 * one invoice listing its lines, and a line refunded with its own credit note.
 */

const SHOTS_DIR = process.env.SHOTS_DIR;
async function shots(page: Page, name: string) {
  if (!SHOTS_DIR) return;
  const size = page.viewportSize();
  await page.screenshot({ path: `${SHOTS_DIR}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: `${SHOTS_DIR}/${name}-390.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}

/** axe (WCAG 2.2 AA, as accessibility.spec.ts runs it) on the screen as it is now: no serious or critical problem. */
async function axe(page: Page, name: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const failing = violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.impact} ${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect.soft(failing, `${name}: axe violations`).toEqual([]);
}

test('[BRAND][ORDER] one brief for the order, drafts approved together, a decline swapped, invoice and credit notes', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const t = randomBytes(3).toString('hex');
  const { admin, close } = await adminPage(browser);
  const make = async (outletName: string, priceUsd: string) => {
    const res = await api(admin, 'POST', '/api/admin/opportunities', {
      outletName,
      title: `${outletName} story`,
      description: 'A placement for the order journey.',
      type: ['listicle'],
      topics: ['crypto'],
      domainAuthority: 77,
      priceUsd,
      maxSlots: 3,
    });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const names = ['Alpha', 'Bravo', 'Charlie', 'Delta'].map((n) => `${n} Weekly ${t}`);
  const ids = [await make(names[0], '300.00'), await make(names[1], '310.00'), await make(names[2], '320.00'), await make(names[3], '777.00')];
  const alternative = `Echo Daily ${t}`;
  await make(alternative, '700.00');

  // bought together through the API (the cart's own journey is cart.spec.ts)
  await page.goto('/auth');
  await brandAs(page, 'approved');
  for (const id of ids) expect((await api(page, 'PUT', `/api/cart/lines/${id}`)).status()).toBe(200);
  const started = await api(page, 'POST', '/api/cart/checkout', {});
  expect(started.status(), await started.text()).toBe(200);
  const { url, orderId } = (await started.json()) as { url: string; orderId: string };
  expect((await api(page, 'POST', `/api/payments/checkout/${url.split('/').pop()}/pay`)).status()).toBe(200);
  const order = (await (await api(page, 'GET', `/api/brand/orders/${orderId}`)).json()) as { lines: { paymentId: string; outletName: string }[] };
  const idOf = (i: number) => order.lines.find((l) => l.outletName === names[i])!.paymentId;

  // ---- one brief, copied to the rest of the order ----
  await page.goto(`/brand/brief/${idOf(0)}`);
  await page.getByLabel('Brand or product to list').fill('Riley Jordan');
  await page.getByLabel('What it is and who it is for').fill('Fifteen years building outdoor gear.');
  await page.getByRole('button', { name: 'Next: Article Guidelines' }).click();
  await page.getByLabel('Main goal of the article').fill('Reach new customers');
  await page.getByLabel('Target audience').fill('Weekend hikers');
  await page.getByLabel('Main message').fill('Gear that lasts a lifetime');
  // kept as a template for the organisation's next briefs, and deleted again
  await page.getByRole('button', { name: 'Save as template' }).click();
  await page.getByLabel('Template name').fill(`Launch ${t}`);
  await page.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: `Template “Launch ${t}” saved` })).toBeVisible();
  const templates = (await (await api(page, 'GET', '/api/brand/brief-templates')).json()) as { name: string; part2Json: Record<string, string> }[];
  expect(templates).toEqual([expect.objectContaining({ name: `Launch ${t}`, part2Json: expect.objectContaining({ mainGoal: 'Reach new customers' }) })]);
  await page.getByRole('button', { name: 'Save as template' }).click();
  await page.getByRole('button', { name: `Delete template Launch ${t}` }).click();
  await expect(page.getByRole('list', { name: 'Brief templates' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Submit Brief' }).click();
  const copy = page.getByTestId('use-brief-for');
  await expect(copy.getByRole('heading', { name: 'Use this brief for…' })).toBeVisible();
  await copy.getByLabel('Only the ones I choose').check();
  await expect(copy.getByRole('list', { name: 'Placements of this order' }).getByRole('listitem')).toHaveCount(3);
  await axe(page, 'use this brief for');
  await copy.getByLabel('All placements of this order without a brief').check();
  await shots(page, 'use-brief-for');
  await copy.getByRole('button', { name: 'Copy brief' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Brief copied to 3 placements' })).toBeVisible();
  await expect(page).toHaveURL(/\/brand\/my-articles$/);
  for (const i of [1, 2, 3]) {
    const brief = (await (await api(page, 'GET', `/api/brand/brief/${idOf(i)}`)).json()) as { submittedAt: string | null; part2Json: Record<string, string> };
    expect(brief.submittedAt).not.toBeNull();
    expect(brief.part2Json.mainGoal).toBe('Reach new customers');
  }

  // ---- three drafts ready: approved at once, the fourth skipped with why ----
  for (const i of [0, 1, 2]) {
    const res = await api(admin, 'PATCH', `/api/admin/payments/${idOf(i)}/status`, { draftDocumentUrl: `https://docs.example.com/d/${t}-${i}` });
    expect(res.status(), await res.text()).toBe(200);
  }
  await page.reload();
  // the Pending tab holds the one without a draft; Needs Review the three
  await page.getByRole('tab', { name: /Needs Review/ }).click();
  const ready = page.getByRole('tabpanel').getByTestId('article-card');
  await expect(ready).toHaveCount(3);
  for (let i = 0; i < 3; i++) await ready.nth(i).getByTestId('article-select').check();
  await expect(page.getByTestId('bulk-bar')).toContainText('3 selected');
  await axe(page, 'bulk bar');
  await shots(page, 'bulk-bar');
  await page.getByRole('button', { name: 'Approve ready drafts' }).click();
  await expect(page.getByTestId('bulk-outcome')).toContainText('3 drafts approved');
  await expect(page.getByTestId('bulk-outcome')).toContainText('Nothing was skipped.');
  await page.getByRole('button', { name: 'Done' }).click();
  // the API lists what it skips: the fourth has no draft
  const skipped = await api(page, 'POST', '/api/brand/projects/approve', { paymentIds: [idOf(3)] });
  expect(await skipped.json()).toEqual({ approved: [], skipped: [{ paymentId: idOf(3), reason: 'There is no draft to review yet' }] });

  // ---- the outlet declines the fourth; the brand swaps it for a cheaper alternative ----
  await admin.goto(`/admin/projects/${idOf(3)}`);
  await admin.getByRole('button', { name: 'Decline' }).click();
  await axe(admin, 'decline dialog');
  await admin.getByLabel('Reason').fill('The outlet no longer covers this topic');
  await admin.getByRole('button', { name: 'Decline placement' }).click();
  await expect(admin.getByTestId('declined-status')).toContainText('Declined: The outlet no longer covers this topic');

  await page.goto('/brand/my-articles?tab=pending');
  const declinedCard = page.getByTestId('article-card').filter({ hasText: names[3] });
  await expect(declinedCard.getByTestId('declined-note')).toContainText('The outlet declined this placement: The outlet no longer covers this topic');
  await declinedCard.getByRole('link', { name: 'Choose an alternative' }).click();
  const swap = page.getByTestId('swap-section');
  await expect(swap).toContainText('The editorial team could not place this article');
  const option = swap.getByTestId('swap-option').filter({ hasText: alternative });
  await expect(option).toContainText('$700.00');
  await expect(option).toContainText('$77.00 refunded');
  await axe(page, 'swap section');
  await shots(page, 'swap-section');
  await option.getByRole('button', { name: 'Choose' }).click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('$77.00 is refunded to your card');
  await page.getByRole('button', { name: 'Swap', exact: true }).click();
  await expect(page.getByTestId('toast').filter({ hasText: `Swapped for ${alternative}` })).toBeVisible();
  await expect(page.getByTestId('swap-section')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`${alternative} story`);
  await expect(page.getByTestId('timeline')).toContainText(`Swapped for ${alternative} ($77.00 refunded)`);

  // ---- the order: one invoice listing its lines; a refunded line's credit note ----
  const after = (await (await api(page, 'GET', `/api/brand/orders/${orderId}`)).json()) as { refundedUsd: string; invoiceNumber: string };
  expect(after.refundedUsd).toBe('77.00');
  const invoices = await Promise.all(order.lines.map((l) => api(page, 'GET', `/api/brand/payments/${l.paymentId}/invoice`)));
  for (const inv of invoices) expect(inv.headers()['content-disposition']).toContain(`${after.invoiceNumber}.pdf`);
  // the one invoice lists the order's lines
  const invoiceText = await pdfText(await invoices[0].body());
  for (const n of names) expect(invoiceText).toContain(`${n} story`);
  const refund = await api(admin, 'POST', `/api/admin/payments/${idOf(1)}/refund`);
  expect(refund.status(), await refund.text()).toBe(200);
  const note = await api(page, 'GET', `/api/brand/payments/${idOf(1)}/credit-note`);
  expect(note.status()).toBe(200);
  expect(note.headers()['content-type']).toContain('application/pdf');
  await close();
});

test('[BRAND][SWAP] a dearer alternative: the difference is paid on the checkout page and the placement moves', async ({ page, browser }) => {
  test.setTimeout(60_000);
  const t = randomBytes(3).toString('hex');
  const { admin, close } = await adminPage(browser);
  const make = async (outletName: string, priceUsd: string) => {
    const res = await api(admin, 'POST', '/api/admin/opportunities', {
      outletName,
      title: `${outletName} story`,
      description: 'A placement for the swap journey.',
      type: ['profile_article'],
      topics: ['fintech'],
      domainAuthority: 63,
      priceUsd,
      maxSlots: 2,
    });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const declinedId = await make(`Hotel Herald ${t}`, '613.00');
  const dearer = `India Ink ${t}`;
  await make(dearer, '700.00');

  await page.goto('/auth');
  await brandAs(page, 'approved');
  const paymentId = await buy(page, declinedId);
  expect((await api(admin, 'POST', `/api/admin/payments/${paymentId}/decline`, { reason: 'The outlet paused sponsored posts' })).status()).toBe(200);
  await close();

  await page.goto(`/brand/my-articles/${paymentId}`);
  const option = page.getByTestId('swap-section').getByTestId('swap-option').filter({ hasText: dearer });
  await expect(option).toContainText('$87.00 more to pay');
  await option.getByRole('button', { name: 'Choose' }).click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('you pay the $87.00 difference on the next page');
  await page.getByRole('button', { name: 'Pay $87.00 and swap' }).click();
  await expect(page).toHaveURL(/\/checkout\/[A-Za-z0-9_]+$/);
  await page.getByRole('button', { name: /^Pay \$87\.00/ }).click();
  await expect(page).toHaveURL(new RegExp(`/brand/my-articles/${paymentId}$`));
  await expect(page.getByTestId('toast').filter({ hasText: 'Payment received' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`${dearer} story`);
  await expect(page.getByTestId('timeline')).toContainText(`Swapped for ${dearer} ($87.00 paid)`);
  expect((await (await api(page, 'GET', '/api/brand/wallet')).json()).balance).toBe('700.00');
});
