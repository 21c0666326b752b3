/**
 * [ADMIN][SEARCH] Projects, Payments and Approvals searched by brand: `?q=` finds a piece of the
 * brand's name, brand name or e-mail, case-insensitively, with `%`, `_` and `\` taken literally;
 * it narrows each list together with its tab or filters and keeps paging exact (the Link header
 * carries it); the tab counts and the payment totals follow it.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandMatches, likeLiteral } from '../../src/server/db/brand-search';
import { payments, placements, users } from '../../src/server/db/schema';
import { createTestApp, Agent, type Res, type TestApp } from '../support/app';
import { createUser, kinds, signedIn } from '../support/factories';
import { createOpportunity, createPayment } from '../support/content';
import { insertPlacedPayment } from '../support/placements';

let t: TestApp;
let admin: Agent;
let brandAgent: Agent;

type Brand = Awaited<ReturnType<typeof createUser>>;
type PaymentRow = Awaited<ReturnType<typeof createPayment>>;
type Kind = {
  status: 'paid' | 'released' | 'refunded';
  draftReviewStatus: typeof placements.$inferInsert.draftReviewStatus;
};

const AWAITING: Kind = { status: 'paid', draftReviewStatus: 'awaiting_brand_brief' };
const REVIEW: Kind = { status: 'paid', draftReviewStatus: 'pending_brand_review' };
const APPROVED_HELD: Kind = { status: 'paid', draftReviewStatus: 'approved' };
const PUBLISHED: Kind = { status: 'released', draftReviewStatus: 'approved' };
const REFUNDED: Kind = { status: 'refunded', draftReviewStatus: 'awaiting_brand_brief' };

let acme: Brand;
let zeta50: Brand;
let zeta500: Brand;
let backslash: Brand;
const paymentsOf = new Map<string, (PaymentRow & { kind: Kind })[]>();
let second = 0;

/** Payments of `brand`, one second apart (newest last), as the list orders them. */
async function buyFor(brand: Brand, opportunityId: string, kinds: Kind[]) {
  for (const kind of kinds) {
    const row = await createPayment(t.db, {
      brandId: brand.id,
      opportunityId,
      ...kind,
      amount: '100.00',
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second++)),
    });
    paymentsOf.set(brand.id, [...(paymentsOf.get(brand.id) ?? []), { ...row, kind }]);
  }
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  brandAgent = (await signedIn(t.app, t.db, { ...kinds.approvedBrand, brandName: 'Acme Rival', name: 'Acme Person' }))
    .agent;
  acme = await createUser(t.db, { name: 'Priya Raman', brandName: 'Acme Robotics', email: 'ops@acme-mail.test' });
  zeta50 = await createUser(t.db, { name: 'Jonas Weber', brandName: 'Zeta 50% Off_Deals', email: 'jonas@zeta.test' });
  zeta500 = await createUser(t.db, { name: 'Carla Diaz', brandName: 'Zeta 500 Off-Deals', email: 'carla@zetax.test' });
  backslash = await createUser(t.db, { name: 'Bo Ek', brandName: 'Back\\slash Co', email: 'bo@back.test' });
  const opportunity = await createOpportunity(t.db, { maxSlots: 1000 });
  await buyFor(acme, opportunity.id, [
    AWAITING,
    AWAITING,
    AWAITING,
    AWAITING,
    AWAITING,
    REVIEW,
    REVIEW,
    APPROVED_HELD,
    PUBLISHED,
    REFUNDED,
  ]);
  await buyFor(zeta50, opportunity.id, [AWAITING, AWAITING, PUBLISHED]);
  await buyFor(zeta500, opportunity.id, [AWAITING, AWAITING]);
  await buyFor(backslash, opportunity.id, [AWAITING]);
  // more Acme after the others, so Acme's pages interleave with other brands' rows in time
  await buyFor(acme, opportunity.id, [AWAITING, APPROVED_HELD, PUBLISHED]);
});
afterAll(() => t.close());

function nextOf(res: Res): string | null {
  const link = res.headers.link;
  if (link === undefined) return null;
  const m = /^<([^>]+)>; rel="next"$/.exec(String(link));
  if (!m) throw new Error(`malformed Link header: ${String(link)}`);
  return m[1];
}

/** Follows the Link headers from `url` to the end; the ids of every row, in order, and the URLs walked. */
async function walk(url: string, idOf: (row: never) => string) {
  const ids: string[] = [];
  const urls: string[] = [];
  let next: string | null = url;
  while (next) {
    urls.push(next);
    const res = await admin.get(next);
    expect(res.status, res.text).toBe(200);
    ids.push(...(res.body as never[]).map(idOf));
    next = nextOf(res);
    if (urls.length > 100) throw new Error('paging does not end');
  }
  return { ids, urls };
}

const projectId = (row: { payment: { id: string } }) => row.payment.id;
const paymentId = (row: { id: string }) => row.id;

/** The ids the list should show, newest first. */
const newestFirst = (rows: PaymentRow[]) =>
  [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).map((r) => r.id);
const of = (brands: Brand[], keep: (k: Kind) => boolean) =>
  brands.flatMap((b) => paymentsOf.get(b.id) ?? []).filter((p) => keep(p.kind));
const inProjects = (k: Kind) => k.status !== 'refunded';
const TAB: Record<string, (k: Kind) => boolean> = {
  awaiting: (k) => k === AWAITING,
  review: (k) => k === REVIEW,
  approved: (k) => k === APPROVED_HELD,
  published: (k) => k.status === 'released',
};

describe('[ADMIN][SEARCH] Projects', () => {
  it('finds a brand by brand name, e-mail and personal name, in any case', async () => {
    const expected = newestFirst(of([acme], inProjects));
    for (const q of ['acme rob', 'ACME-MAIL.TEST', 'priya', 'PrIyA RaMaN', '  acme robotics  ']) {
      const { ids } = await walk(`/api/admin/projects?q=${encodeURIComponent(q)}`, projectId);
      expect(ids, q).toEqual(expected);
    }
    const rows = (await admin.get('/api/admin/projects?q=acme')).body as { user: { id: string } }[];
    expect(new Set(rows.map((r) => r.user.id))).toEqual(new Set([acme.id]));
  });

  it('narrows each tab, pages it through the Link header without a gap or a repeat, and counts it', async () => {
    for (const tab of Object.keys(TAB)) {
      const expected = newestFirst(of([acme], TAB[tab]));
      const { ids, urls } = await walk(`/api/admin/projects?tab=${tab}&q=Acme&limit=1`, projectId);
      expect(ids).toEqual(expected);
      expect(new Set(ids).size).toBe(ids.length);
      expect(urls.length).toBe(expected.length);
      for (const url of urls.slice(1)) expect(new URL(url, 'http://x').searchParams.get('q')).toBe('Acme');
    }
    const counts = await admin.get('/api/admin/projects/counts?q=acme');
    expect(counts.status).toBe(200);
    expect(counts.body).toEqual({ awaiting: 6, review: 2, approved: 2, published: 2, refunded: 1 });
    // by e-mail, and the whole list without a search (or with a blank one)
    expect((await admin.get('/api/admin/projects/counts?q=zeta.test')).body).toEqual({
      awaiting: 2,
      review: 0,
      approved: 0,
      published: 1,
      refunded: 0,
    });
    const all = { awaiting: 11, review: 2, approved: 2, published: 3, refunded: 1 };
    expect((await admin.get('/api/admin/projects/counts')).body).toEqual(all);
    expect((await admin.get('/api/admin/projects/counts?q=%20%20')).body).toEqual(all);
    const { ids } = await walk('/api/admin/projects?tab=awaiting&q=', projectId);
    expect(ids).toHaveLength(11);
  });

  it('takes %, _ and \\ literally', async () => {
    const brandsOf = async (q: string) => {
      const { ids } = await walk(`/api/admin/projects?q=${encodeURIComponent(q)}`, projectId);
      const owners = new Set(
        [...paymentsOf.entries()].filter(([, rows]) => rows.some((r) => ids.includes(r.id))).map(([id]) => id),
      );
      return owners;
    };
    // "50%" would match "500" and "_" any character if they were wildcards
    expect(await brandsOf('50%')).toEqual(new Set([zeta50.id]));
    expect(await brandsOf('off_deals')).toEqual(new Set([zeta50.id]));
    expect(await brandsOf('k\\s')).toEqual(new Set([backslash.id]));
    expect(await brandsOf('%')).toEqual(new Set([zeta50.id]));
    expect(await brandsOf('_')).toEqual(new Set([zeta50.id]));
    expect((await admin.get('/api/admin/projects/counts?q=50%25')).body).toEqual({
      awaiting: 2,
      review: 0,
      approved: 0,
      published: 1,
      refunded: 0,
    });
    expect((await admin.get('/api/admin/projects?q=nobody-has-this')).body).toEqual([]);
  });
});

describe('[ADMIN][SEARCH] Payments', () => {
  it('finds a brand’s payments (refunded too) by brand name, e-mail and personal name, in any case', async () => {
    const expected = newestFirst(of([acme], () => true));
    for (const q of ['Acme Robotics', 'ops@ACME', 'raman']) {
      const { ids } = await walk(`/api/admin/payments?q=${encodeURIComponent(q)}&limit=4`, paymentId);
      expect(ids, q).toEqual(expected);
    }
  });

  it('combines with the status and opportunity filters, and pages with the search', async () => {
    const { ids, urls } = await walk('/api/admin/payments?status=paid&q=acme&limit=2', paymentId);
    expect(ids).toEqual(newestFirst(of([acme], (k) => k.status === 'paid')));
    expect(new Set(ids).size).toBe(ids.length);
    for (const url of urls.slice(1)) {
      const params = new URL(url, 'http://x').searchParams;
      expect([params.get('q'), params.get('status')]).toEqual(['acme', 'paid']);
    }
    expect((await walk('/api/admin/payments?status=refunded&q=acme', paymentId)).ids).toEqual(
      newestFirst(of([acme], (k) => k === REFUNDED)),
    );
    expect((await walk('/api/admin/payments?status=refunded&q=zeta', paymentId)).ids).toEqual([]);
    const opportunity = await createOpportunity(t.db);
    // without ledger rows, so the clean-up below may delete it (the ledger keeps any payment with money on it)
    const other = await insertPlacedPayment(
      t.db,
      { stripePaymentId: `pi_test_${randomUUID()}`, providerSessionId: `cs_test_${randomUUID()}`, brandId: zeta500.id, opportunityId: opportunity.id, amount: '7.50' },
      { ledger: false },
    );
    expect((await walk(`/api/admin/payments?opportunityId=${opportunity.id}&q=carla`, paymentId)).ids).toEqual([
      other.id,
    ]);
    expect((await walk(`/api/admin/payments?opportunityId=${opportunity.id}&q=acme`, paymentId)).ids).toEqual([]);
    await t.db.delete(placements).where(sql`${placements.paymentId} = ${other.id}`);
    await t.db.delete(payments).where(sql`${payments.id} = ${other.id}`);
  });

  it('takes %, _ and \\ literally', async () => {
    expect((await walk('/api/admin/payments?q=50%25', paymentId)).ids).toEqual(newestFirst(of([zeta50], () => true)));
    expect((await walk('/api/admin/payments?q=Off_', paymentId)).ids).toEqual(newestFirst(of([zeta50], () => true)));
    expect((await walk(`/api/admin/payments?q=${encodeURIComponent('back\\slash')}`, paymentId)).ids).toEqual(
      newestFirst(of([backslash], () => true)),
    );
  });

  it('totals what the search lists: the brand’s money held and released', async () => {
    // Acme: 10 held (5 awaiting, 2 review, 1 approved, then 1 awaiting and 1 approved), 2 released, at $100 each
    expect((await admin.get('/api/admin/payments/totals?q=ACME')).body).toEqual({
      held: '1000.00',
      released: '200.00',
      refunded: '0.00',
    });
    expect((await admin.get('/api/admin/payments/totals?q=zeta.test')).body).toEqual({
      held: '200.00',
      released: '100.00',
      refunded: '0.00',
    });
    expect((await admin.get('/api/admin/payments/totals?q=nobody-has-this')).body).toEqual({
      held: '0.00',
      released: '0.00',
      refunded: '0.00',
    });
    expect((await admin.get('/api/admin/payments/totals')).body).toEqual({ held: '1500.00', released: '300.00', refunded: '0.00' });
  });
});

describe('[ADMIN][SEARCH] Approvals', () => {
  let pending: Brand[];
  beforeAll(async () => {
    const at = (s: number) => new Date(Date.UTC(2026, 1, 1, 0, 0, s));
    pending = [
      await createUser(t.db, {
        ...kinds.pendingBrand,
        name: 'Mona Lisa',
        brandName: 'Acme Labs',
        email: 'mona@labs.test',
        createdAt: at(1),
      }),
      await createUser(t.db, {
        ...kinds.pendingBrand,
        name: 'Otto Lang',
        brandName: 'Otto Bikes',
        email: 'otto@acme-bikes.test',
        createdAt: at(2),
      }),
      await createUser(t.db, {
        ...kinds.pendingBrand,
        name: 'Acmeson Smith',
        brandName: 'Smith & Co',
        email: 's@smith.test',
        createdAt: at(3),
      }),
      await createUser(t.db, {
        ...kinds.pendingBrand,
        name: 'Nina Berg',
        brandName: 'Zeta 50% Pending',
        email: 'nina@other.test',
        createdAt: at(4),
      }),
    ];
    // not listed whatever the search: no profile yet
    await createUser(t.db, { ...kinds.unnamedBrand, email: 'acme-unnamed@x.test' });
  });

  it('finds pending brands by brand name, e-mail and personal name, in any case, page by page', async () => {
    const { ids, urls } = await walk('/api/admin/pending-brands?q=ACME&limit=1', paymentId);
    // oldest first; Acme Robotics is approved, so not here
    expect(ids).toEqual(pending.slice(0, 3).map((b) => b.id));
    expect(urls).toHaveLength(3);
    for (const url of urls.slice(1)) expect(new URL(url, 'http://x').searchParams.get('q')).toBe('ACME');
    expect((await walk('/api/admin/pending-brands?q=otto%40acme', paymentId)).ids).toEqual([pending[1].id]);
    expect((await walk('/api/admin/pending-brands?q=lisa', paymentId)).ids).toEqual([pending[0].id]);
    expect((await walk('/api/admin/pending-brands?q=50%25', paymentId)).ids).toEqual([pending[3].id]);
    expect((await walk('/api/admin/pending-brands?q=_', paymentId)).ids).toEqual([]);
    expect((await walk('/api/admin/pending-brands?q=%20', paymentId)).ids).toEqual(pending.map((b) => b.id));
  });
});

describe('[ADMIN][SEARCH] what it refuses', () => {
  const LISTS = [
    '/api/admin/projects',
    '/api/admin/projects?tab=approved&',
    '/api/admin/projects/counts',
    '/api/admin/payments',
    '/api/admin/payments/totals',
    '/api/admin/pending-brands',
  ];
  const withQ = (url: string, q: string) => `${url}${url.includes('?') ? '' : '?'}q=${encodeURIComponent(q)}`;

  it('a search over 200 characters is a 400 naming q; 200 (after trimming) is fine', async () => {
    for (const url of LISTS) {
      const long = await admin.get(withQ(url, 'a'.repeat(201)));
      expect(long.status, url).toBe(400);
      expect(long.body.message).toBe('q must be at most 200 characters');
      expect(long.body.errors).toEqual({ q: 'q must be at most 200 characters' });
      expect((await admin.get(withQ(url, 'a'.repeat(200)))).status, url).toBe(200);
      expect((await admin.get(withQ(url, ` ${'a'.repeat(200)} `))).status, url).toBe(200);
      const twice = await admin.get(`${withQ(url, 'a')}&q=b`);
      expect(twice.status, url).toBe(400);
      expect(twice.body.errors).toHaveProperty('q');
    }
  });

  it('a brand is still refused (403) and a visitor asked to sign in (401)', async () => {
    const visitor = new Agent(t.app);
    for (const url of LISTS) {
      const asBrand = await brandAgent.get(withQ(url, 'acme'));
      expect(asBrand.status, url).toBe(403);
      expect(asBrand.text).not.toContain('acme-mail');
      expect((await visitor.get(withQ(url, 'acme'))).status, url).toBe(401);
    }
  });
});

describe('[ADMIN][SEARCH] the trigram index', () => {
  it('can serve the search: its expression is the index’s', async () => {
    const plan = await t.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const result = await tx.execute(
        sql`EXPLAIN SELECT ${users.id} FROM ${users} WHERE ${brandMatches(likeLiteral('acme'))}`,
      );
      return (result as unknown as { rows: Record<string, string>[] }).rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan).toContain('users_search_trgm_idx');
  });
});
