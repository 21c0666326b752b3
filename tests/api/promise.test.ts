/**
 * A promise at purchase (issue 59, decision 047): "Live by" from the outlet's record (P50/P90
 * business days from brief to publication, once it has PROMISE_MIN_DELIVERIES) or else its listed
 * turnaround; shown on the cards, the cart and the outlet's page; fixed on the placement when it
 * is made, by the database, and kept when the record changes.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { briefs, outlets, placements, publications } from '../../src/server/db/schema';
import { startOfUtcDay } from '../../src/server/lib/dates';
import { addBusinessDays, businessDaysBetween, promiseOf } from '../support/business-days';
import { DAY_MS } from '../../src/shared/constants';
import { createTestApp, type Agent, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { PART1, PART2 } from '../support/content';
import { createOpportunity, makePayment, sessionIdOf } from '../support/payments';

let t: TestApp;
let admin: Agent;
let brand: Agent;
let brandId: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  const b = await signedIn(t.app, t.db, kinds.approvedBrand);
  brand = b.agent;
  brandId = b.user.id;
});
afterAll(() => t.close());

const iso = (d: Date | null) => d?.toISOString() ?? null;

describe('business days in SQL', () => {
  it('add_business_days and business_days_between agree with src/shared/business-days.ts', async () => {
    // a few dozen moments over every weekday and time, a fixed walk (no randomness to chase)
    const pairs = Array.from({ length: 40 }, (_, i) => {
      const a = new Date(Date.UTC(2026, 0, 1) + i * 37 * 3_600_000 + i * 61_000);
      const b = new Date(a.getTime() + ((i * 29) % 45) * DAY_MS - (i % 3) * 3_600_000);
      return { a, b, n: (i * 7) % 23 };
    });
    for (const { a, b, n } of pairs) {
      const rows = (await t.db.execute(
        sql`SELECT business_days_between(${a.toISOString()}::timestamptz, ${b.toISOString()}::timestamptz) AS between,
          to_char(add_business_days(${a.toISOString()}::timestamptz, ${n}::int) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS added`,
      )) as unknown as { rows: { between: number; added: string }[] };
      expect({ a: a.toISOString(), b: b.toISOString(), n, ...rows.rows[0] }).toEqual({
        a: a.toISOString(),
        b: b.toISOString(),
        n,
        between: businessDaysBetween(a, b),
        added: addBusinessDays(a, n).toISOString(),
      });
    }
  });
});

/** A delivery of the opportunity: bought, its brief submitted at `submittedAt`, published `days` business days later. */
async function deliver(opportunityId: string, submittedAt: Date, days: number) {
  const p = await makePayment(t.db, brandId, opportunityId, { status: 'released' });
  await t.db.insert(briefs).values({
    placementId: p.id,
    brandId,
    organisationId: p.organisationId,
    opportunityId,
    part1Json: PART1,
    part2Json: PART2,
    submittedAt,
  });
  const publishedAt = addBusinessDays(submittedAt, days);
  await t.db.insert(publications).values({ placementId: p.id, url: `https://promised.example.com/${p.id}`, publishedAt, guaranteeEndsAt: new Date(publishedAt.getTime() + 90 * DAY_MS) });
}

const placementRow = async (id: string) => (await t.db.select().from(placements).where(eq(placements.id, id)))[0];
const outletRow = async (id: string) => (await t.db.select().from(outlets).where(eq(outlets.id, id)))[0];

describe('the promise of an outlet with a record, and without', () => {
  it('uses the listed turnaround below 5 deliveries, the record from 5, and a placement keeps its own', async () => {
    const delivered = await createOpportunity(t.db, { outletName: 'Promise Weekly', outletUrl: 'https://promise-weekly.example.com', tatDays: 10, maxSlots: 100 });
    const forSale = await createOpportunity(t.db, { title: 'Promised piece', outletName: 'Promise Weekly', outletUrl: 'https://promise-weekly.example.com/b', tatDays: 10, maxSlots: 100 });
    const outletId = forSale.outletId!;
    // Monday 2 Nov 2026, 10:00 UTC: 2, 4, 6, 8 business days
    const monday = new Date('2026-11-02T10:00:00.000Z');
    for (const days of [2, 4, 6, 8]) await deliver(delivered.id, monday, days);

    // four deliveries: no record yet, the listed 10 days
    expect(await outletRow(outletId)).toMatchObject({ promiseP50Days: null, promiseP90Days: null });
    const listed = await makePayment(t.db, brandId, forSale.id);
    const listedRow = await placementRow(listed.id);
    const listedPromise = promiseOf({ p50Days: null, p90Days: null, tatDays: 10 }, listedRow.createdAt, t.config.BRIEF_DAYS)!;
    expect(listedRow).toMatchObject({ promiseBasis: 'listed', usuallyBy: null });
    expect(iso(listedRow.promisedBy)).toBe(listedPromise.liveBy.toISOString());

    const today = startOfUtcDay(new Date());
    const search = await brand.get(`/api/opportunities?q=${encodeURIComponent('Promised piece')}`);
    expect(search.status).toBe(200);
    expect(search.body.find((o: { id: string }) => o.id === forSale.id).promise).toEqual({
      liveBy: promiseOf({ p50Days: null, p90Days: null, tatDays: 10 }, today, 3)!.liveBy.toISOString(),
      usuallyBy: null,
      basis: 'listed',
    });

    // the fifth: P50 6, P90 of 2,4,6,8,10 is 9.2, rounded up to 10
    await deliver(delivered.id, monday, 10);
    expect(await outletRow(outletId)).toMatchObject({ promiseP50Days: 6, promiseP90Days: 10 });
    const recorded = await makePayment(t.db, brandId, forSale.id);
    const recordedRow = await placementRow(recorded.id);
    const recordPromise = promiseOf({ p50Days: 6, p90Days: 10, tatDays: 10 }, recordedRow.createdAt, 3)!;
    expect(recordedRow.promiseBasis).toBe('record');
    expect(iso(recordedRow.promisedBy)).toBe(recordPromise.liveBy.toISOString());
    expect(iso(recordedRow.usuallyBy)).toBe(recordPromise.usuallyBy!.toISOString());
    // at least 3 (brief) + 10 business days: two weeks and more of calendar
    expect(recordedRow.promisedBy!.getTime() - recordedRow.createdAt.getTime()).toBeGreaterThanOrEqual(17 * DAY_MS);

    // the plain list, the outlet's page and the cart say the same for today
    const expected = { liveBy: promiseOf({ p50Days: 6, p90Days: 10, tatDays: 10 }, today, 3)!.liveBy.toISOString(), usuallyBy: promiseOf({ p50Days: 6, p90Days: 10, tatDays: 10 }, today, 3)!.usuallyBy!.toISOString(), basis: 'record' };
    const list = await brand.get('/api/opportunities');
    expect(list.body.find((o: { id: string }) => o.id === forSale.id).promise).toEqual(expected);
    const outlet = await brand.get(`/api/outlets/${outletId}`);
    expect(outlet.status).toBe(200);
    expect(outlet.body.record.promiseDays).toEqual({ p50: 6, p90: 10 });
    expect(outlet.body.opportunities.find((o: { id: string }) => o.id === forSale.id).promise).toEqual(expected);
    const cart = await brand.put(`/api/cart/lines/${forSale.id}`);
    expect(cart.status).toBe(200);
    expect(cart.body.lines[0].promise).toEqual(expected);
    // the order: its line promises the same while it is held, then the placement's own date once paid
    const started = await brand.post('/api/cart/checkout', {});
    expect(started.status).toBe(200);
    const held = await brand.get(`/api/brand/orders/${started.body.orderId}`);
    expect(held.status).toBe(200);
    expect(held.body.lines[0]).toMatchObject({ liveBy: expected.liveBy, usuallyBy: expected.usuallyBy });
    const sessionId = sessionIdOf(started.body.url);
    expect((await brand.post(`/api/payments/checkout/${sessionId}/pay`)).status).toBe(200);
    const paidOrder = await brand.get(`/api/brand/orders/${started.body.orderId}`);
    const orderRow = await placementRow(paidOrder.body.lines[0].paymentId);
    expect(paidOrder.body.lines[0]).toMatchObject({ liveBy: iso(orderRow.promisedBy), usuallyBy: iso(orderRow.usuallyBy) });
    expect(orderRow.promiseBasis).toBe('record');

    // a slower record later: the placements bought keep their dates
    for (let i = 0; i < 5; i++) await deliver(delivered.id, monday, 30);
    expect((await outletRow(outletId)).promiseP90Days).toBe(30);
    expect(iso((await placementRow(recorded.id)).promisedBy)).toBe(recordPromise.liveBy.toISOString());
    expect(iso((await placementRow(listed.id)).promisedBy)).toBe(listedPromise.liveBy.toISOString());

    // My Articles (list and detail) and Admin Projects carry the fixed dates
    const mine = await brand.get('/api/brand/my-articles?limit=100');
    expect(mine.status).toBe(200);
    const mineItem = mine.body.find((p: { payment: { id: string } }) => p.payment.id === recorded.id);
    expect(mineItem).toMatchObject({ promisedBy: recordPromise.liveBy.toISOString(), usuallyBy: recordPromise.usuallyBy!.toISOString() });
    const detail = await brand.get(`/api/brand/placements/${listed.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ promisedBy: listedPromise.liveBy.toISOString(), usuallyBy: null });
    const projects = await admin.get('/api/admin/projects?limit=100');
    expect(projects.status).toBe(200);
    const projectItem = projects.body.find((p: { payment: { id: string } }) => p.payment.id === recorded.id);
    expect(projectItem).toMatchObject({ promisedBy: recordPromise.liveBy.toISOString(), usuallyBy: recordPromise.usuallyBy!.toISOString() });
  });

  it('promises nothing without a record or a listed turnaround', async () => {
    const vague = await createOpportunity(t.db, { title: 'Vaguely timed', outletName: 'Vague Gazette', outletUrl: 'https://vague.example.com', tatDays: null, maxSlots: 5 });
    const search = await brand.get(`/api/opportunities?q=${encodeURIComponent('Vaguely timed')}`);
    expect(search.body.find((o: { id: string }) => o.id === vague.id).promise).toBeNull();
    const bought = await makePayment(t.db, brandId, vague.id);
    expect(await placementRow(bought.id)).toMatchObject({ promisedBy: null, usuallyBy: null, promiseBasis: null });
    const outlet = await brand.get(`/api/outlets/${vague.outletId}`);
    expect(outlet.body.record.promiseDays).toBeNull();
  });

  it('states the settings on the terms page', async () => {
    const terms = await brand.get('/api/terms');
    expect(terms.body.rules).toMatchObject({ promiseMinDeliveries: 5, briefDays: 3 });
    expect(terms.body.rulesMarkdown).toContain('Once an outlet has 5 deliveries with Byline');
    expect(terms.body.rulesMarkdown).toContain('It counts 3 days for your brief, in business days');
  });
});
