/**
 * Credit without a claim (issue 59, decision 049): a placement not published by its "Live by" date
 * credits the brand LATE_CREDIT_PERCENT (2) of its price for each business day late, to the cent
 * (half-up), up to LATE_CREDIT_MAX_PERCENT (20), each day once however many instances sweep, never
 * after publication, weekends not counted, the promise moved by the brand's own delay respected;
 * each credit a part refund with its credit note, its mail and its timeline entry. After
 * LATE_CANCEL_DAYS (10) business days late the brand cancels in one click for all that is left.
 * Byline's time is moved with the test clock (tests/support/clock.ts).
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  disputes,
  lateCredits,
  mailOutbox,
  paymentRefunds,
  payments,
  placementEvents,
  placements,
  purchaseRequests,
  taxDocuments,
  users,
} from '../../src/server/db/schema';
import { runPlacementTimers, type TimerTerms } from '../../src/server/modules/timeline/timers';
import { remindExpiringPurchaseRequests } from '../../src/server/modules/org/budget';
import { renderMail, type MailData } from '../../src/server/mail/templates';
import { creditLatePlacements } from '../../src/server/modules/lateness/late-credit';
import { paymentMoney } from '../../src/server/modules/ledger/ledger';
import type { LateCreditTerms } from '../../src/shared/late-credit';
import type { Agent } from '../support/app';
import { setClockTo, setTestClock } from '../support/clock';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, sessionIdOf, type PaymentsTestApp } from '../support/payments';
import { now } from '../../src/server/lib/clock';
import { spawn } from 'node:child_process';
import type { DbHandle } from '../../src/server/db/client';
import { completePendingPartialRefunds } from '../../src/server/modules/payments/refunds';
import { issueInvoice, TEST_INVOICING } from '../../src/server/modules/invoices/service';
import { stripeProvider } from '../../src/server/providers/stripe';
import { createTestDb, dbKind } from '../support/db';
import { createUser } from '../support/factories';
import { makePayment } from '../support/payments';
import { startStripeStandIn } from '../support/stripe-stand-in';

let t: PaymentsTestApp;
let brand: Agent;
let brandUser: { id: string; email: string; organisationId: string | null };
let admin: Agent;

const TERMS: LateCreditTerms = { percent: 2, maxPercent: 20, cancelDays: 10 };
/** Monday 4 January 2027, noon UTC: the "Live by" of every placement here. */
const LIVE_BY = new Date('2027-01-04T12:00:00.000Z');
const day = (iso: string) => new Date(`${iso}T09:00:00.000Z`);

beforeAll(async () => {
  t = await createPaymentsTestApp();
  const b = await signedIn(t.app, t.db, kinds.approvedBrand);
  brand = b.agent;
  brandUser = b.user;
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
});
afterEach(() => setTestClock(t.db, 0));
afterAll(() => t.close());

/** Bought through the checkout (invoice and all), its promise then set to LIVE_BY (moved by `moved` business days). */
async function buy(priceUsd: string, moved = 0): Promise<string> {
  const opp = await createOpportunity(t.db, { maxSlots: 10, priceUsd });
  const res = await brand.post('/api/payments/checkout', { opportunityId: opp.id });
  const sessionId = sessionIdOf(res.body.url);
  expect((await brand.post(`/api/payments/checkout/${sessionId}/pay`)).status).toBe(200);
  const [row] = await t.db.select().from(payments).where(eq(payments.providerSessionId, sessionId));
  await t.db.update(placements).set({ promisedBy: LIVE_BY, promiseMovedDays: moved }).where(eq(placements.id, row.id));
  return row.id;
}

/** Sweeps at `at` (Byline's clock moved there), `n` sweeps at once. */
async function sweepAt(at: Date, n = 1) {
  await setClockTo(t.db, at);
  return (await Promise.all(Array.from({ length: n }, () => creditLatePlacements(t.db, t.provider, TERMS, now())))).reduce((a, b) => a + b, 0);
}

const creditsOf = (id: string) => t.db.select().from(lateCredits).where(eq(lateCredits.placementId, id)).orderBy(lateCredits.lateDay);
const cents = (usd: string) => Math.round(Number(usd) * 100);
const creditNotes = (id: string) => t.db.$count(taxDocuments, and(eq(taxDocuments.paymentId, id), eq(taxDocuments.kind, 'credit_note')));
const refundMails = (id: string) =>
  t.db.select().from(mailOutbox).where(and(eq(mailOutbox.kind, 'refund_issued'), sql`${mailOutbox.data} ->> 'paymentId' = ${id}`));

describe('the late credit', () => {
  it('is 2% of the price per business day late, half-up to the cent, once per day with sweeps at once, weekends not counted, capped at 20%', async () => {
    const id = await buy('123.45');
    // not late on its Live by day, nor the same day after its hour
    expect(await sweepAt(new Date('2027-01-04T18:00:00.000Z'), 2)).toBe(0);
    // Tuesday: 1 business day late, 2% of 12345 cents = 246.9 → 247, credited once by three sweeps at once
    await sweepAt(day('2027-01-05'), 3);
    let credits = await creditsOf(id);
    expect(credits.map((c) => [c.lateDay, c.amount])).toEqual([[1, '2.47']]);
    const [refund] = await t.db.select().from(paymentRefunds).where(eq(paymentRefunds.id, credits[0].refundId));
    expect(refund).toMatchObject({ amount: '2.47', reason: 'late_credit' });
    expect(refund.completedAt).not.toBeNull();
    expect(await creditNotes(id)).toBe(1);
    const mails = await refundMails(id);
    expect(mails).toHaveLength(1);
    const rendered = renderMail(mails[0].data as unknown as MailData, 'https://portal.byline.test');
    expect(rendered.subject).toContain('Byline is late: we credited you $2.47');
    expect(rendered.text).toContain('1 business day after the date we promised');
    // the timeline says it, to the brand too
    const timeline = (await brand.get<{ kind: string; details: Record<string, unknown> }[]>(`/api/brand/placements/${id}/timeline`)).body;
    expect(timeline.filter((e) => e.kind === 'refunded').map((e) => e.details)).toEqual([
      expect.objectContaining({ amount: '2.47', reason: 'late_credit', partial: true, lateDay: 1 }),
    ]);
    // Saturday and Sunday: still Friday's 4 days late
    await sweepAt(day('2027-01-09'), 2);
    await sweepAt(day('2027-01-10'), 2);
    credits = await creditsOf(id);
    expect(credits.map((c) => c.lateDay)).toEqual([1, 2, 3, 4]);
    // Tuesday 19 January: 11 business days late; 10 credits, the tenth what is left under 20% (2469 cents)
    await sweepAt(day('2027-01-19'), 2);
    credits = await creditsOf(id);
    expect(credits.map((c) => c.lateDay)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(credits.slice(0, 9).every((c) => c.amount === '2.47')).toBe(true);
    expect(credits[9].amount).toBe('2.46');
    expect(credits.reduce((s, c) => s + cents(c.amount), 0)).toBe(2469);
    expect(await paymentMoney(t.db, id)).toMatchObject({ refunded: '24.69', leftToRefund: '98.76' });
    // later days credit nothing more
    expect(await sweepAt(day('2027-02-15'), 2)).toBe(0);
    expect(await creditNotes(id)).toBe(10);
    expect(await refundMails(id)).toHaveLength(10);
  });

  it('stops at publication', async () => {
    const id = await buy('100.00');
    await sweepAt(day('2027-01-06'));
    expect((await creditsOf(id)).map((c) => [c.lateDay, c.amount])).toEqual([
      [1, '2.00'],
      [2, '2.00'],
    ]);
    expect((await admin.post(`/api/admin/payments/${id}/release`)).status).toBe(200);
    expect(await sweepAt(day('2027-01-12'))).toBe(0);
    expect(await creditsOf(id)).toHaveLength(2);
  });

  it('counts from the promise moved by the brand’s delay', async () => {
    const id = await buy('100.00', 2);
    // Live by moved two business days: Wednesday 6 January
    expect(await sweepAt(day('2027-01-06'))).toBe(0);
    await sweepAt(day('2027-01-07'));
    expect((await creditsOf(id)).map((c) => c.lateDay)).toEqual([1]);
  });
});

describe('the late cancel', () => {
  it('is refused before 10 business days late and refunds all that is left after', async () => {
    const id = await buy('200.00');
    // Friday 15 January: 9 business days late, 9 credits of 4.00
    await sweepAt(day('2027-01-15'));
    expect(await creditsOf(id)).toHaveLength(9);
    const page = async () => (await brand.get<{ life: { actions: string[] } }>(`/api/brand/placements/${id}`)).body;
    expect((await page()).life.actions).not.toContain('cancel_late');
    const early = await brand.post(`/api/brand/placements/${id}/cancel-late`);
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/9 business days late: it can be cancelled this way once it is 10 business days late/);
    // Monday 18 January: 10 business days late, the tenth credit makes 40.00 in all
    await sweepAt(day('2027-01-18'));
    expect(await creditsOf(id)).toHaveLength(10);
    expect((await page()).life.actions).toContain('cancel_late');
    // a member who cannot buy neither sees it nor may do it
    const viewer = (await signedIn(t.app, t.db, { ...kinds.approvedBrand, organisationId: brandUser.organisationId, orgRole: 'viewer' })).agent;
    expect((await viewer.get<{ life: { actions: string[] } }>(`/api/brand/placements/${id}`)).body.life.actions).not.toContain('cancel_late');
    expect((await viewer.post(`/api/brand/placements/${id}/cancel-late`)).status).toBe(403);
    const done = await brand.post(`/api/brand/placements/${id}/cancel-late`);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ refundedUsd: '160.00' });
    const [pay] = await t.db.select().from(payments).where(eq(payments.id, id));
    expect(pay).toMatchObject({ status: 'refunded', refundReason: 'late_cancel' });
    expect(await paymentMoney(t.db, id)).toMatchObject({ refunded: '200.00', leftToRefund: '0.00' });
    const [pl] = await t.db.select().from(placements).where(eq(placements.id, id));
    expect(pl.state).toBe('refunded');
    // 10 credit notes for the credits, 1 for the rest
    expect(await creditNotes(id)).toBe(11);
    const last = (await refundMails(id)).find((m) => (m.data as { reason?: string; partial?: boolean }).partial !== true)!;
    const rendered = renderMail(last.data as unknown as MailData, 'https://portal.byline.test');
    expect(rendered.text).toContain('$160.00');
    expect(rendered.text).toContain('long after the date we promised');
    const entries = await t.db.select().from(placementEvents).where(and(eq(placementEvents.placementId, id), eq(placementEvents.kind, 'cancel_requested')));
    expect(entries.map((e) => e.details)).toEqual([expect.objectContaining({ late: true, lateDays: 10, amount: '160.00' })]);
    // once
    expect((await brand.post(`/api/brand/placements/${id}/cancel-late`)).status).toBe(409);
    await sweepAt(day('2027-01-20'));
    expect(await creditsOf(id)).toHaveLength(10);
  });
});

describe('the record counts the promise', () => {
  it('on time is published by the placement’s "Live by", which the search’s on-time sort reads', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 10, priceUsd: '50.00', tatDays: 1000, outletName: 'The Promise Keeper' });
    const buyAt = async () => {
      const res = await brand.post('/api/payments/checkout', { opportunityId: opp.id });
      const sessionId = sessionIdOf(res.body.url);
      expect((await brand.post(`/api/payments/checkout/${sessionId}/pay`)).status).toBe(200);
      const [row] = await t.db.select().from(payments).where(eq(payments.providerSessionId, sessionId));
      return row.id;
    };
    const [onTime, late, moved] = [await buyAt(), await buyAt(), await buyAt()];
    const past = new Date(Date.now() - 10 * 86_400_000);
    // on time: Live by ahead; late: Live by passed (within the listed 1000 days, which no longer counts);
    // moved: its promise passed, but moved by the brand's delay past now
    await t.db.update(placements).set({ promisedBy: LIVE_BY }).where(eq(placements.id, onTime));
    await t.db.update(placements).set({ promisedBy: past }).where(eq(placements.id, late));
    await t.db.update(placements).set({ promisedBy: past, promiseMovedDays: 30 }).where(eq(placements.id, moved));
    for (const id of [onTime, late, moved]) expect((await admin.post(`/api/admin/payments/${id}/release`)).status).toBe(200);
    const res = await t.db.execute(sql`
      SELECT x.on_time_rate::text AS rate, o.outlet_on_time::text AS sort FROM opportunities o JOIN outlets x ON x.id = o.outlet_id WHERE o.id = ${opp.id}`);
    const [row] = (res as unknown as { rows: { rate: string; sort: string }[] }).rows;
    expect(Number(row.rate)).toBeCloseTo(0.667, 3);
    expect(Number(row.sort)).toBeCloseTo(0.667, 3);
    const detail = (await brand.get<{ record: { onTime: { n: number; m: number } } }>(`/api/outlets/${opp.outletId}`)).body;
    expect(detail.record.onTime).toEqual({ n: 2, m: 3 });
  });
});

const HOUR = 3_600_000;
const TIMER_TERMS: TimerTerms = { briefReminderDays: [], reviewReminderDays: 365, autoApproveDays: 0, reminderHours: 24 };
const remindersOf = (id: string) =>
  t.db.select().from(placementEvents).where(and(eq(placementEvents.placementId, id), eq(placementEvents.kind, 'deadline_reminder')));
const reminderMails = (id: string) =>
  t.db.select().from(mailOutbox).where(and(eq(mailOutbox.kind, 'deadline_reminder'), sql`${mailOutbox.data} ->> 'paymentId' = ${id}`));
const adminAddresses = async () => (await t.db.select({ email: users.email }).from(users).where(eq(users.role, 'admin'))).map((u) => u.email).sort();
/** Two instances running the timers at the same moment. */
const timersTwice = (at: Date) => Promise.all([runPlacementTimers(t.db, TIMER_TERMS, at), runPlacementTimers(t.db, TIMER_TERMS, at)]);

describe('the reminders before the new automatic steps', () => {
  it('the first late credit: to every admin 24 hours before, once, not earlier', async () => {
    const id = await buy('100.00');
    // Live by Monday 4 January noon: the first credit is due at the start of Tuesday 5 January (UTC)
    const due = new Date('2027-01-05T00:00:00.000Z');
    await timersTwice(new Date(due.getTime() - 25 * HOUR));
    expect(await remindersOf(id)).toHaveLength(0);
    await timersTwice(new Date(due.getTime() - 23 * HOUR));
    await timersTwice(new Date(due.getTime() - 1 * HOUR));
    const reminders = await remindersOf(id);
    expect(reminders.map((r) => r.details)).toEqual([expect.objectContaining({ deadline: 'late_credit', at: due.toISOString() })]);
    const mails = await reminderMails(id);
    expect(mails.map((m) => m.toAddress).sort()).toEqual(await adminAddresses());
    const rendered = renderMail(mails[0].data as unknown as MailData, 'https://portal.byline.test');
    expect(rendered.subject).toMatch(/^Publish by .+ UTC or the brand is credited: /);
  });

  it('a dispute answered, escalated or decided for want of an answer: to the side that can still act, once', async () => {
    const ids = [await buy('100.00'), await buy('100.00'), await buy('100.00')];
    const due = new Date('2027-02-10T12:00:00.000Z');
    const base = { kind: 'content' as const, reason: 'not_as_briefed' as const, asked: 'refund_full' as const, text: 'Not what we asked for', requestedBy: brandUser.id };
    await t.db.insert(disputes).values([
      { ...base, placementId: ids[0], status: 'open', respondBy: due },
      { ...base, placementId: ids[1], status: 'offered', answerAction: 'offer', offerAmount: '10.00', escalateBy: due },
      { ...base, placementId: ids[2], status: 'escalated', decideBy: due },
    ]);
    await timersTwice(new Date(due.getTime() - 25 * HOUR));
    for (const id of ids) expect(await remindersOf(id)).toHaveLength(0);
    await timersTwice(new Date(due.getTime() - 23 * HOUR));
    await timersTwice(new Date(due.getTime() - 2 * HOUR));
    const steps = await Promise.all(ids.map(async (id) => (await remindersOf(id)).map((r) => r.details.deadline)));
    expect(steps).toEqual([['dispute_answer'], ['dispute_escalate'], ['dispute_decide']]);
    const to = await Promise.all(ids.map(async (id) => (await reminderMails(id)).map((m) => m.toAddress).sort()));
    expect(to[0]).toEqual(await adminAddresses());
    expect(to[1]).toEqual([brandUser.email]);
    expect(to[2]).toEqual(await adminAddresses());
    const brandMail = renderMail((await reminderMails(ids[1]))[0].data as unknown as MailData, 'https://portal.byline.test');
    expect(brandMail.subject).toMatch(/^Accept or escalate by .+ UTC: /);
  });

  it('a purchase request about to expire: to the members who can approve it, once, not earlier', async () => {
    const orgId = brandUser.organisationId!;
    const buyer = await createUser(t.db, { ...kinds.approvedBrand, organisationId: orgId, orgRole: 'buyer' });
    const opp = await createOpportunity(t.db, { priceUsd: '900.00', title: 'A long read' });
    const expiresAt = new Date('2027-03-01T10:00:00.000Z');
    const [pr] = await t.db
      .insert(purchaseRequests)
      .values({ organisationId: orgId, requestedBy: buyer.id, opportunityId: opp.id, amount: '900.00', expiresAt })
      .returning();
    const mails = () =>
      t.db.select().from(mailOutbox).where(and(eq(mailOutbox.kind, 'purchase_request'), sql`${mailOutbox.data} ->> 'expiresAt' = ${expiresAt.toISOString()}`));
    const twice = (at: Date) => Promise.all([remindExpiringPurchaseRequests(t.db, 24, at), remindExpiringPurchaseRequests(t.db, 24, at)]);
    await twice(new Date(expiresAt.getTime() - 25 * HOUR));
    expect(await mails()).toHaveLength(0);
    expect((await twice(new Date(expiresAt.getTime() - 23 * HOUR))).reduce((a, b) => a + b, 0)).toBe(1);
    await twice(new Date(expiresAt.getTime() - 1 * HOUR));
    const sent = await mails();
    // the owner, not the buyer who asked
    expect(sent.map((m) => m.toAddress)).toEqual([brandUser.email]);
    const rendered = renderMail(sent[0].data as unknown as MailData, 'https://portal.byline.test');
    expect(rendered.subject).toMatch(/^Approve by .+ UTC or the request expires: /);
    expect(rendered.text).toContain('$900.00');
    const [row] = await t.db.select().from(purchaseRequests).where(eq(purchaseRequests.id, pr.id));
    expect(row.remindedAt).not.toBeNull();
  });
});

describe.skipIf(dbKind !== 'postgres')('the late credit through a kill -9', () => {
  let h: DbHandle;
  let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
  let dbUrl = '';
  beforeAll(async () => {
    h = await createTestDb();
    const name = ((await h.db.execute(sql`SELECT current_database() AS d`)) as unknown as { rows: { d: string }[] }).rows[0].d;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    dbUrl = url.toString();
    stripe = await startStripeStandIn();
  });
  afterAll(async () => {
    await stripe?.close();
    await h?.close();
  });

  it('a sweep killed after the provider was asked: the day is credited once, completed afterwards', async () => {
    const buyer = await createUser(h.db, kinds.approvedBrand);
    const opp = await createOpportunity(h.db, { priceUsd: '123.45' });
    const p = await makePayment(h.db, buyer.id, opp.id, { amount: '123.45', stripePaymentId: 'pi_test_late_kill' });
    await h.db.transaction((tx) => issueInvoice(tx, p.id, TEST_INVOICING, new Date()));
    await h.db.update(placements).set({ promisedBy: LIVE_BY }).where(eq(placements.id, p.id));
    const at = day('2027-01-05');
    stripe.holdRefunds(true);
    const from = stripe.calls.length;
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/deadline-child.ts'], {
      env: { ...process.env, DEADLINE_DB_URL: dbUrl, STRIPE_PORT: String(stripe.port), NOW: at.toISOString(), JOB: 'lateCredits' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const deadline = Date.now() + 30_000;
    while (!stripe.calls.slice(from).some((c) => c.path === '/v1/refunds')) {
      if (Date.now() > deadline) throw new Error(`the sweep never called the provider: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    stripe.holdRefunds(false);
    // the day was claimed before the provider call; its refund is not recorded as made
    const claimed = await h.db.select().from(lateCredits).where(eq(lateCredits.placementId, p.id));
    expect(claimed.map((c) => [c.lateDay, c.amount])).toEqual([[1, '2.47']]);
    const [pending] = await h.db.select().from(paymentRefunds).where(eq(paymentRefunds.id, claimed[0].refundId));
    expect(pending.completedAt).toBeNull();
    // another sweep the same day (two at once) credits nothing more; the guarantee job completes the claim once
    const provider = stripeProvider({ secretKey: 'sk_test_byline', webhookSecret: 'whsec_test', host: '127.0.0.1', port: stripe.port, protocol: 'http' });
    const sweeps = await Promise.all([creditLatePlacements(h.db, provider, TERMS, at), creditLatePlacements(h.db, provider, TERMS, at)]);
    expect(sweeps).toEqual([0, 0]);
    expect(await completePendingPartialRefunds(h.db, provider, at)).toBe(1);
    expect(await completePendingPartialRefunds(h.db, provider, at)).toBe(0);
    const [done] = await h.db.select().from(paymentRefunds).where(eq(paymentRefunds.id, claimed[0].refundId));
    expect(done.completedAt).not.toBeNull();
    expect(stripe.refundedOf('pi_test_late_kill')).toBe(247);
    expect(new Set(stripe.calls.filter((c) => c.path === '/v1/refunds').map((c) => c.idempotencyKey))).toEqual(new Set([`refund-${claimed[0].refundId}`]));
    expect(stripe.unexpected).toEqual([]);
    expect(await h.db.$count(taxDocuments, and(eq(taxDocuments.paymentId, p.id), eq(taxDocuments.kind, 'credit_note')))).toBe(1);
    expect(await h.db.$count(lateCredits, eq(lateCredits.placementId, p.id))).toBe(1);
  });
});
