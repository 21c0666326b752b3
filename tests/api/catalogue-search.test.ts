/**
 * The brands' catalogue search (GET /api/opportunities with parameters) and shortlist.
 *
 * The property: for random filters, sorts and page sizes over a random catalogue, the pages
 * concatenated are exactly the catalogue filtered and sorted here in TypeScript, with no item twice
 * and none skipped, also when opportunities are added between two pages. Half of its searches have
 * one or two filters and small pages, so that the pages are reached through their Link (it counts
 * them: with every filter at once, its searches seldom filled a page and followed no link at all). The model of the text
 * search is the documented rule (every word a word of the outlet, title or description, the last one
 * possibly its start); the typo tolerance (pg_trgm's word similarity) is asked of the database.
 */
import { inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opportunities, savedOpportunities } from '../../src/server/db/schema';
import { TYPO_MIN_LENGTH, TYPO_SIMILARITY, searchWords } from '../../src/server/modules/opportunities/words';
import { OPPORTUNITY_SORTS, type LinkType, type OpportunitySort, type Topic } from '../../src/shared/catalogue';
import { toCents } from '../../src/shared/money';
import type { BrandOpportunityItem, OpportunityType } from '../../src/shared/opportunity';
import { createTestApp, type Agent, type TestApp } from '../support/app';
import { everyKind, signedIn, kinds, orgIdOf } from '../support/factories';

let t: TestApp;
let brand: Agent;
let brandId: string;
let otherBrand: Agent;
let otherBrandId: string;
let admin: Agent;

type Row = typeof opportunities.$inferSelect;
/** Every opportunity inserted, as the database has it (the model's catalogue). */
const catalogue: Row[] = [];
const saved = new Set<string>();

const DAY = 86_400_000;
const startOfToday = () => new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00.000Z');
// words whose trigrams hardly overlap, so that a word is near no other one
const WORDS = [
  'alpha',
  'bravo',
  'charlie',
  'delta',
  'echo',
  'foxtrot',
  'golf',
  'hotel',
  'india',
  'juliet',
  'kilo',
  'lima',
];
const TYPES: OpportunityType[] = ['profile_article', 'editorial_feature', 'advertorial_brand_voice', 'listicle'];
const TOPIC_POOL: Topic[] = ['fintech', 'travel', 'ai', 'health'];
const LINKS: LinkType[] = ['dofollow', 'nofollow', 'sponsored'];
const COUNTRY_POOL = ['DE', 'US', 'GB'];
const LANGUAGE_POOL = ['de', 'en'];

/** A small deterministic random source for the catalogue (fast-check drives the queries). */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(20261125);
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
const maybe = <T>(value: () => T, nullShare = 0.25): T | null => (random() < nullShare ? null : value());
const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');

/** A random opportunity: mostly claimable, some full, past their deadline or claimed. */
function randomOpportunity(createdAt: Date): typeof opportunities.$inferInsert {
  const maxSlots = 1 + Math.floor(random() * 4);
  const kind = random();
  const pastDeadline = kind > 0.9;
  return {
    outletName: `${pick(WORDS)} ${pick(WORDS)}`.replace(/^./, (c) => c.toUpperCase()),
    title: words(3),
    description: words(6),
    type: [...new Set([pick(TYPES), ...(random() < 0.3 ? [pick(TYPES)] : [])])],
    // few distinct prices and DAs, so that sorting meets ties the id must break
    priceUsd: `${pick([50, 120, 499, 500, 500, 750, 2000])}.${pick(['00', '50', '99'])}`,
    domainAuthority: maybe(() => pick([10, 35, 70, 70, 71, 95])),
    tatDays: maybe(() => pick([3, 7, 14, 30])),
    linkType: maybe(() => pick(LINKS)),
    topics: [...new Set(Array.from({ length: Math.floor(random() * 3) }, () => pick(TOPIC_POOL)))],
    country: maybe(() => pick(COUNTRY_POOL)),
    language: maybe(() => pick(LANGUAGE_POOL)),
    maxSlots,
    filledSlots: kind > 0.8 && kind <= 0.85 ? maxSlots : Math.floor(random() * maxSlots),
    status: kind > 0.85 && kind <= 0.88 ? 'claimed' : 'available',
    deadlineDate: pastDeadline
      ? new Date(Date.now() - 3 * DAY)
      : maybe(() => new Date(startOfToday().getTime() + pick([0, 1, 5, 40]) * DAY), 0.4),
    createdAt,
  };
}

let clock = Date.parse('2026-01-01T00:00:00Z');
async function addOpportunities(n: number) {
  const values = Array.from({ length: n }, () => randomOpportunity(new Date((clock += pick([0, 1000, 1000, 60_000])))));
  const rows = await t.db.insert(opportunities).values(values).returning();
  catalogue.push(...rows);
  return rows;
}

/** Rows a test changed in the database directly: the model reads them again (the other tests rely on it). */
async function reread(...ids: string[]) {
  for (const row of await t.db.select().from(opportunities).where(inArray(opportunities.id, ids))) {
    catalogue[catalogue.findIndex((r) => r.id === row.id)] = row;
  }
}

// ---- the model ----

interface Query {
  q?: string;
  type?: OpportunityType[];
  priceMin?: string;
  priceMax?: string;
  daMin?: number;
  daMax?: number;
  tatMax?: number;
  linkType?: LinkType[];
  topic?: Topic[];
  country?: string;
  language?: string;
  deadlineAfter?: string;
  multiSlot?: boolean;
  saved?: boolean;
  sort?: OpportunitySort;
  limit: number;
}

const claimable = (r: Row) =>
  r.status === 'available' &&
  r.filledSlots < r.maxSlots &&
  (r.deadlineDate === null || r.deadlineDate >= startOfToday());

/** Every word: a word of the text (the last: the start of one), or near the outlet's name (the database's verdict per word). */
function textMatches(r: Row, q: string, typoIds: Map<string, Set<string>>): boolean {
  const wanted = searchWords(q);
  const tokens = `${r.outletName} ${r.title} ${r.description}`
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return wanted.every(
    (w, i) =>
      (i === wanted.length - 1 ? tokens.some((t) => t.startsWith(w)) : tokens.includes(w)) ||
      Boolean(typoIds.get(w)?.has(r.id)),
  );
}

const cents = (v: string) => toCents(v);
function matches(r: Row, q: Query, typoIds: Map<string, Set<string>>): boolean {
  if (q.saved === true ? !saved.has(r.id) : !claimable(r)) return false;
  if (q.saved === false && saved.has(r.id)) return false;
  if (q.q !== undefined && !textMatches(r, q.q, typoIds)) return false;
  if (q.type && !q.type.some((ty) => (r.type as string[]).includes(ty))) return false;
  if (q.priceMin !== undefined && cents(r.priceUsd) < cents(q.priceMin)) return false;
  if (q.priceMax !== undefined && cents(r.priceUsd) > cents(q.priceMax)) return false;
  if (q.daMin !== undefined && (r.domainAuthority === null || r.domainAuthority < q.daMin)) return false;
  if (q.daMax !== undefined && (r.domainAuthority === null || r.domainAuthority > q.daMax)) return false;
  if (q.tatMax !== undefined && (r.tatDays === null || r.tatDays > q.tatMax)) return false;
  if (q.linkType && (r.linkType === null || !q.linkType.includes(r.linkType))) return false;
  if (q.topic && !q.topic.some((tp) => r.topics.includes(tp))) return false;
  if (q.country !== undefined && r.country !== q.country) return false;
  if (q.language !== undefined && r.language !== q.language) return false;
  if (
    q.deadlineAfter !== undefined &&
    r.deadlineDate !== null &&
    r.deadlineDate.getTime() <= Date.parse(`${q.deadlineAfter}T00:00:00Z`)
  )
    return false;
  if (q.multiSlot === true && !(r.maxSlots - r.filledSlots > 1)) return false;
  if (q.multiSlot === false && r.maxSlots - r.filledSlots > 1) return false;
  return true;
}

/** Each sort's key (numbers and timestamps compare as numbers) and direction; ties by id, same way. */
const SORT_KEYS: Record<OpportunitySort, { key: (r: Row) => number; asc: boolean }> = {
  newest: { key: (r) => r.createdAt.getTime(), asc: false },
  price_asc: { key: (r) => cents(r.priceUsd), asc: true },
  price_desc: { key: (r) => cents(r.priceUsd), asc: false },
  da_desc: { key: (r) => r.domainAuthority ?? 0, asc: false },
  deadline_asc: { key: (r) => r.deadlineDate?.getTime() ?? Infinity, asc: true },
  // the outlet's on-time rate: none of these outlets has published a placement, so none has one (tests/api/outlets.test.ts sorts by real rates)
  on_time_desc: { key: () => -1, asc: false },
};
function sorted(rows: Row[], sort: OpportunitySort): Row[] {
  const { key, asc } = SORT_KEYS[sort];
  const dir = asc ? 1 : -1;
  // compared, not subtracted: Infinity - Infinity (two open-ended deadlines) is NaN, not a tie
  const cmp = <T>(x: T, y: T) => (x < y ? -1 : x > y ? 1 : 0);
  return [...rows].sort((a, b) => (cmp(key(a), key(b)) || cmp(a.id, b.id)) * dir);
}

function toSearchParams(q: Query): string {
  const p = new URLSearchParams();
  for (const [name, value] of Object.entries(q)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) p.append(name, String(v));
  }
  return p.toString();
}

/** Per word long enough for typos: the opportunities whose outlet name it is close to. */
async function typoMatches(q: string | undefined): Promise<Map<string, Set<string>>> {
  const near = new Map<string, Set<string>>();
  for (const word of searchWords(q ?? '').filter((w) => w.length >= TYPO_MIN_LENGTH)) {
    const rows = await t.db.execute<{ id: string }>(
      sql`SELECT id FROM opportunities WHERE word_similarity(${word}, outlet_name) >= ${TYPO_SIMILARITY}`,
    );
    const list = (Array.isArray(rows) ? rows : (rows as { rows: { id: string }[] }).rows) as { id: string }[];
    near.set(word, new Set(list.map((r) => r.id)));
  }
  return near;
}

/** Follows the Link headers from the first page to the last; `between` runs after each page. */
async function allPages(agent: Agent, first: string, between?: (page: number) => Promise<void>) {
  const items: BrandOpportunityItem[] = [];
  let url: string | undefined = first;
  let total: number | undefined;
  let page = 0;
  for (; url; page++) {
    const res = await agent.get<BrandOpportunityItem[]>(url);
    expect(res.status, `${url}: ${res.text}`).toBe(200);
    // counted on the first page only
    if (page === 0) total = Number(res.headers['x-total-count']);
    else expect(res.headers['x-total-count'], url).toBeUndefined();
    items.push(...res.body);
    const link = res.headers.link as string | undefined;
    url = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
    if (url && between) await between(page);
    expect(page).toBeLessThan(500);
  }
  return { items, total, pages: page };
}

beforeAll(async () => {
  t = await createTestApp();
  const users = await everyKind(t.app, t.db);
  brand = users.approvedBrand.agent;
  brandId = users.approvedBrand.user!.id;
  admin = users.admin.agent;
  const other = await signedIn(t.app, t.db, kinds.approvedBrand);
  otherBrand = other.agent;
  otherBrandId = other.user.id;
  await addOpportunities(70);
  // the brand's shortlist: some claimable, some sold out or past their deadline
  for (const r of catalogue.filter((_, i) => i % 4 === 0)) {
    await t.db.insert(savedOpportunities).values({ brandId, organisationId: await orgIdOf(t.db, brandId), opportunityId: r.id });
    saved.add(r.id);
  }
});
afterAll(() => t.close());

const filterArbs = {
  q: fc.oneof(
    fc.constantFrom(...WORDS),
    fc.constantFrom(...WORDS).map((w) => w.slice(0, 3)),
    fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS)).map(([a, b]) => `${b} ${a.slice(0, 4)}`),
    fc.constantFrom('foxtrtt', 'charlei', 'julliet'),
  ),
  type: fc.subarray(TYPES, { minLength: 1, maxLength: 2 }),
  priceMin: fc.constantFrom('100', '499.99', '500'),
  priceMax: fc.constantFrom('500', '750.50', '2000'),
  daMin: fc.constantFrom(0, 35, 70),
  daMax: fc.constantFrom(70, 95, 100),
  tatMax: fc.constantFrom(3, 7, 14),
  linkType: fc.subarray(LINKS, { minLength: 1, maxLength: 2 }),
  topic: fc.subarray(TOPIC_POOL, { minLength: 1, maxLength: 2 }),
  country: fc.constantFrom(...COUNTRY_POOL),
  language: fc.constantFrom(...LANGUAGE_POOL),
  deadlineAfter: fc.constantFrom(0, 1, 10).map((d) => new Date(Date.now() + d * DAY).toISOString().slice(0, 10)),
  multiSlot: fc.boolean(),
  saved: fc.boolean(),
};
type Filter = keyof typeof filterArbs;

// most filters at once: their combinations, on results that seldom fill a page
const manyFilters: fc.Arbitrary<Query> = fc.record(
  { ...filterArbs, sort: fc.constantFrom(...OPPORTUNITY_SORTS), limit: fc.integer({ min: 1, max: 9 }) },
  { requiredKeys: ['limit'] },
);
// one or two filters and small pages: results that take several pages, followed by their Link
const fewFilters: fc.Arbitrary<Query> = fc
  .shuffledSubarray(Object.keys(filterArbs) as Filter[], { minLength: 1, maxLength: 2 })
  .chain((names) =>
    fc.record({
      ...(Object.fromEntries(names.map((n) => [n, filterArbs[n]])) as { [K in Filter]: (typeof filterArbs)[K] }),
      sort: fc.constantFrom(...OPPORTUNITY_SORTS),
      limit: fc.integer({ min: 3, max: 6 }),
    }),
  );
const queryArb = fc.oneof(fewFilters, manyFilters);

describe('GET /api/opportunities?… (search): pages equal the model', () => {
  it('concatenated pages are the catalogue filtered and sorted, with opportunities added between pages', async () => {
    let linksFollowed = 0;
    let pastSecondPage = 0;
    await fc.assert(
      fc.asyncProperty(queryArb, fc.boolean(), async (query, addBetween) => {
        const typoIds = await typoMatches(query.q);
        const expected = sorted(
          catalogue.filter((r) => matches(r, query, typoIds)),
          query.sort ?? 'newest',
        );
        const added = new Set<string>();
        const { items, total, pages } = await allPages(
          brand,
          `/api/opportunities?${toSearchParams(query)}`,
          async (page) => {
            if (addBetween && page < 2) for (const r of await addOpportunities(2)) added.add(r.id);
          },
        );
        linksFollowed += pages - 1;
        if (pages > 2) pastSecondPage++;
        expect(total).toBe(expected.length);
        const ids = items.map((i) => i.id);
        expect(new Set(ids).size, 'no item twice').toBe(ids.length);
        // the ones that existed before the first page: all there, in order; the rest are the added ones
        expect(ids.filter((id) => !added.has(id))).toEqual(expected.map((r) => r.id));
        for (const item of items) {
          const row = catalogue.find((r) => r.id === item.id)!;
          expect(item.saved).toBe(saved.has(row.id));
          expect(item.soldOut).toBe(!claimable(row));
        }
      }),
      { seed: 20261125, numRuns: 90, endOnFailure: true },
    );
    // the property is about paging: most of its searches must have gone past their first pages
    expect(linksFollowed).toBeGreaterThan(90);
    expect(pastSecondPage).toBeGreaterThanOrEqual(20);
  }, 240_000);
});

describe('GET /api/opportunities?… (search): the rules', () => {
  const titles = (items: BrandOpportunityItem[]) => items.map((i) => i.outletName).sort();

  it('without parameters still answers the whole list, as the spec says', async () => {
    const res = await brand.get<BrandOpportunityItem[]>('/api/opportunities');
    expect(res.status).toBe(200);
    expect(res.headers.link).toBeUndefined();
    expect(res.headers['x-total-count']).toBeUndefined();
    expect(res.body.map((o) => o.id).sort()).toEqual(
      catalogue
        .filter(claimable)
        .map((r) => r.id)
        .sort(),
    );
    expect(res.body[0]).not.toHaveProperty('saved');
  });

  it('finds words in any order, a prefix, and an outlet name with one typo', async () => {
    const [row] = await t.db
      .insert(opportunities)
      .values({
        outletName: 'TechCrunch Deutschland',
        title: 'Fintech founder feature',
        description: 'Sponsored story',
        type: ['listicle'],
        priceUsd: '450.00',
      })
      .returning();
    catalogue.push(row);
    for (const q of ['fintech techcrunch', 'tech', 'feature fint', 'tecchrunch', 'TECHCRUNCH', 'deutschlnd']) {
      const res = await brand.get<BrandOpportunityItem[]>(`/api/opportunities?q=${encodeURIComponent(q)}`);
      expect(titles(res.body), q).toContain('TechCrunch Deutschland');
    }
    for (const q of ['techcrunch wired', 'wired', 'fintech zulu', 'deutsch crunch founders']) {
      const res = await brand.get<BrandOpportunityItem[]>(`/api/opportunities?q=${encodeURIComponent(q)}`);
      expect(titles(res.body), q).not.toContain('TechCrunch Deutschland');
    }
    // punctuation only is no words: everything claimable
    const blank = await brand.get('/api/opportunities?q=%20%2B%26');
    expect(Number(blank.headers['x-total-count'])).toBe(catalogue.filter(claimable).length);
  });

  it('finds a number written after a hyphen ("COVID-19", "2024-25") as the brand types it', async () => {
    const [row] = await t.db
      .insert(opportunities)
      .values({ outletName: 'Numbers Weekly', title: 'COVID-19 recovery and the 2024-25 season', description: 'Sponsored story', type: ['listicle'], priceUsd: '450.00' })
      .returning();
    catalogue.push(row);
    // PostgreSQL reads "-19" and "-25" as signed numbers; the search's words are "19" and "25"
    for (const q of ['covid 19', 'COVID-19', '2024-25 season', 'season 25', 'covid-1']) {
      const res = await brand.get<BrandOpportunityItem[]>(`/api/opportunities?q=${encodeURIComponent(q)}`);
      expect(titles(res.body), q).toContain('Numbers Weekly');
    }
    for (const q of ['covid 18', '2024-26', '19 recoveri']) {
      const res = await brand.get<BrandOpportunityItem[]>(`/api/opportunities?q=${encodeURIComponent(q)}`);
      expect(titles(res.body), q).not.toContain('Numbers Weekly');
    }
  });

  it("answers the issue's search in one request", async () => {
    const [row] = await t.db
      .insert(opportunities)
      .values({
        outletName: 'Handelsblatt',
        title: 'Sponsored article',
        description: 'Fintech in Germany',
        type: ['advertorial_brand_voice'],
        priceUsd: '480.00',
        domainAuthority: 91,
        country: 'DE',
        language: 'de',
        topics: ['fintech', 'finance'],
        linkType: 'dofollow',
        tatDays: 10,
      })
      .returning();
    catalogue.push(row);
    const res = await brand.get<BrandOpportunityItem[]>(
      '/api/opportunities?type=advertorial_brand_voice&priceMax=500&daMin=70&country=DE&topic=fintech&linkType=dofollow',
    );
    expect(res.status).toBe(200);
    expect(res.body.map((o) => o.outletName)).toContain('Handelsblatt');
    expect(res.body.find((o) => o.id === row.id)).toMatchObject({
      country: 'DE',
      language: 'de',
      topics: ['fintech', 'finance'],
      linkType: 'dofollow',
      tatDays: 10,
      saved: false,
      soldOut: false,
    });
  });

  it.each([
    ['foo=1', 'Unrecognized key: "foo"'],
    ['limit=101', 'limit must be a whole number from 1 to 100'],
    ['limit=0', 'limit must be a whole number from 1 to 100'],
    ['sort=cheapest', 'sort must be one of newest, price_asc, price_desc, da_desc, deadline_asc, on_time_desc'],
    ['type=blog', 'type must be one of profile_article, editorial_feature, advertorial_brand_voice, listicle'],
    ['priceMax=1e3', 'priceMax must be an amount in dollars, e.g. 500 or 499.99'],
    ['priceMin=600&priceMax=500', 'priceMax must not be below priceMin'],
    ['daMin=101', 'daMin must be a whole number from 0 to 100'],
    ['country=de', 'country must be an ISO 3166-1 alpha-2 code in capitals, e.g. DE'],
    ['language=xx', 'language must be an ISO 639-1 code in lower case, e.g. de'],
    ['deadlineAfter=2026-02-30', 'deadlineAfter must be a date as YYYY-MM-DD'],
    ['multiSlot=yes', 'multiSlot must be true or false'],
    ['q=a&q=b', 'q must be given once'],
    ['cursor=bm9wZQ', 'This page link is no longer valid; reload the list from the start'],
  ])('refuses %s with a message naming it', async (query, message) => {
    const res = await brand.get(`/api/opportunities?${query}`);
    expect(res.status).toBe(400);
    expect(Object.values(res.body.errors as Record<string, string>)).toContain(message);
  });

  it('a search asked again is the same page until the catalogue changes, with each brand its own shortlist flags', async () => {
    const url = '/api/opportunities?sort=price_asc&limit=5';
    const first = await brand.get<BrandOpportunityItem[]>(url);
    expect(first.status).toBe(200);
    const again = await brand.get<BrandOpportunityItem[]>(url);
    expect(again.text).toBe(first.text);
    expect(again.headers['x-total-count']).toBe(first.headers['x-total-count']);
    expect(again.headers.link).toBe(first.headers.link);

    // another brand gets the same page with its own flags, read now
    const [target] = first.body;
    await t.db.delete(savedOpportunities).where(sql`opportunity_id = ${target.id}`);
    expect((await otherBrand.put(`/api/brand/saved/${target.id}`)).status).toBe(204);
    const theirs = await otherBrand.get<BrandOpportunityItem[]>(url);
    expect(theirs.body.map((i) => i.id)).toEqual(first.body.map((i) => i.id));
    expect(theirs.body.find((i) => i.id === target.id)?.saved).toBe(true);
    const mine = await brand.get<BrandOpportunityItem[]>(url);
    expect(mine.body.find((i) => i.id === target.id)?.saved).toBe(false);
    saved.delete(target.id);

    // a change to the catalogue (plain SQL, as another server would): the next answer shows it
    const [cheapest] = await t.db
      .insert(opportunities)
      .values({
        outletName: 'Penny Press',
        title: 'Cheapest of all',
        description: 'x',
        type: ['listicle'],
        priceUsd: '0.01',
      })
      .returning();
    catalogue.push(cheapest);
    const changed = await brand.get<BrandOpportunityItem[]>(url);
    expect(changed.body[0].id).toBe(cheapest.id);
    expect(Number(changed.headers['x-total-count'])).toBe(Number(first.headers['x-total-count']) + 1);
    expect((await otherBrand.request('DELETE', `/api/brand/saved/${target.id}`)).status).toBe(204);
  });

  it('a shortlist search asked again is the same page until the shortlist or the catalogue changes', async () => {
    const rows = await t.db
      .select({ id: opportunities.id })
      .from(opportunities)
      .where(sql`status = 'available' AND filled_slots < max_slots AND deadline_date IS NULL`)
      .orderBy(opportunities.priceUsd, opportunities.id)
      .limit(3);
    const [a, b, c] = rows.map((r) => r.id);
    for (const id of [a, b]) expect((await otherBrand.put(`/api/brand/saved/${id}`)).status).toBe(204);
    const url = '/api/opportunities?saved=true&sort=price_asc';
    const ids = async (agent: Agent, path = url) => {
      const res = await agent.get<BrandOpportunityItem[]>(path);
      expect(res.status).toBe(200);
      expect(res.body.every((i) => i.saved === path.includes('saved=true'))).toBe(true);
      return { ids: res.body.map((i) => i.id), total: Number(res.headers['x-total-count']), text: res.text };
    };
    const first = await ids(otherBrand);
    expect(first.ids).toEqual(expect.arrayContaining([a, b]));
    expect(await ids(otherBrand)).toEqual(first);

    // another brand's shortlist is its own, also where both have seen as many changes
    const mine = await ids(brand);
    expect(mine.ids).not.toContain(a);
    const [one, two] = await Promise.all([
      signedIn(t.app, t.db, kinds.approvedBrand),
      signedIn(t.app, t.db, kinds.approvedBrand),
    ]);
    expect((await one.agent.put(`/api/brand/saved/${a}`)).status).toBe(204);
    expect((await two.agent.put(`/api/brand/saved/${b}`)).status).toBe(204);
    expect((await ids(one.agent)).ids).toEqual([a]);
    expect((await ids(two.agent)).ids).toEqual([b]);
    await t.db.delete(savedOpportunities).where(sql`brand_id IN (${one.user.id}, ${two.user.id})`);

    // saved through the API: the next answer has it
    expect((await otherBrand.put(`/api/brand/saved/${c}`)).status).toBe(204);
    const more = await ids(otherBrand);
    expect(more.ids).toEqual(expect.arrayContaining([a, b, c]));
    expect(more.total).toBe(first.total + 1);
    // saving what is already saved changes nothing
    expect((await otherBrand.put(`/api/brand/saved/${c}`)).status).toBe(204);
    expect(await ids(otherBrand)).toEqual(more);

    // unsaved by plain SQL (as another server would): the next answer, and the not-saved search, show it
    const notSaved = `/api/opportunities?saved=false&sort=price_asc&limit=100`;
    expect((await ids(otherBrand, notSaved)).ids).not.toContain(b);
    await t.db.delete(savedOpportunities).where(sql`brand_id = ${otherBrandId} AND opportunity_id = ${b}`);
    const fewer = await ids(otherBrand);
    expect(fewer.ids).not.toContain(b);
    expect(fewer.total).toBe(more.total - 1);
    expect((await ids(otherBrand, notSaved)).ids).toContain(b);

    // sold out meanwhile (the catalogue changed): still listed, marked sold out
    const filled = catalogue.find((r) => r.id === a)!.filledSlots;
    await t.db.execute(sql`UPDATE opportunities SET filled_slots = max_slots WHERE id = ${a}`);
    const soldOut = await otherBrand.get<BrandOpportunityItem[]>(url);
    expect(soldOut.body.find((i) => i.id === a)?.soldOut).toBe(true);
    await t.db.execute(sql`UPDATE opportunities SET filled_slots = ${filled} WHERE id = ${a}`);
    for (const id of [a, c]) expect((await otherBrand.request('DELETE', `/api/brand/saved/${id}`)).status).toBe(204);
    expect((await ids(otherBrand)).ids).not.toEqual(expect.arrayContaining([a]));
  });

  it('a brand that never saved anything has no flag set, and one saved by plain SQL shows at once', async () => {
    const url = '/api/opportunities?sort=price_desc&limit=3';
    const fresh = await signedIn(t.app, t.db, kinds.approvedBrand);
    const first = await fresh.agent.get<BrandOpportunityItem[]>(url);
    expect(first.body.every((i) => !i.saved)).toBe(true);
    const target = first.body[1].id;
    await t.db.insert(savedOpportunities).values({ brandId: fresh.user.id, organisationId: fresh.user.organisationId!, opportunityId: target });
    const after = await fresh.agent.get<BrandOpportunityItem[]>(url);
    expect(after.body.map((i) => [i.id, i.saved])).toEqual(first.body.map((i) => [i.id, i.id === target]));
    await t.db.delete(savedOpportunities).where(sql`brand_id = ${fresh.user.id}`);
  });

  it('refuses a page link made for another sort', async () => {
    const first = await brand.get('/api/opportunities?sort=price_asc&limit=1');
    const cursor = new URL(/<([^>]+)>/.exec(first.headers.link as string)![1], 'http://x').searchParams.get('cursor')!;
    const res = await brand.get(`/api/opportunities?sort=newest&cursor=${cursor}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('This page link is no longer valid; reload the list from the start');
  });

  it('is for approved brands only', async () => {
    const users = await everyKind(t.app, t.db);
    expect((await users.visitor.agent.get('/api/opportunities?q=a')).status).toBe(401);
    expect((await users.pendingBrand.agent.get('/api/opportunities?q=a')).status).toBe(403);
    expect((await admin.get('/api/opportunities?q=a')).status).toBe(403);
  });
});

describe('the shortlist: /api/brand/saved', () => {
  it('saves, lists newest first, keeps a sold-out one marked, and unsaves; idempotent both ways', async () => {
    const [open, soon] = await addOpportunities(2);
    await t.db
      .update(opportunities)
      .set({ status: 'available', filledSlots: 0, maxSlots: 2, deadlineDate: null })
      .where(sql`id IN (${open.id}, ${soon.id})`);
    await reread(open.id, soon.id);
    expect((await otherBrand.put(`/api/brand/saved/${open.id}`)).status).toBe(204);
    expect((await otherBrand.put(`/api/brand/saved/${open.id}`)).status).toBe(204);
    expect((await otherBrand.put(`/api/brand/saved/${soon.id}`)).status).toBe(204);
    let list = await otherBrand.get<BrandOpportunityItem[]>('/api/brand/saved');
    expect(list.body.map((o) => [o.id, o.saved, o.soldOut])).toEqual([
      [soon.id, true, false],
      [open.id, true, false],
    ]);
    // it sells out: still in the shortlist, marked
    await t.db
      .update(opportunities)
      .set({ status: 'full', filledSlots: 2 })
      .where(sql`id = ${soon.id}`);
    await reread(soon.id);
    list = await otherBrand.get<BrandOpportunityItem[]>('/api/brand/saved');
    expect(list.body.find((o) => o.id === soon.id)).toMatchObject({ soldOut: true, saved: true });
    const search = await otherBrand.get<BrandOpportunityItem[]>('/api/opportunities?saved=true');
    expect(search.body.map((o) => [o.id, o.soldOut])).toEqual([
      [soon.id, true],
      [open.id, false],
    ]);
    // not in the brand's ordinary search any more
    const all = await allPages(otherBrand, '/api/opportunities?limit=100');
    expect(all.items.map((o) => o.id)).not.toContain(soon.id);
    expect(all.items.find((o) => o.id === open.id)?.saved).toBe(true);

    expect((await otherBrand.request('DELETE', `/api/brand/saved/${soon.id}`)).status).toBe(204);
    expect((await otherBrand.request('DELETE', `/api/brand/saved/${soon.id}`)).status).toBe(204);
    list = await otherBrand.get<BrandOpportunityItem[]>('/api/brand/saved');
    expect(list.body.map((o) => o.id)).toEqual([open.id]);
  });

  it("never shows or changes another brand's shortlist", async () => {
    const mine = (await brand.get<BrandOpportunityItem[]>('/api/brand/saved')).body.map((o) => o.id).sort();
    expect(mine).toEqual([...saved].sort());
    const theirs = (await otherBrand.get<BrandOpportunityItem[]>('/api/brand/saved')).body.map((o) => o.id);
    expect(theirs.some((id) => saved.has(id))).toBe(false);
    const rows = await t.db
      .select()
      .from(savedOpportunities)
      .where(sql`brand_id = ${brandId}`);
    expect(rows.map((r) => r.opportunityId).sort()).toEqual(mine);
  });

  it('answers 404 for an unknown opportunity or an id that is no uuid, and refuses non-brands', async () => {
    expect((await brand.put('/api/brand/saved/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await brand.put('/api/brand/saved/nope')).status).toBe(404);
    const users = await everyKind(t.app, t.db);
    expect((await users.visitor.agent.get('/api/brand/saved')).status).toBe(401);
    expect((await admin.put(`/api/brand/saved/${catalogue[0].id}`)).status).toBe(403);
    expect((await users.pendingBrand.agent.request('DELETE', `/api/brand/saved/${catalogue[0].id}`)).status).toBe(403);
  });
});
