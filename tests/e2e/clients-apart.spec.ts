import { randomBytes } from 'node:crypto';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { pdfText } from '../support/pdf';
import { PASSWORD, adminPage, api, axe, brandAs, invitationToken, mailsTo, shots, uniqueEmail } from './support';

/*
 * Clients kept apart (issue 57), on both databases: an agency with two clients and each client's
 * reviewer; one client's placements swapped for a cheaper one, cancelled before and after writing,
 * part refunded and published (through the real routes, by the owner, a buyer and the editorial
 * team). Each reviewer then opens every page it can reach: each opens (never "Couldn't open this
 * page"), shows only its client's placements, briefs and templates, and no amount, neither in the
 * page's text nor in any API answer the page gets; nor do the share pages it makes, the report files
 * it downloads, or its e-mails. axe on each screen. SHOTS_DIR=/tmp/… saves each at 1280 and 390 px.
 */

const run = randomBytes(3).toString('hex');
/** The prices and the amounts refunded: three digits or more before the point (no time of day holds one). */
const PRICES = { swapped: '4321.98', alternative: '3876.54', cancelled: '2222.22', partRefunded: '1500.00', cancelledLate: '987.65', published: '654.32', bolt: '5555.55', boltFresh: '3141.59' };
const AMOUNTS = [...Object.values(PRICES), '445.44', '117.35', '1382.65', '123.45', '864.20', '166.66', '5388.89'];
const withCommas = (v: string) => v.replace(/\B(?=(\d{3})+(?!\d))/, ',');

/** What of money a text shows: a known amount, as written or as a sum, or any dollar sum. */
function moneyIn(text: string): string[] {
  const known = AMOUNTS.flatMap((a) => [a, withCommas(a)]).filter((a) => text.includes(a));
  return [...new Set([...known, ...(text.match(/\$\s?\d[\d,]*(?:\.\d+)?/g) ?? [])])];
}

const BRIEF = {
  part1Json: { personOrBrandName: 'Acme Foods', backgroundExperience: 'Acme has baked bread since 1921.' },
  part2Json: { mainGoal: 'Reach grocers', targetAudience: 'Independent grocers', mainMessage: 'Bread that keeps' },
};
const BOLT_BRIEF = {
  part1Json: { personOrBrandName: 'Bolt Bikes', backgroundExperience: 'Bolt has built e-bikes since 2012.' },
  part2Json: { mainGoal: 'Reach commuters', targetAudience: 'City commuters', mainMessage: 'Ride further' },
};

/** The first look at a page opened cold: its chunks and first answers take seconds on a busy machine. */
const opened = { timeout: 30_000 };

const ok = async (res: Awaited<ReturnType<typeof api>>, status = 200) => {
  expect(res.status(), `${res.url()}: ${await res.text()}`).toBe(status);
  return res.json() as Promise<Record<string, unknown>>;
};

interface Member {
  page: Page;
  context: BrowserContext;
  email: string;
}

/** A member invited by the owner with a role and its clients, signed up and joined, on a page of its own. */
async function join(browser: Browser, owner: Page, name: string, role: 'buyer' | 'reviewer', clientIds: string[]): Promise<Member> {
  const email = uniqueEmail(name.toLowerCase().replace(/\W+/g, '-'));
  await ok(await api(owner, 'POST', '/api/org/invitations', { email, role, clientIds }), 201);
  const token = await invitationToken(email);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/auth');
  await ok(await api(page, 'POST', '/api/register', { email, password: PASSWORD }), 201);
  await ok(await api(page, 'POST', `/api/invitations/${token}/accept`, { name }));
  return { page, context, email };
}

interface Agency {
  acme: { id: string; name: string };
  bolt: { id: string; name: string };
  rita: Member; // Acme's reviewer
  otto: Member; // Bolt's reviewer
  ben: Member; // Acme's buyer, then its reviewer
  placements: Record<'swapped' | 'cancelled' | 'partRefunded' | 'cancelledLate' | 'published' | 'bolt' | 'boltFresh', string>;
  titles: Record<string, string>;
  reports: { acme: string; bolt: string };
  templates: { acme: string; bolt: string };
}

test.describe.serial('[CLIENTS] clients kept apart', () => {
  let agency: Agency;
  const contexts: BrowserContext[] = [];

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(300_000);
    const { admin, close } = await adminPage(browser);
    const opportunity = async (key: string, priceUsd: string) => {
      const res = await ok(
        await api(admin, 'POST', '/api/admin/opportunities', {
          outletName: `Apart Ledger ${key} ${run}`,
          title: `Apart ${key} ${run}`,
          description: 'A placement of the clients-apart journey.',
          type: ['listicle'],
          topics: ['food'],
          // far from every other opportunity's: the swap's alternatives are this run's
          domainAuthority: 7,
          priceUsd,
          maxSlots: 2,
        }),
        201,
      );
      return res.id as string;
    };
    const opps = Object.fromEntries(await Promise.all(Object.entries(PRICES).map(async ([k, p]) => [k, await opportunity(k, p)] as const)));

    // the agency: its owner, two clients, a reviewer for each, a buyer for the first
    const ownerContext = await browser.newContext();
    contexts.push(ownerContext);
    const owner = await ownerContext.newPage();
    await owner.goto('/auth');
    await brandAs(owner, 'approved');
    const client = async (name: string) => ({ id: (await ok(await api(owner, 'POST', '/api/org/clients', { name }), 201)).id as string, name });
    const acme = await client(`Acme Foods ${run}`);
    const bolt = await client(`Bolt Bikes ${run}`);
    const [rita, otto, ben] = [
      await join(browser, owner, 'Rita Acme', 'reviewer', [acme.id]),
      await join(browser, owner, 'Otto Bolt', 'reviewer', [bolt.id]),
      await join(browser, owner, 'Ben Buyer', 'buyer', [acme.id]),
    ];
    contexts.push(rita.context, otto.context, ben.context);

    const buy = async (who: Page, opportunityId: string, clientId: string) => {
      const { url } = await ok(await api(who, 'POST', '/api/payments/checkout', { opportunityId, clientId }));
      return (await ok(await api(who, 'POST', `/api/payments/checkout/${String(url).split('/').pop()}/pay`))).paymentId as string;
    };
    const p = {
      swapped: await buy(ben.page, opps.swapped, acme.id),
      cancelled: await buy(ben.page, opps.cancelled, acme.id),
      partRefunded: await buy(ben.page, opps.partRefunded, acme.id),
      cancelledLate: await buy(ben.page, opps.cancelledLate, acme.id),
      published: await buy(ben.page, opps.published, acme.id),
      bolt: await buy(owner, opps.bolt, bolt.id),
      boltFresh: await buy(owner, opps.boltFresh, bolt.id),
    };
    // the buyer becomes Acme's reviewer: the refunds and the publication are mailed to it from now on
    await ok(await api(owner, 'PATCH', `/api/org/members/${await memberId(owner, ben.email)}`, { role: 'reviewer', clientIds: [acme.id] }));

    // a brief template of each client (saved from a placement of it)
    const template = async (paymentId: string, name: string, brief: typeof BRIEF) =>
      (await ok(await api(owner, 'POST', '/api/brand/brief-templates', { name, paymentId, ...brief }), 201)).name as string;
    const templates = { acme: await template(p.published, `Acme template ${run}`, BRIEF), bolt: await template(p.bolt, `Bolt template ${run}`, BOLT_BRIEF) };

    // swapped for a cheaper alternative (445.44 back)
    await ok(await api(admin, 'POST', `/api/admin/payments/${p.swapped}/decline`, { reason: 'The outlet refused the topic' }));
    expect((await ok(await api(owner, 'POST', `/api/brand/projects/${p.swapped}/swap`, { opportunityId: opps.alternative }))).refundedUsd).toBe('445.44');
    // cancelled before writing: refunded in full
    await ok(await api(owner, 'POST', `/api/brand/projects/${p.cancelled}/cancel`, {}));
    // part refunded by the editorial team
    await ok(await api(admin, 'POST', `/api/admin/payments/${p.partRefunded}/refund`, { amountUsd: '117.35', reason: 'Two days late' }));
    await ok(await api(admin, 'POST', `/api/admin/payments/${p.bolt}/refund`, { amountUsd: '166.66', reason: 'Late' }));
    // cancelled once writing started: a part refund
    await ok(await api(rita.page, 'POST', `/api/brand/brief/${p.cancelledLate}/submit`, BRIEF));
    await ok(await api(admin, 'POST', `/api/admin/payments/${p.cancelledLate}/writing-started`));
    await ok(await api(owner, 'POST', `/api/brand/projects/${p.cancelledLate}/cancel`, { reason: 'Budget cut' }), 202);
    const open = (await (await api(admin, 'GET', '/api/admin/cancellations')).json()) as { id: string; paymentId: string }[];
    const request = open.find((c) => c.paymentId === p.cancelledLate)!;
    await ok(await api(admin, 'POST', `/api/admin/cancellations/${request.id}/answer`, { outcome: 'refund_partial', amountUsd: '123.45', reason: 'Half written' }));
    // published: its brief and draft approved by Acme's reviewer
    await ok(await api(rita.page, 'POST', `/api/brand/brief/${p.published}/submit`, BRIEF));
    await ok(await api(admin, 'PATCH', `/api/admin/payments/${p.published}/status`, { draftDocumentUrl: 'https://docs.example.com/d/apart' }));
    await ok(await api(rita.page, 'POST', `/api/brand/projects/${p.published}/approve`));
    await ok(await api(admin, 'POST', `/api/admin/payments/${p.published}/release`));
    // a draft waiting for Bolt's reviewer
    await ok(await api(otto.page, 'POST', `/api/brand/brief/${p.bolt}/submit`, BOLT_BRIEF));
    await ok(await api(admin, 'PATCH', `/api/admin/payments/${p.bolt}/status`, { draftDocumentUrl: 'https://docs.example.com/d/bolt' }));
    await close();

    // the owner's reports of each client, with prices
    const report = async (name: string, clientId: string) =>
      (await ok(await api(owner, 'POST', '/api/org/reports', { name, clientId, columns: ['outlet', 'title', 'status', 'price'], showPrices: true }), 201)).id as string;
    const reports = { acme: await report(`Acme priced ${run}`, acme.id), bolt: await report(`Bolt priced ${run}`, bolt.id) };
    // the owner's copy shows the prices: the checks below can fail
    expect(await (await api(owner, 'GET', `/api/org/reports/${reports.acme}/csv`)).text()).toContain(withCommas(PRICES.partRefunded));

    const titles = Object.fromEntries(Object.keys(p).map((k) => [k, `Apart ${k === 'swapped' ? 'alternative' : k} ${run}`]));
    agency = { acme, bolt, rita, otto, ben, placements: p, titles, reports, templates };
  });

  test.afterAll(async () => {
    for (const c of contexts) await c.close();
  });

  /**
   * One screen as a reviewer sees it: it opens, shows no amount (nor does any API answer it got),
   * passes axe, and is saved at both widths.
   */
  async function screen(page: Page, name: string, open: () => Promise<void>, answers: string[], { look = true } = {}) {
    answers.length = 0;
    await open();
    await expect(page.getByText("Couldn't open this page")).toHaveCount(0);
    const text = await page.locator('body').innerText();
    expect(moneyIn(text), `${name}: the page's text`).toEqual([]);
    // axe and the screenshots once per kind of screen (My Articles' tabs are one screen)
    if (look) {
      await axe(page, name);
      await shots(page, name);
    }
    const leaks = answers.flatMap((a) => moneyIn(a).map((m) => `${a.slice(0, 80)}: ${m}`));
    expect(leaks, `${name}: the API answers it got`).toEqual([]);
  }

  /** Every API answer a page gets, as text (its JSON, or its file's). */
  function listen(page: Page): string[] {
    const answers: string[] = [];
    page.on('response', (res) => {
      if (!res.url().includes('/api/')) return;
      void res.text().then(
        (body) => answers.push(`${res.url()} ${body}`),
        () => undefined, // a navigation discarded it
      );
    });
    return answers;
  }

  for (const who of ['rita', 'otto'] as const) {
    test(`${who === 'rita' ? 'Acme' : 'Bolt'}’s reviewer: every page opens, only its client’s, no amount anywhere`, async ({ browser }) => {
      // a few seconds a screen; far more on a loaded machine
      test.setTimeout(900_000);
      const a = agency;
      const me = a[who];
      const mine = who === 'rita' ? (['swapped', 'cancelled', 'partRefunded', 'cancelledLate', 'published'] as const) : (['bolt', 'boltFresh'] as const);
      const theirs = who === 'rita' ? (['bolt'] as const) : (['swapped', 'published'] as const);
      const client = who === 'rita' ? a.acme : a.bolt;
      const other = who === 'rita' ? a.bolt : a.acme;
      const page = me.page;
      const answers = listen(page);
      const shot = (s: string) => `apart-${who}-${s}`;

      // My Articles, its default tab and every other: only its client's placements
      await screen(page, shot('my-articles'), async () => {
        await page.goto('/brand/my-articles');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible(opened);
        await expect(page.getByTestId('article-card').first()).toBeVisible(opened);
      }, answers);
      const seen = new Set<string>();
      for (const tab of ['pending', 'needs-review', 'approved', 'completed', 'refunded']) {
        await screen(page, shot(`tab-${tab}`), async () => {
          await page.goto(`/brand/my-articles?tab=${tab}`);
          await expect(page.getByRole('tabpanel')).toBeVisible(opened);
          await expect(page.getByRole('tabpanel').getByTestId('article-card').or(page.getByRole('tabpanel').getByText(/^Nothing|no /i)).first()).toBeVisible(opened);
        }, answers, { look: tab === 'refunded' || tab === 'needs-review' });
        for (const card of await page.getByTestId('article-card').all()) {
          await expect(card.getByTestId('article-client')).toHaveText(`For ${client.name}`);
          seen.add((await card.getByRole('heading', { level: 2 }).innerText()).trim());
        }
      }
      expect([...seen].sort()).toEqual(mine.map((k) => a.titles[k]).sort());

      // each of its placements' pages
      for (const key of mine) {
        await screen(page, shot(`placement-${key}`), async () => {
          await page.goto(`/brand/my-articles/${a.placements[key]}`);
          await expect(page.getByTestId('details-title')).toHaveText(a.titles[key], opened);
        }, answers);
        await expect(page.getByTestId('placement-price')).toHaveCount(0);
      }
      // another client's placement is not found, and nothing of it shows
      for (const key of theirs) {
        await screen(page, shot(`other-${key}`), async () => {
          await page.goto(`/brand/my-articles/${a.placements[key]}`);
          await expect(page.getByText('Article not found')).toBeVisible(opened);
        }, answers);
        await expect(page.locator('body')).not.toContainText(a.titles[key]);
      }

      // a new brief: pre-filled from its client's last one, and only its client's templates offered
      const briefOf = who === 'rita' ? a.placements.partRefunded : a.placements.boltFresh;
      await screen(page, shot('brief'), async () => {
        await page.goto(`/brand/brief/${briefOf}`);
        await expect(page.getByLabel('Brand or product to list')).toHaveValue(who === 'rita' ? 'Acme Foods' : 'Bolt Bikes', opened);
      }, answers);
      await expect(page.getByTestId('brief-template').locator('option')).toHaveText(['Choose a template…', a.templates[who === 'rita' ? 'acme' : 'bolt']]);
      const templateAnswers = answers.filter((x) => x.includes('/api/brand/brief-templates'));
      expect(templateAnswers.join('\n')).not.toContain(a.templates[who === 'rita' ? 'bolt' : 'acme']);
      const listed = (await (await api(page, 'GET', '/api/brand/brief-templates')).json()) as { name: string }[];
      expect(listed.map((t) => t.name)).toEqual([a.templates[who === 'rita' ? 'acme' : 'bolt']]);
      await expect(page.locator('body')).not.toContainText(other.name);

      // Reports: the owner's priced report of its client, without prices; its files too
      const report = who === 'rita' ? a.reports.acme : a.reports.bolt;
      await screen(page, shot('reports'), async () => {
        await page.goto('/brand/reports');
        await expect(page.getByTestId('report-row')).toHaveCount(1, opened);
      }, answers);
      const row = page.getByTestId('report-row');
      await expect(row).not.toContainText('Shows prices');
      await expect(row.getByTestId('report-columns-summary')).toHaveText('Columns: Outlet, Article, Status');
      const csv = await (await api(page, 'GET', `/api/org/reports/${report}/csv`)).text();
      expect(csv.split(/\r?\n/)[0]).toBe('Outlet,Article,Status');
      expect(moneyIn(csv)).toEqual([]);
      const pdf = await page.request.get(`/api/org/reports/${report}/pdf`);
      expect(pdf.status()).toBe(200);
      expect(moneyIn(await pdfText(await pdf.body()))).toEqual([]);

      // a link it makes of that report: its page shows no price, signed out
      await row.getByRole('button', { name: /^Share / }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Create link' }).click();
      const link = await dialog.getByTestId('share-url').inputValue();
      await axe(page, shot('share-dialog'));
      await shots(page, shot('share-dialog'), { fullPage: false });
      await dialog.getByRole('button', { name: 'Done' }).click();
      // its schedule: members only; an outside address is refused with why
      await row.getByRole('button', { name: /^Schedule / }).click();
      const schedule = page.getByTestId('schedule-dialog');
      await expect(schedule).toContainText('members of your organisation');
      await schedule.getByRole('radio', { name: /Weekly/ }).check();
      await schedule.getByLabel('Recipients').fill(`${me.email}\nsomeone-${run}@client.example`);
      await schedule.getByRole('button', { name: 'Save' }).click();
      await expect(schedule.getByText(`someone-${run}@client.example is not one`)).toBeVisible();
      await axe(page, shot('schedule-refused'));
      await shots(page, shot('schedule-refused'), { fullPage: false });
      await schedule.getByLabel('Recipients').fill(me.email);
      await schedule.getByRole('button', { name: 'Save' }).click();
      await expect(schedule).toBeHidden();

      const visitorContext = await browser.newContext();
      const visitor = await visitorContext.newPage();
      const links = [link];
      if (who === 'rita') {
        // and the proof of its published placement
        await page.goto(`/brand/my-articles/${a.placements.published}`);
        await page.getByRole('button', { name: 'Share proof' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Create link' }).click();
        links.push(await page.getByRole('dialog').getByTestId('share-url').inputValue());
      }
      for (const [i, url] of links.entries()) {
        await visitor.goto(url);
        await expect(visitor.locator('h1')).toBeVisible(opened);
        const text = await visitor.locator('body').innerText();
        expect(moneyIn(text), url).toEqual([]);
        expect(text).not.toContain(other.name);
        await axe(visitor, shot(`share-page-${i}`));
        await shots(visitor, shot(`share-page-${i}`));
      }
      await expect(visitor.locator('body')).toContainText(who === 'rita' ? a.titles.published : a.titles.bolt);
      await visitorContext.close();

      // its profile; a page that would show money sends it back to My Articles
      await screen(page, shot('profile'), async () => {
        await page.goto('/brand/profile');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible(opened);
      }, answers);
      await page.goto('/brand/payments');
      await expect(page).toHaveURL(/\/brand\/my-articles/);

      // its e-mails: none with an amount or another client's placement, nor in their files
      const mails = await mailsTo(me.email);
      expect(mails.length).toBeGreaterThan(0);
      for (const m of mails) {
        const files = await Promise.all(m.attachments.map((f) => (f.mimeType === 'application/pdf' ? pdfText(f.content) : f.content.toString('utf8'))));
        const all = [m.subject, m.text, m.html, ...files].join('\n');
        expect(moneyIn(all), m.subject).toEqual([]);
        expect(all, m.subject).not.toContain(other.name);
      }
    });
  }

  test('the buyer who became a reviewer: its refund and publication e-mails carry no amount', async () => {
    const a = agency;
    // sent by the mail job: waited for
    await expect
      .poll(async () => (await mailsTo(a.ben.email)).map((m) => m.subject.replace(/:.*/, '')).sort(), { timeout: 60_000 })
      .toEqual(expect.arrayContaining(['Refund issued', 'Your article is published']));
    for (const m of await mailsTo(a.ben.email)) {
      if (!/^(Refund issued|Your article is published|Cancellation|The outlet declined)/.test(m.subject)) continue;
      const files = await Promise.all(m.attachments.map((f) => (f.mimeType === 'application/pdf' ? pdfText(f.content) : f.content.toString('utf8'))));
      expect(moneyIn([m.subject, m.text, m.html, ...files].join('\n')), m.subject).toEqual([]);
    }
    // and its pages, as the other reviewers'
    const answers = listen(a.ben.page);
    await screen(a.ben.page, 'apart-ben-my-articles', async () => {
      await a.ben.page.goto('/brand/my-articles?tab=refunded');
      await expect(a.ben.page.getByTestId('article-card').first()).toBeVisible(opened);
    }, answers);
  });
});

/** A member's user id, from the Team list of the owner's organisation. */
async function memberId(owner: Page, email: string): Promise<string> {
  const members = (await (await api(owner, 'GET', '/api/org/members')).json()) as { id: string; email: string }[];
  return members.find((x) => x.email === email)!.id;
}
