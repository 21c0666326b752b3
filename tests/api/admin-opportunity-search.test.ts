import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opportunities } from '../../src/server/db/schema';
import { createTestApp, type Agent, type Res, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';

/**
 * The admin dashboard's search (GET /api/admin/opportunities?q=): the brands' matching (every word
 * in the outlet name, title or description, the last one possibly a prefix, or the outlet's name
 * with a typo: the whole text close to the name) over every opportunity whatever its status, combined with the dashboard's filters,
 * newest first and keyset-paged.
 */

let t: TestApp;
let admin: Agent;
let brand: Agent;

type Row = typeof opportunities.$inferSelect;
const rows: Record<string, Row> = {};
const HOUR = 3_600_000;
const base = Date.now() - 100 * HOUR;

async function insert(key: string, values: Partial<typeof opportunities.$inferInsert>, hoursAfterBase: number) {
  const [row] = await t.db
    .insert(opportunities)
    .values({
      outletName: 'Plain Outlet',
      title: 'A plain title',
      description: 'Nothing to see',
      type: ['listicle'],
      priceUsd: '100.00',
      createdAt: new Date(base + hoursAfterBase * HOUR),
      ...values,
    })
    .returning();
  rows[key] = row;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  brand = (await signedIn(t.app, t.db, kinds.approvedBrand)).agent;
  await insert('morgenpost', { outletName: 'Berliner Morgenpost', title: 'Gastbeitrag zur Energiewende', type: ['editorial_feature'] }, 1);
  await insert('morgenpostFull', { outletName: 'Berliner Morgenpost', title: 'Unternehmerportrait', status: 'full', maxSlots: 1, filledSlots: 1 }, 2);
  await insert('ledger', { outletName: 'The Fintech Ledger', title: 'Founder profile', description: 'Payments and banking startups' }, 3);
  await insert('ledgerPublished', { outletName: 'The Fintech Ledger', title: 'Payments roundup', status: 'published' }, 4);
  await insert('travel', { outletName: 'Wanderlust Weekly', title: 'Hidden beaches', description: 'Travel stories about banking holidays' }, 5);
  // many of one outlet, to page through
  for (let i = 0; i < 7; i++) await insert(`daily${i}`, { outletName: 'Daily Chronicle', title: `Chronicle feature number ${i}` }, 10 + i);
});
afterAll(() => t.close());

const idsOf = (res: Res) => (res.body as { id: string }[]).map((o) => o.id);
/** The rows, newest first (the dashboard's order). */
const newestFirst = (...keys: string[]) =>
  keys.map((k) => rows[k]).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).map((r) => r.id);

async function search(query: string) {
  const res = await admin.get(`/api/admin/opportunities?${query}`);
  expect(res.status, res.text).toBe(200);
  return idsOf(res);
}

describe('[ADMIN] dashboard search', () => {
  it('a word of the outlet name finds every opportunity of that outlet, whatever its status', async () => {
    expect(await search('q=morgenpost')).toEqual(newestFirst('morgenpost', 'morgenpostFull'));
    expect(await search('q=Fintech%20Ledger')).toEqual(newestFirst('ledger', 'ledgerPublished'));
  });

  it('every word must match, in the outlet name, title or description', async () => {
    expect(await search('q=founder%20banking')).toEqual([rows.ledger.id]);
    expect(await search('q=banking')).toEqual(newestFirst('ledger', 'travel'));
    expect(await search('q=banking%20beaches')).toEqual([rows.travel.id]);
    expect(await search('q=founder%20beaches')).toEqual([]);
  });

  it('the last word may be the start of a word', async () => {
    expect(await search('q=energiew')).toEqual([rows.morgenpost.id]);
    expect(await search('q=hidden%20beach')).toEqual([rows.travel.id]);
    // only the last one: an earlier word must be whole
    expect(await search('q=beach%20holidays')).toEqual([]);
  });

  it('an outlet name with a typo still finds the outlet', async () => {
    // word similarities from 0.47 to 0.55: under pg_trgm's default threshold (0.6), over the search's (0.45)
    expect(await search('q=Mrogenpost')).toEqual(newestFirst('morgenpost', 'morgenpostFull'));
    expect(await search('q=Wandrelust')).toEqual([rows.travel.id]);
    expect(await search('q=Qwertzuiop')).toEqual([]);
    // the threshold was the search's transaction's only: the connections keep pg_trgm's default
    const res = await t.db.execute(sql`SELECT current_setting('pg_trgm.word_similarity_threshold') AS v`);
    expect((res as unknown as { rows: { v: string }[] }).rows[0].v).toBe('0.6');
  });

  it('combines with the status, type and Show Full Only filters', async () => {
    expect(await search('q=morgenpost&status=full')).toEqual([rows.morgenpostFull.id]);
    expect(await search('q=morgenpost&status=available')).toEqual([rows.morgenpost.id]);
    expect(await search('q=morgenpost&full=true')).toEqual([rows.morgenpostFull.id]);
    expect(await search('q=morgenpost&type=editorial_feature')).toEqual([rows.morgenpost.id]);
    expect(await search('q=ledger&status=published')).toEqual([rows.ledgerPublished.id]);
    expect(await search('q=ledger&status=full')).toEqual([]);
  });

  it('pages through the matches with the Link header: each once, newest first', async () => {
    const expected = newestFirst(...Array.from({ length: 7 }, (_, i) => `daily${i}`));
    const seen: string[] = [];
    let next: string | null = '/api/admin/opportunities?q=chronicle&limit=3';
    let pages = 0;
    while (next) {
      const res = await admin.get(next);
      expect(res.status, res.text).toBe(200);
      seen.push(...idsOf(res));
      pages++;
      const link = res.headers.link as string | undefined;
      next = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : null;
      // the next page keeps the search
      if (next) expect(next).toContain('q=chronicle');
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(expected);
    // with a typo and a filter, across pages too
    const firstPage = await admin.get('/api/admin/opportunities?q=Chronlcie&status=available&limit=4');
    expect(idsOf(firstPage)).toEqual(expected.slice(0, 4));
    const rest = await admin.get(/^<([^>]+)>/.exec(firstPage.headers.link as string)![1]);
    expect(idsOf(rest)).toEqual(expected.slice(4));
  });

  it('no words (blank, punctuation) is no search', async () => {
    const all = await search('');
    expect(all).toHaveLength(Object.keys(rows).length);
    expect(await search('q=')).toEqual(all);
    expect(await search('q=%20%2C%20-')).toEqual(all);
  });

  it('refuses a search of more than 200 characters, or two of them, naming q', async () => {
    const long = await admin.get(`/api/admin/opportunities?q=${'a'.repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.body.errors?.q).toBe('q must be at most 200 characters');
    expect((await admin.get(`/api/admin/opportunities?q=${'a'.repeat(200)}`)).status).toBe(200);
    const twice = await admin.get('/api/admin/opportunities?q=a&q=b');
    expect(twice.status).toBe(400);
    expect(twice.body.errors?.q).toBe('q must be given once');
  });

  it('quotes and operators are words, not query syntax', async () => {
    for (const q of ["morgenpost'", 'morgenpost & !', 'morgenpost:*', '(morgenpost)', 'morgenpost | ledger']) {
      const res = await admin.get(`/api/admin/opportunities?q=${encodeURIComponent(q)}`);
      expect(res.status, `${q}: ${res.text}`).toBe(200);
    }
    expect(await search(`q=${encodeURIComponent('(morgenpost)')}`)).toEqual(newestFirst('morgenpost', 'morgenpostFull'));
  });

  it('is for admins only', async () => {
    expect((await brand.get('/api/admin/opportunities?q=morgenpost')).status).toBe(403);
  });
});
