import { expect, test } from '@playwright/test';
import { DEMO_BRAND, loginAs } from './support';

test.describe('brand browse', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/auth');
    await loginAs(page, DEMO_BRAND);
    await page.goto('/brand/opportunities');
  });

  test('greets the brand, filters by type with each explanation, and shows the cards', async ({ page }) => {
    await expect(page.getByRole('heading', { name: 'Welcome, Dana' })).toBeVisible();
    await expect(page.getByText("Here's some opportunities that are currently available for you below")).toBeVisible();
    await expect(page.getByRole('tab')).toHaveText(['All', 'Profile', 'Editorial', 'Advertorial', 'Listicle']);
    await expect(page.getByTestId('type-description')).toHaveCount(0);

    const listicle = page.getByTestId('opportunity-card').filter({ hasText: 'Forbes Insights' });
    await expect(listicle).toContainText('Listicle');
    await expect(listicle).toContainText('10 of 10 spots left');
    await expect(listicle).toContainText('$899.99');
    await expect(listicle).toContainText('DA 95');
    await expect(listicle).toContainText(/Deadline [A-Z][a-z]{2} \d{1,2}/);
    // a single-slot placement shows no availability bar
    await expect(page.getByTestId('opportunity-card').filter({ hasText: 'TechCrunch Daily' })).not.toContainText('spots left');
    await expect(page.getByTestId('opportunity-card').filter({ hasText: 'TechCrunch Daily' }).getByText('TE', { exact: true })).toBeVisible();

    await page.getByRole('tab', { name: 'Listicle' }).click();
    await expect(page.getByTestId('type-description')).toContainText('one entry in a curated list');
    // other journeys add opportunities to the same database: check the seeded ones
    const cards = page.getByTestId('opportunity-card');
    await expect(cards.filter({ hasText: 'Forbes Insights' })).toHaveCount(1);
    await expect(cards.filter({ hasText: 'TechCrunch Daily' })).toHaveCount(0);
    await page.getByRole('tab', { name: 'Profile' }).click();
    await expect(cards.filter({ hasText: 'TechCrunch Daily' })).toHaveCount(1);
    await expect(cards.filter({ hasText: 'TechCrunch Daily' })).toContainText('Profile Article');
    await expect(cards.filter({ hasText: 'Forbes Insights' })).toHaveCount(0);
  });

  test('opens a card with the keyboard; the two steps; closing starts over', async ({ page }) => {
    // the card opens through its one button (named by outlet and title), laid over the whole card
    const card = page.getByTestId('opportunity-card').filter({ hasText: 'Forbes Insights' }).getByRole('button', { name: /^Forbes Insights: / });
    await card.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('claim-dialog');
    await expect(dialog.getByRole('heading', { name: 'Review Opportunity' })).toBeVisible();
    await expect(dialog.getByRole('link', { name: /Forbes Insights/ })).toHaveAttribute('target', '_blank');
    await expect(dialog).toContainText('Key Metrics');
    await expect(dialog).toContainText('Domain Authority');
    await expect(dialog).toContainText('Turnaround Time');
    await expect(dialog).toContainText('Available Slots');
    await expect(dialog).toContainText('10/10');
    await expect(dialog).toContainText('Last date to purchase');
    await expect(dialog).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);

    await dialog.getByRole('button', { name: 'Next' }).click();
    await expect(dialog.getByRole('heading', { name: 'What Happens Next' })).toBeVisible();
    await expect(dialog).toContainText('One-time payment • Held in escrow until publication');
    await expect(dialog).toContainText('90-Day Guarantee');
    await expect(dialog).toContainText('Complete the questionnaire in the My Articles tab');
    const pay = dialog.getByRole('button', { name: 'Pay now and secure article' });
    await expect(pay).toBeDisabled();
    await dialog.getByRole('checkbox').click();
    await expect(pay).toBeEnabled();
    // the terms the checkbox agrees to exist, one click away (issue 20)
    await expect(dialog.getByRole('link', { name: /terms of service/ })).toHaveAttribute('href', '/terms');

    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await card.press('Space');
    await expect(page.getByTestId('claim-dialog').getByRole('heading', { name: 'Review Opportunity' })).toBeVisible();
    await page.getByTestId('claim-dialog').getByRole('button', { name: 'Next' }).click();
    await expect(page.getByTestId('claim-dialog').getByRole('checkbox')).not.toBeChecked();
  });
});
