import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import PostalMime from 'postal-mime';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';

export const DEMO_ADMIN = { email: 'admin@byline.test', password: 'byline-admin-demo' };
export const DEMO_BRAND = { email: 'brand@byline.test', password: 'byline-brand-demo' };
export const DEMO_INVITE = 'BYLINE-DEMO';
export const PASSWORD = 'e2e-password-123';

export const uniqueEmail = (prefix = 'brand') => `${prefix}-${randomBytes(4).toString('hex')}@example.com`;

/** The server of the running test's project (the embedded database's, or PostgreSQL's; playwright.config.ts). */
const baseUrl = () => test.info().project.use.baseURL ?? `http://localhost:${process.env.E2E_PORT ?? 5174}`;

/** Calls the API from the page's own cookie jar, as the page itself would. */
export async function api(page: Page, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, data?: unknown) {
  const base = baseUrl();
  return page.request.fetch(base + url, { method, data, headers: { origin: base } });
}

export async function loginAs(page: Page, who: { email: string; password: string }) {
  const res = await api(page, 'POST', '/api/login', who);
  expect(res.status(), await res.text()).toBe(200);
}

/** A brand in the state a test needs, signed in on this page. */
export async function brandAs(page: Page, state: 'unnamed' | 'pending' | 'approved') {
  const email = uniqueEmail(state);
  const reg = await api(page, 'POST', '/api/register', { email, password: PASSWORD });
  expect(reg.status()).toBe(201);
  if (state !== 'unnamed') {
    const res = await api(page, 'PATCH', '/api/user/profile', {
      name: 'Riley Jordan',
      brandName: 'Jordan Goods',
      website: 'https://jordan.example.com',
      ...(state === 'approved' ? { inviteCode: DEMO_INVITE } : {}),
    });
    expect(res.status()).toBe(200);
  }
  return { email };
}

/**
 * Nothing on the page is wider than the window. Polled: after a resize the shell swaps its layout on
 * React's next render (useIsMobile listens to a media query), so the first frame may still be the
 * desktop one.
 */
export async function expectNoHorizontalOverflow(page: Page) {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** The demo admin signed in on a page of its own browser context; close() ends the context. */
export async function adminPage(browser: Browser) {
  const ctx = await browser.newContext();
  const admin = await ctx.newPage();
  await admin.goto('/auth');
  await loginAs(admin, DEMO_ADMIN);
  return { admin, close: () => ctx.close() };
}

/** The brand on this page claims and pays through the API (built-in checkout); the payment's id. */
export async function buy(page: Page, opportunityId: string) {
  const checkout = await api(page, 'POST', '/api/payments/checkout', { opportunityId });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { url } = (await checkout.json()) as { url: string };
  const pay = await api(page, 'POST', `/api/payments/checkout/${url.split('/').pop()}/pay`);
  expect(pay.status(), await pay.text()).toBe(200);
  return ((await pay.json()) as { paymentId: string }).paymentId;
}

// the e2e servers run with the default outbox mailer: every mail is an .eml file in its DATA_DIR
// (the embedded database's server on E2E_PORT, PostgreSQL's on the next port; playwright.config.ts)
const E2E_PORT = Number(process.env.E2E_PORT ?? 5174);
const MAIL_DIRS = [E2E_PORT, E2E_PORT + 1].map((port) => path.resolve(`.tmp/e2e-data-${port}/mail`));

/** A mail the server sent, as its reader gets it: subject, both parts, and its files (their bytes). */
export interface SentMail {
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; mimeType: string; content: Buffer }[];
}

/** Every mail the suite's servers have sent to `to` so far (the .eml files of their DATA_DIRs). */
export async function mailsTo(to: string): Promise<SentMail[]> {
  const found: SentMail[] = [];
  for (const dir of MAIL_DIRS) {
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((f) => f.endsWith('.eml'));
    } catch {
      continue; // that server has sent nothing yet (or does not run)
    }
    for (const name of names) {
      const raw = readFileSync(path.join(dir, name));
      // the envelope's address is in the file's head: parse only this reader's mails
      if (!raw.subarray(0, 4096).toString('utf8').toLowerCase().includes(to.toLowerCase())) continue;
      const mail = await PostalMime.parse(raw);
      if (!mail.to?.some((a) => a.address?.toLowerCase() === to.toLowerCase())) continue;
      found.push({
        subject: mail.subject ?? '',
        text: mail.text ?? '',
        html: mail.html ?? '',
        attachments: mail.attachments.map((a) => ({
          filename: a.filename ?? '',
          mimeType: a.mimeType,
          content: Buffer.from(typeof a.content === 'string' ? a.content : new Uint8Array(a.content)),
        })),
      });
    }
  }
  return found;
}

/** Waits for the invitation mail sent to `to` and returns the token of its /invite link. */
export async function invitationToken(to: string): Promise<string> {
  let token: string | undefined;
  await expect
    .poll(
      async () => {
        const files: string[] = [];
        for (const dir of MAIL_DIRS) {
          try {
            files.push(...readdirSync(dir).filter((f) => f.endsWith('.eml')).map((f) => path.join(dir, f)));
          } catch {
            // that server has sent nothing yet (or does not run)
          }
        }
        for (const f of files) {
          const mail = await PostalMime.parse(readFileSync(f));
          if (!mail.to?.some((a) => a.address === to)) continue;
          token = /\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
          if (token) return true;
        }
        return false;
      },
      { timeout: 30_000, intervals: [250, 500, 1000] },
    )
    .toBe(true);
  return token!;
}

const SHOTS_DIR = process.env.SHOTS_DIR;

/**
 * With SHOTS_DIR=/tmp/…: the screen at 1280px and 390px wide (no wider than the window at 390);
 * `fullPage: false` for a dialog, as the window shows it.
 */
export async function shots(page: Page, name: string, { fullPage = true } = {}) {
  if (!SHOTS_DIR) return;
  mkdirSync(SHOTS_DIR, { recursive: true });
  const size = page.viewportSize();
  await page.screenshot({ path: `${SHOTS_DIR}/${name}-1280.png`, fullPage });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: `${SHOTS_DIR}/${name}-390.png`, fullPage });
  if (size) await page.setViewportSize(size);
}

/** axe (WCAG 2.2 AA, as accessibility.spec.ts runs it) on the screen as it is now: no serious or critical problem. */
export async function axe(page: Page, name: string) {
  // the pointer rests on the button just clicked: axe would judge its hover colour, not the screen's
  await page.mouse.move(0, 0);
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  const failing = violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.impact} ${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect.soft(failing, `${name}: axe violations`).toEqual([]);
}
