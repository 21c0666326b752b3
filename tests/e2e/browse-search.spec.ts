import { randomBytes } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { adminPage, api, brandAs, buy, expectNoHorizontalOverflow } from './support';

/*
 * The brand's catalogue search on /brand/opportunities: words, filters, order, the URL, paging
 * by scrolling, and the shortlist. Each test makes its own outlets, named with a token of its
 * own, and searches for that token: other journeys add opportunities to the same database.
 * At the end a test closes its outlets (deadline yesterday), so the unfiltered list other
 * journeys read is left as it was.
 */

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const token = () => `zq${randomBytes(4).toString('hex')}`;

interface Outlet {
  outletName: string;
  title: string;
  description?: string;
  type?: string[];
  priceUsd?: string;
  maxSlots?: number;
  domainAuthority?: number | null;
  deadlineDate?: string | null;
  tat?: string;
  tatDays?: number | null;
  linkType?: string | null;
  topics?: string[];
  country?: string | null;
  language?: string | null;
}

/** The admin's side: creates outlets, and closes them when the test is done. */
async function catalogue(browser: Browser) {
  const { admin, close } = await adminPage(browser);
  const made: { id: string; body: Record<string, unknown> }[] = [];
  return {
    async create(o: Outlet) {
      const body = {
        description: 'A placement for the search journey.',
        type: ['editorial_feature'],
        priceUsd: '1000.00',
        maxSlots: 1,
        ...o,
      };
      const res = await api(admin, 'POST', '/api/admin/opportunities', body);
      expect(res.status(), await res.text()).toBe(201);
      const { id } = (await res.json()) as { id: string };
      made.push({ id, body });
      return id;
    },
    async closeAll() {
      for (const { id, body } of made) {
        const res = await api(admin, 'PATCH', `/api/admin/opportunities/${id}`, { ...body, deadlineDate: day(-1) });
        expect(res.status(), await res.text()).toBe(200);
      }
      await close();
    },
  };
}

const cards = (page: Page) => page.getByTestId('opportunity-card');
const count = (page: Page) => page.getByTestId('result-count');
/** The outlet names of the cards, in order. */
const outlets = (page: Page) => cards(page).locator('p.truncate.font-semibold').allTextContents();
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search opportunities' });

async function approvedBrand(page: Page) {
  await page.goto('/auth');
  await brandAs(page, 'approved');
}

test('[BRAND] searches outlet, title and description: words in any order, a prefix, a typo in the outlet name', async ({
  page,
  browser,
}) => {
  const t = token();
  const cat = await catalogue(browser);
  await cat.create({
    outletName: `Quillmark ${t}`,
    title: 'Founder stories for fintech teams',
    description: 'Deep coverage of payment startups.',
  });
  await cat.create({
    outletName: `Harborlight ${t}`,
    title: 'Climate tech roundup',
    description: 'Green tools our editors recommend.',
  });
  await approvedBrand(page);
  await page.goto('/brand/opportunities');

  await searchBox(page).fill(t);
  await expect(page).toHaveURL(new RegExp(`/brand/opportunities\\?q=${t}$`));
  await expect(count(page)).toHaveText('2 opportunities');
  await expect(cards(page)).toHaveCount(2);

  // words in any order; the last one may be the start of a word (description: "Green tools")
  await searchBox(page).fill(`tools ${t} gre`);
  await expect(count(page)).toHaveText('1 opportunity');
  await expect(cards(page)).toHaveText([new RegExp(`Harborlight ${t}`)]);
  // the title's words
  await searchBox(page).fill(`fintech founder ${t}`);
  await expect(cards(page)).toHaveText([new RegExp(`Quillmark ${t}`)]);
  // the outlet's name with one letter missing
  await searchBox(page).fill('Quilmark');
  await expect(cards(page).filter({ hasText: `Quillmark ${t}` })).toHaveCount(1);
  await expect(cards(page).filter({ hasText: `Harborlight ${t}` })).toHaveCount(0);

  // nothing found: the filters' empty state, and "Clear filters" brings the whole list back
  await searchBox(page).fill(`${t} nosuchword`);
  await expect(page.getByText('No opportunities match these filters')).toBeVisible();
  await expect(page.getByText('Nothing here yet')).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(page).toHaveURL(/\/brand\/opportunities$/);
  await expect(searchBox(page)).toHaveValue('');
  await expect(cards(page).first()).toBeVisible();

  // the box's own clear button empties it and leaves the brand typing in it; so does Escape
  await searchBox(page).fill(t);
  await expect(count(page)).toHaveText('2 opportunities');
  await page.getByRole('search').getByRole('button', { name: 'Clear search' }).click();
  await expect(searchBox(page)).toHaveValue('');
  await expect(searchBox(page)).toBeFocused();
  await expect(page).toHaveURL(/\/brand\/opportunities$/);
  await page.keyboard.type(t);
  await expect(count(page)).toHaveText('2 opportunities');
  await searchBox(page).press('Escape');
  await expect(searchBox(page)).toHaveValue('');
  await expect(page).toHaveURL(/\/brand\/opportunities$/);
  await cat.closeAll();
});

test('[BRAND] filters by price, domain authority, turnaround, link type, topic, country, language, deadline and spots, and sorts', async ({
  page,
  browser,
}) => {
  // one long journey of many pages: on a busy 2-core machine it comes near the default limit
  test.setTimeout(120_000);
  const t = token();
  const cat = await catalogue(browser);
  await cat.create({
    outletName: `Alpha ${t}`,
    title: 'Alpha story',
    priceUsd: '400.00',
    domainAuthority: 40,
    tatDays: 7,
    tat: '1 week',
    linkType: 'dofollow',
    topics: ['fintech', 'startups'],
    country: 'DE',
    language: 'de',
    deadlineDate: day(10),
    maxSlots: 3,
  });
  await cat.create({
    outletName: `Bravo ${t}`,
    title: 'Bravo story',
    priceUsd: '900.00',
    domainAuthority: 80,
    tatDays: 30,
    linkType: 'nofollow',
    topics: ['health'],
    country: 'FR',
    language: 'fr',
    deadlineDate: day(40),
  });
  await cat.create({
    outletName: `Charlie ${t}`,
    title: 'Charlie story',
    priceUsd: '1500.00',
    domainAuthority: 60,
    tatDays: 14,
    linkType: 'sponsored',
    topics: ['fintech'],
    country: 'DE',
    language: 'en',
    deadlineDate: null,
  });
  await approvedBrand(page);
  await page.goto(`/brand/opportunities?q=${t}`);
  await expect(count(page)).toHaveText('3 opportunities');
  // the catalogue's facts on the card: country, language and link type by name, topics as chips
  const alpha = cards(page).filter({ hasText: `Alpha ${t}` });
  await expect(alpha).toContainText('Germany · German · Dofollow link');
  await expect(alpha.getByRole('list', { name: 'Topics' })).toHaveText(/Fintech\s*Startups/);

  // sort: each order, newest first by default
  await expect.poll(() => outlets(page)).toEqual([`Charlie ${t}`, `Bravo ${t}`, `Alpha ${t}`]);
  const sort = page.getByLabel('Sort by');
  await expect(sort).toHaveValue('newest');
  await sort.selectOption({ label: 'Price low to high' });
  await expect(page).toHaveURL(new RegExp(`\\?q=${t}&sort=price_asc$`));
  await expect.poll(() => outlets(page)).toEqual([`Alpha ${t}`, `Bravo ${t}`, `Charlie ${t}`]);
  await sort.selectOption({ label: 'Price high to low' });
  await expect.poll(() => outlets(page)).toEqual([`Charlie ${t}`, `Bravo ${t}`, `Alpha ${t}`]);
  await sort.selectOption({ label: 'Domain authority' });
  await expect.poll(() => outlets(page)).toEqual([`Bravo ${t}`, `Charlie ${t}`, `Alpha ${t}`]);
  await sort.selectOption({ label: 'Deadline soonest' });
  await expect.poll(() => outlets(page)).toEqual([`Alpha ${t}`, `Bravo ${t}`, `Charlie ${t}`]);

  const filters = page.getByRole('button', { name: /^Filters/ });
  await expect(filters).toHaveAttribute('aria-expanded', 'false');
  await filters.click();
  await expect(filters).toHaveAttribute('aria-expanded', 'true');
  const panel = page.getByTestId('filter-panel');

  // each filter alone, then cleared
  const only = async (names: string[]) => {
    await expect(count(page)).toHaveText(`${names.length} ${names.length === 1 ? 'opportunity' : 'opportunities'}`);
    await expect.poll(async () => (await outlets(page)).sort()).toEqual(names.map((n) => `${n} ${t}`).sort());
  };
  const field = async (label: string, value: string, names: string[], param: string) => {
    await panel.getByLabel(label).fill(value);
    await panel.getByLabel(label).press('Enter');
    await expect(page).toHaveURL(new RegExp(`[?&]${param}=${value}(&|$)`));
    await only(names);
    await panel.getByLabel(label).fill('');
    await panel.getByLabel(label).press('Enter');
    await only(['Alpha', 'Bravo', 'Charlie']);
  };
  await field('Max price (USD)', '900', ['Alpha', 'Bravo'], 'priceMax');
  await field('Min price (USD)', '500.50', ['Bravo', 'Charlie'], 'priceMin');
  await field('Min domain authority', '60', ['Bravo', 'Charlie'], 'daMin');
  await field('Max domain authority', '60', ['Alpha', 'Charlie'], 'daMax');
  await field('Max turnaround (days)', '14', ['Alpha', 'Charlie'], 'tatMax');
  // a value the search cannot take is refused with a reason, and the URL is left alone
  await panel.getByLabel('Max domain authority').fill('150');
  await panel.getByLabel('Max domain authority').press('Enter');
  await expect(panel.getByText('Enter a whole number from 0 to 100')).toBeVisible();
  await expect(page).not.toHaveURL(/daMax/);
  await panel.getByLabel('Max domain authority').fill('');
  await panel.getByLabel('Max domain authority').press('Enter');

  await panel.getByLabel('Deadline after').fill(day(20));
  await expect(page).toHaveURL(new RegExp(`deadlineAfter=${day(20)}`));
  await only(['Bravo', 'Charlie']);
  await panel.getByLabel('Deadline after').fill('');
  await only(['Alpha', 'Bravo', 'Charlie']);

  await panel.getByLabel('Country').selectOption({ label: 'Germany' });
  await expect(page).toHaveURL(/country=DE/);
  await only(['Alpha', 'Charlie']);
  await panel.getByLabel('Language').selectOption({ label: 'English' });
  await expect(page).toHaveURL(/country=DE&language=en/);
  await only(['Charlie']);
  await expect(filters).toContainText('2');
  await panel.getByLabel('Country').selectOption({ label: 'Any country' });
  await panel.getByLabel('Language').selectOption({ label: 'Any language' });
  await only(['Alpha', 'Bravo', 'Charlie']);

  await panel.getByRole('button', { name: 'Fintech' }).click();
  await expect(panel.getByRole('button', { name: 'Fintech' })).toHaveAttribute('aria-pressed', 'true');
  await only(['Alpha', 'Charlie']);
  await panel.getByRole('button', { name: 'Health' }).click();
  await expect(page).toHaveURL(/topic=fintech&topic=health/);
  await only(['Alpha', 'Bravo', 'Charlie']);
  await panel.getByRole('button', { name: 'Fintech' }).click();
  await panel.getByRole('button', { name: 'Health' }).click();

  await panel.getByRole('button', { name: 'Nofollow' }).click();
  await only(['Bravo']);
  await panel.getByRole('button', { name: 'Sponsored' }).click();
  await expect(page).toHaveURL(/linkType=nofollow&linkType=sponsored/);
  await only(['Bravo', 'Charlie']);
  await panel.getByRole('button', { name: 'Nofollow' }).click();
  await panel.getByRole('button', { name: 'Sponsored' }).click();

  await panel.getByLabel('More than one spot').click();
  await expect(page).toHaveURL(/multiSlot=true/);
  await only(['Alpha']);

  // "Clear filters" keeps the order (and the type tab), drops the rest
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/brand\/opportunities\?sort=deadline_asc$/);
  await cat.closeAll();
});

test('[BRAND] a URL with a search opens with its controls set and its results; invalid parameters are dropped', async ({
  page,
  browser,
}) => {
  const t = token();
  const cat = await catalogue(browser);
  await cat.create({
    outletName: `Delta ${t}`,
    title: 'Delta list',
    type: ['listicle'],
    priceUsd: '300.00',
    country: 'DE',
    topics: ['ai'],
  });
  await cat.create({
    outletName: `Echo ${t}`,
    title: 'Echo list',
    type: ['listicle'],
    priceUsd: '700.00',
    country: 'DE',
    topics: ['ai'],
  });
  await cat.create({
    outletName: `Foxtrot ${t}`,
    title: 'Foxtrot list',
    type: ['listicle'],
    priceUsd: '2000.00',
    country: 'DE',
    topics: ['ai'],
  });
  await cat.create({
    outletName: `Golf ${t}`,
    title: 'Golf profile',
    type: ['profile_article'],
    priceUsd: '500.00',
    country: 'DE',
    topics: ['ai'],
  });
  await approvedBrand(page);

  // a first visit asks for the search's first page once: the router's early request is the page's
  const searchRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/opportunities?')) searchRequests.push(r.url());
  });
  await page.goto(`/brand/opportunities?q=${t}&type=listicle&priceMax=1000&topic=ai&country=DE&sort=price_desc`);
  await expect(searchBox(page)).toHaveValue(t);
  await expect(page.getByRole('tab', { name: 'Listicle' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('type-description')).toContainText('one entry in a curated list');
  await expect(page.getByLabel('Sort by')).toHaveValue('price_desc');
  await expect(page.getByRole('button', { name: /^Filters/ })).toContainText('3');
  await expect(count(page)).toHaveText('2 opportunities');
  await expect.poll(() => outlets(page)).toEqual([`Echo ${t}`, `Delta ${t}`]);
  await page.getByRole('button', { name: /^Filters/ }).click();
  const panel = page.getByTestId('filter-panel');
  await expect(panel.getByLabel('Max price (USD)')).toHaveValue('1000');
  await expect(panel.getByLabel('Country')).toHaveValue('DE');
  await expect(panel.getByRole('button', { name: 'AI', exact: true })).toHaveAttribute('aria-pressed', 'true');
  expect(searchRequests).toHaveLength(1);

  // the API is asked with exactly the search's parameters (and a page size), nothing else
  const asked = page.waitForRequest((r) => r.url().includes('/api/opportunities?'));
  await page.goto(
    `/brand/opportunities?q=${t}&daMin=abc&priceMin=900&priceMax=100&bogus=1&type=nonsense&type=profile_article&sort=sideways`,
  );
  const url = new URL((await asked).url());
  expect([...url.searchParams.keys()].sort()).toEqual(['limit', 'priceMin', 'q', 'type']);
  expect(url.searchParams.get('priceMin')).toBe('900');
  await expect(page.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Sort by')).toHaveValue('newest');
  await expect(page.getByText('No opportunities match these filters')).toBeVisible();
  await cat.closeAll();
});

test('[BRAND] Back and Forward walk through earlier searches; typing makes one history entry', async ({
  page,
  browser,
}) => {
  const t = token();
  const cat = await catalogue(browser);
  await cat.create({ outletName: `Hotel ${t}`, title: 'Hotel feature', type: ['listicle'], priceUsd: '100.00' });
  await cat.create({ outletName: `India ${t}`, title: 'India feature', type: ['profile_article'], priceUsd: '200.00' });
  await approvedBrand(page);
  await page.goto('/brand/opportunities');

  // typed in two goes with a pause between: the URL follows each, in one history entry
  await searchBox(page).pressSequentially(t.slice(0, 5), { delay: 40 });
  await expect(page).toHaveURL(new RegExp(`\\?q=${t.slice(0, 5)}$`));
  await searchBox(page).pressSequentially(t.slice(5), { delay: 40 });
  await expect(page).toHaveURL(new RegExp(`\\?q=${t}$`));
  await expect(count(page)).toHaveText('2 opportunities');
  await page.getByLabel('Sort by').selectOption('price_desc');
  await expect(page).toHaveURL(new RegExp(`\\?q=${t}&sort=price_desc$`));
  await page.getByRole('tab', { name: 'Listicle' }).click();
  await expect(page).toHaveURL(new RegExp(`\\?q=${t}&type=listicle&sort=price_desc$`));
  await expect(cards(page)).toHaveText([new RegExp(`Hotel ${t}`)]);

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`\\?q=${t}&sort=price_desc$`));
  await expect(page.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');
  await expect.poll(() => outlets(page)).toEqual([`India ${t}`, `Hotel ${t}`]);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`\\?q=${t}$`));
  await expect(page.getByLabel('Sort by')).toHaveValue('newest');
  await expect.poll(() => outlets(page)).toEqual([`India ${t}`, `Hotel ${t}`]);
  // both goes of typing were one entry: one step back is the page before the search
  await page.goBack();
  await expect(page).toHaveURL(/\/brand\/opportunities$/);
  await expect(searchBox(page)).toHaveValue('');
  await page.goForward();
  await expect(searchBox(page)).toHaveValue(t);
  await expect(count(page)).toHaveText('2 opportunities');
  await page.goForward();
  await page.goForward();
  await expect(page).toHaveURL(new RegExp(`type=listicle`));
  await expect(page.getByRole('tab', { name: 'Listicle' })).toHaveAttribute('aria-selected', 'true');
  await expect(cards(page)).toHaveText([new RegExp(`Hotel ${t}`)]);
  await cat.closeAll();
});

test('[BRAND] the saved list loads a page at a time as the brand scrolls, without duplicates; sold out ones say so', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const t = token();
  const cat = await catalogue(browser);
  await approvedBrand(page);
  // closed from the start (deadline yesterday): only the brand's saved list shows them, as sold out
  const TOTAL = 30;
  for (let i = 0; i < TOTAL; i++) {
    const id = await cat.create({
      outletName: `Scroll ${t} ${String(i).padStart(2, '0')}`,
      title: `Paged outlet ${i}`,
      deadlineDate: day(-1),
    });
    expect((await api(page, 'PUT', `/api/brand/saved/${id}`)).status()).toBe(204);
  }
  await page.goto(`/brand/opportunities?q=${t}`);
  await expect(page.getByText('Nothing here yet')).toHaveCount(0);
  await expect(page.getByText('No opportunities match these filters')).toBeVisible();

  await page.getByRole('button', { name: 'Saved', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`\\?q=${t}&saved=true$`));
  await expect(count(page)).toHaveText(`${TOTAL} opportunities`);
  await expect(cards(page)).toHaveCount(24);
  await page.getByTestId('load-more').scrollIntoViewIfNeeded();
  await expect(cards(page)).toHaveCount(TOTAL);
  await expect(page.getByTestId('load-more')).toHaveCount(0);
  const names = await outlets(page);
  expect(new Set(names).size).toBe(TOTAL);
  await expect(cards(page).filter({ hasText: 'Sold out' })).toHaveCount(TOTAL);
  await cat.closeAll();
});

test('[BRAND] saves and unsaves from the card and the dialog; the Saved filter; a saved one that sells out stays, marked Sold out', async ({
  page,
  browser,
}) => {
  // two sessions and a purchase: on a machine busy with the rest of the suite, more than a minute
  test.setTimeout(120_000);
  const t = token();
  const cat = await catalogue(browser);
  const id = await cat.create({
    outletName: `Juliet ${t}`,
    title: 'Juliet feature',
    priceUsd: '250.00',
    country: 'GB',
    language: 'en',
    linkType: 'dofollow',
    topics: ['travel'],
  });
  await cat.create({ outletName: `Kilo ${t}`, title: 'Kilo feature', priceUsd: '260.00' });
  await approvedBrand(page);
  await page.goto(`/brand/opportunities?q=${t}`);
  const juliet = cards(page).filter({ hasText: `Juliet ${t}` });
  const save = juliet.getByRole('button', { name: `Save Juliet ${t}` });
  await expect(save).toHaveAttribute('aria-pressed', 'false');
  await save.click();
  const saved = juliet.getByRole('button', { name: `Saved Juliet ${t}` });
  await expect(saved).toHaveAttribute('aria-pressed', 'true');
  // the click saved it, and did not open the card
  await expect(page.getByTestId('claim-dialog')).toHaveCount(0);
  await page.reload();
  await expect(saved).toHaveAttribute('aria-pressed', 'true');

  await page.getByRole('button', { name: 'Saved', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Saved', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(count(page)).toHaveText('1 opportunity');
  await expect(cards(page)).toHaveText([new RegExp(`Juliet ${t}`)]);

  // the dialog: the catalogue's facts, and "Saved" toggles there too
  await juliet.click();
  const dialog = page.getByTestId('claim-dialog');
  await expect(dialog).toContainText('United Kingdom');
  await expect(dialog).toContainText('English');
  await expect(dialog).toContainText('Dofollow');
  await expect(dialog).toContainText('Travel');
  await dialog.getByRole('button', { name: `Saved Juliet ${t}` }).click();
  await expect(dialog.getByRole('button', { name: `Save Juliet ${t}` })).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.press('Escape');
  await expect(page.getByText('No opportunities match these filters')).toBeVisible();
  expect(await (await api(page, 'GET', '/api/brand/saved')).json()).toEqual([]);

  // saved again from the dialog, then another brand buys the only slot
  await page.getByRole('button', { name: 'Saved', exact: true }).click();
  await juliet.click();
  await dialog.getByRole('button', { name: `Save Juliet ${t}` }).click();
  await expect(dialog.getByRole('button', { name: `Saved Juliet ${t}` })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Escape');
  const other = await browser.newContext();
  const buyer = await other.newPage();
  await buyer.goto('/auth');
  await brandAs(buyer, 'approved');
  await buy(buyer, id);
  await other.close();

  await page.goto(`/brand/opportunities?q=${t}`);
  await expect(cards(page)).toHaveText([new RegExp(`Kilo ${t}`)]);
  await page.getByRole('button', { name: 'Saved', exact: true }).click();
  await expect(juliet).toContainText('Sold out');
  await expect(juliet.getByRole('button', { name: `Saved Juliet ${t}` })).toBeVisible();
  await juliet.click();
  await expect(dialog).toContainText('Sold out: this opportunity can no longer be bought.');
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeDisabled();
  await cat.closeAll();
});

test.describe('phone width', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('[BRAND] the filters fold into a "Filters" button; nothing is wider than the phone', async ({
    page,
    browser,
  }) => {
    const t = token();
    const cat = await catalogue(browser);
    await cat.create({
      outletName: `Lima ${t} with a rather long outlet name for a phone`,
      title: 'Lima feature',
      topics: ['ai', 'saas', 'marketing', 'ecommerce'],
      country: 'US',
      language: 'en',
      linkType: 'sponsored',
    });
    await approvedBrand(page);
    await page.goto(`/brand/opportunities?q=${t}`);
    await expect(count(page)).toHaveText('1 opportunity');
    await expect(page.getByTestId('filter-panel')).toHaveCount(0);
    await expectNoHorizontalOverflow(page);
    const filters = page.getByRole('button', { name: /^Filters/ });
    await expect(filters).toBeInViewport();
    await expect(searchBox(page)).toBeInViewport();
    await filters.click();
    const panel = page.getByTestId('filter-panel');
    await expect(panel).toBeVisible();
    await expectNoHorizontalOverflow(page);
    for (const label of ['Max price (USD)', 'Country', 'Language', 'Deadline after']) {
      const box = (await panel.getByLabel(label).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await panel.getByLabel('Country').selectOption('US');
    await expect(count(page)).toHaveText('1 opportunity');
    await filters.click();
    await expect(page.getByTestId('filter-panel')).toHaveCount(0);
    await expect(page).toHaveURL(/country=US/);
    await expectNoHorizontalOverflow(page);
    await cat.closeAll();
  });
});
