/**
 * Issue 43: every purchase is in exactly one My Articles tab and every project in exactly one Admin
 * Projects tab. An approved draft not yet published has its own brand tab (Approved, which the spec
 * does not give it); the admins' Approved holds the approved drafts still held, a published one only
 * Published. Once the draft is approved the brief no longer changes (409), and it stays readable.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DRAFT_REVIEW_STATUSES,
  PAYMENT_STATUSES,
  type DraftReviewStatus,
  type PaymentStatus,
} from '../../src/shared/payment';
import { ARTICLE_TABS, PROJECT_TABS, type ArticleTab, type ProjectTab } from '../../src/shared/schemas/brief';
import { PROJECT_TAB_SQL } from '../../src/server/modules/placements/tabs';
import { createTestApp, type Agent, type Res, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import {
  PART1,
  PART2,
  briefRow,
  createOpportunity,
  createPayment,
  paymentRow,
  submittedBrief,
} from '../support/content';

/** Where each state belongs (spec §4, with the tabs issues 20 and 43 added). */
function brandTab(status: PaymentStatus, review: DraftReviewStatus): ArticleTab {
  if (status === 'released') return 'completed';
  if (status === 'refunded') return 'refunded';
  if (review === 'awaiting_brand_brief') return 'pending';
  return review === 'approved' ? 'approved' : 'needs-review';
}
function adminTab(status: PaymentStatus, review: DraftReviewStatus): ProjectTab {
  if (status === 'released') return 'published';
  if (status === 'refunded') return 'refunded';
  if (review === 'awaiting_brand_brief') return 'awaiting';
  return review === 'approved' ? 'approved' : 'review';
}

type Item = { payment: { id: string } };
let t: TestApp;
let admin: Agent;
let brand: Awaited<ReturnType<typeof signedIn>>;
/** payment id -> its state, one payment per combination of payment and review status */
const states = new Map<string, { status: PaymentStatus; review: DraftReviewStatus }>();

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  brand = await signedIn(t.app, t.db, { ...kinds.approvedBrand, brandName: 'Every State Co' });
  const opp = await createOpportunity(t.db, { maxSlots: 100 });
  for (const status of PAYMENT_STATUSES)
    for (const review of DRAFT_REVIEW_STATUSES) {
      const p = await createPayment(t.db, {
        brandId: brand.user.id,
        opportunityId: opp.id,
        status,
        draftReviewStatus: review,
      });
      states.set(p.id, { status, review });
    }
});
afterAll(() => t.close());

const nextOf = (res: Res) => /^<([^>]+)>; rel="next"$/.exec(String(res.headers.link ?? ''))?.[1] ?? null;

/** Every payment id of a list, following its pages. */
async function listed(agent: Agent, url: string): Promise<string[]> {
  const ids: string[] = [];
  let next: string | null = url;
  while (next) {
    const res = await agent.get(next);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...(res.body as Item[]).map((i) => i.payment.id));
    next = nextOf(res);
  }
  return ids;
}
const expected = (keep: (s: { status: PaymentStatus; review: DraftReviewStatus }) => boolean) =>
  [...states]
    .filter(([, s]) => keep(s))
    .map(([id]) => id)
    .sort();

describe('[BRAND] My Articles: one tab per purchase', () => {
  it('lists each of the 15 states under its one tab, Approved between Needs Review and Completed', async () => {
    const seen: string[] = [];
    for (const tab of ARTICLE_TABS) {
      const ids = await listed(brand.agent, `/api/brand/my-articles?tab=${tab}&limit=2`);
      expect(ids.slice().sort(), tab).toEqual(expected((s) => brandTab(s.status, s.review) === tab));
      seen.push(...ids);
    }
    expect(seen.slice().sort()).toEqual([...states.keys()].sort());
    expect(ARTICLE_TABS).toEqual(['pending', 'needs-review', 'approved', 'completed', 'refunded']);
    // the approved draft still held, and nothing else
    const approved = await listed(brand.agent, '/api/brand/my-articles?tab=approved');
    expect(approved.map((id) => states.get(id))).toEqual([{ status: 'paid', review: 'approved' }]);
    const review = await listed(brand.agent, '/api/brand/my-articles?tab=needs-review');
    expect(review.map((id) => states.get(id)?.review).sort()).toEqual([
      'edits_complete',
      'edits_requested',
      'pending_brand_review',
    ]);
  });

  it('counts what each tab lists; toReview is the drafts waiting for the brand', async () => {
    const res = await brand.agent.get('/api/brand/my-articles/counts');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ pending: 1, 'needs-review': 3, approved: 1, completed: 5, refunded: 5, toReview: 3 });
  });

  it('an unknown tab is a 400 naming the five tabs', async () => {
    const res = await brand.agent.get('/api/brand/my-articles?tab=archived');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('tab must be one of pending, needs-review, approved, completed, refunded');
  });
});

describe('[ADMIN] Projects: one tab per project', () => {
  it('lists a published project under Published only, and Approved holds the approved drafts still held', async () => {
    const seen: string[] = [];
    for (const tab of PROJECT_TABS) {
      const ids = await listed(admin, `/api/admin/projects?tab=${tab}&q=every%20state&limit=2`);
      expect(ids.slice().sort(), tab).toEqual(expected((s) => adminTab(s.status, s.review) === tab));
      seen.push(...ids);
    }
    expect(seen.slice().sort()).toEqual([...states.keys()].sort());
    const approved = await listed(admin, '/api/admin/projects?tab=approved');
    expect(approved.map((id) => states.get(id))).toEqual([{ status: 'paid', review: 'approved' }]);
  });

  it('counts each project once: the counts add up to every project', async () => {
    const res = await admin.get('/api/admin/projects/counts');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ awaiting: 1, review: 3, approved: 1, published: 5, refunded: 5 });
    const counts = res.body as Record<ProjectTab, number>;
    expect(PROJECT_TABS.reduce((n, tab) => n + counts[tab], 0)).toBe(states.size);
  });

  it('a release moves the project from Approved to Published, and both counts follow', async () => {
    const own = await createTestApp();
    try {
      const ownAdmin = (await signedIn(own.app, own.db, kinds.admin)).agent;
      const ownBrand = await signedIn(own.app, own.db, kinds.approvedBrand);
      const opp = await createOpportunity(own.db, { maxSlots: 5 });
      const p = await createPayment(own.db, {
        brandId: ownBrand.user.id,
        opportunityId: opp.id,
        draftReviewStatus: 'approved',
        draftDocumentUrl: 'https://docs.google.com/document/d/x/edit',
      });
      const before = (await ownAdmin.get('/api/admin/projects/counts')).body as Record<ProjectTab, number>;
      expect(before).toMatchObject({ approved: 1, published: 0 });
      expect((await ownAdmin.post(`/api/admin/payments/${p.id}/release`)).status).toBe(200);
      expect((await paymentRow(own.db, p.id)).status).toBe('released');
      expect((await ownAdmin.get('/api/admin/projects/counts')).body).toEqual({ ...before, approved: 0, published: 1 });
      expect(await listed(ownAdmin, '/api/admin/projects?tab=approved')).toEqual([]);
      expect(await listed(ownAdmin, '/api/admin/projects?tab=published')).toEqual([p.id]);
      expect(await listed(ownBrand.agent, '/api/brand/my-articles?tab=approved')).toEqual([]);
      expect(await listed(ownBrand.agent, '/api/brand/my-articles?tab=completed')).toEqual([p.id]);
    } finally {
      await own.close();
    }
  }, 120_000);

  it('each tab is served by its partial index: its predicate is the index’s', async () => {
    const indexes: Partial<Record<ProjectTab, string>> = {
      awaiting: 'placements_tab_awaiting_idx',
      review: 'placements_tab_review_idx',
      approved: 'placements_tab_approved_idx',
      published: 'placements_tab_published_idx',
      refunded: 'placements_tab_refunded_idx',
    };
    for (const [tab, index] of Object.entries(indexes) as [ProjectTab, string][]) {
      const plan = await t.db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
        const result = await tx.execute(
          sql`EXPLAIN SELECT placements.id FROM placements WHERE ${PROJECT_TAB_SQL[tab]} ORDER BY placements.created_at DESC, placements.id DESC LIMIT 20`,
        );
        return (result as unknown as { rows: Record<string, string>[] }).rows
          .map((r) => Object.values(r)[0])
          .join('\n');
      });
      expect(plan, tab).toContain(index);
      expect(plan, tab).not.toContain('Sort');
    }
  });
});

describe('[BRAND] the brief once the draft is approved', () => {
  it('refuses drafts and submissions after the approval (409), changes nothing, and stays readable', async () => {
    const b = await signedIn(t.app, t.db, kinds.approvedBrand);
    const opp = await createOpportunity(t.db);
    const p = await createPayment(t.db, {
      brandId: b.user.id,
      opportunityId: opp.id,
      draftReviewStatus: 'pending_brand_review',
      draftDocumentUrl: 'https://docs.google.com/document/d/y/edit',
    });
    await submittedBrief(t.db, p);
    // under review, the brief may still change
    const early = await b.agent.post(`/api/brand/brief/${p.id}`, {
      part1Json: { ...PART1, preferredTitle: 'Changed before approval' },
    });
    expect(early.status, JSON.stringify(early.body)).toBe(200);
    expect((await b.agent.post(`/api/brand/projects/${p.id}/approve`)).status).toBe(200);

    const before = await briefRow(t.db, p.id);
    const draft = await b.agent.post(`/api/brand/brief/${p.id}`, {
      part1Json: { ...PART1, preferredTitle: 'Changed after approval' },
    });
    expect(draft.status).toBe(409);
    expect(draft.body).toEqual({ message: 'This draft has been approved; its brief can no longer change', code: 'brief_locked_approved' });
    const submit = await b.agent.post(`/api/brand/brief/${p.id}/submit`, { part1Json: PART1, part2Json: PART2 });
    expect(submit.status).toBe(409);
    expect(submit.body.message).toBe('This draft has been approved; its brief can no longer change');
    expect(await briefRow(t.db, p.id)).toEqual(before);
    const read = await b.agent.get(`/api/brand/brief/${p.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ source: 'saved', part1Json: { preferredTitle: 'Changed before approval' } });
  });

  it('the earlier flow submits to a held payment whose draft is not approved, and refuses when only approved ones remain', async () => {
    const b = await signedIn(t.app, t.db, kinds.approvedBrand);
    const opp = await createOpportunity(t.db, { maxSlots: 5 });
    const open = await createPayment(t.db, {
      brandId: b.user.id,
      opportunityId: opp.id,
      createdAt: new Date('2026-01-01T00:00:00Z'),
    });
    const approved = await createPayment(t.db, {
      brandId: b.user.id,
      opportunityId: opp.id,
      draftReviewStatus: 'approved',
      createdAt: new Date('2026-02-01T00:00:00Z'),
    });
    const older = {
      opportunityId: opp.id,
      part1: { nameForArticles: 'Jane', background: 'Twenty years' },
      part2: { goal: 'Awareness', audience: 'Makers', mainMessage: 'Repair' },
    };
    const first = await b.agent.post('/api/briefs', older);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.paymentId).toBe(open.id);
    expect(await briefRow(t.db, approved.id)).toBeUndefined();

    // the open one is approved too: nothing is left whose brief may change
    await t.db.execute(sql`UPDATE placements SET draft_review_status = 'approved' WHERE id = ${open.id}`);
    const before = await briefRow(t.db, open.id);
    const refused = await b.agent.post('/api/briefs', older);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This draft has been approved; its brief can no longer change');
    expect(await briefRow(t.db, open.id)).toEqual(before);
    expect(await briefRow(t.db, approved.id)).toBeUndefined();
  });
});
