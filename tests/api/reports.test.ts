/**
 * Reports (issue 48): an agency's report of its placements for one client as CSV and PDF, white
 * label (no "Byline" and no price anywhere in the PDF, the CSV or the shared page); share links
 * that open signed out, count their views and 404 once revoked or expired; a placement's proof
 * shared; scheduled reports sent once per period, only when something changed, and the recipient's
 * unsubscribe link.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, payments, placements, publications, reports, shares } from '../../src/server/db/schema';
import { runScheduledReports, periodOf } from '../../src/server/modules/reports/service';
import { DAY_MS } from '../../src/shared/constants';
import { Agent, createTestApp, type Res, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, sessionIdOf } from '../support/payments';
import { ledgerAsColumns } from '../support/placements';
import { pdfText } from '../support/pdf';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LIMIT_CHECKOUTS: { max: 1000, windowMs: 3_600_000 } });
});
afterAll(() => t.close());

type Signed = Awaited<ReturnType<typeof signedIn>>;
const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

/** A 1×1 PNG: the agency's logo. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function agency() {
  const owner = await signedIn(t.app, t.db, { ...kinds.approvedBrand, brandName: 'Northwind Agency' });
  const acme = ok(await owner.agent.post('/api/org/clients', { name: 'Acme Foods' }), 'client') as { id: string };
  const bolt = ok(await owner.agent.post('/api/org/clients', { name: 'Bolt Bikes' }), 'client') as { id: string };
  return { owner, acme, bolt };
}

async function buyFor(who: Signed, clientId: string | null, title: string, priceUsd = '740.00') {
  const opp = await createOpportunity(t.db, { title, outletName: 'The Daily Ledger', priceUsd });
  const res = await who.agent.post('/api/payments/checkout', {
    opportunityId: opp.id,
    ...(clientId ? { clientId } : {}),
  });
  const url = ok(res, 'checkout').url as string;
  return ok(await who.agent.post(`/api/payments/checkout/${sessionIdOf(url)}/pay`), 'pay').paymentId as string;
}

/** Published with its live link, as a release makes it (the placement's state and its publication). */
async function publish(paymentId: string, url: string) {
  await t.db.update(placements).set({ state: 'published' }).where(eq(placements.id, paymentId));
  await t.db.insert(publications).values({
    placementId: paymentId,
    url,
    health: 'ok',
    publishedAt: new Date(),
    guaranteeEndsAt: new Date(Date.now() + 90 * DAY_MS),
  });
}

const signedOut = () => new Agent(t.app);
/** A file the API answers, as bytes. */
const download = async (who: Signed, url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { cookie: who.agent.cookie! } });
  return { status: res.statusCode, type: res.headers['content-type'], bytes: res.rawPayload };
};

describe('reports', () => {
  it('a white-label report for one client: CSV and PDF name only the agency and show no price', async () => {
    const { owner, acme, bolt } = await agency();
    const first = await buyFor(owner, acme.id, 'Acme rebuilt its kitchens');
    await buyFor(owner, acme.id, 'Acme opens in Lyon');
    await buyFor(owner, bolt.id, 'Bolt goes electric');
    await publish(first, 'https://dailyledger.example.com/acme-kitchens');

    // the price column needs prices turned on; the columns are known ones
    const priced = await owner.agent.post('/api/org/reports', { name: 'Acme', columns: ['title', 'price'] });
    expect(priced.status).toBe(400);
    expect(priced.body.errors).toEqual({ columns: 'Turn on prices to show the price column' });
    expect((await owner.agent.post('/api/org/reports', { name: 'Acme', columns: ['secret'] })).status).toBe(400);
    const longFooter = await owner.agent.post('/api/org/reports', {
      name: 'Acme',
      columns: ['title'],
      whiteLabel: { footer: 'x'.repeat(201) },
    });
    expect(longFooter.body.errors).toEqual({ 'whiteLabel.footer': 'At most 200 characters' });

    const logo = ok(
      await owner.agent.upload('/api/org/reports/logo', 'logo', PNG, 'logo.png', 'image/png'),
      'logo',
    ) as { url: string };
    const { id } = ok(
      await owner.agent.post('/api/org/reports', {
        name: 'Acme Foods — November placements',
        clientId: acme.id,
        columns: ['outlet', 'title', 'client', 'status', 'liveUrl', 'linkStatus'],
        whiteLabel: {
          logoFile: logo.url,
          color: '#0F766E',
          footer: 'Prepared by Northwind Agency for Acme Foods · hello@northwind.example',
        },
      }),
      'report',
    ) as { id: string };
    const list = ok(await owner.agent.get('/api/org/reports'), 'list');
    expect(list[0]).toMatchObject({ id, clientName: 'Acme Foods', showPrices: false, cadence: null });

    const csv = await owner.agent.get(`/api/org/reports/${id}/csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const text = csv.text;
    expect(text.split('\r\n')[0]).toBe('Outlet,Article,Client,Status,Live URL,Link status');
    expect(text).toContain(
      'The Daily Ledger,Acme rebuilt its kitchens,Acme Foods,Published,https://dailyledger.example.com/acme-kitchens,Live',
    );
    expect(text).toContain('Acme opens in Lyon');
    expect(text).not.toContain('Bolt goes electric');
    expect(text).not.toMatch(/byline/i);
    expect(text).not.toContain('740');

    const pdf = await download(owner, `/api/org/reports/${id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    const words = await pdfText(pdf.bytes);
    expect(words).toContain('Acme Foods — November placements');
    expect(words).toContain('Prepared by Northwind Agency for Acme Foods');
    expect(words).toContain('Acme rebuilt its kitchens');
    expect(words).not.toMatch(/byline/i);
    expect(words).not.toContain('740');
    // nor in the file's own properties (pdfkit would write its name as producer)
    expect(pdf.bytes.toString('latin1')).not.toMatch(/byline/i);

    // without a white label, Byline says it made it; prices when asked for
    const plain = ok(
      await owner.agent.post('/api/org/reports', { name: 'Everything', columns: ['title', 'price'], showPrices: true }),
      'plain',
    ) as { id: string };
    const plainPdf = await pdfText((await download(owner, `/api/org/reports/${plain.id}/pdf`)).bytes);
    expect(plainPdf).toContain('Made with Byline');
    expect(plainPdf).toContain('$740.00');

    // another organisation sees none of it
    const other = await signedIn(t.app, t.db, kinds.approvedBrand);
    expect((await other.agent.get(`/api/org/reports/${id}/csv`)).status).toBe(404);
    expect(ok(await other.agent.get('/api/org/reports'), 'other list')).toEqual([]);
    expect(
      (await other.agent.post('/api/org/reports', { name: 'X', clientId: acme.id, columns: ['title'] })).status,
    ).toBe(404);
  });

  it('a report row stored with the price column but without showPrices prints no price: CSV, PDF and share page', async () => {
    const { owner, acme } = await agency();
    await buyFor(owner, acme.id, 'Acme stored story', '4321.98');
    const { id } = ok(
      await owner.agent.post('/api/org/reports', { name: 'Stored without prices', clientId: acme.id, columns: ['title', 'price'], showPrices: true }),
      'report',
    ) as { id: string };
    expect((await owner.agent.get(`/api/org/reports/${id}/csv`)).text).toContain('$4,321.98');
    // the row as an older version, a hand edit or a bug elsewhere might leave it
    await t.db.update(reports).set({ showPrices: false }).where(eq(reports.id, id));

    const csv = (await owner.agent.get(`/api/org/reports/${id}/csv`)).text;
    expect(csv.split('\r\n')[0]).toBe('Article');
    expect(csv).toContain('Acme stored story');
    expect(csv).not.toContain('4,321');
    const pdf = await pdfText((await download(owner, `/api/org/reports/${id}/pdf`)).bytes);
    expect(pdf).toContain('Acme stored story');
    expect(pdf).not.toContain('4,321');
    expect(pdf).not.toContain('Price');
    const share = ok(await owner.agent.post(`/api/org/reports/${id}/shares`, {}), 'share') as { url: string };
    const page = await signedOut().get(new URL(share.url).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Acme stored story');
    expect(page.text).not.toContain('4,321');
    expect(page.text).not.toContain('Price');
  });

  it('issue 57: prices need the price column; a part refund reads so; the link status is the latest check’s', async () => {
    const { owner, acme } = await agency();
    const withoutColumn = await owner.agent.post('/api/org/reports', { name: 'Priced', columns: ['title'], showPrices: true });
    expect(withoutColumn.status).toBe(400);
    expect(withoutColumn.body.errors).toEqual({ columns: 'Add the price column to show prices' });

    const cancelled = await buyFor(owner, acme.id, 'Acme cancelled in part', '500.00');
    const whole = await buyFor(owner, acme.id, 'Acme refunded in full', '300.00');
    const live = await buyFor(owner, acme.id, 'Acme goes live', '200.00');
    // a cancellation granted with a part refund, and a full refund
    await t.db.update(placements).set({ state: 'refunded' }).where(eq(placements.id, cancelled));
    await t.db.update(payments).set({ status: 'refunded' }).where(eq(payments.id, cancelled));
    await t.db.update(placements).set({ state: 'refunded' }).where(eq(placements.id, whole));
    await t.db.update(payments).set({ status: 'refunded' }).where(eq(payments.id, whole));
    // the money that went back, on the ledger the report reads (decision 041)
    await ledgerAsColumns(t.db, sql`p.id IN (${cancelled}, ${whole})`, { [cancelled]: '120.00', [whole]: '300.00' });
    // published, its health still "ok" but its latest check failed (a first failure, not confirmed yet)
    await publish(live, 'https://dailyledger.example.com/acme-live');
    const failed = {
      result: 'fail' as const,
      checkedAt: new Date().toISOString(),
      httpStatus: 404,
      finalUrl: null,
      indexable: null,
      link: { found: false, rel: null },
      title: null,
      problems: [{ code: 'http_error' as const, message: 'The page answers 404' }],
    };
    await t.db.update(publications).set({ lastCheck: failed }).where(eq(publications.placementId, live));

    const { id } = ok(
      await owner.agent.post('/api/org/reports', { name: 'Acme', clientId: acme.id, columns: ['title', 'status', 'linkStatus'] }),
      'report',
    ) as { id: string };
    const csv = (await owner.agent.get(`/api/org/reports/${id}/csv`)).text;
    expect(csv).toContain('Acme cancelled in part,Partially refunded,');
    expect(csv).toContain('Acme refunded in full,Refunded,');
    expect(csv).toContain('Acme goes live,Published,Problem found');
    // passing again, with a warning accepted by the team: live with a warning
    await t.db
      .update(publications)
      .set({ lastCheck: { ...failed, result: 'pass', httpStatus: 200, problems: [] }, acceptedProblems: ['rel_mismatch'] })
      .where(eq(publications.placementId, live));
    expect((await owner.agent.get(`/api/org/reports/${id}/csv`)).text).toContain('Acme goes live,Published,"Live, with a warning"');
  });

  it('a client reviewer reports on its client, never with prices', async () => {
    const { owner, acme, bolt } = await agency();
    await buyFor(owner, acme.id, 'Acme story');
    const reviewer = await signedIn(t.app, t.db, {
      ...kinds.approvedBrand,
      organisationId: owner.user.organisationId!,
      orgRole: 'reviewer',
      clientIds: [acme.id],
    });
    const withPrices = await reviewer.agent.post('/api/org/reports', {
      name: 'A',
      clientId: acme.id,
      columns: ['title', 'price'],
      showPrices: true,
    });
    expect(withPrices.status).toBe(403);
    expect(
      (await reviewer.agent.post('/api/org/reports', { name: 'B', clientId: bolt.id, columns: ['title'] })).status,
    ).toBe(403);
    const { id } = ok(
      await reviewer.agent.post('/api/org/reports', { name: 'Acme only', clientId: acme.id, columns: ['title'] }),
      'mine',
    );
    expect((await reviewer.agent.get(`/api/org/reports/${id}/csv`)).text).toContain('Acme story');
    // the owner's report of every client is not the reviewer's
    const all = ok(await owner.agent.post('/api/org/reports', { name: 'All', columns: ['title'] }), 'all') as {
      id: string;
    };
    expect((await reviewer.agent.get(`/api/org/reports/${all.id}/csv`)).status).toBe(404);
    expect((ok(await reviewer.agent.get('/api/org/reports'), 'list') as { id: string }[]).map((r) => r.id)).toEqual([
      id,
    ]);
  });
});

describe('share links', () => {
  it('open signed out, count views, show nothing beyond the report, and 404 once revoked or expired', async () => {
    const { owner, acme } = await agency();
    const paid = await buyFor(owner, acme.id, 'Acme shared story');
    await publish(paid, 'https://dailyledger.example.com/acme-shared');
    const { id } = ok(
      await owner.agent.post('/api/org/reports', {
        name: 'Acme for the board',
        clientId: acme.id,
        columns: ['title', 'liveUrl'],
        whiteLabel: { color: '#7C3AED', footer: 'Northwind Agency' },
      }),
      'report',
    ) as { id: string };
    const share = ok(await owner.agent.post(`/api/org/reports/${id}/shares`, {}), 'share') as {
      id: string;
      url: string;
      expiresAt: string;
    };
    expect(share.url).toMatch(/\/share\/[A-Za-z0-9_-]{32}$/);
    expect(Date.parse(share.expiresAt) - Date.now()).toBeGreaterThan(29 * DAY_MS);
    expect((await owner.agent.post(`/api/org/reports/${id}/shares`, { expiresInDays: 400 })).status).toBe(400);

    const path = new URL(share.url).pathname;
    const page = await signedOut().get(path);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('Acme for the board');
    expect(page.text).toContain('https://dailyledger.example.com/acme-shared');
    expect(page.text).toContain('Northwind Agency');
    expect(page.text).not.toMatch(/byline/i);
    expect(page.text).not.toContain('740');
    await signedOut().get(path);
    const listed = (
      ok(await owner.agent.get('/api/org/shares'), 'shares') as { id: string; views: number; subject: string }[]
    ).find((s) => s.id === share.id);
    expect(listed).toMatchObject({ views: 2, subject: 'Acme for the board' });

    // another organisation can neither list nor revoke it
    const other = await signedIn(t.app, t.db, kinds.approvedBrand);
    expect((await other.agent.delete(`/api/org/shares/${share.id}`)).status).toBe(404);
    expect((await owner.agent.delete(`/api/org/shares/${share.id}`)).status).toBe(204);
    const gone = await signedOut().get(path);
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('This link is not available');
    expect((await signedOut().get('/share/not-a-token')).status).toBe(404);

    // an expired link is gone too
    const soon = ok(await owner.agent.post(`/api/org/reports/${id}/shares`, { expiresInDays: 1 }), 'soon') as {
      id: string;
      url: string;
    };
    expect((await signedOut().get(new URL(soon.url).pathname)).status).toBe(200);
    await t.db
      .update(shares)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(shares.id, soon.id));
    expect((await signedOut().get(new URL(soon.url).pathname)).status).toBe(404);
  });

  it('an active link is listed with its URL to copy again, only to members who may make links, never one with prices to a client reviewer', async () => {
    const { owner, acme } = await agency();
    await buyFor(owner, acme.id, 'Acme copied story');
    const plain = ok(await owner.agent.post('/api/org/reports', { name: 'Plain', clientId: acme.id, columns: ['title'] }), 'plain') as { id: string };
    const priced = ok(
      await owner.agent.post('/api/org/reports', { name: 'Priced', clientId: acme.id, columns: ['title', 'price'], showPrices: true }),
      'priced',
    ) as { id: string };
    const plainLink = ok(await owner.agent.post(`/api/org/reports/${plain.id}/shares`, {}), 'share') as { id: string; url: string };
    const pricedLink = ok(await owner.agent.post(`/api/org/reports/${priced.id}/shares`, {}), 'share') as { id: string; url: string };
    const listOf = async (who: Signed) =>
      new Map((ok(await who.agent.get('/api/org/shares'), 'shares') as { id: string; url: string | null }[]).map((s) => [s.id, s.url]));

    // the owner: both, the same URL the link was made with (and it still opens)
    let list = await listOf(owner);
    expect(list.get(plainLink.id)).toBe(plainLink.url);
    expect(list.get(pricedLink.id)).toBe(pricedLink.url);
    expect((await signedOut().get(new URL(list.get(plainLink.id)!).pathname)).status).toBe(200);

    // a viewer may not make links: none to copy
    const member = (orgRole: 'viewer' | 'reviewer', clientIds: string[] | null) =>
      signedIn(t.app, t.db, { ...kinds.approvedBrand, organisationId: owner.user.organisationId!, orgRole, clientIds });
    const viewer = await member('viewer', null);
    list = await listOf(viewer);
    expect(list.get(plainLink.id)).toBeNull();
    expect(list.get(pricedLink.id)).toBeNull();
    // a client reviewer: the link without prices, not the one with them
    const reviewer = await member('reviewer', [acme.id]);
    list = await listOf(reviewer);
    expect(list.get(plainLink.id)).toBe(plainLink.url);
    expect(list.get(pricedLink.id)).toBeNull();

    // revoked: no URL, and the token is no longer kept; expired: no URL
    expect((await owner.agent.delete(`/api/org/shares/${plainLink.id}`)).status).toBe(204);
    const [revoked] = await t.db.select().from(shares).where(eq(shares.id, plainLink.id));
    expect(revoked.token).toBeNull();
    await t.db.update(shares).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(shares.id, pricedLink.id));
    list = await listOf(owner);
    expect(list.get(plainLink.id)).toBeNull();
    expect(list.get(pricedLink.id)).toBeNull();
  });

  it('a placement’s proof: live URL, link status and check history, no price; only its organisation shares it', async () => {
    const { owner } = await agency();
    const paid = await buyFor(owner, null, 'Proof story');
    await publish(paid, 'https://dailyledger.example.com/proof');
    const other = await signedIn(t.app, t.db, kinds.approvedBrand);
    expect((await other.agent.post(`/api/brand/projects/${paid}/shares`, {})).status).toBe(404);
    const share = ok(await owner.agent.post(`/api/brand/projects/${paid}/shares`, { expiresInDays: 7 }), 'share') as {
      url: string;
    };
    const page = await signedOut().get(new URL(share.url).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Proof of publication');
    expect(page.text).toContain('https://dailyledger.example.com/proof');
    expect(page.text).toContain('Live');
    expect(page.text).not.toContain('740');
  });
});

describe('scheduled reports', () => {
  it('ISO weeks: a Sunday is in the week of the Monday before it; a weekly report is mailed once across that week’s end', async () => {
    const week = (iso: string) => periodOf('weekly', new Date(iso));
    expect(week('2026-11-23T00:00:00Z')).toBe('2026-W48'); // Monday
    expect(week('2026-11-29T12:00:00Z')).toBe('2026-W48'); // Sunday
    expect(week('2026-11-29T23:59:59.999Z')).toBe('2026-W48');
    expect(week('2026-11-30T00:00:00Z')).toBe('2026-W49'); // the next Monday
    expect(week('2027-01-03T12:00:00Z')).toBe('2026-W53'); // a Sunday in the next calendar year
    expect(week('2027-01-04T00:00:00Z')).toBe('2027-W01');

    const { owner, acme } = await agency();
    await buyFor(owner, acme.id, 'Weekend story one');
    const { id } = ok(await owner.agent.post('/api/org/reports', { name: 'Weekend Acme', clientId: acme.id, columns: ['title'] }), 'report') as { id: string };
    ok(await owner.agent.put(`/api/org/reports/${id}/schedule`, { cadence: 'weekly', recipients: ['ann@client.example'] }), 'schedule');
    const sent = async () =>
      (await t.db.select({ data: mailOutbox.data }).from(mailOutbox).where(eq(mailOutbox.kind, 'scheduled_report'))).filter(
        (m) => (m.data as { reportId: string }).reportId === id,
      ).length;
    await runScheduledReports(t.db, new Date('2026-11-27T09:00:00Z')); // Friday
    expect(await sent()).toBe(1);
    // something changed since: sent in the next week, not on this week's Saturday or Sunday
    await buyFor(owner, acme.id, 'Weekend story two');
    await runScheduledReports(t.db, new Date('2026-11-28T09:00:00Z'));
    await runScheduledReports(t.db, new Date('2026-11-29T09:00:00Z'));
    await runScheduledReports(t.db, new Date('2026-11-29T23:50:00Z'));
    expect(await sent()).toBe(1);
    await runScheduledReports(t.db, new Date('2026-11-30T00:10:00Z'));
    expect(await sent()).toBe(2);
    expect((await t.db.select().from(reports).where(eq(reports.id, id)))[0].lastPeriod).toBe('2026-W49');
  });

  it('sent once per period to each recipient, only when something changed; a recipient unsubscribes', async () => {
    const { owner, acme } = await agency();
    await buyFor(owner, acme.id, 'Scheduled story one');
    const { id } = ok(
      await owner.agent.post('/api/org/reports', {
        name: 'Weekly Acme',
        clientId: acme.id,
        columns: ['title', 'status'],
      }),
      'report',
    ) as {
      id: string;
    };
    const tooMany = await owner.agent.put(`/api/org/reports/${id}/schedule`, {
      cadence: 'weekly',
      recipients: Array.from({ length: 21 }, (_, i) => `r${i}@client.example`),
    });
    expect(tooMany.status).toBe(400);
    const scheduled = ok(
      await owner.agent.put(`/api/org/reports/${id}/schedule`, {
        cadence: 'weekly',
        recipients: ['Ann@Client.example', 'bo@client.example'],
      }),
      'schedule',
    );
    expect(scheduled).toMatchObject({ cadence: 'weekly', recipients: ['ann@client.example', 'bo@client.example'] });
    const mails = () =>
      t.db
        .select({ to: mailOutbox.toAddress, data: mailOutbox.data })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.kind, 'scheduled_report')))
        .then((rows) => rows.filter((r) => (r.data as { reportId: string }).reportId === id));

    const monday = new Date('2030-03-04T09:00:00Z');
    expect(periodOf('weekly', monday)).toBe('2030-W10');
    expect(periodOf('monthly', monday)).toBe('2030-03');
    // two instances' runs at once: one sends
    await Promise.all([runScheduledReports(t.db, monday), runScheduledReports(t.db, monday)]);
    expect((await mails()).map((m) => m.to).sort()).toEqual(['ann@client.example', 'bo@client.example']);
    // later the same week: nothing
    await runScheduledReports(t.db, new Date('2030-03-07T09:00:00Z'));
    expect(await mails()).toHaveLength(2);
    // the next week, nothing changed: nothing
    await runScheduledReports(t.db, new Date('2030-03-11T09:00:00Z'));
    expect(await mails()).toHaveLength(2);
    // a new placement for the client: the week after, it is sent
    await buyFor(owner, acme.id, 'Scheduled story two');
    await runScheduledReports(t.db, new Date('2030-03-18T09:00:00Z'));
    expect(await mails()).toHaveLength(4);
    const [row] = await t.db.select().from(reports).where(eq(reports.id, id));
    expect(row).toMatchObject({ lastPeriod: '2030-W12', lastSentAt: new Date('2030-03-18T09:00:00Z') });

    // the mail's link: a page, then a POST removes that address only
    const mail = (await mails()).find((m) => m.to === 'ann@client.example')!.data as { email: string; token: string };
    const link = `/unsubscribe/report/${id}?email=${encodeURIComponent(mail.email)}&token=${encodeURIComponent(mail.token)}`;
    const ask = await signedOut().get(link);
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Stop receiving it');
    expect((await t.db.select().from(reports).where(eq(reports.id, id)))[0].recipients).toHaveLength(2);
    const forged = await signedOut().post(
      `/unsubscribe/report/${id}?email=bo%40client.example&token=${encodeURIComponent(mail.token)}`,
    );
    expect(forged.status).toBe(404);
    const done = await signedOut().post(link);
    expect(done.status).toBe(200);
    expect(done.text).toContain('will no longer receive this report');
    expect((await t.db.select().from(reports).where(eq(reports.id, id)))[0].recipients).toEqual(['bo@client.example']);
  });
});
