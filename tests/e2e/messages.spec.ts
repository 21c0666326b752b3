import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_ADMIN, api, brandAs, buy, expectNoHorizontalOverflow, loginAs } from './support';

/**
 * The details page of a purchased article (issue 19): its timeline beside the conversation
 * between the brand and the editorial team, opened from the My Articles and Projects cards, with
 * unread badges in the sidebar and on the cards.
 */

const PDF = fileURLToPath(new URL('./fixtures/draft.pdf', import.meta.url));
const PNG = fileURLToPath(new URL('./fixtures/avatar.png', import.meta.url));
const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

async function newContextPage(browser: Browser) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto('/auth');
  return { page, close: () => ctx.close() };
}

/** The demo admin makes a one-slot opportunity; a fresh approved brand buys it. */
async function purchasedArticle(admin: Page, brand: Page, title: string) {
  const opp = await api(admin, 'POST', '/api/admin/opportunities', {
    outletName: 'The Daily Ledger',
    title,
    description: 'A profile of your founder.',
    type: ['profile_article'],
    priceUsd: '1500.00',
    maxSlots: 1,
  });
  expect(opp.status(), await opp.text()).toBe(201);
  const { id } = (await opp.json()) as { id: string };
  await brandAs(brand, 'approved');
  return buy(brand, id);
}

/** The demo admin signed in, and a fresh brand that has bought an opportunity called `title`: each in a browser of its own. */
async function bothSides(browser: Browser, title: string) {
  const admin = await newContextPage(browser);
  await loginAs(admin.page, DEMO_ADMIN);
  const brand = await newContextPage(browser);
  const paymentId = await purchasedArticle(admin.page, brand.page, title);
  return { admin, brand, paymentId };
}

const conversation = (page: Page) => page.getByTestId('conversation');
const messageWith = (page: Page, text: string) => conversation(page).getByTestId('message').filter({ hasText: text });

async function send(page: Page, text: string, file?: string) {
  await conversation(page).getByRole('textbox', { name: 'Message' }).fill(text);
  if (file) await page.getByTestId('message-file').setInputFiles(file);
  await conversation(page).getByRole('button', { name: 'Send' }).click();
  await expect(messageWith(page, text)).toBeVisible();
  await expect(conversation(page).getByRole('textbox', { name: 'Message' })).toHaveValue('');
}

test('[BRAND][ADMIN] exchange messages with an attachment; the unread badges appear and clear once opened', async ({
  browser,
}) => {
  // two people, an upload and four pages: long on a machine busy with the rest of the suite
  test.setTimeout(120_000);
  const title = `Messages journey ${unique()}`;
  const { admin, brand, paymentId } = await bothSides(browser, title);

  // the brand opens the details page from its card
  await brand.page.goto('/brand/my-articles');
  const card = brand.page.getByTestId('article-card').filter({ hasText: title });
  await card.getByRole('link', { name: 'Messages' }).click();
  await expect(brand.page).toHaveURL(new RegExp(`/brand/my-articles/${paymentId}$`));
  await expect(brand.page.getByTestId('details-title')).toHaveText(title);
  await expect(brand.page.getByTestId('timeline').getByText('Paid $1,500.00')).toBeVisible();
  await expect(conversation(brand.page)).toContainText('No messages yet');
  // nothing to write is refused on the page
  await conversation(brand.page).getByRole('button', { name: 'Send' }).click();
  await expect(conversation(brand.page).getByRole('alert')).toHaveText('Write a message or attach a file');

  await send(brand.page, 'Hello team, our media kit is at https://example.com/kit. Thanks!', PDF);
  const mine = messageWith(brand.page, 'Hello team');
  await expect(mine.getByTestId('message-attachment')).toContainText('draft.pdf');
  const link = mine.getByRole('link', { name: 'https://example.com/kit' });
  await expect(link).toHaveAttribute('href', 'https://example.com/kit');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  await expect(link).toHaveAttribute('target', '_blank');
  // the brand leaves the conversation: open, it would read the team's reply when it polls (every
  // 20 s), and on a busy machine the team's steps below take longer than that
  await brand.page.goto('/brand/opportunities');

  // the admins see it as unread: on the sidebar's Projects and on the card
  await admin.page.goto('/admin/projects');
  await expect(admin.page.getByRole('link', { name: /^Projects \(\d+ unread messages?\)$/ })).toBeVisible();
  await expect(admin.page.getByTestId('nav-unread-count')).toBeVisible();
  const projectCard = admin.page.getByTestId('project-card').filter({ hasText: title });
  await expect(projectCard.getByRole('link', { name: 'Messages (1 unread)' })).toBeVisible();
  await projectCard.getByRole('link', { name: /Messages/ }).click();
  await expect(admin.page).toHaveURL(new RegExp(`/admin/projects/${paymentId}$`));
  await expect(messageWith(admin.page, 'Hello team')).toBeVisible();
  // the attachment downloads for the admin
  const [download] = await Promise.all([
    admin.page.waitForEvent('download'),
    messageWith(admin.page, 'Hello team').getByTestId('message-attachment').click(),
  ]);
  expect(download.suggestedFilename()).toBe('draft.pdf');
  await send(admin.page, 'Thanks! The draft comes on Friday.', PNG);
  await expect(messageWith(admin.page, 'The draft comes on Friday').getByTestId('message-attachment')).toContainText(
    'avatar.png',
  );
  // read by opening: the card's count is gone
  await admin.page.goto('/admin/projects');
  await expect(
    admin.page
      .getByTestId('project-card')
      .filter({ hasText: title })
      .getByRole('link', { name: 'Messages', exact: true }),
  ).toBeVisible();

  // the brand: one unread beside My Articles and on its card, cleared by opening the conversation
  await brand.page.goto('/brand/my-articles');
  await expect(brand.page.getByRole('link', { name: 'My Articles (1 unread message)' })).toBeVisible();
  await expect(brand.page.getByTestId('nav-unread-count')).toHaveText('1');
  await card.getByRole('link', { name: 'Messages (1 unread)' }).click();
  await expect(messageWith(brand.page, 'The draft comes on Friday')).toBeVisible();
  await expect(brand.page.getByTestId('nav-unread-count')).toBeHidden();
  await expect(brand.page.getByRole('link', { name: 'My Articles', exact: true })).toBeVisible();

  await admin.close();
  await brand.close();
});

test('[BRAND] a long conversation opens on its newest 30 messages; older ones load on request, and a failed load says so', async ({
  browser,
}) => {
  const { admin, brand, paymentId } = await bothSides(browser, `Long conversation ${unique()}`);
  // from the editorial team: a brand's own messages are limited to a few an hour in this suite
  for (let i = 1; i <= 31; i++) {
    const res = await api(admin.page, 'POST', `/api/admin/projects/${paymentId}/messages`, { text: `Note number ${i}.` });
    expect(res.status(), await res.text()).toBe(201);
  }
  await brand.page.goto(`/brand/my-articles/${paymentId}`);
  await expect(messageWith(brand.page, 'Note number 31.')).toBeVisible();
  await expect(messageWith(brand.page, 'Note number 2.')).toBeVisible();
  await expect(messageWith(brand.page, 'Note number 1.')).toHaveCount(0);
  const older = conversation(brand.page).getByRole('button', { name: 'Load older messages' });

  // the next page fails once: the conversation says so and keeps the button
  let failed = false;
  await brand.page.route(/\/messages\?.*cursor=/, async (route) => {
    if (failed) return route.continue();
    failed = true;
    await route.abort('failed');
  });
  await older.click();
  await expect(conversation(brand.page).getByRole('alert')).toBeVisible();
  await expect(messageWith(brand.page, 'Note number 1.')).toHaveCount(0);
  // asked again, it loads: the oldest message is there and there is nothing older to ask for
  await older.click();
  await expect(messageWith(brand.page, 'Note number 1.')).toBeVisible();
  await expect(older).toHaveCount(0);
  await expect(conversation(brand.page).getByTestId('message')).toHaveCount(31);
  await admin.close();
  await brand.close();
});

test('[BRAND][ADMIN] a message with <script> and <img onerror> is shown as text and runs nothing', async ({
  browser,
}) => {
  const { admin, brand, paymentId } = await bothSides(browser, `XSS ${unique()}`);
  const hostile = `<script>window.__pwned = 1; alert('script')</script><img src=x onerror="window.__pwned = 2; alert('img')"> javascript:alert(3)`;
  const dialogs: string[] = [];
  for (const p of [brand.page, admin.page]) p.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss()));

  await brand.page.goto(`/brand/my-articles/${paymentId}`);
  await send(brand.page, hostile);
  await admin.page.goto(`/admin/projects/${paymentId}`);
  for (const p of [brand.page, admin.page]) {
    const text = messageWith(p, 'window.__pwned').getByTestId('message-text');
    await expect(text).toHaveText(hostile);
    await expect(text.locator('img, script')).toHaveCount(0);
    // javascript: is never a link
    await expect(text.getByRole('link')).toHaveCount(0);
    expect(await p.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  }
  expect(dialogs).toEqual([]);
  await admin.close();
  await brand.close();
});

test('[BRAND] the details page on a phone (390 px): stacked, nothing wider than the screen, messages can be sent', async ({
  browser,
}) => {
  const { admin, brand, paymentId } = await bothSides(browser, `A rather long article title that has to wrap on a phone ${unique()}`);
  await brand.page.setViewportSize({ width: 390, height: 844 });
  await brand.page.goto(`/brand/my-articles/${paymentId}`);
  await expect(brand.page.getByTestId('timeline').getByText('Paid $1,500.00')).toBeVisible();
  await send(brand.page, `A long link https://example.com/${'a'.repeat(120)} and text`, PDF);
  await expectNoHorizontalOverflow(brand.page);
  // stacked: the conversation above the timeline, both the page's width
  const conv = (await conversation(brand.page).boundingBox())!;
  const timeline = (await brand.page.getByTestId('timeline').boundingBox())!;
  expect(timeline.y).toBeGreaterThanOrEqual(conv.y + conv.height - 1);
  expect(Math.abs(conv.width - timeline.width)).toBeLessThan(2);
  expect(conv.x + conv.width).toBeLessThanOrEqual(390);

  // screenshots for a person to look at (SHOTS_DIR set): brand and admin, desktop and phone
  const dir = process.env.SHOTS_DIR;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    // a few steps on the timeline: the brief, a draft, a request for edits
    const brief = await api(brand.page, 'POST', `/api/brand/brief/${paymentId}/submit`, {
      part1Json: {
        personOrBrandName: 'Riley Jordan',
        preferredTitle: 'Founder',
        backgroundExperience: 'Twelve years in retail.',
      },
      part2Json: {
        mainGoal: 'Reach retailers',
        targetAudience: 'Store owners',
        mainMessage: 'Good goods last',
        seoKeywords: 'retail',
        socialMediaLinks: 'https://linkedin.com/in/y',
      },
    });
    expect(brief.status(), await brief.text()).toBe(200);
    const draft = await api(admin.page, 'PATCH', `/api/admin/payments/${paymentId}/status`, {
      draftDocumentUrl: 'https://docs.example.com/draft-1',
    });
    expect(draft.status(), await draft.text()).toBe(200);
    const edits = await api(brand.page, 'POST', `/api/brand/projects/${paymentId}/request-edits`, {
      feedback: 'Please mention our repair workshop in the intro.',
    });
    expect(edits.status(), await edits.text()).toBe(200);
    await api(admin.page, 'POST', `/api/admin/projects/${paymentId}/messages`, {
      text: 'Thanks! We will send the first draft by Friday.\nAny preferred quotes?',
    });
    await send(brand.page, 'Great, see https://example.com/quotes for the quotes we like.');
    await brand.page.reload();
    await expect(messageWith(brand.page, 'quotes we like')).toBeVisible();
    await brand.page.screenshot({ path: `${dir}/brand-390.png`, fullPage: true });
    await brand.page.setViewportSize({ width: 1280, height: 900 });
    await brand.page.screenshot({ path: `${dir}/brand-1280.png`, fullPage: true });
    await admin.page.setViewportSize({ width: 1280, height: 900 });
    await admin.page.goto(`/admin/projects/${paymentId}`);
    await expect(messageWith(admin.page, 'quotes we like')).toBeVisible();
    await admin.page.screenshot({ path: `${dir}/admin-1280.png`, fullPage: true });
    await admin.page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalOverflow(admin.page);
    await admin.page.screenshot({ path: `${dir}/admin-390.png`, fullPage: true });
    // the cards with their unread counts, and the sidebar badges
    await api(admin.page, 'POST', `/api/admin/projects/${paymentId}/messages`, { text: 'One more question for you.' });
    await send(brand.page, 'And one more from us.');
    await brand.page.setViewportSize({ width: 390, height: 844 });
    await brand.page.goto('/brand/my-articles');
    await brand.page.getByRole('tab', { name: /Needs Review/ }).click();
    await expect(brand.page.getByTestId('messages-link').first()).toBeVisible();
    await brand.page.screenshot({ path: `${dir}/brand-cards-390.png`, fullPage: true });
    await admin.page.setViewportSize({ width: 1280, height: 900 });
    await admin.page.goto('/admin/projects');
    await admin.page.getByRole('tab', { name: /Pending Review/ }).click();
    await expect(admin.page.getByTestId('nav-unread-count')).toBeVisible();
    await admin.page.screenshot({ path: `${dir}/admin-cards-1280.png` });
  }
  await admin.close();
  await brand.close();
});

test('[BRAND] past the hourly message limit the composer says when to try again and keeps the text', async ({ browser }) => {
  const { admin, brand, paymentId } = await bothSides(browser, `Chatty brand ${unique()}`);
  await brand.page.goto(`/brand/my-articles/${paymentId}`);
  // the suite's server allows 10 an hour (playwright.config.ts): one through the page, nine more through the API
  await send(brand.page, 'First question about the draft.');
  for (let i = 2; i <= 10; i++) {
    const res = await api(brand.page, 'POST', `/api/brand/projects/${paymentId}/messages`, { text: `Question ${i}` });
    expect(res.status(), await res.text()).toBe(201);
  }
  const text = 'One more thought about the headline.';
  for (const width of [1280, 390]) {
    await brand.page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    const box = conversation(brand.page).getByRole('textbox', { name: 'Message' });
    await box.fill(text);
    await conversation(brand.page).getByRole('button', { name: 'Send' }).click();
    await expect(conversation(brand.page).getByRole('alert')).toHaveText(
      /^You have sent too many messages\. Please try again in (\d+ minutes|an hour)\.$/,
    );
    await expect(box).toHaveValue(text);
    await expect(messageWith(brand.page, text)).toHaveCount(0);
    await expectNoHorizontalOverflow(brand.page);
    const dir = process.env.SHOTS_DIR;
    if (dir) {
      mkdirSync(dir, { recursive: true });
      await brand.page.screenshot({ path: `${dir}/message-limit-${width}.png` });
    }
  }
  // the editorial team still answers
  const answer = await api(admin.page, 'POST', `/api/admin/projects/${paymentId}/messages`, { text: 'We will reply shortly.' });
  expect(answer.status()).toBe(201);
  // the brand comes back to the tab: the reply shows at once, not at the next 20-second poll
  await brand.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect(messageWith(brand.page, 'We will reply shortly.')).toBeVisible({ timeout: 3000 });
  await admin.close();
  await brand.close();
});
