/**
 * The catalogue search as a brand pages through it (GET /api/opportunities with parameters): every
 * page reached through its `Link`, in each sort, each result once; the `deadlineAfter` filter's
 * boundary day; an opportunity leaving every search at midnight UTC after its deadline day with
 * nothing written; two brands with as many saves each, each with its own `saved` flags (decision
 * 017); the count (X-Total-Count) on the first page only, exact up to SEARCH_COUNT_CAP and `1000+`
 * beyond. Each test lists its own opportunities by a country of its own.
 */
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { opportunities } from '../../src/server/db/schema';
import { OPPORTUNITY_SORTS, type OpportunitySort } from '../../src/shared/catalogue';
import { SEARCH_COUNT_CAP } from '../../src/shared/constants';
import type { BrandOpportunityItem } from '../../src/shared/opportunity';
import { createTestApp, type Agent, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';

let t: TestApp;
let brand: Agent;

beforeAll(async () => {
  t = await createTestApp();
  brand = (await signedIn(t.app, t.db, kinds.approvedBrand)).agent;
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

type Row = typeof opportunities.$inferSelect;
const DAY = 86_400_000;
const today = () => Date.parse(new Date().toISOString().slice(0, 10));
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function insert(values: Partial<typeof opportunities.$inferInsert>[]): Promise<Row[]> {
  return t.db
    .insert(opportunities)
    .values(
      values.map((v, i) => ({
        outletName: `Outlet ${i}`,
        title: 'An article',
        description: 'About it',
        type: ['listicle' as const],
        priceUsd: '100.00',
        maxSlots: 3,
        ...v,
      })),
    )
    .returning();
}

interface Page {
  ids: string[];
  items: BrandOpportunityItem[];
  /** X-Total-Count as sent: the first page's only */
  total?: string;
  next?: string;
}
async function page(agent: Agent, url: string): Promise<Page> {
  const res = await agent.get<BrandOpportunityItem[]>(url);
  expect(res.status, `${url}: ${res.text}`).toBe(200);
  const link = res.headers.link as string | undefined;
  const next = link === undefined ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
  if (link !== undefined) expect(next, link).toBeDefined();
  return {
    ids: res.body.map((i) => i.id),
    items: res.body,
    total: res.headers['x-total-count'] as string | undefined,
    next,
  };
}

/** Every page from `first`, by the Link headers (at most 20: a link that never ends fails). */
async function pages(agent: Agent, first: string): Promise<Page[]> {
  const all: Page[] = [];
  for (let url: string | undefined = first; url; url = all[all.length - 1].next) {
    all.push(await page(agent, url));
    expect(all.length, `${first}: more pages than results`).toBeLessThanOrEqual(20);
  }
  return all;
}

/** The order of a sort, as docs/decisions/017 says: its key, then the id, both in its direction. */
const ORDER: Record<OpportunitySort, { key: (r: Row) => number; asc: boolean }> = {
  newest: { key: (r) => r.createdAt.getTime(), asc: false },
  price_asc: { key: (r) => Math.round(Number(r.priceUsd) * 100), asc: true },
  price_desc: { key: (r) => Math.round(Number(r.priceUsd) * 100), asc: false },
  da_desc: { key: (r) => r.domainAuthority ?? 0, asc: false },
  deadline_asc: { key: (r) => r.deadlineDate?.getTime() ?? Infinity, asc: true },
  // the outlet's on-time rate: none of these outlets has published a placement, so none has one (tests/api/outlets.test.ts sorts by real rates)
  on_time_desc: { key: () => -1, asc: false },
};
function inOrder(rows: Row[], sort: OpportunitySort): string[] {
  const { key, asc } = ORDER[sort];
  const byId = (a: Row, b: Row) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return [...rows].sort((a, b) => (key(a) - key(b) || byId(a, b)) * (asc ? 1 : -1)).map((r) => r.id);
}

describe('search pages followed by their Link', () => {
  let seven: Row[];
  beforeAll(async () => {
    // ties in every sort's key, so that a page boundary falls between rows only the id orders
    const at = (s: number) => new Date(Date.parse('2026-03-01T10:00:00Z') + s * 1000);
    const deadline = (days: number | null) => (days === null ? null : new Date(today() + days * DAY));
    seven = await insert(
      [
        ['300.00', 50, null, 0],
        ['100.00', null, 10, 0],
        ['200.00', 50, 3, 1],
        ['100.00', 80, 10, 1],
        ['300.00', 50, null, 1],
        ['100.00', null, 3, 2],
        ['200.00', 80, 10, 3],
      ].map(([priceUsd, domainAuthority, days, second], i) => ({
        outletName: `Zephyr Herald ${i}`,
        priceUsd: priceUsd as string,
        domainAuthority: domainAuthority as number | null,
        deadlineDate: deadline(days as number | null),
        createdAt: at(second as number),
        country: 'IS',
      })),
    );
  });

  it.each([...OPPORTUNITY_SORTS])(
    'seven results at two a page are four pages, each result once, in order (sort=%s)',
    async (sort) => {
      for (const words of ['', '&q=zephyr']) {
        const all = await pages(brand, `/api/opportunities?country=IS&sort=${sort}&limit=2${words}`);
        expect(
          all.map((p) => p.ids.length),
          words,
        ).toEqual([2, 2, 2, 1]);
        // counted on the first page only: the next pages carry no X-Total-Count
        expect(all.map((p) => p.total)).toEqual(['7', undefined, undefined, undefined]);
        const ids = all.flatMap((p) => p.ids);
        expect(new Set(ids).size, 'no result twice').toBe(7);
        expect(ids).toEqual(inOrder(seven, sort));
      }
    },
  );

  it('a page that is exactly full, the last one, has no Link to an empty page', async () => {
    const one = await pages(brand, '/api/opportunities?country=IS&limit=7');
    expect(one.map((p) => p.ids.length)).toEqual([7]);
    const single = await pages(brand, '/api/opportunities?country=IS&sort=price_asc&limit=1');
    expect(single.map((p) => p.ids.length)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(single.flatMap((p) => p.ids)).toEqual(inOrder(seven, 'price_asc'));
  });
});

describe('deadlineAfter', () => {
  it('lists deadlines strictly after the day: the day itself is out, the next day in, none always', async () => {
    const day = today() + 5 * DAY;
    const [onTheDay, dayAfter, open] = await insert([
      { outletName: 'On the day', deadlineDate: new Date(day), country: 'NO' },
      { outletName: 'Day after', deadlineDate: new Date(day + DAY), country: 'NO' },
      { outletName: 'Open ended', deadlineDate: null, country: 'NO' },
    ]);
    for (const sort of ['deadline_asc', 'newest'] as const) {
      const after = await page(brand, `/api/opportunities?country=NO&sort=${sort}&deadlineAfter=${isoDay(day)}`);
      expect(after.ids.sort()).toEqual([dayAfter.id, open.id].sort());
      expect(after.total).toBe('2');
      const before = await page(brand, `/api/opportunities?country=NO&sort=${sort}&deadlineAfter=${isoDay(day - DAY)}`);
      expect(before.ids.sort()).toEqual([onTheDay.id, dayAfter.id, open.id].sort());
    }
  });
});

describe('a deadline passing at midnight UTC', () => {
  it('takes the opportunity out of every search at once, with nothing written in the database', async () => {
    const saver = await signedIn(t.app, t.db, kinds.approvedBrand);
    const stranger = await signedIn(t.app, t.db, kinds.approvedBrand);
    const day = today() + 2 * DAY;
    const [leaving, staying] = await insert([
      {
        outletName: 'Aurora Leaving',
        title: 'Herald story',
        deadlineDate: new Date(day),
        country: 'SE',
        priceUsd: '150.00',
        domainAuthority: 40,
      },
      {
        outletName: 'Aurora Staying',
        title: 'Herald feature',
        deadlineDate: new Date(day + DAY),
        country: 'SE',
        priceUsd: '250.00',
        domainAuthority: 60,
      },
    ]);
    expect((await saver.agent.put(`/api/brand/saved/${leaving.id}`)).status).toBe(204);
    const searches: [Agent, string][] = [
      ...OPPORTUNITY_SORTS.map((sort) => [saver.agent, `country=SE&sort=${sort}`] as [Agent, string]),
      [saver.agent, 'q=aurora'],
      [saver.agent, 'q=aurora%20herald&sort=price_asc'],
      [saver.agent, 'country=SE&limit=1'],
      [saver.agent, `country=SE&deadlineAfter=${isoDay(day - DAY)}`],
      [stranger.agent, 'country=SE&saved=false&sort=deadline_asc'],
      [stranger.agent, 'country=SE&sort=da_desc'],
    ];
    const found = async (agent: Agent, query: string) => {
      const first = await page(agent, `/api/opportunities?${query}`);
      const all = first.next ? [first, ...(await pages(agent, first.next))] : [first];
      return { ids: all.flatMap((p) => p.ids), total: Number(first.total) };
    };
    // the two rows and the saver's shortlist as stored: any write to them changes their xmin
    const versions = async () => {
      const result = await t.db.execute(
        sql`SELECT (SELECT string_agg(xmin::text, ',' ORDER BY id) FROM opportunities WHERE id IN (${leaving.id}, ${staying.id})) AS o,
          (SELECT string_agg(xmin::text, ',' ORDER BY opportunity_id) FROM saved_opportunities WHERE brand_id = ${saver.user.id}) AS s`,
      );
      return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows)[0];
    };

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(day + DAY - 1));
    const before = new Map<string, number>();
    for (const [agent, query] of searches) {
      const { ids, total } = await found(agent, query);
      expect(ids, query).toEqual(expect.arrayContaining([leaving.id, staying.id]));
      before.set(query, total);
    }
    const saved = await page(saver.agent, '/api/opportunities?saved=true');
    expect(saved.items.map((i) => [i.id, i.soldOut])).toEqual([[leaving.id, false]]);
    const list = await saver.agent.get<BrandOpportunityItem[]>('/api/opportunities');
    expect(list.body.map((o) => o.id)).toContain(leaving.id);
    const written = await versions();

    vi.setSystemTime(new Date(day + DAY));
    for (const [agent, query] of searches) {
      const { ids, total } = await found(agent, query);
      expect(ids, query).not.toContain(leaving.id);
      expect(ids, query).toContain(staying.id);
      expect(total, query).toBe(before.get(query)! - 1);
    }
    // the shortlist keeps it, marked as no longer claimable
    const later = await page(saver.agent, '/api/opportunities?saved=true');
    expect(later.items.map((i) => [i.id, i.soldOut])).toEqual([[leaving.id, true]]);
    expect((await saver.agent.get<BrandOpportunityItem[]>('/api/opportunities')).body.map((o) => o.id)).not.toContain(
      leaving.id,
    );
    expect(await versions()).toEqual(written);
  });
});

describe('saved flags', () => {
  it('two brands with one save each see only their own, on a page both ask for', async () => {
    const [one, two] = await Promise.all([
      signedIn(t.app, t.db, kinds.approvedBrand),
      signedIn(t.app, t.db, kinds.approvedBrand),
    ]);
    const [a, b, c] = await insert([
      { outletName: 'Fjord A', priceUsd: '10.00', country: 'FI' },
      { outletName: 'Fjord B', priceUsd: '20.00', country: 'FI' },
      { outletName: 'Fjord C', priceUsd: '30.00', country: 'FI' },
    ]);
    // one save each
    expect((await one.agent.put(`/api/brand/saved/${a.id}`)).status).toBe(204);
    expect((await two.agent.put(`/api/brand/saved/${b.id}`)).status).toBe(204);
    const flags = async (agent: Agent, query: string) =>
      (await page(agent, `/api/opportunities?${query}`)).items.map((i) => [i.outletName, i.saved]);
    for (let round = 0; round < 2; round++) {
      for (const query of ['country=FI&sort=price_asc', 'country=FI&sort=price_asc&limit=2']) {
        expect(await flags(one.agent, query), query).toEqual(
          [
            ['Fjord A', true],
            ['Fjord B', false],
            ['Fjord C', false],
          ].slice(0, query.includes('limit') ? 2 : 3),
        );
        expect(await flags(two.agent, query), query).toEqual(
          [
            ['Fjord A', false],
            ['Fjord B', true],
            ['Fjord C', false],
          ].slice(0, query.includes('limit') ? 2 : 3),
        );
      }
      expect(await flags(one.agent, 'country=FI&saved=true')).toEqual([['Fjord A', true]]);
      expect(await flags(two.agent, 'country=FI&saved=true')).toEqual([['Fjord B', true]]);
      expect((await page(two.agent, '/api/opportunities?country=FI&saved=false&sort=price_asc')).ids).toEqual([
        a.id,
        c.id,
      ]);
    }
  });
});

describe('X-Total-Count', () => {
  it(`is exact up to ${SEARCH_COUNT_CAP}, "${SEARCH_COUNT_CAP}+" beyond, and only on the first page`, async () => {
    // 1,001 claimable in Portugal, one of them dearer: 1,000 at most 100 dollars, 1,001 in all
    const bulk = sql`INSERT INTO opportunities (outlet_name, title, description, type, price_usd, max_slots, country)
      SELECT 'Bulk Outlet ' || n, 'An article', 'About it', ARRAY['listicle'],
        CASE WHEN n = ${SEARCH_COUNT_CAP + 1} THEN 200 ELSE 100 END, 3, 'PT'
      FROM generate_series(1, ${SEARCH_COUNT_CAP + 1}) n`;
    await t.db.execute(bulk);
    // one sold out and one past its deadline: not counted
    await insert([
      { outletName: 'Bulk Full', country: 'PT', maxSlots: 1, filledSlots: 1, status: 'full' },
      { outletName: 'Bulk Closed', country: 'PT', deadlineDate: new Date(today() - DAY) },
    ]);
    for (const sort of ['newest', 'price_desc'] as const) {
      const exactly = await page(brand, `/api/opportunities?country=PT&priceMax=100&sort=${sort}&limit=100`);
      expect(exactly.total, sort).toBe(String(SEARCH_COUNT_CAP));
      const more = await page(brand, `/api/opportunities?country=PT&sort=${sort}&limit=100`);
      expect(more.total, sort).toBe(`${SEARCH_COUNT_CAP}+`);
      expect(more.ids).toHaveLength(100);
      // the next pages of both: no count
      for (const first of [exactly, more]) {
        const second = await page(brand, first.next!);
        expect(second.ids).toHaveLength(100);
        expect(second.total, first.next).toBeUndefined();
      }
    }
    const words = await page(brand, '/api/opportunities?country=PT&q=bulk%20outlet&limit=5');
    expect(words.total).toBe(`${SEARCH_COUNT_CAP}+`);
    const few = await page(brand, '/api/opportunities?country=PT&priceMin=150&q=bulk');
    expect([few.total, few.ids.length]).toEqual(['1', 1]);
  });
});
