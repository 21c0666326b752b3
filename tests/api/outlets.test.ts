/**
 * Outlets (issue 48): one per website host, made by the database for every opportunity (and by the
 * migration for the existing ones); metrics imported from Ahrefs, Moz and Semrush exports (the
 * fixtures are small files of each tool's shape, with a header variant and a bad row); Byline's
 * record of an outlet computed from its placements and checks, against a count by hand.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPglite } from '../../src/server/db/pglite';
import {
  opportunities,
  outletMetrics,
  outlets,
  publicationCases,
  publicationChecks,
  publications,
} from '../../src/server/db/schema';
import { migrationsDir } from '../../src/server/paths';
import type { PublicationCheck } from '../../src/shared/publication';
import { DAY_MS } from '../../src/shared/constants';
import { createTestApp, type Agent, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, makePayment } from '../support/payments';

const FIXTURES = path.resolve('tests/fixtures/metrics');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

let t: TestApp;
let admin: Agent;
let brand: Agent;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  brand = (await signedIn(t.app, t.db, kinds.approvedBrand)).agent;
});
afterAll(() => t.close());

const outletOf = async (opportunityId: string) =>
  (
    await t.db
      .select({ outletId: opportunities.outletId })
      .from(opportunities)
      .where(eq(opportunities.id, opportunityId))
  )[0].outletId!;

describe('an outlet per website host', () => {
  it('groups opportunities by their URL’s host (scheme, www., port and path aside), and by name without a URL', async () => {
    const a = await createOpportunity(t.db, { outletName: 'Hostly', outletUrl: 'https://www.hostly.example.com/tech' });
    const b = await createOpportunity(t.db, {
      outletName: 'Hostly Tech',
      outletUrl: 'http://HOSTLY.example.com:8080/',
    });
    const c = await createOpportunity(t.db, { outletName: 'Hostly', outletUrl: 'https://other.example.com' });
    const d = await createOpportunity(t.db, { outletName: 'Namely Weekly', outletUrl: null });
    const e = await createOpportunity(t.db, { outletName: 'namely weekly', outletUrl: null });
    expect(await outletOf(a.id)).toBe(await outletOf(b.id));
    expect(await outletOf(c.id)).not.toBe(await outletOf(a.id));
    expect(await outletOf(d.id)).toBe(await outletOf(e.id));
    const [outlet] = await t.db
      .select()
      .from(outlets)
      .where(eq(outlets.id, await outletOf(a.id)));
    expect(outlet).toMatchObject({
      host: 'hostly.example.com',
      name: 'Hostly',
      url: 'https://www.hostly.example.com/tech',
    });
    // an admin gives it another URL: it moves to that host's outlet
    await t.db
      .update(opportunities)
      .set({ outletUrl: 'https://other.example.com/x' })
      .where(eq(opportunities.id, b.id));
    expect(await outletOf(b.id)).toBe(await outletOf(c.id));
    // through the API: the admin's opportunity carries its outletId, the outlet page answers
    const created = await admin.post('/api/admin/opportunities', {
      outletName: 'Hostly',
      outletUrl: 'https://hostly.example.com/new',
      title: 'A new one',
      description: 'About it',
      type: ['listicle'],
      priceUsd: '300.00',
      maxSlots: 2,
    });
    expect(created.status).toBe(201);
    expect(created.body.outletId).toBe(await outletOf(a.id));
    const page = await brand.get(`/api/outlets/${created.body.outletId}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ host: 'hostly.example.com', name: 'Hostly' });
    expect(page.body.opportunities.map((o: { title: string }) => o.title)).toContain('A new one');
    expect((await brand.get('/api/outlets/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('migration 0034 groups the existing opportunities into outlets', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'byline-0034-'));
    const before = path.join(dir, 'before');
    cpSync(migrationsDir, before, { recursive: true });
    const journalPath = path.join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((x) => x.tag === '0034_outlets');
    expect(at).toBeGreaterThan(0);
    writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    const pglite = await createPglite();
    try {
      const pdb = drizzle(pglite);
      await migrate(pdb, { migrationsFolder: before });
      await pglite.exec(`
        INSERT INTO opportunities (outlet_name, outlet_url, title, description, type, price_usd, created_at) VALUES
          ('Old Name', 'https://www.alpha.example.com/a', 'A1', 'x', ARRAY['listicle'], 100, now() - interval '2 days'),
          ('Alpha Daily', 'alpha.example.com/b', 'A2', 'x', ARRAY['listicle'], 100, now() - interval '1 day'),
          ('Beta', 'https://beta.example.com', 'B1', 'x', ARRAY['listicle'], 100, now()),
          ('Gamma Review', NULL, 'G1', 'x', ARRAY['listicle'], 100, now()),
          ('gamma review', '', 'G2', 'x', ARRAY['listicle'], 100, now());
      `);
      await migrate(pdb, { migrationsFolder: migrationsDir });
      const rows = async (text: string) => (await pglite.query<Record<string, unknown>>(text)).rows;
      expect(await rows('SELECT host, name FROM outlets ORDER BY host NULLS LAST')).toEqual([
        // each outlet as its newest opportunity names it
        { host: 'alpha.example.com', name: 'Alpha Daily' },
        { host: 'beta.example.com', name: 'Beta' },
        { host: null, name: expect.stringMatching(/^gamma review$/i) },
      ]);
      expect(
        await rows('SELECT o.title, x.host FROM opportunities o JOIN outlets x ON x.id = o.outlet_id ORDER BY o.title'),
      ).toEqual([
        { title: 'A1', host: 'alpha.example.com' },
        { title: 'A2', host: 'alpha.example.com' },
        { title: 'B1', host: 'beta.example.com' },
        { title: 'G1', host: null },
        { title: 'G2', host: null },
      ]);
    } finally {
      await pglite.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // every migration twice, on PGlite: past 30 s on a busy machine
});

describe('metrics from the SEO tools’ exports', () => {
  let tech: string;
  let green: string;
  let fin: string;
  beforeAll(async () => {
    tech = (await createOpportunity(t.db, { outletName: 'Tech Daily', outletUrl: 'https://techdaily.example.com' }))
      .outletId!;
    green = (await createOpportunity(t.db, { outletName: 'Green Post', outletUrl: 'https://greenpost.example.org/' }))
      .outletId!;
    fin = (await createOpportunity(t.db, { outletName: 'Fintech Wire', outletUrl: 'fintechwire.example.net' }))
      .outletId!;
  });

  const importFile = (source: string, name: string, dryRun = false) =>
    admin.upload(
      `/api/admin/outlets/metrics/import?source=${source}${dryRun ? '&dryRun=1' : ''}`,
      'file',
      fixture(name),
      name,
      'text/csv',
    );
  const metricsOf = (outletId: string) =>
    t.db
      .select({ metric: outletMetrics.metric, value: outletMetrics.value, source: outletMetrics.source })
      .from(outletMetrics)
      .where(eq(outletMetrics.outletId, outletId))
      .orderBy(outletMetrics.source, outletMetrics.metric, outletMetrics.asOf);

  it('an Ahrefs export: the dry run says what would change, applying it changes exactly that, a second time nothing', async () => {
    const dry = await importFile('ahrefs', 'ahrefs.csv', true);
    expect(dry.status).toBe(200);
    expect(dry.body.applied).toBe(false);
    expect(dry.body.errors).toEqual([]);
    expect(dry.body.unmatched).toEqual(['nosuch.example.com']);
    expect(
      dry.body.changes.map((c: { host: string; metric: string; from: number | null; to: number }) => [
        c.host,
        c.metric,
        c.from,
        c.to,
      ]),
    ).toEqual([
      ['techdaily.example.com', 'dr', null, 71],
      ['techdaily.example.com', 'organicTraffic', null, 1204300],
      ['techdaily.example.com', 'referringDomains', null, 12480],
      ['greenpost.example.org', 'dr', null, 54],
      ['greenpost.example.org', 'organicTraffic', null, 96500],
      ['greenpost.example.org', 'referringDomains', null, 3410],
    ]);
    expect(await metricsOf(tech)).toEqual([]);

    const applied = await importFile('ahrefs', 'ahrefs.csv');
    expect(applied.status).toBe(200);
    expect(applied.body.applied).toBe(true);
    expect(applied.body.changes).toHaveLength(6);
    expect(await metricsOf(tech)).toEqual([
      { metric: 'dr', value: '71.00', source: 'ahrefs' },
      { metric: 'organicTraffic', value: '1204300.00', source: 'ahrefs' },
      { metric: 'referringDomains', value: '12480.00', source: 'ahrefs' },
    ]);
    const again = await importFile('ahrefs', 'ahrefs.csv');
    expect(again.status).toBe(200);
    expect(again.body.changes).toEqual([]);
    expect(await metricsOf(tech)).toHaveLength(3);

    // the same day's export in UTF-16 with tabs and other column names (DR, Ref. domains): the new values replace the day's
    const variant = await importFile('ahrefs', 'ahrefs-utf16.tsv');
    expect(variant.status).toBe(200);
    expect(
      variant.body.changes.map((c: { host: string; metric: string; from: number | null; to: number }) => [
        c.host,
        c.metric,
        c.from,
        c.to,
      ]),
    ).toEqual([
      ['techdaily.example.com', 'dr', 71, 72],
      ['techdaily.example.com', 'organicTraffic', 1204300, 1250000],
      ['techdaily.example.com', 'referringDomains', 12480, 12600],
      ['fintechwire.example.net', 'dr', null, 38],
      ['fintechwire.example.net', 'organicTraffic', null, 15200],
      ['fintechwire.example.net', 'referringDomains', null, 905],
    ]);
    expect((await metricsOf(tech)).map((m) => m.value)).toEqual(['72.00', '1250000.00', '12600.00']);
  });

  it('the dry run flags a value dated past the stale line as stale, before it is applied', async () => {
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
    const csv = [
      'Domain;Authority Score;Organic Traffic;Referring Domains;Date',
      `fintechwire.example.net;21;5000;300;${day(200)}`,
      `greenpost.example.org;48;92000;3310;${day(1)}`,
    ].join('\n');
    const dry = await admin.upload('/api/admin/outlets/metrics/import?source=semrush&dryRun=1', 'file', Buffer.from(csv), 'semrush.csv', 'text/csv');
    expect(dry.status, dry.text).toBe(200);
    const staleOf = (host: string) =>
      [...new Set(dry.body.changes.filter((c: { host: string }) => c.host === host).map((c: { stale: boolean }) => c.stale))];
    expect(staleOf('fintechwire.example.net')).toEqual([true]);
    expect(staleOf('greenpost.example.org')).toEqual([false]);
  });

  it('Moz and Semrush exports: their own columns, percent spam scores, the export’s own date', async () => {
    const moz = await importFile('moz', 'moz.csv');
    expect(moz.status).toBe(200);
    expect(moz.body.unmatched).toEqual([]);
    expect(moz.body.changes.filter((c: { host: string }) => c.host === 'fintechwire.example.net')).toEqual([
      expect.objectContaining({ metric: 'da', from: null, to: 33 }),
      expect.objectContaining({ metric: 'spamScore', from: null, to: 12 }),
      // the Ahrefs and Moz values of a metric are kept apart: each source its own latest
      expect.objectContaining({ metric: 'referringDomains', from: null, to: 880 }),
    ]);
    const semrush = await importFile('semrush', 'semrush.csv');
    expect(semrush.status).toBe(200);
    expect(semrush.body.unmatched).toEqual(['old.example.com']);
    expect(semrush.body.changes[0]).toMatchObject({
      host: 'techdaily.example.com',
      metric: 'organicTraffic',
      to: 1180000,
      asOf: '2026-11-01T00:00:00.000Z',
    });
    expect((await importFile('semrush', 'semrush.csv')).body.changes).toEqual([]);

    // the outlet page: each source's latest value with its date; the typed domain authority is one source among them
    await t.db.update(opportunities).set({ domainAuthority: 66 }).where(eq(opportunities.outletId, green));
    const page = await brand.get(`/api/outlets/${green}`);
    expect(page.status).toBe(200);
    const metric = (name: string, source: string) =>
      page.body.metrics.find((m: { name: string; source: string }) => m.name === name && m.source === source);
    expect(metric('da', 'moz')).toMatchObject({ value: 49, stale: false });
    expect(metric('da', 'admin')).toMatchObject({ value: 66, stale: false });
    expect(metric('organicTraffic', 'semrush')).toMatchObject({ value: 91000, asOf: '2026-11-01T00:00:00.000Z' });
    expect(metric('dr', 'ahrefs')).toMatchObject({ value: 54 });
  });

  it('Moz and Semrush exports with other column names (DA, Linking Domains; Organic Search Traffic, Ref Domains)', async () => {
    const moz = await importFile('moz', 'moz-variant.csv');
    expect(moz.status).toBe(200);
    // the same day as moz.csv: only the values that differ are changes
    expect(
      moz.body.changes.map((c: { host: string; metric: string; from: number | null; to: number }) => [
        c.host,
        c.metric,
        c.from,
        c.to,
      ]),
    ).toEqual([
      ['greenpost.example.org', 'da', 49, 50],
      ['greenpost.example.org', 'spamScore', 4, 3],
      ['greenpost.example.org', 'referringDomains', 3205, 3290],
    ]);
    const semrush = await importFile('semrush', 'semrush-variant.csv');
    expect(semrush.status).toBe(200);
    expect(
      semrush.body.changes.map((c: { host: string; metric: string; from: number | null; to: number }) => [
        c.host,
        c.metric,
        c.from,
        c.to,
      ]),
    ).toEqual([
      ['fintechwire.example.net', 'organicTraffic', null, 15900],
      ['fintechwire.example.net', 'referringDomains', null, 910],
    ]);
  });

  it('a value older than 180 days is stale', async () => {
    await t.db.insert(outletMetrics).values({
      outletId: fin,
      metric: 'dr',
      value: '20',
      source: 'semrush',
      asOf: new Date(Date.now() - 200 * DAY_MS),
    });
    const page = await brand.get(`/api/outlets/${fin}`);
    expect(page.body.metrics.find((m: { source: string }) => m.source === 'semrush')).toMatchObject({
      name: 'dr',
      stale: true,
    });
    expect(
      page.body.metrics.find((m: { name: string; source: string }) => m.name === 'dr' && m.source === 'ahrefs'),
    ).toMatchObject({
      stale: false,
    });
  });

  it('a file with a bad row is refused whole, every bad row with its line; nothing is applied', async () => {
    const before = await t.db.select().from(outletMetrics);
    const bad = await importFile('ahrefs', 'ahrefs-bad.csv');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('2 rows could not be used: nothing was imported');
    // the rows by line in the dry run's shape (issue 57), and the whole result
    const rows = [
      { line: 3, message: '"not a website" is not a website address' },
      { line: 4, message: 'Domain Rating must be a number from 0 to 100, not "high"' },
    ];
    expect(bad.body.errors).toEqual(rows);
    expect(bad.body.result.errors).toEqual(rows);
    // the good row would have changed something: it was not applied either
    expect(bad.body.result.changes).toHaveLength(3);
    const moz = await importFile('moz', 'moz-bad.csv');
    expect(moz.status).toBe(400);
    expect(moz.body.errors).toEqual([{ line: 2, message: 'Domain Authority must be a number from 0 to 100, not "140"' }]);
    const semrush = await importFile('semrush', 'semrush-bad.csv');
    expect(semrush.status).toBe(400);
    expect(semrush.body.errors).toEqual([{ line: 2, message: '"someday" is not a date on or before today' }]);
    // a dry run of a bad file shows the errors with a 200
    const dry = await importFile('ahrefs', 'ahrefs-bad.csv', true);
    expect(dry.status).toBe(200);
    expect(dry.body.errors).toEqual(rows);
    // another tool's file, or no file
    const wrong = await importFile('moz', 'ahrefs.csv');
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('This looks like an export of Ahrefs, not of Moz: import it as Ahrefs');
    expect((await importFile('semrush', 'ahrefs.csv')).status).toBe(400);
    const noMetric = await admin.upload(
      '/api/admin/outlets/metrics/import?source=moz',
      'file',
      Buffer.from('URL,Page Title\nexample.com,Home\n'),
      'x.csv',
    );
    expect(noMetric.status).toBe(400);
    expect(noMetric.body.message).toBe(
      'This does not look like a Moz export: it has none of the columns domain authority, spam score, linking root domains',
    );
    const unknown = await admin.upload(
      '/api/admin/outlets/metrics/import?source=majestic',
      'file',
      fixture('moz.csv'),
      'moz.csv',
    );
    expect(unknown.status).toBe(400);
    expect(await t.db.select().from(outletMetrics)).toEqual(before);
  });

  it('5,000 rows are read, matched and applied well within 30 seconds', async () => {
    const hosts = Array.from({ length: 5000 }, (_, i) => `bulk${i}.example.com`);
    for (let i = 0; i < hosts.length; i += 500) {
      await t.db.insert(opportunities).values(
        hosts.slice(i, i + 500).map((h) => ({
          outletName: h,
          outletUrl: `https://${h}`,
          title: 'Bulk',
          description: 'Bulk',
          type: ['listicle'],
          priceUsd: '10.00',
        })),
      );
    }
    const csv = [
      'Target,Domain Rating,Referring domains,Organic traffic',
      ...hosts.map((h, i) => `${h},${i % 100},${i},${i * 10}`),
    ].join('\n');
    const started = Date.now();
    const res = await admin.upload(
      '/api/admin/outlets/metrics/import?source=ahrefs',
      'file',
      Buffer.from(csv),
      'bulk.csv',
      'text/csv',
    );
    const took = Date.now() - started;
    expect(res.status).toBe(200);
    expect(res.body.changes).toHaveLength(15000);
    expect(took).toBeLessThan(30_000);
  }, 120_000);
});

describe('Byline’s record of an outlet', () => {
  it('is computed from its placements and checks, as counted by hand', async () => {
    const now = new Date();
    const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const listed = await createOpportunity(t.db, {
      outletName: 'Record Times',
      outletUrl: 'https://recordtimes.example.com',
      tatDays: 14,
      linkType: 'dofollow',
      maxSlots: 10,
    });
    const untimed = await createOpportunity(t.db, {
      outletName: 'Record Times',
      outletUrl: 'https://recordtimes.example.com/other',
      tatDays: null,
      maxSlots: 10,
    });
    expect(untimed.outletId).toBe(listed.outletId);
    const owner = await signedIn(t.app, t.db, kinds.approvedBrand);
    const check = (found: boolean, rel: 'dofollow' | 'nofollow', indexable = true): PublicationCheck => ({
      result: found ? 'pass' : 'fail',
      checkedAt: now.toISOString(),
      httpStatus: 200,
      finalUrl: null,
      indexable,
      link: { found, rel: found ? rel : null },
      title: null,
      problems: [],
    });
    /** paid `paidDaysAgo` days ago, published `toPublish` days later (with a live link unless `url` is false) */
    async function placed(
      opportunityId: string,
      paidDaysAgo: number,
      toPublish: number | null,
      first?: PublicationCheck,
      url = true,
    ) {
      // made when it was paid: its promise is fixed from then (issue 59)
      const p = await makePayment(t.db, owner.user.id, opportunityId, { paidAt: ago(paidDaysAgo), createdAt: ago(paidDaysAgo) });
      if (toPublish === null) return p.id;
      const publishedAt = ago(paidDaysAgo - toPublish);
      await t.db.insert(publications).values({
        placementId: p.id,
        url: url ? `https://recordtimes.example.com/${p.id}` : null,
        publishedAt,
        guaranteeEndsAt: new Date(publishedAt.getTime() + 90 * DAY_MS),
      });
      if (first) {
        await t.db.insert(publicationChecks).values({
          placementId: p.id,
          url: `https://recordtimes.example.com/${p.id}`,
          result: first.result,
          check: first,
          checkedAt: new Date(publishedAt.getTime() + 60_000),
        });
      }
      return p.id;
    }
    // P1: 10 days to publish (on time), published 100 days ago, as listed, never a problem
    await placed(listed.id, 110, 10, check(true, 'dofollow'));
    // P2: 30 days (late: past its "Live by" too, the brief's 3 business days and the listed 14 days;
    // issue 59), published 40 days ago, nofollow (not as listed), a case restored before day 30
    const p2 = await placed(listed.id, 70, 30, check(true, 'nofollow'));
    // P3: 14 days (on time), published 95 days ago, link not found, a case at day 50 refunded at day 60
    const p3 = await placed(listed.id, 109, 14, check(false, 'dofollow'));
    // P4: 5 days (on time), released without a live link
    await placed(listed.id, 30, 5, undefined, false);
    // P5: paid, not published
    await placed(listed.id, 3, null);
    // P6: no turnaround listed, 7 days, published 10 days ago, as listed (dofollow when none is promised)
    await placed(untimed.id, 17, 7, check(true, 'dofollow'));
    const published = async (id: string) =>
      (await t.db.select().from(publications).where(eq(publications.placementId, id)))[0].publishedAt.getTime();
    const day = (base: number, n: number) => new Date(base + n * DAY_MS);
    const evidence = check(false, 'dofollow');
    await t.db.insert(publicationCases).values([
      {
        placementId: p2,
        reason: 'link_missing',
        evidence,
        openedAt: day(await published(p2), 20),
        restoreBy: day(await published(p2), 30),
        closedAt: day(await published(p2), 25),
        outcome: 'restored',
      },
      {
        placementId: p3,
        reason: 'link_missing',
        evidence,
        openedAt: day(await published(p3), 50),
        restoreBy: day(await published(p3), 60),
        closedAt: day(await published(p3), 60),
        outcome: 'refunded',
      },
    ]);

    const page = await brand.get(`/api/outlets/${listed.outletId}`);
    expect(page.status).toBe(200);
    // by hand: delivered P1 P2 P3 P4 P6; timed P1-P4 (each has a promise), on time P1 P3 P4; days 10 30 14 5 7 (median 10);
    // day 30: P1 P2 P3 old enough, all live; day 90: P1 P3, P3 refunded at day 60; checked P1 P2 P3 P6, as listed P1 P6
    expect(page.body.record).toEqual({
      delivered: 5,
      onTimeRate: 0.75,
      onTime: { n: 3, m: 4 },
      medianDaysToPublish: 10,
      survival30: 1,
      survival90: 0.5,
      deliveredAsListed: { n: 2, m: 4 },
      // no brief was submitted: no delivery counts for the promise (tests/api/promise.test.ts)
      promiseDays: null,
    });
    // the cards' copy, kept on the outlet's row by the database as the publications came in
    const [row] = await t.db.select().from(outlets).where(eq(outlets.id, listed.outletId!));
    expect(row).toMatchObject({ delivered: 5, onTimeRate: '0.750' });
    // a turnaround changed later: each placement was held to the promise fixed when it was paid (issue 59),
    // so the record stays
    await t.db.update(opportunities).set({ tatDays: 30 }).where(eq(opportunities.id, listed.id));
    expect((await t.db.select().from(outlets).where(eq(outlets.id, listed.outletId!)))[0].onTimeRate).toBe('0.750');
    await t.db.update(opportunities).set({ tatDays: 14 }).where(eq(opportunities.id, listed.id));

    // ---- the search: sorted by on-time rate, "fresh metrics", each card's outlet in short ----
    const word = `Zyx${Date.now().toString(36)}`;
    await t.db
      .update(opportunities)
      .set({ title: `${word} listed` })
      .where(eq(opportunities.id, listed.id));
    await t.db
      .update(opportunities)
      .set({ title: `${word} untimed` })
      .where(eq(opportunities.id, untimed.id));
    const punctual = await createOpportunity(t.db, {
      title: `${word} punctual`,
      outletName: 'Punctual Post',
      outletUrl: 'https://punctual.example.com',
      tatDays: 10,
      maxSlots: 5,
    });
    await placed(punctual.id, 20, 3, check(true, 'dofollow'));
    const unproven = await createOpportunity(t.db, {
      title: `${word} unproven`,
      outletName: 'Unproven Daily',
      outletUrl: 'https://unproven.example.com',
      maxSlots: 5,
    });
    await t.db.insert(outletMetrics).values([
      { outletId: punctual.outletId!, metric: 'dr', value: '61', source: 'ahrefs', asOf: ago(10) },
      { outletId: unproven.outletId!, metric: 'da', value: '30', source: 'moz', asOf: ago(400) },
    ]);
    const titles = (res: { body: { title: string }[] }) => res.body.map((o) => o.title);
    const byRate = await brand.get(`/api/opportunities?q=${word}&sort=on_time_desc`);
    expect(byRate.status).toBe(200);
    const [untimedTitle, listedTitle] = [listed.id, untimed.id]
      .sort()
      .reverse()
      .map((id) => (id === listed.id ? `${word} listed` : `${word} untimed`));
    expect(titles(byRate)).toEqual([`${word} punctual`, untimedTitle, listedTitle, `${word} unproven`]);
    // paged one at a time, the same order
    const pages: string[] = [];
    for (let url: string | null = `/api/opportunities?q=${word}&sort=on_time_desc&limit=1`; url;) {
      const res: { body: { title: string }[]; headers: Record<string, unknown> } = await brand.get(url);
      pages.push(...titles(res));
      url = /<([^>]+)>; rel="next"/.exec(String(res.headers.link ?? ''))?.[1] ?? null;
    }
    expect(pages).toEqual(titles(byRate));
    const card = byRate.body.find((o: { title: string }) => o.title === `${word} punctual`);
    expect(card.outlet).toEqual({
      delivered: 1,
      onTimeRate: 1,
      metrics: [{ name: 'dr', value: 61, source: 'ahrefs', asOf: ago(10).toISOString(), stale: false }],
    });
    expect(byRate.body.find((o: { title: string }) => o.title === `${word} unproven`).outlet.metrics[0].stale).toBe(
      true,
    );
    // fresh metrics only: the 400-day-old value is not
    expect(titles(await brand.get(`/api/opportunities?q=${word}&fresh=1`))).toEqual([`${word} punctual`]);
    expect((await brand.get(`/api/opportunities?q=${word}&fresh=maybe`)).status).toBe(400);
  });
});
