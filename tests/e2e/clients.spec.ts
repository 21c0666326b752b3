import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, adminPage, api, brandAs, expectNoHorizontalOverflow, invitationToken, uniqueEmail } from './support';

const BRIEF = {
  part1Json: { personOrBrandName: 'Northwind Foods', backgroundExperience: 'Forty years of cold-chain logistics.' },
  part2Json: { mainGoal: 'Reach grocers', targetAudience: 'Independent grocers', mainMessage: 'Fresh travels well' },
};

// SHOTS_DIR=/tmp/… saves screenshots of each screen at 1280 and 390 px
const SHOTS_DIR = process.env.SHOTS_DIR;
async function shots(page: Page, name: string) {
  if (!SHOTS_DIR) return;
  const size = page.viewportSize();
  await page.screenshot({ path: `${SHOTS_DIR}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS_DIR}/${name}-390.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}

/** No serious or critical axe violation on the page as it is. */
async function axe(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
}

test('[CLIENTS] an agency buys for a client; its client reviewer approves the draft without seeing a price; the owner reads it in the audit log', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const title = `Client journey ${stamp}`;
  const client = `Northwind Foods ${stamp}`;
  const { admin, close } = await adminPage(browser);
  const created = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Grocer Gazette',
    outletUrl: 'https://grocer-gazette.example.com',
    title,
    description: 'A feature story about your company.',
    type: ['editorial_feature'],
    tat: '2 weeks',
    priceUsd: '2345.67',
    maxSlots: 1,
    domainAuthority: 60,
  });
  expect(created.status(), await created.text()).toBe(201);

  // the owner adds the client and its billing details on Clients
  await page.goto('/auth');
  await brandAs(page, 'approved');
  await page.goto('/brand/clients');
  await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
  await page.getByLabel('Client name').fill(client);
  await page.getByRole('button', { name: 'Add client' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: `${client} was added.` })).toBeVisible();
  const row = page.getByTestId('client-row').filter({ hasText: client });
  await expect(row).toContainText('No billing details');
  await row.getByRole('button', { name: 'Billing details' }).click();
  const billing = page.getByTestId('client-billing-dialog');
  await billing.getByLabel('Legal name').fill('Northwind Foods SAS');
  await billing.getByLabel('Address', { exact: true }).fill('12 quai de Bercy');
  await billing.getByLabel('City').fill('Paris');
  await billing.getByLabel('Country').selectOption('FR');
  await billing.getByRole('button', { name: 'Save billing details' }).click();
  await expect(billing).toBeHidden();
  await expect(row).toContainText('Own billing details');
  await axe(page);
  await shots(page, 'clients');

  // the owner invites a reviewer limited to the client, who signs up and joins
  await page.goto('/brand/team');
  const email = uniqueEmail('client-reviewer');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Role').selectOption('reviewer');
  await page.getByTestId('invite-clients').getByLabel(client).check();
  await expect(page.getByTestId('invite-clients')).toContainText('no prices or amounts');
  await shots(page, 'team-invite');
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(page.getByTestId('toast')).toContainText(`${email} was invited as reviewer.`);
  const token = await invitationToken(email);
  const ctx = await browser.newContext();
  const reviewer = await ctx.newPage();
  await reviewer.goto('/auth');
  expect((await api(reviewer, 'POST', '/api/register', { email, password: PASSWORD })).status()).toBe(201);
  const joined = await api(reviewer, 'POST', `/api/invitations/${token}/accept`, { name: 'Rita Client' });
  expect(joined.status(), await joined.text()).toBe(200);
  await page.reload();
  await expect(page.getByTestId('member-row').filter({ hasText: 'Rita Client' }).getByTestId('member-clients')).toHaveText(`Clients: ${client}`);

  // the owner buys for the client: the claim dialog asks for whom
  await page.goto('/brand/opportunities');
  const dialog = page.getByTestId('claim-dialog');
  await expect(async () => {
    await page.getByTestId('opportunity-card').filter({ hasText: title }).click();
    await expect(dialog).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 20_000 });
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByLabel('For client').selectOption({ label: client });
  await dialog.getByRole('checkbox').click();
  await shots(page, 'claim-client');
  await dialog.getByRole('button', { name: 'Pay now and secure article' }).click();
  await expect(page).toHaveURL(/\/checkout\/[A-Za-z0-9_]+$/);
  await page.getByRole('button', { name: 'Pay $2,345.67' }).click();
  await expect(page).toHaveURL(/\/brand\/my-articles$/);
  const card = page.getByTestId('article-card').filter({ hasText: title });
  await expect(card.getByTestId('article-client')).toHaveText(`For ${client}`);
  // its own view: the client filter keeps it, and the URL says so
  await page.getByTestId('client-filter').selectOption({ label: client });
  await expect(page).toHaveURL(/client=/);
  await expect(card).toBeVisible();
  await shots(page, 'my-articles-client');
  const paymentId = (await (await api(page, 'GET', `/api/brand/my-articles?clientId=${new URL(page.url()).searchParams.get('client')}`)).json())[0]
    .payment.id as string;
  // and in Payment History
  await page.goto('/brand/payments');
  await page.getByTestId('client-filter').selectOption({ label: client });
  await expect(page.getByTestId('payment-row')).toHaveCount(1);
  await expect(page.getByTestId('payment-row').getByTestId('payment-client')).toContainText(`for ${client}`);

  // the reviewer writes the brief; the editorial team attaches a draft
  expect((await api(reviewer, 'POST', `/api/brand/brief/${paymentId}/submit`, BRIEF)).status()).toBe(200);
  const draft = await api(admin, 'PATCH', `/api/admin/payments/${paymentId}/status`, { draftDocumentUrl: 'https://docs.example.com/d/northwind' });
  expect(draft.status(), await draft.text()).toBe(200);
  await close();

  // the client reviewer: My Articles (and its clients' reports) only, no money anywhere, and approves the draft
  await reviewer.goto('/brand/opportunities');
  await expect(reviewer).toHaveURL(/\/brand\/my-articles/);
  const nav = reviewer.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(['My Articles', 'Reports']);
  await expect(reviewer.getByTestId('escrow-card')).toHaveCount(0);
  const theirs = reviewer.getByTestId('article-card').filter({ hasText: title });
  await expect(theirs).toContainText(`For ${client}`);
  await expect(reviewer.locator('body')).not.toContainText('$');
  await axe(reviewer);
  await shots(reviewer, 'reviewer-my-articles');
  await theirs.getByRole('button', { name: 'Approve Draft' }).click();
  await reviewer.getByTestId('confirm-dialog').getByRole('button', { name: 'Approve Draft' }).click();
  await expect(reviewer.getByTestId('toast')).toContainText('Draft approved');
  await reviewer.goto(`/brand/my-articles/${paymentId}`);
  await expect(reviewer.getByTestId('details-title')).toHaveText(title);
  await expect(reviewer.getByTestId('placement-price')).toHaveCount(0);
  await expect(reviewer.locator('body')).not.toContainText('$');
  await shots(reviewer, 'reviewer-placement');
  await reviewer.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(reviewer);
  await ctx.close();

  // the owner reads it all in the audit log
  await page.goto('/brand/audit');
  const entries = page.getByTestId('audit-entry');
  // in words (issue 57): the placement as "outlet · article · client", linked to its page
  const approved = entries.filter({ hasText: 'Approved the draft' });
  await expect(approved).toContainText('Rita Client');
  const subject = approved.getByRole('link', { name: `The Grocer Gazette · ${title} · ${client}` });
  await expect(subject).toHaveAttribute('href', `/brand/my-articles/${paymentId}`);
  await expect(entries.filter({ hasText: `Added the client ${client}` })).toHaveCount(1);
  await expect(entries.filter({ hasText: 'Joined as Reviewer' })).toContainText(email);
  await expect(entries.filter({ hasText: 'Paid for the placement' })).toContainText('$2,345.67');
  // no raw ids or codes anywhere in the log
  await expect(page.getByTestId('audit-entry').first()).toBeVisible();
  const text = await page.locator('table').innerText();
  expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[a-z]+_[a-z_]+\b/);
  await axe(page);
  await shots(page, 'audit-log-words');
  await subject.click();
  await expect(page).toHaveURL(new RegExp(`/brand/my-articles/${paymentId}$`));
  await expect(page.getByTestId('details-title')).toHaveText(title);
  // the invoice is addressed to the client
  const pdf = await api(page, 'GET', `/api/brand/payments/${paymentId}/invoice`);
  expect(pdf.status()).toBe(200);
});

test('[CLIENTS] each client has its own website and its own briefs: templates and the pre-filled brief never cross clients', async ({ page, browser }) => {
  test.setTimeout(240_000);
  // the first look at a page opened cold: its chunks and first answers take seconds on a busy machine
  const opened = { timeout: 30_000 };
  const stamp = Date.now();
  const acme = `Acme Foods ${stamp}`;
  const bolt = `Bolt Bikes ${stamp}`;
  const { admin, close } = await adminPage(browser);
  const opportunities: string[] = [];
  for (const n of [1, 2, 3]) {
    const created = await api(admin, 'POST', '/api/admin/opportunities', {
      outletName: `The Daily Ledger ${n}`,
      outletUrl: `https://ledger-${n}.example.com`,
      title: `Client briefs ${stamp} ${n}`,
      description: 'A feature story about your company.',
      type: ['editorial_feature'],
      tat: '2 weeks',
      priceUsd: '900.00',
      maxSlots: 1,
      domainAuthority: 55,
    });
    expect(created.status(), await created.text()).toBe(201);
    opportunities.push(((await created.json()) as { id: string }).id);
  }
  await close();

  await page.goto('/auth');
  await brandAs(page, 'approved');
  const clientIds: Record<string, string> = {};
  for (const name of [acme, bolt]) {
    const res = await api(page, 'POST', '/api/org/clients', { name });
    expect(res.status(), await res.text()).toBe(201);
    clientIds[name] = ((await res.json()) as { id: string }).id;
  }

  // Acme's websites, set on the Clients page: a bad one is named and refused, then two are kept
  await page.goto('/brand/clients');
  const row = page.getByTestId('client-row').filter({ hasText: acme });
  await expect(row.getByTestId('client-websites')).toHaveText('No website: articles must link to your organisation’s website', opened);
  await row.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByTestId('client-dialog');
  await dialog.getByLabel('Websites').fill('acme-foods.example.com\nacme foods');
  await dialog.getByRole('button', { name: 'Save client' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('acme: Must be a valid URL');
  await dialog.getByLabel('Websites').fill('acme-foods.example.com\nhttps://www.acme-shop.example.org/en');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await axe(page);
  await shots(page, 'client-websites-dialog');
  await dialog.getByRole('button', { name: 'Save client' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId('client-websites')).toHaveText('Articles must link to acme-foods.example.com, acme-shop.example.org');
  const listed = (await (await api(page, 'GET', '/api/org/clients')).json()) as { name: string; websites: string[] }[];
  expect(listed.find((c) => c.name === acme)?.websites).toEqual(['https://acme-foods.example.com', 'https://www.acme-shop.example.org/en']);
  await axe(page);
  await shots(page, 'clients-websites');

  // two placements for Acme, one for Bolt
  const buyFor = async (opportunityId: string, clientId: string) => {
    const checkout = await api(page, 'POST', '/api/payments/checkout', { opportunityId, clientId });
    expect(checkout.status(), await checkout.text()).toBe(200);
    const { url } = (await checkout.json()) as { url: string };
    const pay = await api(page, 'POST', `/api/payments/checkout/${url.split('/').pop()}/pay`);
    expect(pay.status(), await pay.text()).toBe(200);
    return ((await pay.json()) as { paymentId: string }).paymentId;
  };
  const acmeFirst = await buyFor(opportunities[0], clientIds[acme]);
  const boltFirst = await buyFor(opportunities[1], clientIds[bolt]);
  const acmeSecond = await buyFor(opportunities[2], clientIds[acme]);

  // Acme's first brief, kept as Acme's template and submitted
  await page.goto(`/brand/brief/${acmeFirst}`);
  await expect(page.getByLabel('Company (or spokesperson) to feature')).toBeEditable(opened);
  await page.getByLabel('Company (or spokesperson) to feature').fill('Acme Foods');
  await page.getByLabel('What your company does').fill('Acme has baked bread since 1921.');
  await page.getByRole('button', { name: 'Next: Article Guidelines' }).click();
  await page.getByLabel('Main goal of the article').fill('Reach grocers');
  await page.getByLabel('Target audience').fill('Independent grocers');
  await page.getByLabel('Main message').fill('Bread that keeps');
  await page.getByLabel('Tone and style guidelines').fill('Warm, plain words');
  await page.getByRole('button', { name: 'Save as template' }).click();
  await expect(page.getByRole('dialog')).toContainText(`Briefs of ${acme}’s placements can start from it; other clients never see it.`);
  await page.getByLabel('Template name').fill('Acme launch');
  await page.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Template “Acme launch” saved' })).toBeVisible();
  await page.getByRole('button', { name: 'Submit Brief' }).click();
  await expect(page).toHaveURL(/\/brand\/my-articles$/, opened);

  // Bolt's brief: nothing of Acme's, neither pre-filled nor offered as a template
  await page.goto(`/brand/brief/${boltFirst}`);
  await expect(page.getByLabel('Company (or spokesperson) to feature')).toHaveValue('', opened);
  await expect(page.getByTestId('fallback-banner')).toHaveCount(0);
  await expect(page.getByTestId('brief-template')).toHaveCount(0);
  await expect(page.getByText('Writing briefs like this one often?')).toBeVisible();

  // Acme's next brief starts from Acme's, and offers Acme's template
  await page.goto(`/brand/brief/${acmeSecond}`);
  await expect(page.getByTestId('fallback-banner')).toContainText(`pre-filled this form from your previous brief for ${acme}`, opened);
  await expect(page.getByLabel('Company (or spokesperson) to feature')).toHaveValue('Acme Foods');
  await expect(page.getByTestId('brief-template').getByRole('option')).toHaveText(['Choose a template…', 'Acme launch']);
  await axe(page);
  await shots(page, 'brief-client-templates');
  await page.getByRole('button', { name: 'Save as template' }).click();
  await expect(page.getByRole('list', { name: 'Brief templates' }).getByRole('listitem')).toHaveText(['Acme launch']);
  await expect(page.getByRole('dialog')).toContainText(`${acme}’s templates`);
  await axe(page);
  await shots(page, 'brief-client-templates-dialog');
  await page.keyboard.press('Escape');
  await page.getByTestId('brief-template').selectOption({ label: 'Acme launch' });
  await page.getByRole('button', { name: 'Next: Article Guidelines' }).click();
  await expect(page.getByLabel('Main goal of the article')).toHaveValue('Reach grocers');
});
