import { expect, test } from '@playwright/test';
import { DEMO_BRAND, loginAs } from './support';

// tooltips, the user menu and the claim dialog load their code on first approach (performance)

test('[BRAND] price tooltip opens after the delay on hover, at once on focus, and closes with Escape', async ({ page }) => {
  await page.goto('/auth');
  await loginAs(page, DEMO_BRAND);
  await page.goto('/brand/opportunities');
  const info = page.getByRole('button', { name: 'About the price' }).first();
  const text = 'One-time fee, held in escrow until your content is published';

  // measured in the page: from the pointer reaching the button to the tooltip appearing
  await page.evaluate(() => {
    const w = window as unknown as { __entered?: number; __shown?: number };
    document.addEventListener('pointermove', (e) => {
      if ((e.target as Element).closest?.('[aria-label="About the price"]')) w.__entered ??= performance.now();
    }, true);
    new MutationObserver(() => {
      if (document.querySelector('[role="tooltip"]')) w.__shown ??= performance.now();
    }).observe(document.body, { childList: true, subtree: true });
  });
  await info.hover();
  await expect(page.getByRole('tooltip')).toHaveText(text);
  const delay = await page.evaluate(() => {
    const w = window as unknown as { __entered: number; __shown: number };
    return w.__shown - w.__entered;
  });
  expect(delay).toBeGreaterThanOrEqual(690);
  await expect(info).toHaveAttribute('aria-describedby', /.+/);
  await page.mouse.move(0, 0);
  await expect(page.getByRole('tooltip')).toHaveCount(0);

  await info.focus();
  await expect(page.getByRole('tooltip')).toHaveText(text);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('tooltip')).toHaveCount(0);
});

test('[BRAND] collapsed sidebar: labels as tooltips, the next one without delay inside the skip window', async ({ page }) => {
  await page.goto('/auth');
  await loginAs(page, DEMO_BRAND);
  await page.goto('/brand/opportunities');
  await page.getByTestId('sidebar-trigger').click();
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'true');
  const nav = page.getByRole('navigation', { name: 'Main' });

  await nav.getByRole('link', { name: 'Opportunities' }).hover();
  await expect(page.getByRole('tooltip')).toHaveText('Opportunities');
  // straight to the next entry: it opens at once (well before the 700 ms delay)
  await nav.getByRole('link', { name: 'My Articles' }).hover();
  await expect(page.getByRole('tooltip')).toHaveText('My Articles', { timeout: 300 });
});

test('[BRAND] user menu opens from the keyboard on first use and logs out', async ({ page }) => {
  await page.goto('/auth');
  await loginAs(page, DEMO_BRAND);
  await page.goto('/brand/opportunities');
  await page.getByTestId('user-menu').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Invite Codes' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
});
