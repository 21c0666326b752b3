/**
 * The admins' "Needs attention" list (issue 19): every placement that waits on the editorial team,
 * with each reason it has; a reason goes when what it asks for is done.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttentionItem, AttentionList, AttentionReason } from '../../src/shared/attention';
import { DRAFT_DUE_DAYS_DEFAULT, GUARANTEE_DAYS } from '../../src/shared/constants';
import { briefs, conversationReads, publicationCases, publications } from '../../src/server/db/schema';
import { setPaymentStatus, type PlacedPaymentValues } from '../support/placements';
import { attentionList } from '../../src/server/modules/attention/service';
import { createTestApp, type TestApp } from '../support/app';
import { createOpportunity, paymentRow, purchase, submittedBrief } from '../support/content';
import { everyKind, kinds, signedIn } from '../support/factories';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

let t: TestApp;
type SignedIn = Awaited<ReturnType<typeof signedIn>>;
let admin: SignedIn;
let brand: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  [admin, brand] = await Promise.all([
    signedIn(t.app, t.db, { ...kinds.admin, name: 'Ada Admin' }),
    signedIn(t.app, t.db, { ...kinds.approvedBrand, brandName: 'Acme Robotics' }),
  ]);
});
afterAll(async () => {
  await t?.close();
});

async function list(): Promise<AttentionList> {
  const res = await admin.agent.get<AttentionList>('/api/admin/attention');
  expect(res.status).toBe(200);
  return res.body;
}
const itemOf = async (paymentId: string): Promise<AttentionItem | undefined> =>
  (await list()).items.find((i) => i.paymentId === paymentId);
const reasonsOf = async (paymentId: string): Promise<AttentionReason[] | undefined> =>
  (await itemOf(paymentId))?.reasons;

/** A held placement of the brand, paid `paidDaysAgo` days ago. */
const placement = (overrides: Partial<PlacedPaymentValues> = {}, paidDaysAgo = 1) =>
  purchase(t.db, brand.user.id, { paidAt: daysAgo(paidDaysAgo), createdAt: daysAgo(paidDaysAgo), ...overrides });

async function openCase(paymentId: string, restoreBy: Date) {
  await setPaymentStatus(t.db, paymentId, 'released', { releasedAt: daysAgo(5) });
  await t.db
    .insert(publications)
    .values({
      placementId: paymentId,
      url: 'https://outlet.example/a',
      publishedAt: daysAgo(5),
      guaranteeEndsAt: new Date(Date.now() + 80 * DAY),
    });
  const check = { checkedAt: new Date().toISOString(), result: 'fail', problems: [] } as never;
  const [row] = await t.db
    .insert(publicationCases)
    .values({ placementId: paymentId, reason: 'The page is gone', evidence: check, openedAt: daysAgo(1), restoreBy })
    .returning();
  return row;
}

describe('GET /api/admin/attention: each reason comes and goes', () => {
  it('a placement in none of the states is absent', async () => {
    const fresh = await placement();
    const briefIn = await placement();
    await submittedBrief(t.db, briefIn); // submitted today: not overdue yet
    const underReview = await placement({
      draftReviewStatus: 'pending_brand_review',
      draftDocumentUrl: 'https://docs.example/d',
    });
    const released = await placement({ status: 'released', draftReviewStatus: 'approved', releasedAt: new Date() });
    const body = await list();
    for (const p of [fresh, briefIn, underReview, released])
      expect(body.items.find((i) => i.paymentId === p.id)).toBeUndefined();
  });

  it('unread_messages: the brand’s messages after the team’s read mark, counted; gone once the team reads', async () => {
    const p = await placement();
    for (const text of ['Hello?', 'Any news?'])
      expect((await brand.agent.post(`/api/brand/projects/${p.id}/messages`, { text })).status).toBe(201);
    const item = await itemOf(p.id);
    expect(item).toMatchObject({
      paymentId: p.id,
      outletName: expect.any(String),
      title: expect.any(String),
      brand: { id: brand.user.id, brandName: 'Acme Robotics', email: brand.user.email },
      amount: '1250.00',
      reasons: [{ kind: 'unread_messages', count: 2 }],
    });
    // the team's own messages are not unread for the team
    expect((await admin.agent.post(`/api/admin/projects/${p.id}/messages`, { text: 'On it' })).status).toBe(201);
    expect(await reasonsOf(p.id)).toEqual([{ kind: 'unread_messages', count: 2 }]);
    expect((await admin.agent.post(`/api/admin/projects/${p.id}/messages/read`)).status).toBeLessThan(300);
    expect(await reasonsOf(p.id)).toBeUndefined();
    // the team's mark is at the brand's last message (each side has its row: the brand's moved when the team wrote)
    const marks = await t.db.select().from(conversationReads).where(eq(conversationReads.placementId, p.id));
    const mark = marks.find((m) => m.side === 'admin')!;
    expect(mark.readAt?.getTime()).toBe(mark.lastOtherAt?.getTime());
    // a new message brings it back with the new count only
    expect((await brand.agent.post(`/api/brand/projects/${p.id}/messages`, { text: 'Thanks!' })).status).toBe(201);
    expect(await reasonsOf(p.id)).toEqual([{ kind: 'unread_messages', count: 1 }]);
  });

  it('overdue: the brief in for longer than the opportunity’s tat_days (else 14 days); gone once the draft is attached', async () => {
    const quick = await createOpportunity(t.db, { tatDays: 3 });
    const late = await placement({ opportunityId: quick.id });
    const [brief] = [await submittedBrief(t.db, late)];
    await t.db
      .update(briefs)
      .set({ submittedAt: daysAgo(4) })
      .where(eq(briefs.id, brief.id));
    const notYet = await placement({ opportunityId: quick.id });
    const b2 = await submittedBrief(t.db, notYet);
    await t.db
      .update(briefs)
      .set({ submittedAt: daysAgo(2) })
      .where(eq(briefs.id, b2.id));
    const defaultTat = await placement();
    const b3 = await submittedBrief(t.db, defaultTat);
    await t.db
      .update(briefs)
      .set({ submittedAt: daysAgo(DRAFT_DUE_DAYS_DEFAULT + 1) })
      .where(eq(briefs.id, b3.id));
    const defaultNotYet = await placement();
    const b4 = await submittedBrief(t.db, defaultNotYet);
    await t.db
      .update(briefs)
      .set({ submittedAt: daysAgo(DRAFT_DUE_DAYS_DEFAULT - 1) })
      .where(eq(briefs.id, b4.id));

    const reasons = await reasonsOf(late.id);
    expect(reasons).toHaveLength(1);
    expect(reasons![0].kind).toBe('overdue');
    expect(Date.parse((reasons![0] as { dueAt: string }).dueAt)).toBeCloseTo(daysAgo(1).getTime(), -4);
    expect((await reasonsOf(defaultTat.id))?.map((r) => r.kind)).toEqual(['overdue']);
    expect(await reasonsOf(notYet.id)).toBeUndefined();
    expect(await reasonsOf(defaultNotYet.id)).toBeUndefined();

    const res = await admin.agent.patch(`/api/admin/payments/${late.id}/status`, {
      draftDocumentUrl: 'https://docs.google.com/document/d/abc',
    });
    expect(res.status).toBe(200);
    expect((await paymentRow(t.db, late.id)).draftReviewStatus).toBe('pending_brand_review');
    expect(await reasonsOf(late.id)).toBeUndefined();
  });

  it('edits_requested: gone once the team marks the edits complete', async () => {
    const p = await placement({
      draftReviewStatus: 'pending_brand_review',
      draftDocumentUrl: 'https://docs.example/d',
    });
    expect(
      (await brand.agent.post(`/api/brand/projects/${p.id}/request-edits`, { feedback: 'Shorter intro' })).status,
    ).toBe(200);
    const item = await itemOf(p.id);
    expect(item?.reasons).toEqual([{ kind: 'edits_requested' }]);
    // it waits since the request (its timeline entry), not since the payment
    expect(Date.parse(item!.since)).toBeGreaterThan(Date.parse(item!.paidAt) + DAY / 2);
    expect((await admin.agent.post(`/api/admin/projects/${p.id}/mark-edits-complete`)).status).toBe(200);
    expect(await reasonsOf(p.id)).toBeUndefined();
  });

  it('approved_unpublished: gone once the article is released', async () => {
    const p = await placement({
      draftReviewStatus: 'pending_brand_review',
      draftDocumentUrl: 'https://docs.example/d',
    });
    expect((await brand.agent.post(`/api/brand/projects/${p.id}/approve`)).status).toBe(200);
    expect(await reasonsOf(p.id)).toEqual([{ kind: 'approved_unpublished' }]);
    expect((await admin.agent.post(`/api/admin/payments/${p.id}/release`)).status).toBe(200);
    expect((await paymentRow(t.db, p.id)).status).toBe('released');
    expect(await reasonsOf(p.id)).toBeUndefined();
  });

  it('guarantee_near: held and refunded by the guarantee within 14 days, with the date; gone once refunded', async () => {
    const near = await placement({}, GUARANTEE_DAYS - 10);
    const far = await placement({}, GUARANTEE_DAYS - 20);
    const refundClaimed = await placement({ refundRequestedAt: new Date(), refundReason: 'admin' }, GUARANTEE_DAYS - 5);
    const reasons = await reasonsOf(near.id);
    expect(reasons).toEqual([
      { kind: 'guarantee_near', refundAt: new Date(near.paidAt.getTime() + GUARANTEE_DAYS * DAY).toISOString() },
    ]);
    expect(await reasonsOf(far.id)).toBeUndefined();
    expect(await reasonsOf(refundClaimed.id)).toBeUndefined();
    await setPaymentStatus(t.db, near.id, 'refunded', { refundedAt: new Date(), holdsSlot: false });
    expect(await reasonsOf(near.id)).toBeUndefined();
  });

  it('open_case: with its restore-by date; gone once the case is closed', async () => {
    const p = await placement({ draftReviewStatus: 'approved' });
    const restoreBy = new Date(Date.now() + 3 * DAY);
    const c = await openCase(p.id, restoreBy);
    expect(await reasonsOf(p.id)).toEqual([{ kind: 'open_case', restoreBy: restoreBy.toISOString() }]);
    await t.db
      .update(publicationCases)
      .set({ closedAt: new Date(), outcome: 'restored' })
      .where(eq(publicationCases.id, c.id));
    expect(await reasonsOf(p.id)).toBeUndefined();
  });

  it('a placement with several reasons is one row with all of them', async () => {
    const p = await placement(
      { draftReviewStatus: 'edits_requested', draftDocumentUrl: 'https://docs.example/d' },
      GUARANTEE_DAYS - 1,
    );
    expect((await brand.agent.post(`/api/brand/projects/${p.id}/messages`, { text: 'Please hurry' })).status).toBe(201);
    const rows = (await list()).items.filter((i) => i.paymentId === p.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].reasons.map((r) => r.kind).sort()).toEqual(['edits_requested', 'guarantee_near', 'unread_messages']);
    // clean up for the order test: the team reads, the edits are done, the refund is claimed
    await admin.agent.post(`/api/admin/projects/${p.id}/messages/read`);
    await setPaymentStatus(t.db, p.id, 'refunded', { refundedAt: new Date(), holdsSlot: false });
  });
});

describe('order and total', () => {
  it('deadlines first (case and guarantee by date), then overdue by due date, then the rest oldest first; total is exact', async () => {
    // start from an empty list: resolve what the tests above left
    const left = (await list()).items;
    for (const i of left)
      await setPaymentStatus(t.db, i.paymentId, 'refunded', { refundedAt: new Date(), holdsSlot: false });
    await t.db.update(publicationCases).set({ closedAt: new Date(), outcome: 'withdrawn' });
    for (const i of left) await admin.agent.post(`/api/admin/projects/${i.paymentId}/messages/read`);
    expect(await list()).toMatchObject({ total: 0, items: [] });

    const guaranteeIn5 = await placement({}, GUARANTEE_DAYS - 5);
    const caseIn2 = await placement({ draftReviewStatus: 'approved' }, 30);
    await openCase(caseIn2.id, new Date(Date.now() + 2 * DAY));
    const guaranteeIn10 = await placement({}, GUARANTEE_DAYS - 10);
    const overdueLong = await placement({}, 40);
    const b1 = await submittedBrief(t.db, overdueLong);
    await t.db
      .update(briefs)
      .set({ submittedAt: daysAgo(30) })
      .where(eq(briefs.id, b1.id));
    const overdueShort = await placement({}, 40);
    const b2 = await submittedBrief(t.db, overdueShort);
    await t.db
      .update(briefs)
      .set({ submittedAt: daysAgo(DRAFT_DUE_DAYS_DEFAULT + 2) })
      .where(eq(briefs.id, b2.id));
    const approvedOld = await placement({ draftReviewStatus: 'approved' }, 20); // no timeline entry: waits since its payment
    const approvedNew = await placement({ draftReviewStatus: 'approved' }, 3);

    const body = await list();
    expect(body.total).toBe(7);
    expect(body.items.map((i) => i.paymentId)).toEqual([
      caseIn2.id,
      guaranteeIn5.id,
      guaranteeIn10.id,
      overdueLong.id,
      overdueShort.id,
      approvedOld.id,
      approvedNew.id,
    ]);
  });

  it('the list is capped; total still counts every placement', async () => {
    const before = (await list()).total;
    const opp = await createOpportunity(t.db, { maxSlots: 100 });
    for (let i = 0; i < 6; i++) await placement({ opportunityId: opp.id, draftReviewStatus: 'approved' }, 10 + i);
    const capped = await attentionList(t.db, new Date(), 4);
    expect(capped.total).toBe(before + 6);
    expect(capped.items).toHaveLength(4);
    expect((await list()).total).toBe(before + 6);
  });
});

describe('permissions', () => {
  it('admins only: visitors 401, brands 403', async () => {
    const k = await everyKind(t.app, t.db);
    expect((await k.visitor.agent.get('/api/admin/attention')).status).toBe(401);
    for (const b of [k.approvedBrand, k.pendingBrand])
      expect((await b.agent.get('/api/admin/attention')).status).toBe(403);
    expect((await brand.agent.get('/api/admin/attention')).status).toBe(403);
    expect((await k.admin.agent.get('/api/admin/attention')).status).toBe(200);
  });
});
