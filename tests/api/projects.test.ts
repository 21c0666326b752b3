import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { briefs } from '../../src/server/db/schema';
import type { AdminPlacementItem, BrandPlacementItem } from '../../src/shared/schemas/brief';
import { createTestApp, type TestApp } from '../support/app';
import { everyKind, kinds, signedIn, uniqueEmail } from '../support/factories';
import { PART1, PART2, createOpportunity, createPayment, paymentRow, purchase, submittedBrief } from '../support/content';

type Review = 'awaiting_brand_brief' | 'pending_brand_review' | 'edits_requested' | 'edits_complete' | 'approved';
type Status = 'paid' | 'released' | 'refunded';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
let brandA: Awaited<ReturnType<typeof signedIn>>;
let brandB: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  t = await createTestApp();
  [admin, brandA, brandB] = await Promise.all([
    signedIn(t.app, t.db, kinds.admin),
    signedIn(t.app, t.db, kinds.approvedBrand),
    signedIn(t.app, t.db, kinds.approvedBrand),
  ]);
});
afterAll(() => t.close());

const DOC_URL = 'https://docs.google.com/document/d/abc/edit';

/** A payment of brand A in the given state: brief submitted and a draft attached where the state implies one. */
async function project(review: Review, status: Status = 'paid', opts: { brief?: 'submitted' | 'draft' | 'none' } = {}) {
  const brief = opts.brief ?? 'submitted';
  const p = await purchase(t.db, brandA.user.id, {
    status,
    draftReviewStatus: review,
    draftDocumentUrl: review === 'awaiting_brand_brief' ? null : DOC_URL,
    brandFeedback: review === 'edits_requested' || review === 'edits_complete' ? 'Shorter intro please' : null,
  });
  if (brief === 'submitted') await submittedBrief(t.db, p);
  if (brief === 'draft')
    await t.db.insert(briefs).values({ placementId: p.id, brandId: p.brandId, organisationId: p.organisationId, opportunityId: p.opportunityId, part1Json: PART1, part2Json: {} });
  return p;
}

const UNDER_REVIEW: Review[] = ['pending_brand_review', 'edits_requested', 'edits_complete'];
const ALL_REVIEW: Review[] = ['awaiting_brand_brief', ...UNDER_REVIEW, 'approved'];

describe('brand: approve and request edits', () => {
  for (const from of UNDER_REVIEW) {
    it(`approve: ${from} → approved`, async () => {
      const p = await project(from);
      const res = await brandA.agent.post(`/api/brand/projects/${p.id}/approve`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: p.id, status: 'paid', draftReviewStatus: 'approved', draftDocumentUrl: DOC_URL });
      expect((await paymentRow(t.db, p.id)).draftReviewStatus).toBe('approved');
    });

    it(`request-edits: ${from} → edits_requested with the feedback`, async () => {
      const p = await project(from);
      const res = await brandA.agent.post(`/api/brand/projects/${p.id}/request-edits`, { feedback: '  Add a quote from the CEO  ' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ draftReviewStatus: 'edits_requested', brandFeedback: 'Add a quote from the CEO' });
      expect(await paymentRow(t.db, p.id)).toMatchObject({ draftReviewStatus: 'edits_requested', brandFeedback: 'Add a quote from the CEO' });
    });
  }

  const refused: [Review, Status, RegExp][] = [
    ['awaiting_brand_brief', 'paid', /no draft/],
    ['approved', 'paid', /already been approved/],
    ['approved', 'released', /published/],
    ['pending_brand_review', 'refunded', /refunded/],
  ];
  for (const [from, status, message] of refused) {
    for (const action of ['approve', 'request-edits']) {
      it(`${action} refused from ${from} (${status}): 409, nothing changes`, async () => {
        const p = await project(from, status);
        const before = await paymentRow(t.db, p.id);
        const res = await brandA.agent.post(`/api/brand/projects/${p.id}/${action}`, action === 'request-edits' ? { feedback: 'x' } : undefined);
        expect(res.status).toBe(409);
        expect(res.body.message).toMatch(message);
        expect(await paymentRow(t.db, p.id)).toEqual(before);
      });
    }
  }

  it('a pending_brand_review row without any draft document cannot be approved', async () => {
    const p = await purchase(t.db, brandA.user.id, { draftReviewStatus: 'pending_brand_review' });
    expect((await brandA.agent.post(`/api/brand/projects/${p.id}/approve`)).status).toBe(409);
  });

  it('feedback is optional: no body, empty or blank feedback stores null; a new round replaces the old feedback', async () => {
    for (const body of [undefined, {}, { feedback: '' }, { feedback: '   ' }, { feedback: null }]) {
      const p = await project('edits_requested');
      const res = await brandA.agent.post(`/api/brand/projects/${p.id}/request-edits`, body);
      expect(res.status).toBe(200);
      expect((await paymentRow(t.db, p.id)).brandFeedback).toBeNull();
    }
  });

  it('feedback over 1000 characters is refused (400, nothing changes); exactly 1000 is fine', async () => {
    const p = await project('pending_brand_review');
    const before = await paymentRow(t.db, p.id);
    const res = await brandA.agent.post(`/api/brand/projects/${p.id}/request-edits`, { feedback: 'x'.repeat(1001) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Feedback must be at most 1000 characters', code: 'invalid_input', errors: { feedback: 'Feedback must be at most 1000 characters' } });
    expect(await paymentRow(t.db, p.id)).toEqual(before);
    const ok = await brandA.agent.post(`/api/brand/projects/${p.id}/request-edits`, { feedback: 'y'.repeat(1000) });
    expect(ok.status).toBe(200);
    expect((await paymentRow(t.db, p.id)).brandFeedback).toHaveLength(1000);
    const wrong = await brandA.agent.post(`/api/brand/projects/${p.id}/request-edits`, { feedback: 5 });
    expect(wrong.status).toBe(400);
  });

  it('[SECURITY] brand B on brand A’s payment: 404 and nothing changes', async () => {
    const p = await project('pending_brand_review');
    const before = await paymentRow(t.db, p.id);
    for (const action of ['approve', 'request-edits']) {
      const res = await brandB.agent.post(`/api/brand/projects/${p.id}/${action}`, {});
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Payment not found', code: 'payment_not_found' });
    }
    expect((await brandB.agent.post('/api/brand/projects/not-an-id/approve')).status).toBe(404);
    expect(await paymentRow(t.db, p.id)).toEqual(before);
  });

  it('only approved brands may approve or request edits', async () => {
    const k = await everyKind(t.app, t.db);
    const p = await project('pending_brand_review');
    expect((await k.visitor.agent.post(`/api/brand/projects/${p.id}/approve`)).status).toBe(401);
    expect((await k.admin.agent.post(`/api/brand/projects/${p.id}/approve`)).status).toBe(403);
    expect((await k.pendingBrand.agent.post(`/api/brand/projects/${p.id}/request-edits`, {})).status).toBe(403);
    expect((await paymentRow(t.db, p.id)).draftReviewStatus).toBe('pending_brand_review');
  });
});

describe('admin: mark edits complete', () => {
  it('edits_requested → edits_complete (feedback kept for the record)', async () => {
    const p = await project('edits_requested');
    const res = await admin.agent.post(`/api/admin/projects/${p.id}/mark-edits-complete`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ draftReviewStatus: 'edits_complete', brandFeedback: 'Shorter intro please' });
    expect((await paymentRow(t.db, p.id)).draftReviewStatus).toBe('edits_complete');
  });

  for (const from of ALL_REVIEW.filter((s) => s !== 'edits_requested')) {
    it(`refused from ${from}: 409, nothing changes`, async () => {
      const p = await project(from);
      const before = await paymentRow(t.db, p.id);
      const res = await admin.agent.post(`/api/admin/projects/${p.id}/mark-edits-complete`);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('Edits can only be marked complete after the brand has requested them');
      expect(await paymentRow(t.db, p.id)).toEqual(before);
    });
  }

  it('refused once released; unknown id 404; admins only', async () => {
    const p = await project('edits_requested', 'released');
    expect((await admin.agent.post(`/api/admin/projects/${p.id}/mark-edits-complete`)).status).toBe(409);
    expect((await admin.agent.post('/api/admin/projects/00000000-0000-4000-8000-000000000000/mark-edits-complete')).status).toBe(404);
    const q = await project('edits_requested');
    expect((await brandA.agent.post(`/api/admin/projects/${q.id}/mark-edits-complete`)).status).toBe(403);
    expect((await paymentRow(t.db, q.id)).draftReviewStatus).toBe('edits_requested');
  });
});

describe('admin: attach / edit the draft (PATCH /api/admin/payments/{id}/status)', () => {
  const attach = (id: string, body: unknown) => admin.agent.patch(`/api/admin/payments/${id}/status`, body);

  it('attaching a link to a submitted brief moves awaiting_brand_brief → pending_brand_review', async () => {
    const p = await project('awaiting_brand_brief');
    const res = await attach(p.id, { draftDocumentUrl: ` ${DOC_URL} ` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ draftReviewStatus: 'pending_brand_review', draftDocumentUrl: DOC_URL, draftDocumentFile: null });
    expect(await paymentRow(t.db, p.id)).toMatchObject({ draftReviewStatus: 'pending_brand_review', draftDocumentUrl: DOC_URL, status: 'paid' });
  });

  for (const from of UNDER_REVIEW) {
    it(`editing the draft in ${from} replaces it and keeps the state`, async () => {
      const p = await project(from);
      const res = await attach(p.id, { draftDocumentUrl: 'https://docs.google.com/document/d/v2/edit' });
      expect(res.status).toBe(200);
      expect(await paymentRow(t.db, p.id)).toMatchObject({ draftReviewStatus: from, draftDocumentUrl: 'https://docs.google.com/document/d/v2/edit' });
    });
  }

  const refused: [string, () => ReturnType<typeof project>, string][] = [
    ['no brief at all', () => project('awaiting_brand_brief', 'paid', { brief: 'none' }), 'The brand has not submitted the brief yet'],
    ['only a brief draft', () => project('awaiting_brand_brief', 'paid', { brief: 'draft' }), 'The brand has not submitted the brief yet'],
    ['approved', () => project('approved'), 'The brand has already approved this draft'],
    ['released', () => project('approved', 'released'), 'This article has already been published'],
    ['refunded', () => project('pending_brand_review', 'refunded'), 'This payment was refunded'],
  ];
  for (const [label, make, message] of refused) {
    it(`refused when ${label}: 409, nothing changes`, async () => {
      const p = await make();
      const before = await paymentRow(t.db, p.id);
      const res = await attach(p.id, { draftDocumentUrl: 'https://docs.google.com/document/d/new' });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(message);
      expect(await paymentRow(t.db, p.id)).toEqual(before);
    });
  }

  it('needs exactly one of a link or an uploaded file, each well formed (400, nothing changes)', async () => {
    const p = await project('awaiting_brand_brief');
    const before = await paymentRow(t.db, p.id);
    const cases: [unknown, string][] = [
      [{ draftDocumentUrl: '' }, 'Please provide either a URL or upload a file'],
      [{ draftDocumentUrl: DOC_URL, draftDocumentFile: '/api/files/abc.pdf' }, 'Please provide either a URL or upload a file'],
      [{ draftDocumentUrl: 'javascript:alert(1)' }, 'Please enter a valid URL'],
      [{ draftDocumentUrl: 'not a url' }, 'Please enter a valid URL'],
      [{ draftDocumentFile: '/uploads/abc.pdf' }, 'Please upload a .doc, .docx or .pdf file'],
      [{ draftDocumentFile: '/api/files/../secret.pdf' }, 'Please upload a .doc, .docx or .pdf file'],
      [{ draftDocumentFile: '/api/files/0123456789abcdef.pdf' }, 'The uploaded file was not found. Please upload it again.'],
    ];
    for (const [body, message] of cases) {
      const res = await attach(p.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await paymentRow(t.db, p.id)).toEqual(before);
  });

  it('only admins attach drafts', async () => {
    const p = await project('awaiting_brand_brief');
    expect((await brandA.agent.patch(`/api/admin/payments/${p.id}/status`, { draftDocumentUrl: DOC_URL })).status).toBe(403);
    expect((await paymentRow(t.db, p.id)).draftReviewStatus).toBe('awaiting_brand_brief');
  });

  it('the whole round trip: attach, edits requested, edits complete, approve, then Publish Content releases', async () => {
    const p = await project('awaiting_brand_brief');
    expect((await attach(p.id, { draftDocumentUrl: DOC_URL })).status).toBe(200);
    expect((await brandA.agent.post(`/api/brand/projects/${p.id}/request-edits`, { feedback: 'More numbers' })).status).toBe(200);
    expect((await admin.agent.post(`/api/admin/projects/${p.id}/mark-edits-complete`)).status).toBe(200);
    expect((await brandA.agent.post(`/api/brand/projects/${p.id}/request-edits`, { feedback: 'Fix the title' })).status).toBe(200);
    expect((await attach(p.id, { draftDocumentUrl: `${DOC_URL}?v=3` })).body.draftReviewStatus).toBe('edits_requested');
    expect((await admin.agent.post(`/api/admin/projects/${p.id}/mark-edits-complete`)).status).toBe(200);
    expect((await brandA.agent.post(`/api/brand/projects/${p.id}/approve`)).status).toBe(200);
    const release = await admin.agent.patch(`/api/admin/payments/${p.id}/status`, { status: 'released' });
    expect(release.status).toBe(200);
    expect(await paymentRow(t.db, p.id)).toMatchObject({ status: 'released', draftReviewStatus: 'approved', brandFeedback: 'Fix the title' });
    // after release the brief is frozen too
    expect((await brandA.agent.post(`/api/brand/brief/${p.id}`, { part1Json: PART1 })).status).toBe(409);
  });
});

describe('GET /api/admin/projects', () => {
  it('lists held and released payments (not refunded), newest first, with brand, brief (once submitted) and the tab fields', async () => {
    const t2 = await createTestApp();
    try {
      const a = await signedIn(t2.app, t2.db, { ...kinds.approvedBrand, name: 'Ann Brand', brandName: 'Acme', email: 'ann@acme.example' });
      const noBrandName = await signedIn(t2.app, t2.db, { ...kinds.approvedBrand, name: 'Solo Writer', brandName: null });
      const ad = await signedIn(t2.app, t2.db, kinds.admin);
      const opp = await createOpportunity(t2.db, { title: 'Robots at home', outletName: 'Tech Daily', type: ['editorial_feature', 'listicle'], priceUsd: '999.99', maxSlots: 5 });
      const at = (d: string) => new Date(`2026-0${d}-01T00:00:00Z`);
      const awaiting = await createPayment(t2.db, { brandId: a.user.id, opportunityId: opp.id, createdAt: at('1') });
      const review = await createPayment(t2.db, {
        brandId: noBrandName.user.id,
        opportunityId: opp.id,
        draftReviewStatus: 'edits_requested',
        draftDocumentFile: '/api/files/abc.pdf',
        brandFeedback: 'Shorter',
        createdAt: at('2'),
      });
      const approved = await createPayment(t2.db, { brandId: a.user.id, opportunityId: opp.id, draftReviewStatus: 'approved', draftDocumentUrl: DOC_URL, createdAt: at('3') });
      const released = await createPayment(t2.db, { brandId: a.user.id, opportunityId: opp.id, status: 'released', draftReviewStatus: 'approved', createdAt: at('4') });
      await createPayment(t2.db, { brandId: a.user.id, opportunityId: opp.id, status: 'refunded', createdAt: at('5') });
      await submittedBrief(t2.db, review);
      await submittedBrief(t2.db, approved);
      // a brief still being written is the brand's own: the admin sees "Brief pending"
      await t2.db.insert(briefs).values({ placementId: awaiting.id, brandId: a.user.id, organisationId: awaiting.organisationId, opportunityId: opp.id, part1Json: { personOrBrandName: 'draft' }, part2Json: {} });

      const res = await ad.agent.get('/api/admin/projects');
      expect(res.status).toBe(200);
      expect(res.body.map((i: { payment: { id: string } }) => i.payment.id)).toEqual([released.id, approved.id, review.id, awaiting.id]);
      const [, approvedItem, reviewItem, awaitingItem] = res.body;
      expect(reviewItem).toEqual({
        id: opp.id,
        title: 'Robots at home',
        type: ['editorial_feature', 'listicle'],
        outletName: 'Tech Daily',
        priceUsd: '999.99',
        payment: {
          id: review.id,
          status: 'paid',
          draftReviewStatus: 'edits_requested',
          draftDocumentUrl: null,
          draftDocumentFile: '/api/files/abc.pdf',
          brandFeedback: 'Shorter',
          stripePaymentId: review.stripePaymentId,
          amount: '1250.00',
          refundedAmount: '0.00',
          createdAt: '2026-02-01T00:00:00.000Z',
        },
        brief: { part1Json: PART1, part2Json: PART2, submittedAt: expect.any(String) },
        user: { id: noBrandName.user.id, name: 'Solo Writer', brandName: null, email: noBrandName.user.email },
        organisation: { id: noBrandName.user.organisationId, name: 'Solo Writer' },
        client: null,
        publication: null,
        overdue: false,
        unreadMessages: 0,
        orderId: null,
        declined: null,
        writingStartedAt: null,
        revisions: { used: 0, included: 2, request: null },
        cancellation: null,
        dispute: null,
        // issue 59: no admin has acted on it yet
        assignee: null,
        // issue 59: no turnaround listed and no record: no promise
        promisedBy: null,
        usuallyBy: null,
        // issue 58: its life, from the table, for the editorial team
        life: {
          state: 'edits_requested',
          label: 'Brand requested edits',
          waitingOn: 'team',
          since: '2026-02-01T00:00:00.000Z',
          request: null,
          actions: ['attach_draft', 'mark_edits_complete', 'release', 'refund', 'refund_part'],
          // decision 048: an edit round is the team's, EDIT_DAYS (2) business days
          clock: expect.objectContaining({ stage: 'edits', owner: 'team', dueAt: '2026-02-04T00:00:00.000Z', liveBy: null }),
        },
      });
      expect(approvedItem.payment).toMatchObject({ draftReviewStatus: 'approved', draftDocumentUrl: DOC_URL });
      expect(approvedItem.user).toMatchObject({ name: 'Ann Brand', brandName: 'Acme', email: 'ann@acme.example' });
      expect(awaitingItem.brief).toBeNull();
      expect(awaitingItem.payment.draftReviewStatus).toBe('awaiting_brand_brief');

      const k = await everyKind(t2.app, t2.db);
      expect((await k.visitor.agent.get('/api/admin/projects')).status).toBe(401);
      expect((await k.approvedBrand.agent.get('/api/admin/projects')).status).toBe(403);
    } finally {
      await t2.close();
    }
  }, 120_000);
});

describe('the placement lists read the database', () => {
  /** A brand of its own, so the admin's list can be searched down to its placements. */
  const freshBrand = (name: string) => signedIn(t.app, t.db, { ...kinds.approvedBrand, name, brandName: `${name} Co`, email: uniqueEmail('lists') });
  const projectsOf = async (email: string) =>
    (await admin.agent.get<AdminPlacementItem[]>(`/api/admin/projects?q=${encodeURIComponent(email)}`)).body;

  it('a change made elsewhere (another server, plain SQL) shows in the very next page of My Articles and Projects; each brand sees its own', async () => {
    const ada = await freshBrand('Ada Reads');
    const opp = await createOpportunity(t.db, { title: 'Read each time', outletName: 'Old Outlet' });
    const p = await createPayment(t.db, { brandId: ada.user.id, opportunityId: opp.id, draftReviewStatus: 'pending_brand_review', draftDocumentUrl: DOC_URL });
    await submittedBrief(t.db, p);
    const myArticles = async (agent = ada.agent) => (await agent.get<BrandPlacementItem[]>('/api/brand/my-articles')).body;

    const [mine] = await myArticles();
    expect(mine).toMatchObject({ outletName: 'Old Outlet', payment: { id: p.id, draftReviewStatus: 'pending_brand_review' }, brief: { submittedAt: expect.any(String) } });
    const [project] = await projectsOf(ada.user.email);
    expect(project).toMatchObject({ payment: { id: p.id, brandFeedback: null }, brief: { submittedAt: expect.any(String) }, user: { name: 'Ada Reads' } });

    await t.db.execute(sql`UPDATE briefs SET submitted_at = NULL WHERE placement_id = ${p.id}`);
    await t.db.execute(sql`UPDATE users SET name = 'Ada Lovelace' WHERE id = ${ada.user.id}`);
    await t.db.execute(sql`UPDATE placements SET draft_review_status = 'edits_requested', brand_feedback = 'Shorter, please' WHERE id = ${p.id}`);
    await t.db.execute(sql`UPDATE opportunities SET outlet_name = 'The Daily Byline' WHERE id = ${opp.id}`);

    expect(await myArticles()).toMatchObject([
      { outletName: 'The Daily Byline', payment: { id: p.id, draftReviewStatus: 'edits_requested', brandFeedback: 'Shorter, please' }, brief: { submittedAt: null } },
    ]);
    expect(await projectsOf(ada.user.email)).toMatchObject([
      { outletName: 'The Daily Byline', payment: { id: p.id, draftReviewStatus: 'edits_requested', brandFeedback: 'Shorter, please' }, brief: null, user: { name: 'Ada Lovelace' } },
    ]);

    // another brand's purchase of the same opportunity: each brand's page holds its own only
    const grace = await freshBrand('Grace Reads');
    const theirs = await createPayment(t.db, { brandId: grace.user.id, opportunityId: opp.id });
    expect((await myArticles(grace.agent)).map((i) => i.payment.id)).toEqual([theirs.id]);
    expect((await myArticles()).map((i) => i.payment.id)).toEqual([p.id]);
  });

  it('overdue follows the clock: once the turnaround has passed, the next page says so, with nothing changed meanwhile', async () => {
    const late = await freshBrand('Late Draft');
    const opp = await createOpportunity(t.db, { title: 'Falls due', tatDays: 1 });
    const p = await createPayment(t.db, { brandId: late.user.id, opportunityId: opp.id, draftReviewStatus: 'awaiting_brand_brief' });
    const brief = await submittedBrief(t.db, p);
    // due in 3 s: submitted a day ago, less 3 s
    const [{ due }] = (
      (await t.db.execute(sql`UPDATE briefs SET submitted_at = now() - interval '1 day' + interval '3 seconds'
        WHERE id = ${brief.id} RETURNING (submitted_at + interval '1 day')::text AS due`)) as unknown as { rows: { due: string }[] }
    ).rows;
    expect((await projectsOf(late.user.email)).map((i) => i.overdue)).toEqual([false]);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, new Date(due).getTime() - Date.now()) + 200));
    expect((await projectsOf(late.user.email)).map((i) => i.overdue)).toEqual([true]);
  });
});
