import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import PostalMime from 'postal-mime';
import { api, brandAs } from './support';

// the e2e server runs with the default outbox mailer: every mail is an .eml file in its DATA_DIR
const MAIL_DIR = path.resolve(`.tmp/e2e-data-${process.env.E2E_PORT ?? 5174}/mail`);

/** Waits for the mail the server writes for `to` with this subject and returns its text part. */
async function mailTo(to: string, subject: string): Promise<string> {
  let text: string | undefined;
  await expect
    .poll(
      async () => {
        let files: string[] = [];
        try {
          files = readdirSync(MAIL_DIR).filter((f) => f.endsWith('.eml'));
        } catch {
          return false;
        }
        for (const f of files) {
          const mail = await PostalMime.parse(readFileSync(path.join(MAIL_DIR, f)));
          if (mail.to?.some((a) => a.address === to) && mail.subject === subject) {
            text = mail.text ?? '';
            return true;
          }
        }
        return false;
      },
      { timeout: 30_000, intervals: [250, 500, 1000] },
    )
    .toBe(true);
  return text!;
}

test('forgot password: the link from the e-mail sets a new password, ends other sessions and works once', async ({ page, browser }) => {
  // a brand signed in somewhere else
  const elsewhere = await browser.newPage();
  const { email } = await brandAs(elsewhere, 'approved');
  expect((await api(elsewhere, 'GET', '/api/user')).status()).toBe(200);

  await page.goto('/auth');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText('If an account exists for this e-mail, we have sent a link');

  const text = await mailTo(email, 'Reset your password - Byline');
  const link = text.match(/https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/)?.[0];
  expect(link).toBeTruthy();

  await page.goto(link!);
  await expect(page.getByText('Choose a new password')).toBeVisible();
  await page.getByLabel('New password').fill('short');
  await page.getByLabel('Confirm password').fill('short');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Password must be at least 8 characters', { exact: true })).toBeVisible();
  await page.getByLabel('New password').fill('long-enough-1');
  await page.getByLabel('Confirm password').fill('long-enough-2');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();

  await page.getByLabel('New password').fill('my-new-password-1');
  await page.getByLabel('Confirm password').fill('my-new-password-1');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password has been reset');

  // the other session has ended
  expect((await api(elsewhere, 'GET', '/api/user')).status()).toBe(401);
  await elsewhere.close();

  // sign in with the new password
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('my-new-password-1');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/brand\/opportunities$/);

  // the link works once
  await api(page, 'POST', '/api/logout');
  await page.goto(link!);
  await page.getByLabel('New password').fill('another-password-2');
  await page.getByLabel('Confirm password').fill('another-password-2');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'invalid or has expired' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Request a new link' })).toBeVisible();
});

test('an unknown e-mail gets the same answer', async ({ page }) => {
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill('nobody-here@example.com');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText('If an account exists for this e-mail, we have sent a link');
});
