import type pg from 'pg';
import { LINK_TYPES, OPPORTUNITY_SORTS, TOPICS } from '../../src/shared/catalogue';
import { OPPORTUNITY_TYPES, PUBLICATION_HEALTHS } from '../../src/shared/enums';
import { SEARCH_LIMIT_DEFAULT } from '../../src/shared/opportunity';
import { ARTICLE_TABS, PROJECT_TABS } from '../../src/shared/schemas/brief';
import type { Planned } from './open-loop';

/**
 * The requests of `npm run bench`'s mix, as the portal's users make them: 60% brand search and
 * browse (random filters, sorts, words, next pages), 25% brand lists and details (My Articles,
 * payments, a placement's messages and timeline), 10% admin lists, 5% writes (checkout, a message,
 * the brief's autosave, an admin attaching a draft). The GET requests are a fixed catalogue built
 * once per data size (next pages followed through each list's `Link` header); a run draws from it
 * with a seeded random generator, so the real and the bare server see the same sequence. Writes are
 * made fresh for the real server (a checkout takes an opportunity no earlier one took); the bare
 * server is sent the writes whose statements were captured.
 */

/** A deterministic random generator (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
  };
}
type Rng = ReturnType<typeof rng>;

export interface Brand {
  n: number;
  id: string;
  cookie: string;
}

export const WRITE_KINDS = ['checkout', 'message', 'autosave', 'admin-status'] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];

const WRITE_ENDPOINT: Record<WriteKind, string> = {
  checkout: 'POST /api/payments/checkout',
  message: 'POST /api/brand/projects/:id/messages',
  autosave: 'POST /api/brand/brief/:paymentId',
  'admin-status': 'PATCH /api/admin/payments/:id/status',
};

/** The mix's groups and their share of the requests (per cent). */
export const SHARES = {
  search: 45,
  'search next page': 15,
  'my-articles': 8,
  'brand payments': 6,
  messages: 6,
  timeline: 5,
  'admin projects': 3,
  'admin payments': 2,
  'admin placements': 2,
  'admin opportunities': 2,
  'admin pending-brands': 1,
  checkout: 1.25,
  message: 1.25,
  autosave: 1.25,
  'admin-status': 1.25,
} as const;
type Group = keyof typeof SHARES;

/** The lists whose p50 the growth step follows (one GET route each). */
export const LIST_ENDPOINTS = [
  'GET /api/opportunities',
  'GET /api/brand/my-articles',
  'GET /api/brand/payments',
  'GET /api/brand/projects/:id/messages',
  'GET /api/brand/projects/:id/timeline',
  'GET /api/admin/projects',
  'GET /api/admin/payments',
  'GET /api/admin/placements',
  'GET /api/admin/opportunities',
  'GET /api/admin/pending-brands',
];

const GROUP_ENDPOINT: Record<Exclude<Group, WriteKind>, string> = {
  search: 'GET /api/opportunities',
  'search next page': 'GET /api/opportunities',
  'my-articles': 'GET /api/brand/my-articles',
  'brand payments': 'GET /api/brand/payments',
  messages: 'GET /api/brand/projects/:id/messages',
  timeline: 'GET /api/brand/projects/:id/timeline',
  'admin projects': 'GET /api/admin/projects',
  'admin payments': 'GET /api/admin/payments',
  'admin placements': 'GET /api/admin/placements',
  'admin opportunities': 'GET /api/admin/opportunities',
  'admin pending-brands': 'GET /api/admin/pending-brands',
};

const WORDS = [
  'marketing',
  'growth strategy',
  'founders',
  'fin',
  'techn',
  'Wealth Ledger',
  'Wealht Ledger',
  'Finanse',
  'investors',
  'market analysis',
  'Global Times',
  'Daily Herald',
  'crypto',
  'health',
  'startup',
  'product launches',
  'case studies',
  'Capital Review',
  'travel',
  'expert interviews',
  'Silicon Wire',
  'engineers',
];
const COUNTRIES = ['US', 'US', 'US', 'GB', 'GB', 'DE', 'DE', 'CA', 'AU', 'FR', 'ES', 'NL', 'IN', 'IS', 'JP'];
const LANGUAGES = ['en', 'en', 'en', 'de', 'fr', 'es'];
const isoDay = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A random search of the catalogue as a brand makes it on the browse page. (Without any parameter
 * GET /api/opportunities answers the spec's whole list of claimable opportunities — 50,000 here —
 * which the portal never asks for.)
 */
function randomSearch(r: Rng): string {
  const q = new URLSearchParams();
  const filters: (() => void)[] = [
    () => q.append('type', r.pick(OPPORTUNITY_TYPES)),
    () => q.append('priceMin', String(r.pick([100, 250, 500, 1000, 2000]))),
    () => q.append('priceMax', String(r.pick([3000, 4000, 5000]))),
    () => q.append('daMin', String(r.pick([20, 30, 40, 50, 60, 70, 80]))),
    () => q.append('daMax', String(r.pick([90, 95]))),
    () => q.append('tatMax', String(r.pick([3, 7, 14, 30]))),
    () => q.append('linkType', r.pick(LINK_TYPES)),
    () => {
      q.append('topic', r.pick(TOPICS));
      if (r.next() < 0.3) q.append('topic', r.pick(TOPICS));
    },
    () => q.append('country', r.pick(COUNTRIES)),
    () => q.append('language', r.pick(LANGUAGES)),
    () => q.append('deadlineAfter', isoDay(10 + r.int(110))),
    () => q.append('multiSlot', 'true'),
    () => q.append('saved', r.next() < 0.5 ? 'true' : 'false'),
  ];
  const x = r.next();
  const n = x < 0.3 ? 0 : x < 0.65 ? 1 : x < 0.85 ? 2 : 3;
  const used = new Set<number>();
  while (used.size < n) used.add(r.int(filters.length));
  for (const i of used) filters[i]();
  if (r.next() < 0.25) q.set('q', r.pick(WORDS));
  // as the browse page asks (features/opportunities/search/search-state.ts): the default sort
  // (newest) left out, and always a page of SEARCH_LIMIT_DEFAULT
  const sort = r.next() < 0.5 ? r.pick(OPPORTUNITY_SORTS) : 'newest';
  if (sort !== 'newest') q.set('sort', sort);
  q.set('limit', String(SEARCH_LIMIT_DEFAULT));
  return `/api/opportunities?${q.toString()}`;
}

export interface MixCatalogue {
  /** every request by its id (the GET ones, then the writes made so far) */
  all: Planned[];
  /** the GET requests of each group */
  pools: Map<Group, Planned[]>;
  /** fresh writes for the real server */
  makeWrite: (kind: WriteKind) => Planned;
  brands: Brand[];
}

const nextLink = (link: string | null) => (link ? (/<([^>]+)>;\s*rel="next"/.exec(link)?.[1] ?? null) : null);

/**
 * Builds the catalogue: reads the brands' payments and the claimable opportunities from the
 * database, then asks the server for each list's first page and follows `Link` for the next ones
 * (up to `maxPages`). `searches` random searches, a quarter of which are followed to later pages.
 */
export async function buildCatalogue(options: {
  origin: string;
  db: pg.Client;
  brands: Brand[];
  adminCookie: string;
  searches: number;
  seed: number;
  /** the groups to build (the growth step needs only the lists) */
  writes: boolean;
}): Promise<MixCatalogue> {
  const { origin, db, brands, adminCookie } = options;
  const r = rng(options.seed);
  const all: Planned[] = [];
  const pools = new Map<Group, Planned[]>();
  const add = (group: Group, p: Omit<Planned, 'id' | 'endpoint'> & { endpoint?: string }) => {
    const planned: Planned = {
      ...p,
      endpoint: p.endpoint ?? GROUP_ENDPOINT[group as Exclude<Group, WriteKind>],
      id: all.length,
    };
    all.push(planned);
    const pool = pools.get(group) ?? [];
    pool.push(planned);
    pools.set(group, pool);
    return planned;
  };
  const get = async (path: string, cookie: string) => {
    const res = await fetch(`${origin}${path}`, { headers: { cookie, accept: 'application/json' } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${body.slice(0, 200)}`);
    return nextLink(res.headers.get('link'));
  };
  /** the list's first page into `group` and its next pages (up to `maxPages` in all) into `nextGroup` */
  const list = async (group: Group, nextGroup: Group, path: string, cookie: string, maxPages: number) => {
    add(group, { method: 'GET', path, cookie });
    let next = await get(path, cookie);
    for (let page = 2; page <= maxPages && next; page++) {
      add(nextGroup, { method: 'GET', path: next, cookie });
      next = await get(next, cookie);
    }
  };

  // brand search and browse
  const seen = new Set<string>();
  for (let i = 0; i < options.searches; i++) {
    const brand = r.pick(brands);
    const path = randomSearch(r);
    if (seen.has(`${brand.n} ${path}`)) continue;
    seen.add(`${brand.n} ${path}`);
    if (r.next() < 0.25) await list('search', 'search next page', path, brand.cookie, 2 + r.int(4));
    else add('search', { method: 'GET', path, cookie: brand.cookie });
  }

  // brand lists and details
  const payments = new Map<string, { id: string; status: string; review: string; k: number }[]>();
  for (const b of brands) {
    const { rows } = await db.query<{ id: string; status: string; review: string; k: number }>(
      `SELECT p.id, p.status, x.draft_review_status AS review, substr(p.stripe_payment_id, 11)::int AS k
         FROM payments p JOIN placements x ON x.payment_id = p.id
         WHERE p.brand_id = $1 AND p.stripe_payment_id LIKE 'pi_sbench_%' ORDER BY p.created_at DESC LIMIT 200`,
      [b.id],
    );
    payments.set(b.id, rows);
    for (const tab of [undefined, ...ARTICLE_TABS]) {
      await list('my-articles', 'my-articles', `/api/brand/my-articles${tab ? `?tab=${tab}` : ''}`, b.cookie, 3);
    }
    await list('brand payments', 'brand payments', '/api/brand/payments', b.cookie, 4);
    const talked = rows.filter((p) => p.k % 5 === 1 && p.status !== 'refunded').slice(0, 10);
    for (const p of talked) {
      add('messages', { method: 'GET', path: `/api/brand/projects/${p.id}/messages`, cookie: b.cookie });
      add('timeline', { method: 'GET', path: `/api/brand/projects/${p.id}/timeline`, cookie: b.cookie });
    }
  }

  // admin lists
  for (const tab of [undefined, ...PROJECT_TABS]) {
    await list('admin projects', 'admin projects', `/api/admin/projects${tab ? `?tab=${tab}` : ''}`, adminCookie, 5);
  }
  for (const q of ['Brand Owner 12', 'brand7', 'Search Brand 420']) {
    await list('admin projects', 'admin projects', `/api/admin/projects?q=${encodeURIComponent(q)}`, adminCookie, 2);
    await list('admin payments', 'admin payments', `/api/admin/payments?q=${encodeURIComponent(q)}`, adminCookie, 2);
  }
  for (const status of [undefined, 'paid', 'released', 'refunded']) {
    await list(
      'admin payments',
      'admin payments',
      `/api/admin/payments${status ? `?status=${status}` : ''}`,
      adminCookie,
      5,
    );
  }
  for (const health of [undefined, ...PUBLICATION_HEALTHS]) {
    await list(
      'admin placements',
      'admin placements',
      `/api/admin/placements${health ? `?health=${health}` : ''}`,
      adminCookie,
      4,
    );
  }
  for (const q of [
    undefined,
    'status=available',
    'status=full',
    'full=true',
    `type=${OPPORTUNITY_TYPES[1]}`,
    'q=marketing',
    'q=Wealth%20Ledger',
  ]) {
    await list(
      'admin opportunities',
      'admin opportunities',
      `/api/admin/opportunities${q ? `?${q}` : ''}`,
      adminCookie,
      4,
    );
  }
  for (const q of [undefined, 'q=New%20Brand%201', 'q=pending2']) {
    await list(
      'admin pending-brands',
      'admin pending-brands',
      `/api/admin/pending-brands${q ? `?${q}` : ''}`,
      adminCookie,
      4,
    );
  }

  // writes
  let makeWrite: MixCatalogue['makeWrite'] = () => {
    throw new Error('this catalogue has no writes');
  };
  if (options.writes) {
    const claimable = (
      await db.query<{ id: string }>(
        `SELECT id FROM opportunities
          WHERE status = 'available' AND filled_slots < max_slots AND (deadline_date IS NULL OR deadline_date >= current_date + 1)
          ORDER BY md5(id::text) LIMIT 30000`,
      )
    ).rows.map((o) => o.id);
    const drafts = (
      await db.query<{ id: string }>(
        `SELECT p.id FROM placements p JOIN briefs b ON b.placement_id = p.id AND b.submitted_at IS NOT NULL
          WHERE p.state = 'in_progress' AND p.draft_review_status = 'pending_brand_review' AND p.brand_id <> ALL($1::uuid[])
          ORDER BY md5(p.id::text) LIMIT 1000`,
        [brands.map((b) => b.id)],
      )
    ).rows.map((p) => p.id);
    const w = rng(options.seed + 1);
    let checkouts = 0;
    let n = 0;
    // the brands that have a placement to write about (every signed-in brand at full size)
    const withPayments = (test: (x: { status: string; review: string }) => boolean) =>
      brands
        .map((b) => ({ brand: b, payments: (payments.get(b.id) ?? []).filter(test) }))
        .filter((x) => x.payments.length);
    const talking = withPayments((x) => x.status !== 'refunded');
    const briefing = withPayments((x) => x.status === 'paid' && x.review === 'awaiting_brand_brief');
    makeWrite = (kind) => {
      const brand = w.pick(brands);
      n++;
      let p: Omit<Planned, 'id'>;
      if (kind === 'checkout') {
        if (checkouts >= claimable.length) throw new Error('no claimable opportunity left for a checkout');
        p = {
          endpoint: WRITE_ENDPOINT[kind],
          method: 'POST',
          path: '/api/payments/checkout',
          cookie: brand.cookie,
          body: JSON.stringify({ opportunityId: claimable[checkouts++] }),
        };
      } else if (kind === 'message') {
        const t = w.pick(talking);
        p = {
          endpoint: WRITE_ENDPOINT[kind],
          method: 'POST',
          path: `/api/brand/projects/${w.pick(t.payments).id}/messages`,
          cookie: t.brand.cookie,
          body: JSON.stringify({ text: `Quick question ${n}: could the piece go live before the end of the month?` }),
        };
      } else if (kind === 'autosave') {
        const b = w.pick(briefing);
        p = {
          endpoint: WRITE_ENDPOINT[kind],
          method: 'POST',
          path: `/api/brand/brief/${w.pick(b.payments).id}`,
          cookie: b.brand.cookie,
          body: JSON.stringify({
            part1Json: {
              personOrBrandName: `Brand Owner ${b.brand.n}`,
              backgroundExperience: `Founded in 2012, we build tools for small teams (draft ${n}).`,
            },
          }),
        };
      } else {
        p = {
          endpoint: WRITE_ENDPOINT[kind],
          method: 'PATCH',
          path: `/api/admin/payments/${w.pick(drafts)}/status`,
          cookie: adminCookie,
          body: JSON.stringify({ draftDocumentUrl: `https://docs.example.com/d/revised-${n}` }),
        };
      }
      const planned = { ...p, id: all.length };
      all.push(planned);
      return planned;
    };
  }
  return { all, pools, makeWrite, brands };
}

/**
 * The next request of a run: a group by its share, then a request of it. `writes` are made fresh
 * (the real server) or taken in turn from those captured (the bare server); without writes (the
 * growth step) only the lists are drawn, in the same proportions among themselves.
 */
export function picker(catalogue: MixCatalogue, seed: number, writes: ((kind: WriteKind) => Planned) | null) {
  const r = rng(seed);
  const groups = (Object.entries(SHARES) as [Group, number][]).filter(
    ([g]) =>
      (writes || !(WRITE_KINDS as readonly string[]).includes(g)) &&
      ((WRITE_KINDS as readonly string[]).includes(g) || catalogue.pools.get(g)?.length),
  );
  const total = groups.reduce((s, [, w]) => s + w, 0);
  return (): Planned => {
    let x = r.next() * total;
    for (const [g, w] of groups) {
      x -= w;
      if (x < 0) {
        if ((WRITE_KINDS as readonly string[]).includes(g)) return writes!(g as WriteKind);
        return r.pick(catalogue.pools.get(g)!);
      }
    }
    return r.pick(catalogue.pools.get('search')!);
  };
}
