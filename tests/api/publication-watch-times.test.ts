import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { payments, placementEvents, publicationCases, publicationChecks, publications } from '../../src/server/db/schema';
import { releasePayment } from '../../src/server/modules/placements/release';
import { recheckNow, runDueChecks, type PublicationDeps } from '../../src/server/modules/placements/watch';
import type { RefundRequest } from '../../src/server/providers/provider';
import type { Agent } from '../support/app';
import { paymentRow, submittedBrief } from '../support/content';
import { kinds, signedIn } from '../support/factories';
import { html, startOutlet, type Outlet, type Route } from '../support/outlet';
import { testChecker } from '../support/outlets';
import { createOpportunity, createPaymentsTestApp, makePayment, spyingLocalProvider, type PaymentsTestApp } from '../support/payments';

/**
 * The watch's times (issue 43): a failure found at the very end of the guarantee is still confirmed
 * and refunded; while a case is open the next check is never after its restore deadline, and the
 * refund happens at the deadline; a refunded placement cannot be rechecked; a problem accepted at
 * release keeps the placement's health at `warning` whichever path a passing check takes. The clock
 * is the one the watch is given; the outlet is a real server on loopback.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const BRAND_SITE = 'https://brand.example.com';
const LINK = `<a href="${BRAND_SITE}/product">our partner</a>`;
const page = (body: string) =>
  `<!doctype html><html><head><title>A story at the outlet</title></head><body><article><h1>A story at the outlet</h1>
  <p>${'The quick brown fox writes about the industry and its many interesting companies. '.repeat(20)}</p>
  ${body}</article></body></html>`;

/** the outlet's pages by path, changed as a test goes (a path not here answers 404) */
const routes: Record<string, Route> = {};
let outlet: Outlet;
let t: PaymentsTestApp;
let admin: Agent;
let deps: PublicationDeps;
const refunds: RefundRequest[] = [];
let pathNo = 0;

beforeAll(async () => {
  outlet = await startOutlet(routes);
  t = await createPaymentsTestApp({ provider: spyingLocalProvider(refunds), config: { LINK_CHECK_ALLOW: `127.0.0.1:${outlet.port}` } });
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  deps = { db: t.db, provider: t.provider, checker: testChecker(t.config), terms: { guaranteeDays: 90, restoreDays: 10, checkIntervalHours: 24 } };
});
afterAll(async () => {
  await t?.close();
  await outlet?.close();
});
beforeEach(async () => {
  // the watch is global: placements of earlier tests must not be due on this test's clock
  await t.db.update(publications).set({ nextCheckAt: null });
});

const withTerms = (terms: Partial<PublicationDeps['terms']>): PublicationDeps => ({ ...deps, terms: { ...deps.terms, ...terms } });

/** An article at a new path of the outlet: with the link to the brand, or the body given. */
function serve(body = page(LINK)) {
  const path = `/story-${++pathNo}`;
  routes[path] = html(body);
  return { path, url: outlet.url(path) };
}
const hitsOf = (path: string) => outlet.requests.filter((r) => r.url === path).length;

/** A brand with a held payment whose draft it approved, brief submitted. */
async function placement() {
  const brand = await signedIn(t.app, t.db, { ...kinds.approvedBrand, website: BRAND_SITE });
  const opp = await createOpportunity(t.db, { maxSlots: 1 });
  const payment = await makePayment(t.db, brand.user.id, opp.id, { draftReviewStatus: 'approved', draftDocumentUrl: 'https://docs.example.com/d/1' });
  await submittedBrief(t.db, payment);
  return payment;
}

const publicationOf = async (paymentId: string) => (await t.db.select().from(publications).where(eq(publications.placementId, paymentId)))[0];
const casesOf = (paymentId: string) => t.db.select().from(publicationCases).where(eq(publicationCases.placementId, paymentId));
const checksOf = (paymentId: string) => t.db.select().from(publicationChecks).where(eq(publicationChecks.placementId, paymentId));
const eventsOf = (paymentId: string) => t.db.select().from(placementEvents).where(eq(placementEvents.placementId, paymentId));
const refundsOf = (paymentId: string) => refunds.filter((r) => r.idempotencyKey === paymentId);

describe('the last hours of the guarantee', () => {
  // a two-day guarantee, checked daily: its last check is at its end
  const short = () => withTerms({ guaranteeDays: 2, restoreDays: 10, checkIntervalHours: 24 });

  it('a failure found at the last check, at the guarantee’s end, is confirmed an hour later, opens a case, and unrestored is refunded at the deadline', async () => {
    const t0 = new Date(Date.now() + 1000 * DAY);
    const at = (days: number, hours = 0) => new Date(t0.getTime() + days * DAY + hours * HOUR);
    const payment = await placement();
    const { path, url } = serve();
    await releasePayment(short(), payment.id, { liveUrl: url }, at(0));
    expect((await publicationOf(payment.id)).guaranteeEndsAt).toEqual(at(2));
    expect(await runDueChecks(short(), at(1, 6))).toBe(1);
    // the next regular check would be a day on, after the guarantee: it is at its end instead
    expect((await publicationOf(payment.id)).nextCheckAt).toEqual(at(2));

    delete routes[path];
    expect(await runDueChecks(short(), at(2))).toBe(1);
    expect(await publicationOf(payment.id)).toMatchObject({ health: 'ok', failingSince: at(2), nextCheckAt: at(2, 1) });

    // an hour after the guarantee ended: still gone, so a case with a deadline ten days on
    expect(await runDueChecks(short(), at(2, 1))).toBe(1);
    expect((await publicationOf(payment.id)).health).toBe('issue');
    const [open] = await casesOf(payment.id);
    expect(open).toMatchObject({ closedAt: null, restoreBy: at(12, 1) });
    expect(open.reason).toMatch(/404/);

    // watched past the guarantee until the deadline, where the brand is refunded
    expect(await runDueChecks(short(), at(12))).toBe(1);
    expect(refundsOf(payment.id)).toHaveLength(0);
    expect((await publicationOf(payment.id)).nextCheckAt).toEqual(at(12, 1));
    expect(await runDueChecks(short(), at(12, 1))).toBe(1);
    expect(refundsOf(payment.id)).toEqual([{ providerRef: payment.stripePaymentId, amountCents: 125000, idempotencyKey: payment.id }]);
    expect(await paymentRow(t.db, payment.id)).toMatchObject({ status: 'refunded', refundReason: 'not_restored', refundRequestedAt: at(12, 1) });
    expect(await publicationOf(payment.id)).toMatchObject({ health: 'refunded', nextCheckAt: null });
    expect(hitsOf(path)).toBe(6);
  });

  it('a failure found in the last hour (Recheck now) is confirmed after the guarantee ends and refunded at the deadline', async () => {
    const t0 = new Date(Date.now() + 1500 * DAY);
    const at = (days: number, hours = 0) => new Date(t0.getTime() + days * DAY + hours * HOUR);
    const payment = await placement();
    const { path, url } = serve();
    await releasePayment(short(), payment.id, { liveUrl: url }, at(0));

    delete routes[path];
    const check = await recheckNow(short(), payment.id, at(1, 23.5));
    expect(check.problems.map((p) => p.code)).toEqual(['http_error']);
    expect(await publicationOf(payment.id)).toMatchObject({ failingSince: at(1, 23.5), nextCheckAt: at(2, 0.5) });

    // half an hour after the guarantee's end, the confirming check
    expect(await runDueChecks(short(), at(2, 0.5))).toBe(1);
    const [open] = await casesOf(payment.id);
    expect(open).toMatchObject({ closedAt: null, restoreBy: at(12, 0.5) });
    expect(await runDueChecks(short(), at(12, 0.5))).toBe(1);
    expect(await paymentRow(t.db, payment.id)).toMatchObject({ status: 'refunded', refundReason: 'not_restored', refundRequestedAt: at(12, 0.5) });
    expect(refundsOf(payment.id)).toHaveLength(1);
  });
});

describe('an open case and its deadline', () => {
  it('the next check is never after the restore deadline, though the interval is longer; the refund is at the deadline', async () => {
    const t0 = new Date(Date.now() + 2000 * DAY);
    const at = (days: number, hours = 0) => new Date(t0.getTime() + days * DAY + hours * HOUR);
    // checks 30 days apart, 10 days to restore
    const monthly = withTerms({ guaranteeDays: 90, restoreDays: 10, checkIntervalHours: 30 * 24 });
    const payment = await placement();
    const { path, url } = serve();
    await releasePayment(monthly, payment.id, { liveUrl: url }, at(0));

    delete routes[path];
    await recheckNow(monthly, payment.id, at(1));
    expect(await runDueChecks(monthly, at(1, 1))).toBe(1);
    const [open] = await casesOf(payment.id);
    expect(open.restoreBy).toEqual(at(11, 1));
    // opened: the next check is at the deadline, not a month on
    expect(await publicationOf(payment.id)).toMatchObject({ health: 'issue', nextCheckAt: at(11, 1) });

    // a check while the case is open moves it no later either
    await recheckNow(monthly, payment.id, at(6));
    expect(await publicationOf(payment.id)).toMatchObject({ health: 'issue', nextCheckAt: at(11, 1) });

    expect(await runDueChecks(monthly, at(11))).toBe(0);
    expect(refundsOf(payment.id)).toHaveLength(0);
    expect(await runDueChecks(monthly, at(11, 1))).toBe(1);
    expect(refundsOf(payment.id)).toHaveLength(1);
    expect(await paymentRow(t.db, payment.id)).toMatchObject({ status: 'refunded', refundReason: 'not_restored', refundRequestedAt: at(11, 1) });
    expect((await casesOf(payment.id)).map((c) => c.outcome)).toEqual(['refunded']);

    // refunded by the watch: "Recheck now" is refused too
    const checks = (await checksOf(payment.id)).length;
    const recheck = await admin.post(`/api/admin/payments/${payment.id}/publication/check`);
    expect(recheck.status).toBe(409);
    expect(recheck.body.message).toBe('This placement was refunded');
    expect(await checksOf(payment.id)).toHaveLength(checks);
  });
});

describe('Recheck now on a refunded placement', () => {
  it('answers 409 and records nothing: no fetch, no check kept, the publication and timeline unchanged', async () => {
    const payment = await placement();
    const { path, url } = serve();
    expect((await admin.post(`/api/admin/payments/${payment.id}/release`, { liveUrl: url })).status).toBe(200);
    const refund = await admin.post(`/api/admin/payments/${payment.id}/refund`);
    expect(refund.status, refund.text).toBe(200);
    const before = { pub: await publicationOf(payment.id), checks: await checksOf(payment.id), events: await eventsOf(payment.id), hits: hitsOf(path) };
    expect(before.pub.health).toBe('refunded');

    const res = await admin.post(`/api/admin/payments/${payment.id}/publication/check`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'This placement was refunded', code: 'placement_refunded' });
    expect(await publicationOf(payment.id)).toEqual(before.pub);
    expect(await checksOf(payment.id)).toEqual(before.checks);
    expect(await eventsOf(payment.id)).toEqual(before.events);
    expect(hitsOf(path)).toBe(before.hits);
    expect((await paymentRow(t.db, payment.id)).status).toBe('refunded');
  });
});

describe('a problem accepted at release', () => {
  it('keeps the health at warning after passing checks: a plain one, one after a failure, one that closes a case, and Recheck now', async () => {
    const t0 = new Date(Date.now() + 3000 * DAY);
    const at = (days: number, hours = 0) => new Date(t0.getTime() + days * DAY + hours * HOUR);
    const payment = await placement();
    const { path, url } = serve(page('<p>No link here yet.</p>'));
    await releasePayment(deps, payment.id, { liveUrl: url, overrideReason: 'The outlet adds the link tomorrow.' }, at(0));
    expect(await publicationOf(payment.id)).toMatchObject({ health: 'warning', acceptedProblems: ['link_missing'] });
    const warnedAfter = async (what: string) => {
      const pub = await publicationOf(payment.id);
      expect(pub.lastCheck?.result, what).toBe('pass');
      expect(pub.health, what).toBe('warning');
      expect(pub.failingSince, what).toBeNull();
    };

    // the link is added: the page passes, the accepted problem stays on record
    routes[path] = html(page(LINK));
    expect(await runDueChecks(deps, at(1, 3))).toBe(1);
    await warnedAfter('a scheduled pass');

    // down for a moment (503), back within the hour
    routes[path] = (_req, res) => void res.writeHead(503, { 'Content-Type': 'text/html' }).end(page('Down for maintenance'));
    expect(await runDueChecks(deps, at(2, 6))).toBe(1);
    expect((await publicationOf(payment.id)).failingSince).toEqual(at(2, 6));
    routes[path] = html(page(LINK));
    expect(await runDueChecks(deps, at(2, 7))).toBe(1);
    await warnedAfter('a pass after a failure');

    // removed, confirmed (a case), then restored
    delete routes[path];
    expect(await runDueChecks(deps, at(3, 10))).toBe(1);
    expect(await runDueChecks(deps, at(3, 11))).toBe(1);
    expect((await publicationOf(payment.id)).health).toBe('issue');
    routes[path] = html(page(LINK));
    expect(await runDueChecks(deps, at(4, 14))).toBe(1);
    expect((await casesOf(payment.id)).map((c) => c.outcome)).toEqual(['restored']);
    await warnedAfter('a pass that closes a case');

    await recheckNow(deps, payment.id, at(4, 15));
    await warnedAfter('Recheck now');
    expect((await t.db.select({ status: payments.status }).from(payments).where(eq(payments.id, payment.id)))[0].status).toBe('released');
  });
});
