/**
 * A placement's timeline: every change of the workflow, through the real API from checkout to
 * release (and a refund), writes exactly one entry (two for a release: published and released), in
 * the change's own transaction; the brand sees its own only.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, placementEvents, users } from '../../src/server/db/schema';
import type { TimelineEntry } from '../../src/shared/timeline';
import { Agent, type Res } from '../support/app';
import { PART1, PART2, paymentRow } from '../support/content';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, sessionIdOf, type PaymentsTestApp } from '../support/payments';

let t: PaymentsTestApp;
let brand: Agent;
let brandId: string;
let stranger: Agent;
let admin: Agent;

beforeAll(async () => {
  t = await createPaymentsTestApp();
  const b = await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: 'Rhea Rocket', brandName: 'Acme Rockets' });
  brand = b.agent;
  brandId = b.user!.id;
  stranger = (await signedIn(t.app, t.db, kinds.approvedBrand)).agent;
  admin = (await signedIn(t.app, t.db, { ...kinds.admin, name: 'Edna Editor' })).agent;
});
afterAll(() => t.close());

async function buy(): Promise<string> {
  const opp = await createOpportunity(t.db, { maxSlots: 10, priceUsd: '1250.00' });
  const res = await brand.post('/api/payments/checkout', { opportunityId: opp.id });
  expect(res.status).toBe(200);
  const sessionId = sessionIdOf(res.body.url);
  const paid = await brand.post(`/api/payments/checkout/${sessionId}/pay`);
  expect(paid.status, paid.text).toBe(200);
  const [row] = await t.db.select().from(payments).where(eq(payments.providerSessionId, sessionId));
  return row.id;
}

const timeline = async (agent: Agent, side: 'brand' | 'admin', id: string) => {
  const res = await agent.get<TimelineEntry[]>(`/api/${side}/projects/${id}/timeline`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const eventCount = async (id: string) =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(placementEvents).where(eq(placementEvents.placementId, id)))[0].n;

/** Runs a step and checks it added exactly `kinds` to the timeline. */
async function step(id: string, expected: string[], run: () => Promise<{ status: number; text: string }>) {
  const before = await eventCount(id);
  const res = await run();
  expect(res.status, res.text).toBeLessThan(300);
  const entries = await timeline(admin, 'admin', id);
  expect(entries.slice(before).map((e) => e.kind)).toEqual(expected);
  return entries.slice(before);
}

describe('the timeline of one article, from payment to release', () => {
  it('records each change once, with who and what', async () => {
    const id = await buy();
    const draft = { draftDocumentUrl: 'https://docs.example.com/draft-1' };
    let entries = await timeline(brand, 'brand', id);
    expect(entries.map((e) => [e.kind, e.actor.type, e.actor.name, e.details])).toEqual([['paid', 'brand', 'Rhea Rocket', { amount: '1250.00' }]]);

    await step(id, ['brief_saved'], () => brand.post(`/api/brand/brief/${id}`, { part1Json: { name: 'Ann' } }));
    await step(id, [], () => brand.post(`/api/brand/brief/${id}`, { part1Json: { name: 'Ann B' } }));
    await step(id, ['brief_submitted'], () => brand.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 }));
    const [attached] = await step(id, ['draft_attached'], () => admin.patch(`/api/admin/payments/${id}/status`, draft));
    expect(attached).toMatchObject({ actor: { type: 'admin', name: 'Edna Editor' }, details: { round: 1, link: true } });
    const [edits1] = await step(id, ['edits_requested'], () => brand.post(`/api/brand/projects/${id}/request-edits`, { feedback: 'Add a quote from the CEO' }));
    expect(edits1.details).toEqual({ round: 1, feedback: 'Add a quote from the CEO', revision: 1, included: 2 });
    await step(id, ['edits_completed'], () => admin.post(`/api/admin/projects/${id}/mark-edits-complete`));
    await step(id, ['draft_attached'], () => admin.patch(`/api/admin/payments/${id}/status`, { draftDocumentUrl: 'https://docs.example.com/draft-2' }));
    const [edits2] = await step(id, ['edits_requested'], () => brand.post(`/api/brand/projects/${id}/request-edits`, { feedback: 'Shorter intro, please' }));
    expect(edits2.details).toEqual({ round: 2, feedback: 'Shorter intro, please', revision: 2, included: 2 });
    await step(id, ['edits_completed'], () => admin.post(`/api/admin/projects/${id}/mark-edits-complete`));
    const [approved] = await step(id, ['approved'], () => brand.post(`/api/brand/projects/${id}/approve`));
    // the member who acted, not the organisation's brand name (issue 57)
    expect(approved.actor).toEqual({ type: 'brand', name: 'Rhea Rocket' });
    // refused changes write nothing
    await step(id, [], async () => {
      const res = await brand.post(`/api/brand/projects/${id}/approve`);
      expect(res.status).toBe(409);
      return { status: 200, text: '' };
    });
    const released = await step(id, ['published', 'released'], () => admin.post(`/api/admin/payments/${id}/release`));
    expect(released[1]).toMatchObject({ actor: { type: 'admin', name: 'Edna Editor' }, details: { amount: '1250.00' } });

    // every round's feedback is kept, though the payment keeps only the last (the spec's field)
    expect((await paymentRow(t.db, id)).brandFeedback).toBe('Shorter intro, please');
    entries = await timeline(brand, 'brand', id);
    expect(entries.filter((e) => e.kind === 'edits_requested').map((e) => e.details.feedback)).toEqual(['Add a quote from the CEO', 'Shorter intro, please']);
    expect(entries.map((e) => e.kind)).toEqual([
      'paid',
      'brief_saved',
      'brief_submitted',
      'draft_attached',
      'edits_requested',
      'edits_completed',
      'draft_attached',
      'edits_requested',
      'edits_completed',
      'approved',
      'published',
      'released',
    ]);
    // oldest first, with times
    const times = entries.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    // a name changed later does not rewrite history
    await t.db.update(users).set({ name: 'Rhea Renamed', brandName: 'Acme Renamed' }).where(eq(users.id, brandId));
    expect((await timeline(brand, 'brand', id))[0].actor.name).toBe('Rhea Rocket');
  });

  it('records a refund with its reason and the admin who made it', async () => {
    const id = await buy();
    const entries = await step(id, ['refunded'], () => admin.post(`/api/admin/payments/${id}/refund`));
    expect(entries[0]).toMatchObject({ actor: { type: 'admin', name: 'Edna Editor' }, details: { reason: 'admin', amount: '1250.00' } });
  });

  it('pages oldest first with a Link to the next page', async () => {
    const id = await buy();
    await brand.post(`/api/brand/brief/${id}`, { part1Json: { name: 'Ann' } });
    await brand.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 });
    const first = await brand.get<TimelineEntry[]>(`/api/brand/projects/${id}/timeline?limit=2`);
    expect(first.body.map((e) => e.kind)).toEqual(['paid', 'brief_saved']);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.link as string)![1];
    const second = await brand.get<TimelineEntry[]>(next);
    expect(second.body.map((e) => e.kind)).toEqual(['brief_submitted']);
    expect(second.headers.link).toBeUndefined();
    expect((await brand.get(`/api/brand/projects/${id}/timeline?limit=0`)).status).toBe(400);
    expect((await brand.get(`/api/brand/projects/${id}/timeline?cursor=zz`)).status).toBe(400);
  });

  it('a page that is exactly full has no Link to an empty next page', async () => {
    const id = await buy();
    await brand.post(`/api/brand/brief/${id}`, { part1Json: { name: 'Ann' } });
    await brand.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 });
    for (const [agent, side] of [[brand, 'brand'], [admin, 'admin']] as const) {
      const whole = await agent.get<TimelineEntry[]>(`/api/${side}/projects/${id}/timeline?limit=3`);
      expect(whole.body.map((e) => e.kind), side).toEqual(['paid', 'brief_saved', 'brief_submitted']);
      expect(whole.headers.link, side).toBeUndefined();
      // one at a time: the third page is full and the last
      const kinds: string[] = [];
      let url: string | undefined = `/api/${side}/projects/${id}/timeline?limit=1`;
      while (url) {
        const res: Res<TimelineEntry[]> = await agent.get<TimelineEntry[]>(url);
        expect(res.body, `${side} ${url}`).toHaveLength(1);
        kinds.push(...res.body.map((e) => e.kind));
        url = res.headers.link === undefined ? undefined : /^<([^>]+)>; rel="next"$/.exec(res.headers.link as string)![1];
        expect(kinds.length).toBeLessThanOrEqual(3);
      }
      expect(kinds, side).toEqual(['paid', 'brief_saved', 'brief_submitted']);
    }
  });

  it("is the brand's own: another brand's article is a 404, like a missing one; admins see all", async () => {
    const id = await buy();
    expect((await stranger.get(`/api/brand/projects/${id}/timeline`)).status).toBe(404);
    expect((await brand.get('/api/brand/projects/00000000-0000-4000-8000-000000000000/timeline')).status).toBe(404);
    expect((await brand.get('/api/brand/projects/nope/timeline')).status).toBe(404);
    expect((await brand.get(`/api/admin/projects/${id}/timeline`)).status).toBe(403);
    expect((await new Agent(t.app).get(`/api/brand/projects/${id}/timeline`)).status).toBe(401);
    expect((await timeline(admin, 'admin', id)).map((e) => e.kind)).toEqual(['paid']);
  });
});

describe('the entry and its change are one transaction', () => {
  it('a change that fails while writing its entry leaves neither', async () => {
    const id = await buy();
    await brand.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 });
    await admin.patch(`/api/admin/payments/${id}/status`, { draftDocumentUrl: 'https://docs.example.com/d' });
    const before = await eventCount(id);
    // the change's UPDATE has run when its entry is inserted: make that insert fail, half-way
    await t.db.execute(sql`CREATE FUNCTION refuse_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'killed half-way'; END $$`);
    await t.db.execute(sql`CREATE TRIGGER refuse_event BEFORE INSERT ON placement_events FOR EACH ROW EXECUTE FUNCTION refuse_event()`);
    try {
      const res = await brand.post(`/api/brand/projects/${id}/approve`);
      expect(res.status).toBe(500);
    } finally {
      await t.db.execute(sql`DROP TRIGGER refuse_event ON placement_events`);
      await t.db.execute(sql`DROP FUNCTION refuse_event()`);
    }
    expect((await paymentRow(t.db, id)).draftReviewStatus).toBe('pending_brand_review');
    expect(await eventCount(id)).toBe(before);
    // and once the fault is gone the same change works, with its entry
    expect((await brand.post(`/api/brand/projects/${id}/approve`)).status).toBe(200);
    expect((await timeline(admin, 'admin', id)).at(-1)?.kind).toBe('approved');
  });
});
