/**
 * [ADMIN][SEARCH] Placements searched by brand (issue 61), as Projects and Payments are
 * (admin-search.test.ts): `?q=` finds a piece of the brand's name, brand name or e-mail,
 * case-insensitively, with `%`, `_` and `\` taken literally; it narrows each health filter and
 * keeps paging exact (the Link header carries it); a blank search is the whole list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publications } from '../../src/server/db/schema';
import { createTestApp, Agent, type Res, type TestApp } from '../support/app';
import { createUser, kinds, signedIn } from '../support/factories';
import { createOpportunity, createPayment } from '../support/content';

let t: TestApp;
let admin: Agent;
let brandAgent: Agent;

type Brand = Awaited<ReturnType<typeof createUser>>;
type Health = 'ok' | 'issue' | 'warning' | 'unverified';
let acme: Brand;
let zeta50: Brand;
let zeta500: Brand;
let backslash: Brand;
/** each published placement: its brand, health and when it was published (newest last) */
const published: { id: string; brandId: string; health: Health; at: Date }[] = [];
let second = 0;

async function publish(brand: Brand, opportunityId: string, healths: Health[]) {
  for (const health of healths) {
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, second++));
    const row = await createPayment(t.db, { brandId: brand.id, opportunityId, status: 'released', releasedAt: at, amount: '100.00', createdAt: at });
    await t.db.insert(publications).values({
      placementId: row.id,
      url: `https://outlet.example.com/story-${second}`,
      health,
      publishedAt: at,
      guaranteeEndsAt: new Date(at.getTime() + 90 * 86_400_000),
    });
    published.push({ id: row.id, brandId: brand.id, health, at });
  }
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  brandAgent = (await signedIn(t.app, t.db, { ...kinds.approvedBrand, brandName: 'Acme Rival', name: 'Acme Person' })).agent;
  acme = await createUser(t.db, { name: 'Priya Raman', brandName: 'Acme Robotics', email: 'ops@acme-mail.test' });
  zeta50 = await createUser(t.db, { name: 'Jonas Weber', brandName: 'Zeta 50% Off_Deals', email: 'jonas@zeta.test' });
  zeta500 = await createUser(t.db, { name: 'Carla Diaz', brandName: 'Zeta 500 Off-Deals', email: 'carla@zetax.test' });
  backslash = await createUser(t.db, { name: 'Bo Ek', brandName: 'Back\\slash Co', email: 'bo@back.test' });
  const opportunity = await createOpportunity(t.db, { maxSlots: 1000 });
  await publish(acme, opportunity.id, ['ok', 'ok', 'issue', 'warning']);
  await publish(zeta50, opportunity.id, ['ok', 'issue']);
  await publish(zeta500, opportunity.id, ['unverified']);
  await publish(backslash, opportunity.id, ['ok']);
  // more Acme after the others, so its pages interleave with other brands' rows in time
  await publish(acme, opportunity.id, ['ok', 'issue']);
});
afterAll(() => t?.close());

function nextOf(res: Res): string | null {
  const link = res.headers.link;
  if (link === undefined) return null;
  const m = /^<([^>]+)>; rel="next"$/.exec(String(link));
  if (!m) throw new Error(`malformed Link header: ${String(link)}`);
  return m[1];
}

/** Follows the Link headers from `url` to the end: the placements' ids in order, and the URLs walked. */
async function walk(url: string) {
  const ids: string[] = [];
  const urls: string[] = [];
  let next: string | null = url;
  while (next) {
    urls.push(next);
    const res = await admin.get(next);
    expect(res.status, res.text).toBe(200);
    ids.push(...(res.body as { paymentId: string }[]).map((r) => r.paymentId));
    next = nextOf(res);
    if (urls.length > 100) throw new Error('paging does not end');
  }
  return { ids, urls };
}

/** The placements of these brands (and health), newest publication first. */
const newestFirst = (brands: Brand[], health?: Health) =>
  published
    .filter((p) => brands.some((b) => b.id === p.brandId) && (health === undefined || p.health === health))
    .sort((a, b) => b.at.getTime() - a.at.getTime())
    .map((p) => p.id);

describe('[ADMIN][SEARCH] Placements', () => {
  it('finds a brand’s live placements by brand name, e-mail and personal name, in any case', async () => {
    for (const q of ['acme rob', 'ACME-MAIL.TEST', 'priya', 'PrIyA RaMaN', '  acme robotics  ']) {
      expect((await walk(`/api/admin/placements?q=${encodeURIComponent(q)}`)).ids, q).toEqual(newestFirst([acme]));
    }
    const rows = (await admin.get('/api/admin/placements?q=acme')).body as { brand: { id: string } }[];
    expect(rows).toHaveLength(6);
    expect((await admin.get('/api/admin/placements?q=nobody-has-this')).body).toEqual([]);
  });

  it('narrows each health filter and pages through the Link header, the search kept, without a gap or a repeat', async () => {
    for (const health of ['ok', 'issue', 'warning', 'unverified'] as const) {
      const expected = newestFirst([acme], health);
      const { ids, urls } = await walk(`/api/admin/placements?health=${health}&q=Acme&limit=1`);
      expect(ids, health).toEqual(expected);
      expect(urls.length).toBe(Math.max(1, expected.length));
      for (const url of urls.slice(1)) {
        const params = new URL(url, 'http://x').searchParams;
        expect([params.get('q'), params.get('health')]).toEqual(['Acme', health]);
      }
    }
    expect((await walk('/api/admin/placements?q=zeta.test')).ids).toEqual(newestFirst([zeta50]));
    expect((await walk('/api/admin/placements?health=unverified&q=carla')).ids).toEqual(newestFirst([zeta500]));
  });

  it('a blank search is the whole list', async () => {
    const all = (await walk('/api/admin/placements?limit=3')).ids;
    expect(all).toEqual(newestFirst([acme, zeta50, zeta500, backslash]));
    expect((await walk('/api/admin/placements?q=&limit=3')).ids).toEqual(all);
    expect((await walk('/api/admin/placements?q=%20%20&limit=3')).ids).toEqual(all);
  });

  it('takes %, _ and \\ literally', async () => {
    // "50%" would match "500" and "_" any character if they were wildcards
    expect((await walk('/api/admin/placements?q=50%25')).ids).toEqual(newestFirst([zeta50]));
    expect((await walk('/api/admin/placements?q=off_deals')).ids).toEqual(newestFirst([zeta50]));
    expect((await walk('/api/admin/placements?q=_')).ids).toEqual(newestFirst([zeta50]));
    expect((await walk(`/api/admin/placements?q=${encodeURIComponent('k\\s')}`)).ids).toEqual(newestFirst([backslash]));
  });

  it('refuses a search over 200 characters (400 naming q) or given twice; a brand 403, a visitor 401', async () => {
    const long = await admin.get(`/api/admin/placements?q=${'a'.repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual({ q: 'q must be at most 200 characters' });
    expect((await admin.get(`/api/admin/placements?q=${'a'.repeat(200)}`)).status).toBe(200);
    const twice = await admin.get('/api/admin/placements?q=a&q=b');
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toHaveProperty('q');
    const asBrand = await brandAgent.get('/api/admin/placements?q=acme');
    expect(asBrand.status).toBe(403);
    expect(asBrand.text).not.toContain('acme-mail');
    expect((await new Agent(t.app).get('/api/admin/placements?q=acme')).status).toBe(401);
  });
});
