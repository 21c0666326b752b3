/**
 * Stage clocks (issue 59, decision 048): each stage has a side that owes it and a due time in
 * business days, kept by the database as the placement moves; on track, at risk with a fifth of
 * its time left, late past due, paused while the other side holds the placement (and resumed where
 * it stopped); the brand's late stages move "Live by" by as many business days, with the reason.
 * Byline's time is moved with the test clock (tests/support/clock.ts): the database's clock_now()
 * and the server's now() together.
 */
import { readFileSync } from 'node:fs';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancellations, orgClients, payments, placements } from '../../src/server/db/schema';
import type { Clock } from '../../src/shared/stage-clock';
import type { Res } from '../support/app';
import { addBusinessDays, businessDaysBetween } from '../support/business-days';
import { setClockTo, setTestClock } from '../support/clock';
import { PART1, PART2 } from '../support/content';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, makePayment, type PaymentsTestApp } from '../support/payments';

type Project = { payment: { id: string }; life: { clock: Clock } };

const HOUR = 3_600_000;

let t: PaymentsTestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
let brand: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  t = await createPaymentsTestApp({ config: { REVISIONS_INCLUDED: 1, BRIEF_DAYS: 3, REVIEW_DAYS: 3, EDIT_DAYS: 2 } });
  admin = await signedIn(t.app, t.db, kinds.admin);
  brand = await signedIn(t.app, t.db, kinds.approvedBrand);
});
afterAll(async () => {
  await setTestClock(t.db, 0);
  await t.close();
});

const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};
const at = (iso: string) => setClockTo(t.db, new Date(iso));
const d = (iso: string) => new Date(iso);

/** The tests' model of the database's business_days_late: business days past due, a part day counting whole. */
function businessDaysLate(due: Date, end: Date): number {
  if (end <= due) return 0;
  const n = businessDaysBetween(due, end);
  return addBusinessDays(due, n) < end ? n + 1 : n;
}

/** A placement bought at `createdAt` (Byline's time then) of an opportunity listing `tatDays`. */
async function bought(createdAt: Date, tatDays: number | null = 10) {
  const opp = await createOpportunity(t.db, { tatDays, maxSlots: 50 });
  const p = await makePayment(t.db, brand.user.id, opp.id, { createdAt, paidAt: createdAt, amount: '840.00' });
  // one round of edits included, as REVISIONS_INCLUDED says at purchase
  const [row] = await t.db.update(placements).set({ revisionsIncluded: 1 }).where(eq(placements.id, p.id)).returning();
  return { id: p.id, promisedBy: row.promisedBy };
}

/**
 * The test clock runs on from where it is set (as the wall clock does): each step happens within
 * a second of it, so the clock's times are compared to the minute.
 */
const toMinute = (iso: string | null) => (iso === null ? null : new Date(Math.round(Date.parse(iso) / 60_000) * 60_000).toISOString());
const byMinute = (c: Clock): Clock => ({
  ...c,
  startedAt: toMinute(c.startedAt),
  dueAt: toMinute(c.dueAt),
  pausedAt: toMinute(c.pausedAt),
  promiseMoves: c.promiseMoves.map((m) => ({ ...m, at: toMinute(m.at)! })),
});
const brandClock = async (id: string): Promise<Clock> => byMinute(ok(await brand.agent.get(`/api/brand/my-articles/${id}`), 'card').life.clock);
const adminClock = async (id: string): Promise<Clock> => byMinute(ok(await admin.agent.get(`/api/admin/projects/${id}`), 'project').life.clock);

const submitBrief = async (id: string) => ok(await brand.agent.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 }), 'brief');
const attachDraft = async (id: string, n = 1) =>
  ok(await admin.agent.patch(`/api/admin/payments/${id}/status`, { draftDocumentUrl: `https://docs.example.com/clock-${n}` }), 'draft');
const requestEdits = async (id: string, extra?: string) =>
  ok(await brand.agent.post(`/api/brand/projects/${id}/request-edits`, { feedback: 'Tighter intro', ...(extra ? { reason: extra } : {}) }), 'edits');
const markComplete = async (id: string) => ok(await admin.agent.post(`/api/admin/projects/${id}/mark-edits-complete`), 'complete');
const approve = async (id: string) => ok(await brand.agent.post(`/api/brand/projects/${id}/approve`), 'approve');

describe('every stage, its owner and its due time in business days', () => {
  it('runs brief, first draft, review, edits, review again and publication; the team late, the brand on time', async () => {
    // Friday 8 January 2027, 10:00 UTC: the brief's 3 business days cross the weekend
    const paid = d('2027-01-08T10:00:00.000Z');
    await at('2027-01-08T10:00:00.000Z');
    const { id, promisedBy } = await bought(paid);
    const briefDue = addBusinessDays(paid, 3);
    expect(briefDue.toISOString()).toBe('2027-01-13T10:00:00.000Z'); // Wednesday
    expect(await brandClock(id)).toMatchObject({
      stage: 'brief',
      owner: 'brand',
      startedAt: paid.toISOString(),
      dueAt: briefDue.toISOString(),
      state: 'on_track',
      liveBy: promisedBy!.toISOString(),
      promiseMovedDays: 0,
      promiseMoved: null,
    });
    // the brand reads "Waiting on you" and the team "Waiting on the brand" beside it
    expect(ok(await brand.agent.get(`/api/brand/my-articles/${id}`), 'card').life.waitingOn).toBe('brand');

    // 120 hours from Friday to Wednesday: at risk with 24 of them left, not with 25
    await setClockTo(t.db, new Date(briefDue.getTime() - 25 * HOUR));
    expect((await brandClock(id)).state).toBe('on_track');
    await setClockTo(t.db, new Date(briefDue.getTime() - 23 * HOUR));
    expect((await brandClock(id)).state).toBe('at_risk');

    // the brief on time (Tuesday): the first draft is the team's, due by the listed 10 business days but never after "Live by"
    await at('2027-01-12T10:00:00.000Z');
    await submitBrief(id);
    const afterBrief = await adminClock(id);
    const draftDue = new Date(Math.min(addBusinessDays(d('2027-01-12T10:00:00.000Z'), 10).getTime(), promisedBy!.getTime()));
    expect(afterBrief).toMatchObject({ stage: 'draft', owner: 'team', startedAt: '2027-01-12T10:00:00.000Z', dueAt: draftDue.toISOString(), state: 'on_track', promiseMovedDays: 0 });
    expect(draftDue.toISOString()).toBe(promisedBy!.toISOString());

    // the draft (Thursday): the brand's review, 3 business days
    await at('2027-01-14T10:00:00.000Z');
    await attachDraft(id);
    expect(await brandClock(id)).toMatchObject({ stage: 'review', owner: 'brand', dueAt: '2027-01-19T10:00:00.000Z', state: 'on_track' });

    // edits asked on time (Monday): the team's round, 2 business days
    await at('2027-01-18T10:00:00.000Z');
    await requestEdits(id);
    expect(await adminClock(id)).toMatchObject({ stage: 'edits', owner: 'team', dueAt: '2027-01-20T10:00:00.000Z', state: 'on_track' });

    // the team runs late: Thursday the round is a day past due
    await at('2027-01-21T09:00:00.000Z');
    expect(await adminClock(id)).toMatchObject({ stage: 'edits', state: 'late' });
    expect((await brandClock(id)).state).toBe('late');
    await markComplete(id);
    // the team's lateness never moves the promise; the brand's review again, 3 business days
    expect(await brandClock(id)).toMatchObject({ stage: 'review', owner: 'brand', dueAt: '2027-01-26T09:00:00.000Z', promiseMovedDays: 0, liveBy: promisedBy!.toISOString() });

    // approved on time: publication is the team's, by "Live by"
    await at('2027-01-22T12:00:00.000Z');
    await approve(id);
    expect(await adminClock(id)).toMatchObject({ stage: 'publication', owner: 'team', dueAt: promisedBy!.toISOString(), promiseMovedDays: 0 });
    await setClockTo(t.db, new Date(promisedBy!.getTime() + HOUR));
    expect((await adminClock(id)).state).toBe('late');

    // released: no clock runs
    ok(await admin.agent.post(`/api/admin/payments/${id}/release`), 'release');
    expect(await adminClock(id)).toMatchObject({ stage: null, owner: null, dueAt: null, state: null, liveBy: promisedBy!.toISOString() });
  });
});

describe('the brand late: "Live by" moves, and the page says why', () => {
  it('moves it by the business days the brief and the review were late, with each reason', async () => {
    // Monday 4 January 2027, 10:00: the brief is due Thursday 7 at 10:00
    const paid = d('2027-01-04T10:00:00.000Z');
    await at('2027-01-04T10:00:00.000Z');
    const { id, promisedBy } = await bought(paid);
    const briefDue = addBusinessDays(paid, 3);
    await at('2027-01-08T10:00:00.000Z');
    expect(await brandClock(id)).toMatchObject({ stage: 'brief', state: 'late' });
    // sent Monday 11 at 09:00: Friday and Monday, 2 business days late
    const sent = d('2027-01-11T09:00:00.000Z');
    await setClockTo(t.db, sent);
    await submitBrief(id);
    expect(businessDaysLate(briefDue, sent)).toBe(2);
    const moved = addBusinessDays(promisedBy!, 2);
    const clock = await brandClock(id);
    expect(clock).toMatchObject({
      stage: 'draft',
      liveBy: moved.toISOString(),
      promiseMovedDays: 2,
      promiseMoves: [{ stage: 'brief', to: 'draft', days: 2, at: sent.toISOString() }],
      promiseMoved: 'moved 2 days: brief sent 2 days late',
    });
    // the first draft is due by the moved date at the latest, and the team's clock started when the brief came in
    expect(clock.startedAt).toBe(sent.toISOString());
    expect(Date.parse(clock.dueAt!)).toBeLessThanOrEqual(moved.getTime());
    const [row] = await t.db.select().from(placements).where(eq(placements.id, id));
    expect(row.promiseMovedDays).toBe(2);

    // the draft Tuesday 12 at 10:00, the review due Friday 15 at 10:00; sent back Friday at 11:00: a part day, 1 day late
    await at('2027-01-12T10:00:00.000Z');
    await attachDraft(id);
    await at('2027-01-15T11:00:00.000Z');
    await requestEdits(id);
    expect(await brandClock(id)).toMatchObject({
      stage: 'edits',
      promiseMovedDays: 3,
      liveBy: addBusinessDays(promisedBy!, 3).toISOString(),
      promiseMoved: 'moved 3 days: brief sent 2 days late; review sent back 1 day late',
    });
    // the same on the team's side
    expect((await adminClock(id)).promiseMoved).toBe('moved 3 days: brief sent 2 days late; review sent back 1 day late');
  });

  it('does not move it for a brief sent on time, even on its last hour', async () => {
    const paid = d('2027-02-01T10:00:00.000Z');
    await at('2027-02-01T10:00:00.000Z');
    const { id, promisedBy } = await bought(paid);
    await setClockTo(t.db, new Date(addBusinessDays(paid, 3).getTime() - HOUR));
    await submitBrief(id);
    expect(await brandClock(id)).toMatchObject({ stage: 'draft', promiseMovedDays: 0, promiseMoves: [], liveBy: promisedBy!.toISOString() });
  });
});

describe('a pause while the other side holds the placement', () => {
  it('stops the brand’s review while an extra revision waits for the team, and resumes it where it stopped', async () => {
    const paid = d('2027-03-01T10:00:00.000Z'); // a Monday
    await at('2027-03-01T10:00:00.000Z');
    const { id } = await bought(paid);
    await submitBrief(id);
    await at('2027-03-02T10:00:00.000Z');
    await attachDraft(id);
    await requestEdits(id); // the one included round
    await at('2027-03-03T10:00:00.000Z');
    await markComplete(id);
    const review = await brandClock(id);
    expect(review).toMatchObject({ stage: 'review', dueAt: '2027-03-08T10:00:00.000Z', state: 'on_track' });

    // Thursday: the brand asks an extra round; the team holds it: the brand's clock stops
    await at('2027-03-04T10:00:00.000Z');
    await requestEdits(id, 'The draft misses the product named in the brief');
    const paused = await brandClock(id);
    expect(paused).toMatchObject({ stage: 'review', state: 'paused', pausedAt: '2027-03-04T10:00:00.000Z', dueAt: '2027-03-08T10:00:00.000Z' });
    expect(ok(await brand.agent.get(`/api/brand/my-articles/${id}`), 'card').life.waitingOn).toBe('team');
    // past the due time, paused is neither late nor at risk, and Projects' filters leave it out
    await at('2027-03-09T10:00:00.000Z');
    expect((await brandClock(id)).state).toBe('paused');
    const late = ok(await admin.agent.get('/api/admin/projects?clock=late&limit=200'), 'late') as Project[];
    expect(late.map((p) => p.payment.id)).not.toContain(id);
    // the late ones are listed by due time, the most overdue first
    const dues = late.map((p) => Date.parse(p.life.clock.dueAt!));
    expect(dues.length).toBeGreaterThan(1);
    expect(dues).toEqual([...dues].sort((a, b) => a - b));

    // the team declines it on Tuesday 9: the review resumes with the two business days it had left
    // (Friday, Monday), due moved by the pause's 3 business days (its weekend apart): Thursday 11
    ok(await admin.agent.post(`/api/admin/payments/${id}/revision-request/decline`, { reason: 'The brief does not name that product' }), 'decline');
    const resumed = await brandClock(id);
    expect(resumed).toMatchObject({ stage: 'review', pausedAt: null, dueAt: '2027-03-11T10:00:00.000Z', state: 'on_track' });
    // its length kept: started moved as much (at risk still at a fifth of it)
    expect(Date.parse(resumed.dueAt!) - Date.parse(resumed.startedAt!)).toBe(Date.parse(review.dueAt!) - Date.parse(review.startedAt!));
    // the team's time holding it never moved "Live by"
    expect(resumed.promiseMovedDays).toBe(0);
  });

  it('stops the brand’s review while its cancellation request waits for the team', async () => {
    const paid = d('2027-04-05T10:00:00.000Z'); // a Monday
    await at('2027-04-05T10:00:00.000Z');
    const { id } = await bought(paid);
    await submitBrief(id);
    await attachDraft(id);
    expect(await brandClock(id)).toMatchObject({ stage: 'review', dueAt: '2027-04-08T10:00:00.000Z' });
    await at('2027-04-06T10:00:00.000Z');
    ok(await brand.agent.post(`/api/brand/projects/${id}/cancel`, { reason: 'Plans changed' }), 'cancel');
    expect(await brandClock(id)).toMatchObject({ stage: 'review', state: 'paused', pausedAt: '2027-04-06T10:00:00.000Z' });
    // refused a day later: resumed, due a day later
    await at('2027-04-07T10:00:00.000Z');
    const [request] = await t.db.select().from(cancellations).where(eq(cancellations.placementId, id));
    ok(await admin.agent.post(`/api/admin/cancellations/${request.id}/answer`, { outcome: 'refuse', reason: 'The draft is written' }), 'refuse');
    expect(await brandClock(id)).toMatchObject({ stage: 'review', pausedAt: null, dueAt: '2027-04-09T10:00:00.000Z', state: 'on_track' });
  });
});

describe('Admin Projects by due time, at risk, late and mine', () => {
  it('sorts the running clocks soonest first and filters them server-side', async () => {
    // three briefs due on three days: the clock on Wednesday 5 May 2027 at 10:00
    const ids: string[] = [];
    for (const paid of ['2027-05-03T10:00:00.000Z', '2027-04-29T10:00:00.000Z', '2027-05-04T10:00:00.000Z']) {
      await at(paid);
      ids.push((await bought(d(paid))).id);
    }
    const [atRisk, late, onTrack] = ids;
    // Thursday 6 May at 04:00: one due Thursday 10:00 (6 of its 72 hours left: at risk), one
    // Tuesday 4 (late), one Friday 7 at 10:00 (30 of 72 left: on track)
    await at('2027-05-06T04:00:00.000Z');
    const expected = { [atRisk]: 'at_risk', [late]: 'late', [onTrack]: 'on_track' };
    for (const id of ids) expect((await adminClock(id)).state).toBe(expected[id]);

    const list = async (query: string) =>
      (ok(await admin.agent.get(`/api/admin/projects?${query}&limit=200`), query) as Project[]).filter((p) => ids.includes(p.payment.id));
    const byDue = await list('sort=due');
    expect(byDue.map((p) => p.payment.id)).toEqual([late, atRisk, onTrack]);
    // pages of one follow the same order by their cursor
    const first = await admin.agent.get('/api/admin/projects?sort=due&limit=1');
    expect(first.status).toBe(200);
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))?.[1];
    expect(next).toContain('sort=due');
    const second = ok(await admin.agent.get(next!), 'next') as { life: { clock: Clock } }[];
    expect(Date.parse(second[0].life.clock.dueAt!)).toBeGreaterThanOrEqual(Date.parse((first.body as { life: { clock: Clock } }[])[0].life.clock.dueAt!));

    expect((await list('clock=late')).map((p) => p.payment.id)).toEqual([late]);
    expect((await list('clock=at_risk')).map((p) => p.payment.id)).toEqual([atRisk]);
    expect((await list('clock=at_risk&sort=due')).map((p) => p.payment.id)).toEqual([atRisk]);

    // mine: the admin's own, with a filter and the sort
    await t.db.update(placements).set({ assigneeId: admin.user.id }).where(inArray(placements.id, [late, onTrack]));
    expect((await list('mine=true&sort=due')).map((p) => p.payment.id)).toEqual([late, onTrack]);
    expect((await list('mine=true&clock=late')).map((p) => p.payment.id)).toEqual([late]);

    // the dashboard's counts and the attention list: the admin's own first, each with its clock
    const attention = ok(await admin.agent.get('/api/admin/attention'), 'attention');
    expect(attention.clocks.late).toBeGreaterThanOrEqual(1);
    expect(attention.clocks.atRisk).toBeGreaterThanOrEqual(1);

    // a refused value is a 400 with words
    const bad = await admin.agent.get('/api/admin/projects?clock=soon');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('clock must be at_risk or late');
    const badSort = await admin.agent.get('/api/admin/projects?sort=oldest');
    expect(badSort.status).toBe(400);
  });

  it('lists the signed-in admin’s assigned placements first in the attention list, with their clock', async () => {
    await at('2027-06-01T10:00:00.000Z');
    const mineOne = await bought(d('2027-06-01T10:00:00.000Z'));
    const other = await bought(d('2027-06-01T10:00:00.000Z'));
    for (const id of [mineOne.id, other.id]) {
      await submitBrief(id);
      await attachDraft(id);
      await requestEdits(id); // edits requested: waits on the team
    }
    // the admin who attached the drafts became their editor; the other is given to Eve
    const eve = await signedIn(t.app, t.db, { ...kinds.admin, name: 'Eve Editor' });
    await t.db.update(placements).set({ assigneeId: eve.user.id }).where(eq(placements.id, other.id));
    const attention = ok(await admin.agent.get('/api/admin/attention'), 'attention') as { items: { paymentId: string; mine: boolean; clock: Clock }[] };
    const order = attention.items.map((i) => i.paymentId);
    expect(attention.items.find((i) => i.paymentId === mineOne.id)).toMatchObject({ mine: true, clock: { stage: 'edits', owner: 'team' } });
    expect(attention.items.find((i) => i.paymentId === other.id)).toMatchObject({ mine: false, clock: { stage: 'edits' } });
    // every one of the admin's own before any other, the same urgency otherwise
    const mineFlags = attention.items.map((i) => i.mine);
    expect(mineFlags).toEqual([...mineFlags].sort((a, b) => Number(b) - Number(a)));
    expect(order.indexOf(mineOne.id)).toBeLessThan(order.indexOf(other.id));
    // Eve sees hers first
    const theirs = ok(await eve.agent.get('/api/admin/attention'), 'attention') as { items: { paymentId: string; mine: boolean }[] };
    expect(theirs.items[0]).toMatchObject({ paymentId: other.id, mine: true });
    expect(theirs.items.filter((i) => i.mine).map((i) => i.paymentId)).toEqual([other.id]);
  });
});

describe('a client reviewer', () => {
  it('sees the clock and the moved date, never an amount', async () => {
    await at('2027-07-05T10:00:00.000Z');
    const { id } = await bought(d('2027-07-05T10:00:00.000Z'));
    const [client] = await t.db.insert(orgClients).values({ organisationId: brand.user.organisationId!, name: 'Clocked Client' }).returning();
    await t.db.update(placements).set({ clientId: client.id }).where(eq(placements.id, id));
    await t.db.update(payments).set({ clientId: client.id }).where(eq(payments.id, id));
    const reviewer = await signedIn(t.app, t.db, { organisationId: brand.user.organisationId, orgRole: 'reviewer', clientIds: [client.id] });
    await at('2027-07-12T09:59:00.000Z');
    ok(await reviewer.agent.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 }), 'brief');
    const res = await reviewer.agent.get(`/api/brand/my-articles/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.life.clock).toMatchObject({ stage: 'draft', owner: 'team', promiseMovedDays: 2, promiseMoved: 'moved 2 days: brief sent 2 days late' });
    // no amount anywhere in the answer (as a number or a decimal string; ids may hold the digits)
    expect(res.text).not.toMatch(/[":]840(\.00)?["},]/);
    expect(res.body.priceUsd).toBeUndefined();
  });
});

describe('the migration’s backfill', () => {
  it('starts each placement’s stage when it entered its state (the first draft at its brief), running', async () => {
    await at('2027-08-02T10:00:00.000Z'); // a Monday
    const edited = await bought(d('2027-08-02T10:00:00.000Z'));
    await submitBrief(edited.id);
    await attachDraft(edited.id);
    await requestEdits(edited.id);
    const briefed = await bought(d('2027-08-02T10:00:00.000Z'));
    await at('2027-08-03T10:00:00.000Z');
    await submitBrief(briefed.id);
    // as before the migration: no clock, the state entered on Wednesday for the edited one
    await t.db
      .update(placements)
      .set({ clockStage: null, clockStartedAt: null, clockDueAt: null, clockPausedAt: null, stateSince: d('2027-08-04T10:00:00.000Z') })
      .where(inArray(placements.id, [edited.id, briefed.id]));
    const migration = readFileSync('drizzle/0053_stage_clocks.sql', 'utf8');
    const backfill = migration
      .split('--> statement-breakpoint')
      .find((s) => s.includes('UPDATE placements p SET'))!
      .replace(/^(\s*--.*\n)*/m, '');
    await t.db.execute(sql.raw(`${backfill.trim().replace(/;$/, '')} AND p.id IN ('${edited.id}', '${briefed.id}')`));
    expect(await adminClock(edited.id)).toMatchObject({ stage: 'edits', owner: 'team', startedAt: '2027-08-04T10:00:00.000Z', dueAt: '2027-08-06T10:00:00.000Z', pausedAt: null });
    // the first draft from the brief's submission (Tuesday), by the listed 10 business days or "Live by"
    const clock = await adminClock(briefed.id);
    expect(clock).toMatchObject({ stage: 'draft', startedAt: '2027-08-03T10:00:00.000Z' });
    expect(clock.dueAt).toBe(toMinute(new Date(Math.min(addBusinessDays(d('2027-08-03T10:00:00.000Z'), 10).getTime(), briefed.promisedBy!.getTime())).toISOString()));
  });
});
