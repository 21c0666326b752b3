import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { briefs } from '../../src/server/db/schema';
import { createTestApp, type TestApp } from '../support/app';
import { everyKind, kinds, signedIn } from '../support/factories';
import { PART1, PART2, briefRow, createOpportunity, createPayment, purchase, submittedBrief } from '../support/content';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const brand = () => signedIn(t.app, t.db, kinds.approvedBrand);
const OLDER_PART1 = {
  nameForArticles: 'Jane Founder',
  preferredTitle: 'Jane on soil',
  background: 'Agronomist for 20 years',
  inspiration: 'Her grandmother',
  challenges: 'Drought',
  differentiation: 'Works with smallholders',
  highlights: 'UN award',
  anecdotes: 'Lost a harvest once',
  futureVision: 'Regenerative farms everywhere',
  extra: 'Prefers email',
  titleIdeas: 'The soil whisperer',
  referenceLinks: 'https://example.org/jane',
};
const OLDER_PART2 = {
  goal: 'Raise awareness',
  audience: 'Policy makers',
  mainMessage: 'Soil is climate',
  keyPoints: 'Carbon capture',
  seoKeywords: 'soil, climate',
  tone: 'Serious',
  excludedInfo: 'Her family',
  socialLinks: 'x.com/jane',
};

describe('GET /api/brand/my-articles', () => {
  it('lists only the brand’s own purchases, newest first, with opportunity, payment and brief state', async () => {
    const a = await brand();
    const b = await brand();
    const older = await purchase(t.db, a.user.id, { createdAt: new Date('2026-01-01T00:00:00Z') });
    const released = await purchase(t.db, a.user.id, { status: 'released', draftReviewStatus: 'approved', createdAt: new Date('2026-02-01T00:00:00Z') });
    const refunded = await purchase(t.db, a.user.id, { status: 'refunded', createdAt: new Date('2026-03-01T00:00:00Z') });
    await submittedBrief(t.db, released);
    await t.db.insert(briefs).values({ placementId: older.id, brandId: a.user.id, organisationId: older.organisationId, opportunityId: older.opportunityId, part1Json: {}, part2Json: {} });
    await purchase(t.db, b.user.id);

    const res = await a.agent.get('/api/brand/my-articles');
    expect(res.status).toBe(200);
    expect(res.body.map((i: { payment: { id: string } }) => i.payment.id)).toEqual([refunded.id, released.id, older.id]);
    const item = res.body[1];
    expect(item).toEqual({
      id: released.opportunityId,
      title: 'How Acme rebuilt payments',
      type: ['profile_article'],
      outletName: 'The Daily Ledger',
      priceUsd: '1250.00',
      payment: {
        id: released.id,
        status: 'released',
        draftReviewStatus: 'approved',
        draftDocumentUrl: null,
        draftDocumentFile: null,
        brandFeedback: null,
        stripePaymentId: released.stripePaymentId,
        amount: '1250.00',
        refundedAmount: '0.00',
        createdAt: '2026-02-01T00:00:00.000Z',
      },
      brief: { submittedAt: expect.any(String) },
      // released by a direct row change, not through a release: no live article recorded
      publication: null,
      unreadMessages: 0,
      client: null,
      orderId: null,
      declined: null,
      writingStartedAt: null,
      revisions: { used: 0, included: 2, request: null },
      cancellation: null,
      dispute: null,
      // issue 59: its opportunity lists no turnaround and its outlet has no record: no promise
      promisedBy: null,
      usuallyBy: null,
      // issue 58: its life, from the table, for this member (the owner)
      life: {
        state: 'released',
        label: 'Released',
        waitingOn: 'nobody',
        since: '2026-02-01T00:00:00.000Z',
        request: null,
        actions: ['open_dispute'],
        // decision 048: released, no stage clock runs
        clock: expect.objectContaining({ stage: null, owner: null, dueAt: null, state: null, promiseMovedDays: 0, promiseMoved: null }),
      },
    });
    expect(res.body[0].brief).toBeNull();
    // a draft exists but is not submitted: "Brief pending"
    expect(res.body[2].brief).toEqual({ submittedAt: null });
  });

  it('is for approved brands only', async () => {
    const k = await everyKind(t.app, t.db);
    expect((await k.visitor.agent.get('/api/brand/my-articles')).status).toBe(401);
    expect((await k.admin.agent.get('/api/brand/my-articles')).status).toBe(403);
    expect((await k.pendingBrand.agent.get('/api/brand/my-articles')).status).toBe(403);
    expect((await k.unnamedBrand.agent.get('/api/brand/my-articles')).status).toBe(403);
    expect((await k.approvedBrand.agent.get('/api/brand/my-articles')).body).toEqual([]);
  });
});

describe('the current brief form: /api/brand/brief/{paymentId}', () => {
  it('starts empty, saves drafts without required fields, then submits', async () => {
    const a = await brand();
    const p = await purchase(t.db, a.user.id);
    const url = `/api/brand/brief/${p.id}`;

    expect((await a.agent.get(url)).body).toEqual({ part1Json: {}, part2Json: {}, source: 'empty', submittedAt: null, version: 'new' });

    // step 1 autosave: part 1 alone, trimmed, empty values dropped, unknown keys ignored
    const d1 = await a.agent.post(url, { part1Json: { personOrBrandName: '  Acme  ', inspiration: '', bogus: 'x' } });
    expect(d1.status).toBe(200);
    expect(d1.body).toMatchObject({ paymentId: p.id, opportunityId: p.opportunityId, part1Json: { personOrBrandName: 'Acme' }, part2Json: {}, submittedAt: null });
    // part 2 alone keeps part 1
    await a.agent.post(url, { part2Json: { mainGoal: 'Reach' } });
    expect(await a.agent.get(url).then((r) => r.body)).toEqual({
      part1Json: { personOrBrandName: 'Acme' },
      part2Json: { mainGoal: 'Reach' },
      source: 'saved',
      submittedAt: null,
      version: expect.any(String),
    });
    expect((await briefRow(t.db, p.id)).submittedAt).toBeNull();

    const sub = await a.agent.post(`${url}/submit`, { part1Json: PART1, part2Json: PART2 });
    expect(sub.status).toBe(200);
    expect(sub.body.submittedAt).toEqual(expect.any(String));
    const row = await briefRow(t.db, p.id);
    expect(row).toMatchObject({ brandId: a.user.id, opportunityId: p.opportunityId, part1Json: PART1, part2Json: PART2 });
    expect(row.submittedAt).not.toBeNull();

    // "Edit Brief": a later draft save keeps the submission date, a resubmission refreshes it
    const firstSubmit = row.submittedAt!.getTime();
    await a.agent.post(url, { part1Json: { ...PART1, inspiration: 'Changed' } });
    const afterDraft = await briefRow(t.db, p.id);
    expect(afterDraft.submittedAt!.getTime()).toBe(firstSubmit);
    expect(afterDraft.part1Json.inspiration).toBe('Changed');
    expect((await a.agent.post(`${url}/submit`, { part1Json: PART1, part2Json: { ...PART2, mainGoal: 'New goal' } })).status).toBe(200);
    expect((await briefRow(t.db, p.id)).part2Json.mainGoal).toBe('New goal');
    expect(await t.db.select().from(briefs).where(eq(briefs.placementId, p.id))).toHaveLength(1);
  });

  it('submit enforces the required fields with the spec’s messages, keyed by part', async () => {
    const a = await brand();
    const p = await purchase(t.db, a.user.id);
    const res = await a.agent.post(`/api/brand/brief/${p.id}/submit`, { part1Json: { personOrBrandName: '   ' }, part2Json: {} });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      'part1Json.personOrBrandName': 'Name is required',
      'part1Json.backgroundExperience': 'Background and experience is required',
      'part2Json.mainGoal': 'Main goal is required',
      'part2Json.targetAudience': 'Target audience is required',
      'part2Json.mainMessage': 'Main message is required',
    });
    expect(await briefRow(t.db, p.id)).toBeUndefined();

    const missing = await a.agent.post(`/api/brand/brief/${p.id}/submit`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toMatchObject({ part1Json: 'Part 1 of the brief is missing', part2Json: 'Part 2 of the brief is missing' });
  });

  it('refuses over-long fields and non-text values, for drafts too, storing nothing', async () => {
    const a = await brand();
    const p = await purchase(t.db, a.user.id);
    const long = await a.agent.post(`/api/brand/brief/${p.id}`, { part1Json: { inspiration: 'x'.repeat(5001) } });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual({ 'part1Json.inspiration': 'Inspiration must be at most 5000 characters' });
    const wrongType = await a.agent.post(`/api/brand/brief/${p.id}`, { part2Json: { mainGoal: 42 } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors['part2Json.mainGoal']).toBe('Main goal must be text');
    expect(await briefRow(t.db, p.id)).toBeUndefined();
  });

  it('a second purchase is pre-filled from the latest earlier brief ("fallback"): part 1 and the brand-wide part 2 fields', async () => {
    const a = await brand();
    const first = await purchase(t.db, a.user.id);
    await a.agent.post(`/api/brand/brief/${first.id}/submit`, { part1Json: PART1, part2Json: PART2 });
    const second = await purchase(t.db, a.user.id);

    const res = await a.agent.get(`/api/brand/brief/${second.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      part1Json: PART1,
      part2Json: { toneStyleGuidelines: PART2.toneStyleGuidelines, socialMediaLinks: PART2.socialMediaLinks },
      source: 'fallback',
      submittedAt: null,
      version: 'new',
    });
    // reading changes nothing; the first save makes it the second payment's own brief
    expect(await briefRow(t.db, second.id)).toBeUndefined();
    await a.agent.post(`/api/brand/brief/${second.id}`, { part1Json: res.body.part1Json, part2Json: res.body.part2Json });
    expect((await a.agent.get(`/api/brand/brief/${second.id}`)).body.source).toBe('saved');

    // another brand's briefs never pre-fill
    const b = await brand();
    const theirs = await purchase(t.db, b.user.id);
    expect((await b.agent.get(`/api/brand/brief/${theirs.id}`)).body.source).toBe('empty');
  });

  it('prefers a submitted earlier brief over a newer half-written draft', async () => {
    const a = await brand();
    const done = await purchase(t.db, a.user.id);
    await a.agent.post(`/api/brand/brief/${done.id}/submit`, { part1Json: PART1, part2Json: PART2 });
    const drafting = await purchase(t.db, a.user.id);
    await a.agent.post(`/api/brand/brief/${drafting.id}`, { part1Json: { personOrBrandName: 'Half' } });
    const third = await purchase(t.db, a.user.id);
    expect((await a.agent.get(`/api/brand/brief/${third.id}`)).body.part1Json).toEqual(PART1);
  });

  it('refuses drafts and submissions once the payment is released or refunded (409, nothing changes)', async () => {
    const a = await brand();
    for (const status of ['released', 'refunded'] as const) {
      const p = await purchase(t.db, a.user.id, { status });
      const before = await submittedBrief(t.db, p);
      const draft = await a.agent.post(`/api/brand/brief/${p.id}`, { part1Json: { personOrBrandName: 'Changed' } });
      expect(draft.status).toBe(409);
      expect(draft.body.message).toMatch(status === 'released' ? /published/ : /refunded/);
      const submit = await a.agent.post(`/api/brand/brief/${p.id}/submit`, { part1Json: PART1, part2Json: PART2 });
      expect(submit.status).toBe(409);
      expect(await briefRow(t.db, p.id)).toEqual(before);
      // still readable
      expect((await a.agent.get(`/api/brand/brief/${p.id}`)).body.source).toBe('saved');
    }
  });

  it('[SECURITY] another brand’s payment answers 404 on every brief route, and nothing is written', async () => {
    const a = await brand();
    const b = await brand();
    const p = await purchase(t.db, a.user.id);
    await submittedBrief(t.db, p);
    const before = await briefRow(t.db, p.id);
    const get = await b.agent.get(`/api/brand/brief/${p.id}`);
    expect(get.status).toBe(404);
    expect(get.body).toEqual({ message: 'Payment not found', code: 'payment_not_found' });
    expect((await b.agent.post(`/api/brand/brief/${p.id}`, { part1Json: { personOrBrandName: 'Mine' } })).status).toBe(404);
    expect((await b.agent.post(`/api/brand/brief/${p.id}/submit`, { part1Json: PART1, part2Json: PART2 })).status).toBe(404);
    expect(await briefRow(t.db, p.id)).toEqual(before);
    // a missing id and a malformed one look the same
    expect((await b.agent.get('/api/brand/brief/00000000-0000-4000-8000-000000000000')).body).toEqual({ message: 'Payment not found', code: 'payment_not_found' });
    expect((await b.agent.get('/api/brand/brief/not-a-uuid')).status).toBe(404);
  });

  it('is for approved brands only', async () => {
    const k = await everyKind(t.app, t.db);
    const p = await purchase(t.db, k.approvedBrand.user.id);
    expect((await k.visitor.agent.get(`/api/brand/brief/${p.id}`)).status).toBe(401);
    expect((await k.admin.agent.get(`/api/brand/brief/${p.id}`)).status).toBe(403);
    expect((await k.pendingBrand.agent.post(`/api/brand/brief/${p.id}`, { part1Json: {} })).status).toBe(403);
  });
});

describe('the earlier brief flow: /api/brand/brief-access and POST /api/briefs', () => {
  it('brief-access is true only for an opportunity the brand holds a paid payment for', async () => {
    const a = await brand();
    const b = await brand();
    const p = await purchase(t.db, a.user.id);
    const releasedOnly = await purchase(t.db, a.user.id, { status: 'released' });
    const access = (agent: typeof a.agent, id: string) => agent.get(`/api/brand/brief-access?opportunityId=${id}`);
    const yes = await access(a.agent, p.opportunityId);
    expect(yes.status).toBe(200);
    expect(yes.body).toBe(true);
    expect((await access(a.agent, releasedOnly.opportunityId)).body).toBe(false);
    expect((await access(b.agent, p.opportunityId)).body).toBe(false);
    expect((await access(a.agent, 'nonsense')).body).toBe(false);
    const none = await a.agent.get('/api/brand/brief-access');
    expect(none.status).toBe(200);
    expect(none.body).toBe(false);
  });

  it('maps the older field names onto the current brief and submits it; an admin sees the same brief', async () => {
    const a = await brand();
    const p = await purchase(t.db, a.user.id);
    const res = await a.agent.post('/api/briefs', { opportunityId: p.opportunityId, part1: OLDER_PART1, part2: OLDER_PART2 });
    expect(res.status).toBe(200);
    const expected1 = {
      personOrBrandName: 'Jane Founder',
      preferredTitle: 'Jane on soil',
      backgroundExperience: 'Agronomist for 20 years',
      inspiration: 'Her grandmother',
      challengesOvercome: 'Drought',
      uniquePerspective: 'Works with smallholders',
      careerHighlights: 'UN award',
      personalAnecdotes: 'Lost a harvest once',
      futureVision: 'Regenerative farms everywhere',
      additionalInfo: 'Prefers email\n\nTitle ideas:\nThe soil whisperer\n\nReference links:\nhttps://example.org/jane',
    };
    const expected2 = {
      mainGoal: 'Raise awareness',
      targetAudience: 'Policy makers',
      mainMessage: 'Soil is climate',
      specificPoints: 'Carbon capture\n\nInformation to leave out:\nHer family',
      seoKeywords: 'soil, climate',
      toneStyleGuidelines: 'Serious',
      socialMediaLinks: 'x.com/jane',
    };
    expect(res.body).toMatchObject({ paymentId: p.id, part1Json: expected1, part2Json: expected2, submittedAt: expect.any(String) });
    expect((await briefRow(t.db, p.id)).submittedAt).not.toBeNull();
    // the current form reads it back
    expect((await a.agent.get(`/api/brand/brief/${p.id}`)).body).toMatchObject({ source: 'saved', part1Json: expected1 });

    const admin = await signedIn(t.app, t.db, kinds.admin);
    const projects = await admin.agent.get('/api/admin/projects');
    const project = projects.body.find((i: { payment: { id: string } }) => i.payment.id === p.id);
    expect(project.brief).toEqual({ part1Json: expected1, part2Json: expected2, submittedAt: expect.any(String) });
  });

  it('goes to the latest held payment without a submitted brief, else to the latest one', async () => {
    const a = await brand();
    const opp = await createOpportunity(t.db, { maxSlots: 5 });
    const first = await createPayment(t.db, { brandId: a.user.id, opportunityId: opp.id, createdAt: new Date('2026-01-01T00:00:00Z') });
    const second = await createPayment(t.db, { brandId: a.user.id, opportunityId: opp.id, createdAt: new Date('2026-02-01T00:00:00Z') });
    await submittedBrief(t.db, second);
    const body = { opportunityId: opp.id, part1: { ...OLDER_PART1, nameForArticles: 'For first' }, part2: OLDER_PART2 };
    expect((await a.agent.post('/api/briefs', body)).body.paymentId).toBe(first.id);
    expect((await briefRow(t.db, first.id)).part1Json.personOrBrandName).toBe('For first');
    // both submitted now: the latest is updated
    const again = await a.agent.post('/api/briefs', { ...body, part1: { ...OLDER_PART1, nameForArticles: 'Again' } });
    expect(again.body.paymentId).toBe(second.id);
    expect((await briefRow(t.db, second.id)).part1Json.personOrBrandName).toBe('Again');
  });

  it('validates the older form (required fields) and refuses opportunities the brand has not paid for', async () => {
    const a = await brand();
    const b = await brand();
    const p = await purchase(t.db, a.user.id);
    const bad = await a.agent.post('/api/briefs', { opportunityId: p.opportunityId, part1: { nameForArticles: ' ' }, part2: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      'part1.nameForArticles': 'Name is required',
      'part1.background': 'Background is required',
      'part2.goal': 'Goal is required',
      'part2.audience': 'Audience is required',
      'part2.mainMessage': 'Main message is required',
    });
    const other = await b.agent.post('/api/briefs', { opportunityId: p.opportunityId, part1: OLDER_PART1, part2: OLDER_PART2 });
    expect(other.status).toBe(404);
    const released = await purchase(t.db, a.user.id, { status: 'released' });
    expect((await a.agent.post('/api/briefs', { opportunityId: released.opportunityId, part1: OLDER_PART1, part2: OLDER_PART2 })).status).toBe(404);
    expect((await a.agent.post('/api/briefs', { opportunityId: 'x', part1: OLDER_PART1, part2: OLDER_PART2 })).status).toBe(404);
    expect(await briefRow(t.db, p.id)).toBeUndefined();
  });
});
