/**
 * A placement's life in its answers (issue 58, decision 042): every placement item (My Articles,
 * Admin Projects, the placement's page) carries `life` — its state in one vocabulary, whose turn,
 * since when (placements.state_since, kept by drizzle/0045's triggers) and what this viewer may do
 * now, from the table of src/shared/placement-machine.ts. A buyer, a reviewer, a client reviewer
 * (decision 035) and an admin each read their own actions; the state and whose turn are the same.
 */
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placements } from '../../src/server/db/schema';
import type { Life } from '../../src/shared/schemas/brief';
import { DRAFT_REVIEW_STATUSES, PLACEMENT_STATES } from '../../src/shared/enums';
import { lifeStateOf } from '../../src/shared/placement-machine';
import { createTestApp, type Agent, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { PART1, PART2 } from '../support/content';
import { createOpportunity, createPayment } from '../support/content';

let t: TestApp;
let admin: Agent;
let owner: Agent;
let reviewer: Agent;
let clientReviewer: Agent;
let viewer: Agent;
let brandId: string;
let opportunityId: string;
let clientId: string;

beforeAll(async () => {
  t = await createTestApp();
  const o = await signedIn(t.app, t.db, { ...kinds.approvedBrand, brandName: 'Life Agency' });
  owner = o.agent;
  brandId = o.user.id;
  const orgId = o.user.organisationId!;
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  const client = await owner.post<{ id: string }>('/api/org/clients', { name: 'Acme Life' });
  expect(client.status).toBe(201);
  clientId = client.body.id;
  const member = (orgRole: 'reviewer' | 'viewer', clientIds: string[] | null) =>
    signedIn(t.app, t.db, { ...kinds.approvedBrand, organisationId: orgId, orgRole, clientIds });
  reviewer = (await member('reviewer', null)).agent;
  clientReviewer = (await member('reviewer', [clientId])).agent;
  viewer = (await member('viewer', null)).agent;
  opportunityId = (await createOpportunity(t.db, { title: 'A life story', maxSlots: 20 })).id;
});
afterAll(() => t.close());

const buy = async () => {
  const p = await createPayment(t.db, { brandId, opportunityId, createdAt: new Date('2026-02-01T10:00:00.000Z') });
  await t.db.update(placements).set({ clientId }).where(eq(placements.id, p.id));
  return p.id;
};
const lifeOf = async (agent: Agent, id: string, side: 'brand' | 'admin' = 'brand'): Promise<Life> => {
  const res = await agent.get<{ life: Life }>(side === 'brand' ? `/api/brand/my-articles/${id}` : `/api/admin/projects/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.life;
};
const ok = (res: { status: number; text: string }, what: string) => expect(res.status, `${what}: ${res.text}`).toBeLessThan(300);

describe('a placement’s life', () => {
  it('follows the placement from its brief to its release, each viewer with its own actions', async () => {
    const id = await buy();
    // bought: the brand's turn, since it was bought
    expect(await lifeOf(owner, id)).toEqual({
      state: 'brief_pending',
      label: 'Brief pending',
      waitingOn: 'brand',
      since: '2026-02-01T10:00:00.000Z',
      request: null,
      actions: ['submit_brief', 'cancel'],
      // its stage clock (decision 048): the brand's brief, BRIEF_DAYS (3) business days from payment
      clock: expect.objectContaining({ stage: 'brief', owner: 'brand', startedAt: '2026-02-01T10:00:00.000Z', dueAt: '2026-02-05T10:00:00.000Z' }),
    });
    // a reviewer works on briefs and drafts but cannot ask for money back; a client reviewer neither
    expect((await lifeOf(reviewer, id)).actions).toEqual(['submit_brief']);
    expect((await lifeOf(clientReviewer, id)).actions).toEqual(['submit_brief']);
    expect((await lifeOf(viewer, id)).actions).toEqual([]);
    expect(await lifeOf(admin, id, 'admin')).toMatchObject({ state: 'brief_pending', waitingOn: 'brand', actions: ['decline', 'start_writing', 'release', 'refund', 'refund_part'] });

    // the brief, by the client reviewer: the team's turn, since the brief came in
    ok(await clientReviewer.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 }), 'brief');
    const briefed = await lifeOf(owner, id);
    expect(briefed).toMatchObject({ state: 'awaiting_first_draft', label: 'Awaiting first draft', waitingOn: 'team' });
    expect(Date.parse(briefed.since)).toBeGreaterThan(Date.parse('2026-02-01T10:00:00.000Z'));
    expect((await lifeOf(admin, id, 'admin')).actions).toContain('attach_draft');

    // the draft: the brand's turn again; a draft means writing started, so cancelling is a request
    ok(await admin.patch(`/api/admin/payments/${id}/status`, { draftDocumentUrl: 'https://docs.example.com/d/life' }), 'draft');
    const review = await lifeOf(owner, id);
    expect(review).toMatchObject({ state: 'awaiting_review', label: 'Awaiting brand review', waitingOn: 'brand' });
    expect(review.actions).toEqual(['submit_brief', 'request_edits', 'approve', 'request_cancellation', 'open_dispute']);
    expect((await lifeOf(clientReviewer, id)).actions).toEqual(['submit_brief', 'request_edits', 'approve']);
    expect(Date.parse(review.since)).toBeGreaterThanOrEqual(Date.parse(briefed.since));

    // edits asked: the team's turn; marked complete: the brand's
    ok(await reviewer.post(`/api/brand/projects/${id}/request-edits`, { feedback: 'Shorter' }), 'edits');
    expect(await lifeOf(admin, id, 'admin')).toMatchObject({ state: 'edits_requested', label: 'Brand requested edits', waitingOn: 'team' });
    expect((await lifeOf(admin, id, 'admin')).actions).toContain('mark_edits_complete');
    ok(await admin.post(`/api/admin/projects/${id}/mark-edits-complete`), 'complete');
    expect(await lifeOf(owner, id)).toMatchObject({ state: 'edits_complete', label: 'Edits complete - awaiting brand re-review', waitingOn: 'brand' });

    // approved: the team publishes; then released: nobody's turn, and the brand may only dispute
    ok(await owner.post(`/api/brand/projects/${id}/approve`), 'approve');
    expect(await lifeOf(owner, id)).toMatchObject({ state: 'approved', label: 'Brand approved', waitingOn: 'team', actions: ['request_cancellation', 'open_dispute'] });
    ok(await admin.post(`/api/admin/payments/${id}/release`), 'release');
    // a dispute about the content (DISPUTE_DAYS after release) or, while it is guaranteed, the live link
    expect(await lifeOf(owner, id)).toMatchObject({ state: 'released', label: 'Released', waitingOn: 'nobody', actions: ['open_dispute', 'open_link_dispute'] });
    expect((await lifeOf(clientReviewer, id)).actions).toEqual([]);
  });

  it('is the same in the lists as on the placement’s page, and a state change moves `since` only then', async () => {
    const id = await buy();
    await t.db.execute(sql`UPDATE placements SET state_since = '2026-03-01T00:00:00Z' WHERE id = ${id}`);
    // a change that keeps the state keeps `since` (a new feedback text, a revision counted)
    await t.db.update(placements).set({ brandFeedback: 'kept' }).where(eq(placements.id, id));
    const mine = await owner.get<{ payment: { id: string }; life: Life }[]>('/api/brand/my-articles?tab=pending&limit=100');
    expect(mine.body.find((i) => i.payment.id === id)?.life).toEqual(await lifeOf(owner, id));
    expect((await lifeOf(owner, id)).since).toBe('2026-03-01T00:00:00.000Z');
    const projects = await admin.get<{ payment: { id: string }; life: Life }[]>('/api/admin/projects?tab=awaiting&limit=100');
    expect(projects.body.find((i) => i.payment.id === id)?.life).toEqual(await lifeOf(admin, id, 'admin'));
    // declined: a new state, a new `since`
    ok(await admin.post(`/api/admin/payments/${id}/decline`, { reason: 'The outlet passed' }), 'decline');
    const declined = await lifeOf(owner, id);
    expect(declined).toMatchObject({ state: 'declined', waitingOn: 'brand' });
    expect(declined.actions).toContain('swap');
    expect(Date.parse(declined.since)).toBeGreaterThan(Date.parse('2026-03-01T00:00:00Z'));
  });

  it('says the team’s turn while a cancellation it must answer is open', async () => {
    const id = await buy();
    ok(await admin.post(`/api/admin/payments/${id}/writing-started`), 'writing');
    ok(await owner.post(`/api/brand/projects/${id}/cancel`, { reason: 'Plans changed' }), 'cancel');
    expect(await lifeOf(owner, id)).toMatchObject({ state: 'brief_pending', request: 'cancellation', waitingOn: 'team' });
    expect((await lifeOf(admin, id, 'admin')).actions).toEqual(expect.arrayContaining(['grant_cancellation', 'refuse_cancellation']));
  });

  it('refuses through the table a step the older checks let through, changing and recording nothing', async () => {
    const id = await buy();
    ok(await owner.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 }), 'brief');
    ok(await admin.post(`/api/admin/payments/${id}/decline`, { reason: 'The outlet passed' }), 'decline');
    const entries = async () => (await admin.get<{ kind: string }[]>(`/api/admin/projects/${id}/timeline`)).body.map((e) => e.kind);
    const before = await entries();
    // a declined placement waits for the brand's alternative: no draft is attached to it
    const res = await admin.patch<{ code: string; message: string }>(`/api/admin/payments/${id}/status`, { draftDocumentUrl: 'https://docs.example.com/d/no' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'transition_not_allowed', message: 'This placement cannot take this step now (it is Declined – choose an alternative)' });
    const [row] = await t.db.select().from(placements).where(eq(placements.id, id));
    expect(row).toMatchObject({ draftDocumentUrl: null, draftReviewStatus: 'awaiting_brand_brief', writingStartedAt: null });
    expect(await entries()).toEqual(before);
    // the spec's refusals keep their words, checked before the table
    const approve = await owner.post<{ code: string; message: string }>(`/api/brand/projects/${id}/approve`);
    expect(approve.status).toBe(409);
    expect(approve.body).toMatchObject({ code: 'not_in_review', message: 'There is no draft to review yet' });
  });

  it('derives the same state in SQL (drizzle/0045) as in the table, for every combination', async () => {
    const cases: string[] = [];
    for (const state of PLACEMENT_STATES)
      for (const drs of DRAFT_REVIEW_STATUSES)
        for (const brief of [false, true])
          for (const declined of [false, true]) cases.push(`('${state}', '${drs}', ${brief}, ${declined})`);
    const rows = (await t.db.execute(
      sql.raw(`SELECT s, d, b, x, placement_life_state(s, d, b, x) AS life FROM (VALUES ${cases.join(', ')}) AS v(s, d, b, x)`),
    )) as unknown as { rows: { s: never; d: never; b: boolean; x: boolean; life: string }[] };
    expect(rows.rows).toHaveLength(cases.length);
    for (const r of rows.rows) expect(r.life, JSON.stringify(r)).toBe(lifeStateOf({ state: r.s, draftReviewStatus: r.d, briefSubmitted: r.b, declined: r.x }));
  });

  it('backfills `since` from the timeline entry that moved it there, else when it was bought', async () => {
    const bought = await buy();
    const reviewed = await buy();
    ok(await owner.post(`/api/brand/brief/${reviewed}/submit`, { part1Json: PART1, part2Json: PART2 }), 'brief');
    ok(await admin.patch(`/api/admin/payments/${reviewed}/status`, { draftDocumentUrl: 'https://docs.example.com/d/back' }), 'draft');
    ok(await owner.post(`/api/brand/projects/${reviewed}/request-edits`, { feedback: 'Again' }), 'edits');
    await t.db.execute(sql`UPDATE placement_events SET at = '2026-04-04T04:04:04Z' WHERE placement_id = ${reviewed} AND kind = 'edits_requested'`);
    // the migration's backfill, run again over these two
    const migration = readFileSync('drizzle/0045_placement_life.sql', 'utf8');
    const backfill = migration
      .split('--> statement-breakpoint')
      .find((s) => s.includes('UPDATE placements p SET state_since'))!
      .replace(/^(\s*--.*\n)*/m, '');
    await t.db.execute(sql.raw(`${backfill.trim().replace(/;$/, '')} WHERE p.id IN ('${bought}', '${reviewed}')`));
    expect((await lifeOf(owner, bought)).since).toBe('2026-02-01T10:00:00.000Z');
    expect(await lifeOf(owner, reviewed)).toMatchObject({ state: 'edits_requested', since: '2026-04-04T04:04:04.000Z' });
  });
});
