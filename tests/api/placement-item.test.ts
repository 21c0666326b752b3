/**
 * The placement's page asks for its placement in one call (issue 44): GET /api/brand/my-articles/{id}
 * answers the My Articles item and GET /api/admin/projects/{id} the Projects item, the very item the
 * list answers for the same placement (one statement, filtered by id). Another brand's placement,
 * or one that does not exist, is the 404 every per-placement brand route gives.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminPlacementItem, BrandPlacementItem } from '../../src/shared/schemas/brief';
import { adminPlacementItemSchema, brandPlacementItemSchema } from '../../src/shared/schemas/responses/placement';
import { PAYMENT_NOT_FOUND } from '../../src/server/db/payment-access';
import { Agent, createTestApp, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPayment, submittedBrief } from '../support/content';

let t: TestApp;
let admin: Agent;
let brand: Agent;
let otherBrand: Agent;
let pendingBrand: Agent;
const ids: Record<'fresh' | 'briefed' | 'review' | 'released' | 'refunded' | 'others', string> = {
  fresh: '',
  briefed: '',
  review: '',
  released: '',
  refunded: '',
  others: '',
};

beforeAll(async () => {
  t = await createTestApp();
  const [a, b, o, p] = await Promise.all([
    signedIn(t.app, t.db, kinds.admin),
    signedIn(t.app, t.db, { ...kinds.approvedBrand, brandName: 'Acme "Quoted" Robotics' }),
    signedIn(t.app, t.db, kinds.approvedBrand),
    signedIn(t.app, t.db, kinds.pendingBrand),
  ]);
  [admin, brand, otherBrand, pendingBrand] = [a.agent, b.agent, o.agent, p.agent];
  const brandId = b.user.id;
  const opportunity = await createOpportunity(t.db, { title: 'Founder profile — "quoted"\nline two', type: ['listicle', 'profile_article'] });
  const buy = (overrides: Partial<Parameters<typeof createPayment>[1]> = {}) =>
    createPayment(t.db, { brandId, opportunityId: opportunity.id, ...overrides });

  ids.fresh = (await buy()).id;
  const briefed = await buy();
  await submittedBrief(t.db, briefed);
  ids.briefed = briefed.id;
  const review = await buy({
    draftReviewStatus: 'edits_requested',
    draftDocumentUrl: 'https://docs.google.com/document/d/x',
    brandFeedback: 'Shorter intro, please.\nAnd a quote.',
  });
  await submittedBrief(t.db, review);
  ids.review = review.id;
  const released = await buy({
    status: 'released',
    releasedAt: new Date(),
    draftReviewStatus: 'approved',
    draftDocumentFile: '/api/files/draft.pdf',
  });
  await submittedBrief(t.db, released);
  await t.db.execute(
    sql`INSERT INTO publications (placement_id, url, health, published_at, guarantee_ends_at)
        VALUES (${released.id}, 'https://outlet.example/story', 'unverified', now(), now() + interval '180 days')`,
  );
  ids.released = released.id;
  ids.refunded = (await buy({ status: 'refunded', refundReason: 'guarantee', refundedAt: new Date() })).id;
  ids.others = (await createPayment(t.db, { brandId: o.user.id, opportunityId: opportunity.id })).id;
  // one unread message each way, so the counts are in the items too
  expect((await admin.post(`/api/admin/projects/${ids.review}/messages`, { text: 'Draft two is coming.' })).status).toBe(201);
  expect((await brand.post(`/api/brand/projects/${ids.review}/messages`, { text: 'Thanks!' })).status).toBe(201);
});
afterAll(() => t.close());

const OWN = ['fresh', 'briefed', 'review', 'released', 'refunded'] as const;

describe('GET /api/brand/my-articles/{paymentId}', () => {
  it('[BRAND] answers exactly the My Articles item of the same placement, in every state', async () => {
    const list = await brand.get<BrandPlacementItem[]>('/api/brand/my-articles?limit=200');
    expect(list.status).toBe(200);
    for (const name of OWN) {
      const res = await brand.get<BrandPlacementItem>(`/api/brand/my-articles/${ids[name]}`);
      expect(res.status, name).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const inList = list.body.find((i) => i.payment.id === ids[name]);
      expect(inList, name).toBeDefined();
      expect(res.body, name).toEqual(inList);
      expect(brandPlacementItemSchema.safeParse(res.body).success, name).toBe(true);
    }
    const review = (await brand.get<BrandPlacementItem>(`/api/brand/my-articles/${ids.review}`)).body;
    expect(review).toMatchObject({ unreadMessages: 1, payment: { draftReviewStatus: 'edits_requested' } });
    expect((await brand.get<BrandPlacementItem>(`/api/brand/my-articles/${ids.released}`)).body.publication).toMatchObject({
      url: 'https://outlet.example/story',
    });
  });

  it('[BRAND] another brand’s placement, an unknown id or a malformed one is 404 "Payment not found"', async () => {
    for (const id of [ids.others, randomUUID(), 'not-a-uuid']) {
      const res = await brand.get(`/api/brand/my-articles/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body, id).toEqual({ message: PAYMENT_NOT_FOUND, code: 'payment_not_found' });
    }
    // and the owner still sees it
    expect((await otherBrand.get(`/api/brand/my-articles/${ids.others}`)).status).toBe(200);
  });

  it('a visitor is 401; an admin or an unapproved brand 403', async () => {
    expect((await new Agent(t.app).get(`/api/brand/my-articles/${ids.fresh}`)).status).toBe(401);
    expect((await admin.get(`/api/brand/my-articles/${ids.fresh}`)).status).toBe(403);
    expect((await pendingBrand.get(`/api/brand/my-articles/${ids.fresh}`)).status).toBe(403);
  });

  it('the counts route is still the counts, not a placement', async () => {
    const res = await brand.get('/api/brand/my-articles/counts');
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty('toReview');
  });
});

describe('GET /api/admin/projects/{paymentId}', () => {
  it('[ADMIN] answers exactly the Projects item of the same placement, for each tab’s placements', async () => {
    for (const [name, tab] of [
      ['fresh', 'awaiting'],
      ['briefed', 'awaiting'],
      ['review', 'review'],
      ['released', 'published'],
      ['refunded', 'refunded'],
      ['others', 'awaiting'],
    ] as const) {
      const list = await admin.get<AdminPlacementItem[]>(`/api/admin/projects?tab=${tab}&limit=200`);
      const inList = list.body.find((i) => i.payment.id === ids[name]);
      expect(inList, name).toBeDefined();
      const res = await admin.get<AdminPlacementItem>(`/api/admin/projects/${ids[name]}`);
      expect(res.status, name).toBe(200);
      expect(res.body, name).toEqual(inList);
      expect(adminPlacementItemSchema.safeParse(res.body).success, name).toBe(true);
    }
    const review = (await admin.get<AdminPlacementItem>(`/api/admin/projects/${ids.review}`)).body;
    expect(review.brief?.part1Json).toMatchObject({ personOrBrandName: 'Acme Robotics' });
    expect(review).toMatchObject({ unreadMessages: 1, user: { brandName: 'Acme "Quoted" Robotics' } });
  });

  it('[ADMIN] an unknown or malformed id is 404 "Payment not found"', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const res = await admin.get(`/api/admin/projects/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body, id).toEqual({ message: PAYMENT_NOT_FOUND, code: 'payment_not_found' });
    }
  });

  it('a visitor is 401; a brand 403 (its own placement too)', async () => {
    expect((await new Agent(t.app).get(`/api/admin/projects/${ids.review}`)).status).toBe(401);
    expect((await brand.get(`/api/admin/projects/${ids.review}`)).status).toBe(403);
  });

  it('the counts route is still the counts, not a placement', async () => {
    const res = await admin.get('/api/admin/projects/counts');
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty('awaiting');
  });
});
