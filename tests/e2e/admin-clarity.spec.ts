import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { DEMO_INVITE, PASSWORD, adminPage, api, buy, expectNoHorizontalOverflow, uniqueEmail } from './support';

/**
 * Issue 43, the admin's screens saying what they mean: Mark Published names each payment by brand,
 * payment date and stage (beside the spec's last 8 characters of its reference), an invite code that
 * exists already is said on the field, the dashboard wraps outlet names between words, and the
 * opportunity form shows an uploaded logo instead of its stored path. SHOTS_DIR=/tmp/… saves
 * screenshots at 1280 and 390 px.
 */

const PNG = fileURLToPath(new URL('./fixtures/avatar.png', import.meta.url));
const SHOTS_DIR = process.env.SHOTS_DIR;
async function shot(page: Page, name: string) {
  if (!SHOTS_DIR) return;
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: `${SHOTS_DIR}/${name}-${page.viewportSize()!.width}.png` });
}
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const PHONE = { width: 390, height: 844 };
const enUS = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** An approved brand called `brandName`, signed in on `page`. */
async function brandNamed(page: Page, brandName: string) {
  await page.goto('/auth');
  expect((await api(page, 'POST', '/api/register', { email: uniqueEmail('named'), password: PASSWORD })).status()).toBe(201);
  const res = await api(page, 'PATCH', '/api/user/profile', { name: 'Sam Rivera', brandName, website: 'https://named.example.com', inviteCode: DEMO_INVITE });
  expect(res.status(), await res.text()).toBe(200);
}

async function createOpportunity(admin: Page, fields: { outletName: string; title: string }) {
  const res = await api(admin, 'POST', '/api/admin/opportunities', {
    ...fields,
    description: 'A feature about your company.',
    type: ['profile_article'],
    priceUsd: '640.00',
    maxSlots: 5,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test('[ADMIN] Mark Published names each held payment by brand, payment date and stage, and keeps the last 8 characters', async ({ browser }) => {
  test.setTimeout(150_000);
  const title = `Named payments ${unique()}`;
  const { admin, close } = await adminPage(browser);
  const opportunityId = await createOpportunity(admin, { outletName: 'The Naming Gazette', title });

  // two brands: one has not written its brief, the other's draft is approved
  const ctx = await browser.newContext();
  const brand = await ctx.newPage();
  const alder = `Alder Supply ${unique()}`;
  await brandNamed(brand, alder);
  const waiting = await buy(brand, opportunityId);
  await ctx.clearCookies();
  const birch = `Birch & Co ${unique()}`;
  await brandNamed(brand, birch);
  const ready = await buy(brand, opportunityId);
  const submit = await api(brand, 'POST', `/api/brand/brief/${ready}/submit`, {
    part1Json: { personOrBrandName: 'Sam Rivera', backgroundExperience: 'Furniture since 1999' },
    part2Json: { mainGoal: 'Awareness', targetAudience: 'Designers', mainMessage: 'Built to last' },
  });
  expect(submit.status(), await submit.text()).toBe(200);
  expect((await api(admin, 'PATCH', `/api/admin/payments/${ready}/status`, { draftDocumentUrl: 'https://docs.example.com/d/named' })).status()).toBe(200);
  expect((await api(brand, 'POST', `/api/brand/projects/${ready}/approve`)).status()).toBe(200);
  await ctx.close();

  const held = (await (await api(admin, 'GET', `/api/admin/payments?opportunityId=${opportunityId}`)).json()) as {
    id: string;
    stripePaymentId: string;
    paidAt: string;
  }[];
  const payment = (id: string) => held.find((p) => p.id === id)!;

  for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
    await admin.setViewportSize(viewport);
    await admin.goto('/admin');
    await admin.getByRole('button', { name: `Mark Published ${title}` }).click();
    const dialog = admin.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Mark as Published' })).toBeVisible();
    await expect(dialog.getByRole('radio')).toHaveCount(2);
    for (const [id, brandName, stage] of [
      [waiting, alder, 'Brief pending'],
      [ready, birch, 'Brand approved'],
    ] as const) {
      const p = payment(id);
      const choice = dialog.getByRole('radio').filter({ hasText: brandName });
      await expect(choice).toHaveCount(1);
      await expect(choice.getByTestId('payment-brand')).toHaveText(brandName);
      await expect(choice.getByTestId('payment-date')).toHaveText(enUS(p.paidAt));
      await expect(choice).toContainText(`Paid ${enUS(p.paidAt)}`);
      await expect(choice).toContainText(`…${p.stripePaymentId.slice(-8)}`);
      await expect(choice.getByTestId('content-state')).toHaveText(stage);
      // a screen reader hears the same, in the order shown
      await expect(choice).toHaveAccessibleName(new RegExp(`^${brandName} Paid .*${p.stripePaymentId.slice(-8)}`));
    }
    await dialog.getByRole('radio').filter({ hasText: birch }).click();
    await expect(dialog.getByRole('button', { name: 'Release Payment' })).toBeEnabled();
    await expectNoHorizontalOverflow(admin);
    await shot(admin, 'mark-published-named');
    await admin.keyboard.press('Escape');
  }
  await close();
});

test('[ADMIN] an invite code that exists already is said on the code field, not only in a toast', async ({ browser }) => {
  // several pages at two widths: minutes, not seconds, on a 2-core machine busy with the suite
  test.setTimeout(150_000);
  const { admin, close } = await adminPage(browser);
  const code = `TAKEN-${unique().toUpperCase()}`;
  expect((await api(admin, 'POST', '/api/admin/invite-codes', { code })).status()).toBe(201);
  for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
    await admin.setViewportSize(viewport);
    await admin.goto('/admin/invite-codes');
    await admin.getByRole('button', { name: 'Create New Code' }).click();
    const field = admin.getByLabel('Code', { exact: true });
    await field.fill(code.toLowerCase());
    await admin.getByRole('button', { name: 'Create Code' }).click();
    const message = `The invite code ${code} already exists`;
    // on the field: marked invalid, described by the server's words, and the focus is back on it
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(new RegExp(`^${message}`));
    const error = admin.locator('#invite-code-error');
    await expect(error).toHaveText(message);
    await expect(error).toBeVisible();
    await expect(field).toBeFocused();
    // the spec's toast stays
    await expect(admin.getByTestId('toast')).toContainText(message);
    await shot(admin, 'invite-code-exists');
    // a new code clears it
    await field.fill(`${code}-2`);
    await expect(field).toHaveAttribute('aria-invalid', 'false');
    await expect(error).toHaveCount(0);
  }
  await close();
});

/** The words of `el`'s text that the browser drew on more than one line (a word cut in two). */
async function brokenWords(el: Locator) {
  return el.evaluate((node) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const text = t.textContent ?? '';
      for (const m of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(t, m.index);
        range.setEnd(t, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
    return broken;
  });
}

test('[ADMIN] the dashboard wraps outlet names between words, at 1280 and at 390 px', async ({ browser }) => {
  // several pages at two widths: minutes, not seconds, on a 2-core machine busy with the suite
  test.setTimeout(150_000);
  const { admin, close } = await adminPage(browser);
  const stamp = unique();
  const outletName = `The Remarkably Thorough Quarterly Review of Independent Regional Journalism ${stamp}`;
  // a long title beside it: the columns have to share the table's width
  const title = `An unusually long headline about sustainable manufacturing practices in small workshops ${stamp}`;
  await createOpportunity(admin, { outletName, title });

  for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
    await admin.setViewportSize(viewport);
    await admin.goto('/admin');
    const row = admin.getByTestId('opportunity-row').filter({ hasText: stamp }).first();
    await expect(row).toBeVisible();
    const outlet = row.getByText(outletName, { exact: true });
    await expect(outlet).toBeVisible();
    // it does wrap (the name is longer than its column), and only between words
    const lineHeight = await outlet.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect((await outlet.boundingBox())!.height).toBeGreaterThan(lineHeight * 1.5);
    expect(await brokenWords(outlet), `words cut at ${viewport.width} px`).toEqual([]);
    await expectNoHorizontalOverflow(admin);
    await row.scrollIntoViewIfNeeded();
    await shot(admin, 'dashboard-outlet-names');
  }
  await close();
});

test('[ADMIN] the opportunity form shows an uploaded logo, not its stored path; a typed URL stays in the URL field', async ({ browser }) => {
  // several pages at two widths: minutes, not seconds, on a 2-core machine busy with the suite
  test.setTimeout(150_000);
  const { admin, close } = await adminPage(browser);
  await admin.goto('/admin/new-opportunity');
  // the form's chunk (zod, react-hook-form) takes a while on a machine busy with the suite
  await expect(admin.getByRole('heading', { name: 'New Opportunity' })).toBeVisible({ timeout: 30_000 });
  const urlField = admin.getByLabel('Logo', { exact: true });
  const preview = admin.getByAltText('Logo preview');
  /** What every text field of the form holds: a stored path must be in none. */
  const storedPathInAField = () =>
    admin.locator('form input:not([type=file]), form textarea').evaluateAll((els) => els.some((el) => (el as HTMLInputElement).value.includes('/uploads/')));

  await expect(urlField).toHaveValue('');
  await admin.getByTestId('logo-input').setInputFiles(PNG);
  await expect(preview).toHaveAttribute('src', /^\/uploads\/[a-z0-9]+\.png$/);
  await expect(admin.getByRole('button', { name: 'Replace logo' })).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Remove logo' })).toBeVisible();
  await expect(admin.getByTestId('logo-uploaded')).toHaveText('Uploaded image');
  await expect(urlField).toHaveCount(0);
  expect(await storedPathInAField()).toBe(false);
  const logoUrl = (await preview.getAttribute('src'))!;
  await shot(admin, 'logo-uploaded');

  // Replace takes another file in its place
  await admin.getByTestId('logo-input').setInputFiles(PNG);
  await expect(preview).not.toHaveAttribute('src', logoUrl);
  await expect(preview).toHaveAttribute('src', /^\/uploads\/[a-z0-9]+\.png$/);
  const replaced = (await preview.getAttribute('src'))!;

  // the opportunity is saved with the upload; its edit form shows the logo, not the path
  const title = `Logo form ${unique()}`;
  await admin.getByLabel('Outlet Name').fill('The Logo Ledger');
  await admin.getByLabel('Title').fill(title);
  await admin.getByLabel('Description').fill('A feature about your company.');
  await admin.getByLabel('Profile Article').check();
  await admin.getByLabel('Price (USD)').fill('500');
  await admin.getByLabel('Max Slots').fill('2');
  await admin.getByRole('button', { name: 'Create Opportunity' }).click();
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.getByRole('link', { name: `Edit ${title}` }).click();
  await expect(admin.getByLabel('Title')).toHaveValue(title);
  const id = new URL(admin.url()).pathname.split('/').pop();
  await expect(preview).toHaveAttribute('src', replaced);
  await expect(urlField).toHaveCount(0);
  expect(await storedPathInAField()).toBe(false);
  for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
    await admin.setViewportSize(viewport);
    await admin.getByTestId('logo-preview').scrollIntoViewIfNeeded();
    await shot(admin, 'edit-opportunity-logo');
  }
  await admin.setViewportSize({ width: 1280, height: 800 });

  // Remove brings back the URL field, empty; what is typed there stays there, a path too
  await admin.getByRole('button', { name: 'Remove logo' }).click();
  await expect(urlField).toHaveValue('');
  // a logo elsewhere on the web (not reachable from here: the preview shows its placeholder)
  const typedUrl = 'https://cdn.example.com/logo.png';
  await urlField.fill(typedUrl);
  await expect(urlField).toHaveValue(typedUrl);
  await expect(admin.getByRole('button', { name: 'Upload Logo' })).toBeVisible();
  await urlField.fill('/uploads/typed.png');
  await expect(urlField).toHaveValue('/uploads/typed.png');
  await expect(urlField).toBeFocused();
  await urlField.fill(typedUrl);
  await admin.getByRole('button', { name: 'Save Changes' }).click();
  await expect(admin).toHaveURL(/\/admin$/);
  const saved = (await (await api(admin, 'GET', `/api/admin/opportunities/${id}`)).json()) as { logoUrl: string | null };
  expect(saved.logoUrl).toBe(typedUrl);
  await close();
});
