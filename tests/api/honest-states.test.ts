/**
 * Issue 20, every state shown honestly: My Articles' Completed holds released purchases only (spec
 * §4) and a fourth tab holds the refunded ones; Admin Projects gains Published and Refunded tabs
 * after the spec's three. Tabs filter on the server and their counts come from the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Agent, type Res, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPayment, paymentRow, submittedBrief } from '../support/content';

type Status = 'paid' | 'released' | 'refunded';
type Review = 'awaiting_brand_brief' | 'pending_brand_review' | 'edits_requested' | 'edits_complete' | 'approved';
type Item = { payment: { id: string; status: Status; draftReviewStatus: Review } };

let t: TestApp;
let admin: Agent;
let acme: Awaited<ReturnType<typeof signedIn>>;
let zeta: Awaited<ReturnType<typeof signedIn>>;
const made: Record<string, { id: string }[]> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  acme = await signedIn(t.app, t.db, { ...kinds.approvedBrand, brandName: 'Acme Honest Goods' });
  zeta = await signedIn(t.app, t.db, { ...kinds.approvedBrand, brandName: 'Zeta Other Co' });
  const opp = await createOpportunity(t.db, { maxSlots: 100 });
  const make = async (key: string, brandId: string, status: Status, draftReviewStatus: Review, n = 1) => {
    for (let i = 0; i < n; i++)
      (made[key] ??= []).push(await createPayment(t.db, { brandId, opportunityId: opp.id, status, draftReviewStatus }));
  };
  await make('pending', acme.user.id, 'paid', 'awaiting_brand_brief', 2);
  await make('review', acme.user.id, 'paid', 'pending_brand_review');
  await make('approvedHeld', acme.user.id, 'paid', 'approved');
  await make('published', acme.user.id, 'released', 'approved', 2);
  await make('refunded', acme.user.id, 'refunded', 'awaiting_brand_brief');
  await make('refundedReview', acme.user.id, 'refunded', 'edits_requested');
  await make('refundedApproved', acme.user.id, 'refunded', 'approved');
  await make('zetaPublished', zeta.user.id, 'released', 'approved');
  await make('zetaPending', zeta.user.id, 'paid', 'awaiting_brand_brief');
  await submittedBrief(t.db, made.refunded[0] as Parameters<typeof submittedBrief>[1]);
});
afterAll(() => t.close());

function nextOf(res: Res): string | null {
  const m = /^<([^>]+)>; rel="next"$/.exec(String(res.headers.link ?? ''));
  return m ? m[1] : null;
}

/** Every item of a list, following its pages. */
async function all(agent: Agent, url: string): Promise<Item[]> {
  const items: Item[] = [];
  let next: string | null = url;
  while (next) {
    const res = await agent.get(next);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    items.push(...(res.body as Item[]));
    next = nextOf(res);
  }
  return items;
}
const paymentIds = (items: Item[]) => items.map((i) => i.payment.id).sort();
const ids = (...keys: string[]) => keys.flatMap((k) => made[k].map((p) => p.id)).sort();

describe('My Articles: Completed is released only, Refunded is its own tab', () => {
  it('[BRAND] counts every tab, refunded ones in Refunded and in no other', async () => {
    const res = await acme.agent.get('/api/brand/my-articles/counts');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ pending: 2, 'needs-review': 1, approved: 1, completed: 2, refunded: 3, toReview: 1 });
    // every purchase is in exactly one tab
    const counts = res.body as Record<string, number>;
    expect(counts.pending + counts['needs-review'] + counts.approved + counts.completed + counts.refunded).toBe(9);
    // another brand's counts are its own
    expect((await zeta.agent.get('/api/brand/my-articles/counts')).body).toEqual({
      pending: 1,
      'needs-review': 0,
      approved: 0,
      completed: 1,
      refunded: 0,
      toReview: 0,
    });
  });

  it('[BRAND] lists each tab from the server, paged, the approved unpublished one under Approved (issue 43)', async () => {
    expect(paymentIds(await all(acme.agent, '/api/brand/my-articles?tab=completed&limit=1'))).toEqual(ids('published'));
    const refunded = await all(acme.agent, '/api/brand/my-articles?tab=refunded&limit=2');
    expect(paymentIds(refunded)).toEqual(ids('refunded', 'refundedReview', 'refundedApproved'));
    expect(refunded.every((i) => i.payment.status === 'refunded')).toBe(true);
    const review = await all(acme.agent, '/api/brand/my-articles?tab=needs-review&limit=1');
    expect(review.map((i) => i.payment.id)).toEqual([made.review[0].id]);
    const approved = await all(acme.agent, '/api/brand/my-articles?tab=approved&limit=1');
    expect(approved.map((i) => i.payment.id)).toEqual([made.approvedHeld[0].id]);
    expect(approved[0].payment).toMatchObject({ status: 'paid', draftReviewStatus: 'approved' });
    // a brand never sees another brand's refunded purchases
    expect(await all(zeta.agent, '/api/brand/my-articles?tab=refunded')).toEqual([]);
  });

  it('[BRAND] an unknown tab is a 400 naming the tabs', async () => {
    const res = await acme.agent.get('/api/brand/my-articles?tab=archived');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('tab must be one of pending, needs-review, approved, completed, refunded');
  });
});

describe('Admin Projects: Published and Refunded after the spec’s three', () => {
  it('[ADMIN] counts the five tabs over every project, and of the brands a search finds', async () => {
    const res = await admin.get('/api/admin/projects/counts');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ awaiting: 3, review: 1, approved: 1, published: 3, refunded: 3 });
    expect((await admin.get('/api/admin/projects/counts?q=zeta%20other')).body).toEqual({
      awaiting: 1,
      review: 0,
      approved: 0,
      published: 1,
      refunded: 0,
    });
    expect((await admin.get('/api/admin/projects/counts?q=acme')).body).toEqual({
      awaiting: 2,
      review: 1,
      approved: 1,
      published: 2,
      refunded: 3,
    });
  });

  it('[ADMIN] Published lists the released projects, Refunded the refunded ones, paged and searchable', async () => {
    expect(paymentIds(await all(admin, '/api/admin/projects?tab=published&limit=1'))).toEqual(
      ids('published', 'zetaPublished'),
    );
    expect(paymentIds(await all(admin, '/api/admin/projects?tab=refunded&limit=2'))).toEqual(
      ids('refunded', 'refundedReview', 'refundedApproved'),
    );
    expect(paymentIds(await all(admin, '/api/admin/projects?tab=published&q=zeta'))).toEqual(ids('zetaPublished'));
    expect(await all(admin, '/api/admin/projects?tab=refunded&q=zeta')).toEqual([]);
    // the spec's Approved holds the approved drafts still held: a published one is under Published only (issue 43)
    const approved = await all(admin, '/api/admin/projects?tab=approved&limit=1');
    expect(paymentIds(approved)).toEqual(ids('approvedHeld'));
  });

  it('[ADMIN] publishing moves a project into Published and its count follows', async () => {
    // a database of its own: the tests above count and list every project there is
    const own = await createTestApp();
    try {
      await publishOne(own);
    } finally {
      await own.close();
    }
  }, 120_000);

  async function publishOne(t: TestApp) {
    const admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const opp = await createOpportunity(t.db, { maxSlots: 5 });
    const p = await createPayment(t.db, {
      brandId: brand.user.id,
      opportunityId: opp.id,
      status: 'paid',
      draftReviewStatus: 'approved',
      draftDocumentUrl: 'https://docs.google.com/document/d/x/edit',
    });
    const before = (await admin.get('/api/admin/projects/counts')).body as Record<string, number>;
    const res = await admin.patch(`/api/admin/payments/${p.id}/status`, { status: 'released' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await paymentRow(t.db, p.id)).status).toBe('released');
    const after = (await admin.get('/api/admin/projects/counts')).body as Record<string, number>;
    expect(after).toEqual({ ...before, approved: before.approved - 1, published: before.published + 1 });
    expect(paymentIds(await all(admin, '/api/admin/projects?tab=published'))).toContain(p.id);
    const mine = await all(brand.agent, '/api/brand/my-articles?tab=completed');
    expect(paymentIds(mine)).toEqual([p.id]);
  }

  it('[ADMIN] an unknown tab is a 400 naming the tabs; a brand cannot read the tabs', async () => {
    const res = await admin.get('/api/admin/projects?tab=archived');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('tab must be one of awaiting, review, approved, published, refunded');
    expect((await acme.agent.get('/api/admin/projects?tab=refunded')).status).toBe(403);
    expect((await acme.agent.get('/api/admin/projects/counts')).status).toBe(403);
  });
});
