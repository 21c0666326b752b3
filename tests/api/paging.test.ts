/**
 * Paging of the lists that grow: ?limit= (default 50, at most 200), ?cursor= from the
 * `Link: <…>; rel="next"` header, the body still a JSON array; server-side tab and dashboard
 * filters; tab counts from the database over every row, not from a page.
 */
import { randomBytes } from 'node:crypto';
import { desc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteCodes, opportunities, payments, placements, users } from '../../src/server/db/schema';
import { createTestApp, type Agent, type Res, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPayment, submittedBrief } from '../support/content';
import { addMissingPlacements } from '../support/placements';

let t: TestApp;
let admin: Agent;
let brandA: Awaited<ReturnType<typeof signedIn>>;
let brandB: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  [brandA, brandB] = await Promise.all([signedIn(t.app, t.db, kinds.approvedBrand), signedIn(t.app, t.db, kinds.approvedBrand)]);
});
afterAll(() => t.close());

/** The next page's URL from a Link header, or null on the last page. */
function nextOf(res: Res): string | null {
  const link = res.headers.link;
  if (link === undefined) return null;
  const m = /^<([^>]+)>; rel="next"$/.exec(String(link));
  if (!m) throw new Error(`malformed Link header: ${String(link)}`);
  return m[1];
}

/** Follows the Link headers from `url` to the end; every page must be a JSON array. */
async function walk(agent: Agent, url: string) {
  const pages: { id: string }[][] = [];
  let next: string | null = url;
  while (next) {
    const res = await agent.get(next);
    expect(res.status, res.text).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    pages.push(res.body);
    next = nextOf(res);
    if (pages.length > 500) throw new Error('paging does not end');
  }
  // My Articles and Admin Projects items are opportunities carrying their payment: the payment is the row
  return { pages, ids: pages.flat().map((r) => (r as { payment?: { id: string } }).payment?.id ?? r.id) };
}

/** n payments of one brand, created_at spread one second apart (newest last), plus `sameInstant` sharing one timestamp. */
async function paymentsOf(brandId: string, n: number, opts: { sameInstant?: number; base?: Date } = {}) {
  const opportunity = await createOpportunity(t.db, { maxSlots: 1000 });
  const base = opts.base ?? new Date('2026-01-01T00:00:00.000Z');
  const rows = [];
  for (let i = 0; i < n; i++) {
    rows.push(await createPayment(t.db, { brandId, opportunityId: opportunity.id, createdAt: new Date(base.getTime() + i * 1000) }));
  }
  for (let i = 0; i < (opts.sameInstant ?? 0); i++) {
    rows.push(await createPayment(t.db, { brandId, opportunityId: opportunity.id, createdAt: new Date(base.getTime() + n * 1000) }));
  }
  return rows;
}

/** The list order: newest first, ties by id descending (what the database sorts by). */
const newestFirst = (rows: { id: string; createdAt: Date }[]) =>
  [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).map((r) => r.id);

describe('My Articles paging', () => {
  let mine: Awaited<ReturnType<typeof paymentsOf>>;
  beforeAll(async () => {
    // 7 at distinct instants and 5 at one instant (microsecond ties are broken by id)
    mine = await paymentsOf(brandA.user.id, 7, { sameInstant: 5 });
    await paymentsOf(brandB.user.id, 3);
  });

  it('pages through every purchase once, newest first, with a Link header to the next page', async () => {
    const first = await brandA.agent.get('/api/brand/my-articles?limit=5');
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(5);
    expect(nextOf(first)).toMatch(/^\/api\/brand\/my-articles\?limit=5&cursor=[A-Za-z0-9_-]+$/);

    const { pages, ids } = await walk(brandA.agent, '/api/brand/my-articles?limit=5');
    // 12, and one more once the test of a purchase made between two pages has run
    const sizes = Array.from({ length: Math.ceil(mine.length / 5) }, (_, i) => Math.min(5, mine.length - i * 5));
    expect(pages.map((p) => p.length)).toEqual(sizes);
    expect(ids).toEqual(newestFirst(mine));
    expect(new Set(ids).size).toBe(mine.length);
  });

  it('answers a short list whole, without a Link header', async () => {
    const res = await brandB.agent.get('/api/brand/my-articles');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(3);
    expect(res.headers.link).toBeUndefined();
  });

  it('never shows another brand’s purchases, even with that brand’s cursor', async () => {
    const aFirst = await brandA.agent.get('/api/brand/my-articles?limit=2');
    const next = nextOf(aFirst)!;
    const asB = await brandB.agent.get(next);
    expect(asB.status).toBe(200);
    const aIds = new Set(mine.map((p) => p.id));
    for (const item of asB.body as { payment: { id: string } }[]) expect(aIds.has(item.payment.id)).toBe(false);
  });

  it('does not skip or repeat a row when a purchase is made between two pages', async () => {
    const first = await brandA.agent.get('/api/brand/my-articles?limit=4');
    const late = await paymentsOf(brandA.user.id, 1, { base: new Date() });
    const rest = await walk(brandA.agent, nextOf(first)!);
    const seen = [...(first.body as { payment: { id: string } }[]).map((r) => r.payment.id), ...rest.ids];
    expect(seen).toEqual(newestFirst(mine));
    expect(seen).not.toContain(late[0].id);
    mine.push(...late);
  });

  it('filters by tab on the server and counts each tab over every purchase', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const opp = await createOpportunity(t.db, { maxSlots: 100 });
    // one second apart, newest last: the order below must not hang on two inserts in one clock tick
    let made = 0;
    const make = (status: 'paid' | 'released' | 'refunded', draftReviewStatus: typeof placements.$inferInsert.draftReviewStatus) =>
      createPayment(t.db, {
        brandId: brand.user.id,
        opportunityId: opp.id,
        status,
        draftReviewStatus,
        createdAt: new Date(Date.now() - 60_000 + 1000 * made++),
      });
    const pending = [await make('paid', 'awaiting_brand_brief'), await make('paid', 'awaiting_brand_brief'), await make('paid', 'awaiting_brand_brief')];
    const review = [await make('paid', 'pending_brand_review'), await make('paid', 'edits_requested')];
    const approved = [await make('paid', 'approved')];
    const completed = [await make('released', 'approved')];
    const refunded = [await make('refunded', 'awaiting_brand_brief')];

    const counts = await brand.agent.get('/api/brand/my-articles/counts');
    expect(counts.status).toBe(200);
    expect(counts.body).toEqual({ pending: 3, 'needs-review': 2, approved: 1, completed: 1, refunded: 1, toReview: 2 });

    const ids = async (tab: string) => (await walk(brand.agent, `/api/brand/my-articles?tab=${tab}&limit=2`)).ids.sort();
    const paymentIds = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
    // the item id is the opportunity's; compare the payments
    const tabPayments = async (tab: string) => {
      const { pages } = await walk(brand.agent, `/api/brand/my-articles?tab=${tab}&limit=2`);
      return (pages.flat() as unknown as { payment: { id: string } }[]).map((r) => r.payment.id).sort();
    };
    expect(await tabPayments('pending')).toEqual(paymentIds(pending));
    expect(await tabPayments('needs-review')).toEqual(paymentIds(review));
    expect(await tabPayments('approved')).toEqual(paymentIds(approved));
    expect(await tabPayments('completed')).toEqual(paymentIds(completed));
    expect(await tabPayments('refunded')).toEqual(paymentIds(refunded));
    expect(await ids('pending')).toHaveLength(3);
    // newest first, across pages of 1
    const order = (await walk(brand.agent, '/api/brand/my-articles?tab=needs-review&limit=1')).ids;
    expect(order).toEqual([review[1].id, review[0].id]);

    // counts of another brand are its own
    const other = await brandB.agent.get('/api/brand/my-articles/counts');
    expect(other.body).toEqual({ pending: 3, 'needs-review': 0, approved: 0, completed: 0, refunded: 0, toReview: 0 });
  });

  it('finds one purchase by payment or by opportunity, only among the brand’s own', async () => {
    const target = mine[3];
    const byPayment = await brandA.agent.get(`/api/brand/my-articles?paymentId=${target.id}`);
    expect(byPayment.status).toBe(200);
    expect((byPayment.body as { payment: { id: string } }[]).map((r) => r.payment.id)).toEqual([target.id]);
    const asOther = await brandB.agent.get(`/api/brand/my-articles?paymentId=${target.id}`);
    expect(asOther.body).toEqual([]);
    const byOpportunity = await brandA.agent.get(`/api/brand/my-articles?opportunityId=${target.opportunityId}&limit=200`);
    expect((byOpportunity.body as { id: string }[]).every((r) => r.id === target.opportunityId)).toBe(true);
  });
});

describe('bad paging input is a clear 400 and changes nothing', () => {
  const cases: [string, string][] = [
    ['limit=0', 'limit must be a whole number from 1 to 200'],
    ['limit=201', 'limit must be a whole number from 1 to 200'],
    ['limit=abc', 'limit must be a whole number from 1 to 200'],
    ['limit=1.5', 'limit must be a whole number from 1 to 200'],
    ['limit=-1', 'limit must be a whole number from 1 to 200'],
    ['limit=1&limit=2', 'limit must be a whole number from 1 to 200'],
    ['cursor=nonsense', 'This page link is no longer valid; reload the list from the start'],
    [`cursor=${Buffer.from('["2026-01-01", "x"]').toString('base64url')}`, 'This page link is no longer valid; reload the list from the start'],
    [`cursor=${Buffer.from('{"__proto__":1}').toString('base64url')}`, 'This page link is no longer valid; reload the list from the start'],
    ['tab=archived', 'tab must be one of pending, needs-review, approved, completed, refunded'],
  ];
  for (const [query, message] of cases) {
    it(`/api/brand/my-articles?${query}`, async () => {
      const res = await brandA.agent.get(`/api/brand/my-articles?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    });
  }

  it('every paged list refuses a bad limit', async () => {
    for (const url of ['/api/admin/opportunities', '/api/admin/projects', '/api/admin/payments', '/api/admin/pending-brands', '/api/admin/invite-codes']) {
      const res = await admin.get(`${url}?limit=500`);
      expect(res.status, url).toBe(400);
      expect(res.body.message).toBe('limit must be a whole number from 1 to 200');
    }
    const res = await brandA.agent.get('/api/brand/payments?limit=0');
    expect(res.status).toBe(400);
  });

  it('defaults to 50 and allows 200', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const opp = await createOpportunity(t.db, { maxSlots: 1000 });
    await t.db.insert(payments).values(
      Array.from({ length: 205 }, (_, i) => ({
        brandId: brand.user.id,
        organisationId: brand.user.organisationId!,
        opportunityId: opp.id,
        stripePaymentId: `pi_${randomBytes(8).toString('hex')}`,
        providerSessionId: `cs_${randomBytes(8).toString('hex')}_${i}`,
        amount: '10.00',
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      })),
    );
    await addMissingPlacements(t.db);
    const byDefault = await brand.agent.get('/api/brand/my-articles');
    expect(byDefault.body).toHaveLength(50);
    expect(nextOf(byDefault)).toContain('limit=50');
    const most = await brand.agent.get('/api/brand/my-articles?limit=200');
    expect(most.body).toHaveLength(200);
    const all = await walk(brand.agent, '/api/brand/payments?limit=200');
    expect(all.pages.map((p) => p.length)).toEqual([200, 5]);
  });
});

describe('admin lists', () => {
  let app: TestApp;
  let adminAgent: Agent;
  beforeAll(async () => {
    // a database of its own: the admin lists see every row
    app = await createTestApp();
    adminAgent = (await signedIn(app.app, app.db, kinds.admin)).agent;
  });
  afterAll(() => app.close());

  it('Admin Projects: tabs filtered on the server, counts over every row, paged', async () => {
    const brand = await signedIn(app.app, app.db, kinds.approvedBrand);
    const opp = await createOpportunity(app.db, { maxSlots: 100 });
    // one second apart: rows inserted in the same clock tick would order by their random ids
    let made = 0;
    // the other tests here add payments of their own: counted from before, listed by this brand's
    const countsBefore = (await adminAgent.get<Record<string, number>>('/api/admin/projects/counts')).body;
    const mine = new Set<string>();
    const make = async (status: 'paid' | 'released' | 'refunded', draftReviewStatus: typeof placements.$inferInsert.draftReviewStatus, n: number) => {
      const out = [];
      for (let i = 0; i < n; i++) {
        const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, made++));
        out.push(await createPayment(app.db, { brandId: brand.user.id, opportunityId: opp.id, status, draftReviewStatus, createdAt }));
        mine.add(out[i].id);
      }
      return out;
    };
    const awaiting = await make('paid', 'awaiting_brand_brief', 4);
    await submittedBrief(app.db, awaiting[0]);
    const review = [...(await make('paid', 'pending_brand_review', 2)), ...(await make('paid', 'edits_requested', 1)), ...(await make('paid', 'edits_complete', 1))];
    const approved = await make('paid', 'approved', 1);
    const published = await make('released', 'approved', 2);
    const releasedOther = await make('released', 'awaiting_brand_brief', 1);
    await make('refunded', 'approved', 2);
    await make('refunded', 'awaiting_brand_brief', 1);

    const counts = await adminAgent.get('/api/admin/projects/counts');
    expect(counts.status).toBe(200);
    const added = { awaiting: 4, review: 4, approved: 1, published: 3, refunded: 3 };
    expect(counts.body).toEqual(Object.fromEntries(Object.entries(added).map(([tab, n]) => [tab, countsBefore[tab] + n])));

    const paymentIds = async (url: string) => {
      const { pages } = await walk(adminAgent, url);
      return (pages.flat() as unknown as { payment: { id: string } }[]).map((r) => r.payment.id).filter((id) => mine.has(id)).sort();
    };
    const sorted = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
    expect(await paymentIds('/api/admin/projects?tab=awaiting&limit=3')).toEqual(sorted(awaiting));
    expect(await paymentIds('/api/admin/projects?tab=review&limit=3')).toEqual(sorted(review));
    // Approved: the approved drafts still held; a published one is under Published only
    expect(await paymentIds('/api/admin/projects?tab=approved&limit=1')).toEqual(sorted(approved));
    expect(await paymentIds('/api/admin/projects?tab=published&limit=1')).toEqual(sorted([...published, ...releasedOther]));
    // without a tab: every held or released project
    expect(await paymentIds('/api/admin/projects?limit=5')).toEqual(sorted([...awaiting, ...review, ...approved, ...published, ...releasedOther]));

    // the submitted brief travels with its project; the next link keeps the tab
    const first = await adminAgent.get('/api/admin/projects?tab=awaiting&limit=1');
    expect(nextOf(first)).toContain('tab=awaiting');
    const withBrief = (await walk(adminAgent, '/api/admin/projects?tab=awaiting')).pages.flat() as unknown as {
      payment: { id: string };
      brief: unknown;
    }[];
    expect(withBrief.find((p) => p.payment.id === awaiting[0].id)?.brief).not.toBeNull();

    const bad = await adminAgent.get('/api/admin/projects?tab=done');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('tab must be one of awaiting, review, approved, published, refunded');
  });

  it('Admin Payments: paged newest first, filtered by opportunity and status; totals over every row', async () => {
    const brand = await signedIn(app.app, app.db, kinds.approvedBrand);
    const opp = await createOpportunity(app.db, { maxSlots: 100, priceUsd: '100.10' });
    for (let i = 0; i < 6; i++) await createPayment(app.db, { brandId: brand.user.id, opportunityId: opp.id, status: i < 4 ? 'paid' : 'released' });
    const all = await app.db.select({ id: payments.id }).from(payments).orderBy(desc(payments.createdAt), desc(payments.id));
    const { ids, pages } = await walk(adminAgent, '/api/admin/payments?limit=4');
    expect(ids).toEqual(all.map((r) => r.id));
    expect(pages[0]).toHaveLength(4);

    const held = await walk(adminAgent, `/api/admin/payments?opportunityId=${opp.id}&status=paid&limit=3`);
    expect(held.ids).toHaveLength(4);
    const totals = await adminAgent.get('/api/admin/payments/totals');
    const [sums] = (
      (await app.db.execute(
        // what was charged (the payment's amount), not today's price (docs/decisions/012)
        sql`SELECT coalesce(sum(p.amount) FILTER (WHERE p.status = 'paid'), 0)::numeric(14,2)::text AS held,
                   coalesce(sum(p.amount) FILTER (WHERE p.status = 'released'), 0)::numeric(14,2)::text AS released,
                   coalesce((SELECT sum(m.amount) FROM money_movements m WHERE m.kind IN ('refund', 'swap_difference')), 0)::numeric(14,2)::text AS refunded
            FROM payments p`,
      )) as unknown as { rows: { held: string; released: string; refunded: string }[] }
    ).rows;
    expect(totals.body).toEqual(sums);
  });

  it('Admin dashboard: status, type and "Show Full Only" filter on the server; paged', async () => {
    await app.db.delete(opportunities).where(sql`NOT EXISTS (SELECT 1 FROM payments WHERE payments.opportunity_id = opportunities.id)`);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createOpportunity(app.db, { type: ['listicle'], status: 'available' }));
    for (let i = 0; i < 3; i++) made.push(await createOpportunity(app.db, { type: ['profile_article', 'listicle'], status: 'full' }));
    for (let i = 0; i < 2; i++) made.push(await createOpportunity(app.db, { type: ['editorial_feature'], status: 'published' }));
    const brand = await signedIn(app.app, app.db, kinds.approvedBrand);
    await createPayment(app.db, { brandId: brand.user.id, opportunityId: made[5].id });
    const every = await app.db
      .select({ id: opportunities.id, status: opportunities.status, type: opportunities.type })
      .from(opportunities)
      .orderBy(desc(opportunities.createdAt), desc(opportunities.id));

    const all = await walk(adminAgent, '/api/admin/opportunities?limit=3');
    expect(all.ids).toEqual(every.map((o) => o.id));
    // "Mark Published" is enabled exactly for the opportunities with payments
    const paid = new Set((await app.db.selectDistinct({ id: payments.opportunityId }).from(payments)).map((r) => r.id));
    expect(paid.size).toBeGreaterThan(0);
    for (const o of all.pages.flat() as unknown as { id: string; hasPayments: boolean }[]) expect(o.hasPayments, o.id).toBe(paid.has(o.id));
    const ofType = await walk(adminAgent, '/api/admin/opportunities?type=listicle&limit=2');
    expect(ofType.ids.sort()).toEqual(every.filter((o) => o.type.includes('listicle')).map((o) => o.id).sort());
    const full = await walk(adminAgent, '/api/admin/opportunities?full=true');
    expect(full.ids.sort()).toEqual(every.filter((o) => o.status === 'full').map((o) => o.id).sort());
    const published = await walk(adminAgent, '/api/admin/opportunities?status=published&type=editorial_feature');
    expect(published.ids).toHaveLength(2);
    const none = await adminAgent.get('/api/admin/opportunities?status=published&full=true');
    expect(none.body).toEqual([]);

    for (const [q, message] of [
      ['status=gone', 'status must be one of available, claimed, in_progress, published, full'],
      ['type=poem', 'type must be one of profile_article, editorial_feature, advertorial_brand_voice, listicle'],
      ['full=yes', 'full must be true or false'],
    ]) {
      const res = await adminAgent.get(`/api/admin/opportunities?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });

  it('Brand Approvals: the longest-waiting brand first, paged', async () => {
    const base = Date.UTC(2026, 2, 1);
    const pending = await app.db
      .insert(users)
      .values(
        Array.from({ length: 7 }, (_, i) => ({
          email: `pending-${randomBytes(4).toString('hex')}-${i}@example.com`,
          password: 'x',
          role: 'brand' as const,
          name: `Pending ${i}`,
          approved: false,
          createdAt: new Date(base + (i % 3) * 1000),
        })),
      )
      .returning({ id: users.id, createdAt: users.createdAt });
    // not listed: no name yet, or approved
    await app.db.insert(users).values({ email: `unnamed-${randomBytes(4).toString('hex')}@example.com`, password: 'x', role: 'brand', approved: false });
    const { ids } = await walk(adminAgent, '/api/admin/pending-brands?limit=3');
    const oldestFirst = [...pending]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map((r) => r.id);
    expect(ids).toEqual(oldestFirst);
  });

  it('Invite Codes: newest first, paged', async () => {
    await app.db.insert(inviteCodes).values(Array.from({ length: 5 }, (_, i) => ({ code: `PAGE-${i}-${randomBytes(3).toString('hex').toUpperCase()}` })));
    const every = await app.db.select({ id: inviteCodes.id }).from(inviteCodes).orderBy(desc(inviteCodes.createdAt), desc(inviteCodes.id));
    const { ids } = await walk(adminAgent, '/api/admin/invite-codes?limit=2');
    expect(ids).toEqual(every.map((r) => r.id));
  });
});
