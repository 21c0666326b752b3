import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox, payments, placementEvents, publicationCases, publicationChecks, publications } from '../../src/server/db/schema';
import { releasePayment } from '../../src/server/modules/placements/release';
import { recheckNow, runDueChecks, type PublicationDeps } from '../../src/server/modules/placements/watch';
import { refundOverduePayments } from '../../src/server/modules/payments/refunds';
import type { RefundRequest } from '../../src/server/providers/provider';
import { paymentRow, submittedBrief } from '../support/content';
import { signedIn, kinds } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, makePayment, spyingLocalProvider, type PaymentsTestApp } from '../support/payments';
import type { Agent } from '../support/app';
import { testChecker } from '../support/outlets';
import { onCountedEvent } from '../../src/server/ops/events';
import { DAY_MS } from '../../src/shared/constants';

/**
 * Proof of publication (issue 17) through the API: a release with the live article's URL is
 * checked first against a real page served by a loopback "outlet", the brand sees what was found,
 * and the watch catches a removed article, reports it and refunds it once.
 */

const BRAND_SITE = 'https://brand.example.com';
const LINK = `<a href="${BRAND_SITE}/product">our partner</a>`;
const page = (body: string, title = 'A story at the outlet') =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>
  <p>${'The quick brown fox writes about the industry and its many interesting companies. '.repeat(20)}</p>
  ${body}</article></body></html>`;

interface Route {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** A loopback outlet whose pages a test changes as it goes (removed, restored). */
class Outlet {
  routes = new Map<string, Route>();
  hits = new Map<string, number>();
  private server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
    const route = this.routes.get(path) ?? { status: 404, body: page('Not found', 'Not found') };
    res.writeHead(route.status, { 'content-type': 'text/html; charset=utf-8', ...route.headers });
    res.end(route.body);
  });
  base = '';
  /** LINK_CHECK_ALLOW for this outlet: its address on its port */
  allowed = '';
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.base = `http://127.0.0.1:${port}`;
    this.allowed = `127.0.0.1:${port}`;
  }
  serve(path: string, route: Partial<Route> & { body?: string } = {}) {
    this.routes.set(path, { status: 200, body: page(LINK), ...route });
    return `${this.base}${path}`;
  }
  remove(path: string) {
    this.routes.set(path, { status: 404, body: page('Gone', 'Not found') });
  }
  close() {
    this.server.closeAllConnections();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let t: PaymentsTestApp;
let outlet: Outlet;
let admin: Agent;
let deps: PublicationDeps;
const refunds: RefundRequest[] = [];
let pathNo = 0;
const freshPath = () => `/story-${++pathNo}`;

beforeAll(async () => {
  outlet = new Outlet();
  await outlet.start();
  // the outlet's address on the port it listens on (a bare address would open only ports 80 and 443)
  t = await createPaymentsTestApp({ provider: spyingLocalProvider(refunds), config: { LINK_CHECK_ALLOW: outlet.allowed } });
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  deps = {
    db: t.db,
    provider: t.provider,
    checker: testChecker(t.config),
    terms: { guaranteeDays: 90, restoreDays: 10, checkIntervalHours: 24 },
  };
});
afterAll(async () => {
  await t.close();
  await outlet.close();
});

/** A brand with a held payment whose draft it approved (or in `review` state), and its agent. */
async function placement(state: 'approved' | 'pending_brand_review' | 'awaiting_brand_brief' = 'approved') {
  const brand = await signedIn(t.app, t.db, { ...kinds.approvedBrand, website: BRAND_SITE });
  const opp = await createOpportunity(t.db, { maxSlots: 1 });
  const payment = await makePayment(t.db, brand.user.id, opp.id, { draftReviewStatus: state, draftDocumentUrl: 'https://docs.example.com/d/1' });
  if (state !== 'awaiting_brand_brief') await submittedBrief(t.db, payment);
  return { brand: brand.agent, payment, opp };
}

const publicationOf = async (paymentId: string) => (await t.db.select().from(publications).where(eq(publications.placementId, paymentId)))[0];
const mailsOf = (paymentId: string, kind: string) =>
  t.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, kind), sql`${mailOutbox.data}->>'paymentId' = ${paymentId}`));
const myArticle = async (brand: Agent, paymentId: string) => {
  const res = await brand.get('/api/brand/my-articles');
  expect(res.status).toBe(200);
  return (res.body as { payment: { id: string }; publication: unknown }[]).find((a) => a.payment.id === paymentId);
};

describe('release with the live article', () => {
  it('a passing page: released, recorded, the brand sees the link and the checks, the e-mail carries them', async () => {
    const { brand, payment } = await placement();
    const url = outlet.serve(freshPath());
    const res = await admin.post(`/api/admin/payments/${payment.id}/release`, { liveUrl: url });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('released');

    const pub = await publicationOf(payment.id);
    // a release with its live URL went without nothing (issue 57)
    expect(pub).toMatchObject({ url, health: 'ok', overrideReason: null, failingSince: null, releasedWithout: [] });
    expect(pub.verifiedAt).not.toBeNull();
    expect(pub.fingerprint).toMatch(/\S/);
    const days = (pub.guaranteeEndsAt.getTime() - pub.publishedAt.getTime()) / 86_400_000;
    expect(days).toBe(90);
    // the next check is about a day later, jittered
    const hours = (pub.nextCheckAt!.getTime() - pub.publishedAt.getTime()) / 3_600_000;
    expect(hours).toBeGreaterThanOrEqual(21.6);
    expect(hours).toBeLessThanOrEqual(26.4);
    expect(await t.db.select().from(publicationChecks).where(eq(publicationChecks.placementId, payment.id))).toHaveLength(1);

    const article = await myArticle(brand, payment.id);
    expect(article?.publication).toMatchObject({
      url,
      health: 'ok',
      issue: null,
      restoredAt: null,
      lastCheck: { result: 'pass', httpStatus: 200, indexable: true, link: { found: true, rel: 'dofollow' }, title: 'A story at the outlet', problems: [] },
    });

    const [mail] = await mailsOf(payment.id, 'published');
    expect(mail.data).toMatchObject({ liveUrl: url, checks: ['Reachable (HTTP 200)', 'Indexable', 'Link to brand.example.com: dofollow'] });
    expect(mail.data.guaranteeDate).toBe(pub.guaranteeEndsAt.toISOString());
  });

  it('PATCH …/status {status: "released", liveUrl} takes the same path', async () => {
    const { payment } = await placement();
    const url = outlet.serve(freshPath());
    const res = await admin.patch(`/api/admin/payments/${payment.id}/status`, { status: 'released', liveUrl: url });
    expect(res.status, res.text).toBe(200);
    expect((await publicationOf(payment.id)).health).toBe('ok');
  });

  it('problems refuse the release with the check, and nothing changes', async () => {
    const { payment } = await placement();
    const url = outlet.serve(freshPath(), { body: page('<p>No link here.</p>') });
    const res = await admin.post(`/api/admin/payments/${payment.id}/release`, { liveUrl: url });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/no link to brand\.example\.com/);
    expect(res.body.check).toMatchObject({ result: 'fail', httpStatus: 200, link: { found: false, rel: null } });
    expect(res.body.check.problems.map((p: { code: string }) => p.code)).toEqual(['link_missing']);
    // the fingerprint of the page's text is kept for later checks, never sent
    expect(res.body.check).not.toHaveProperty('fingerprint');
    expect((await paymentRow(t.db, payment.id)).status).toBe('paid');
    expect(await publicationOf(payment.id)).toBeUndefined();
    expect(await mailsOf(payment.id, 'published')).toHaveLength(0);
  });

  it.each([
    ['an HTTP error', { status: 410 }, 'http_error'],
    ['noindex in meta robots', { body: page(`<meta name="robots" content="noindex">${LINK}`) }, 'noindex'],
    ['noindex in X-Robots-Tag', { headers: { 'x-robots-tag': 'noindex' } }, 'noindex'],
    ['not HTML', { headers: { 'content-type': 'application/json' }, body: '{"a":1}' }, 'not_html'],
  ])('%s is a blocking problem', async (_name, route, code) => {
    const { payment } = await placement();
    const url = outlet.serve(freshPath(), route);
    const res = await admin.post(`/api/admin/payments/${payment.id}/release`, { liveUrl: url });
    expect(res.status, res.text).toBe(409);
    expect(res.body.check.problems.map((p: { code: string }) => p.code)).toContain(code);
    expect((await paymentRow(t.db, payment.id)).status).toBe('paid');
  });

  it('an address outside LINK_CHECK_ALLOW is refused as blocked_address, without money moving', async () => {
    const { payment } = await placement();
    const res = await admin.post(`/api/admin/payments/${payment.id}/release`, { liveUrl: 'http://127.0.0.2/story' });
    expect(res.status).toBe(409);
    expect(res.body.check.problems.map((p: { code: string }) => p.code)).toEqual(['blocked_address']);
    expect((await paymentRow(t.db, payment.id)).status).toBe('paid');
  });

  it('odd spellings of reserved addresses (decimal, hex, octal, short, mapped IPv6) are caught, no connection made', async () => {
    const { payment } = await placement();
    // a server on 127.0.0.2 (outside LINK_CHECK_ALLOW) counts the connections it gets: none
    let connections = 0;
    const trap = http.createServer((_req, res) => res.end('<a href="https://brand.example.com">x</a>'));
    trap.on('connection', () => connections++);
    await new Promise<void>((resolve) => trap.listen(80, '127.0.0.2', resolve).once('error', () => resolve()));
    try {
      for (const spelling of [
        'http://2130706434/',
        'http://0x7f000002/',
        'http://0177.0.0.2/',
        'http://127.2/',
        'http://[::ffff:127.0.0.2]/',
        'http://[::ffff:7f00:2]/',
        'http://2852039166/latest/meta-data/',
        'http://0xa9fea9fe/',
        'http://[::]/',
        'http://0/',
        'http://10.1/',
        'http://[fd00::1]/',
      ]) {
        const res = await admin.post(`/api/admin/payments/${payment.id}/publication/check`, { liveUrl: spelling });
        expect(res.status, spelling).toBe(200);
        expect(res.body.problems.map((p: { code: string }) => p.code), spelling).toEqual(['blocked_address']);
      }
    } finally {
      trap.close();
    }
    expect(connections).toBe(0);
    expect((await paymentRow(t.db, payment.id)).status).toBe('paid');
  });

  it('releasing anyway with a written reason: recorded, shown to the brand, and later checks accept the same problem', async () => {
    const { brand, payment } = await placement();
    const path = freshPath();
    const url = outlet.serve(path, { body: page('<p>No link here.</p>') });
    const reason = 'The outlet adds links a day after publication; agreed with the brand.';
    const res = await admin.post(`/api/admin/payments/${payment.id}/release`, { liveUrl: url, overrideReason: reason });
    expect(res.status, res.text).toBe(200);
    const pub = await publicationOf(payment.id);
    expect(pub).toMatchObject({ health: 'warning', overrideReason: reason, acceptedProblems: ['link_missing'] });
    expect((await myArticle(brand, payment.id))?.publication).toMatchObject({ overrideReason: reason, health: 'warning' });

    // a later check failing on the accepted problem only is not a failure
    await runDueChecks(deps, new Date(pub.nextCheckAt!.getTime() + 1000));
    expect(await publicationOf(payment.id)).toMatchObject({ failingSince: null, health: 'warning' });
  });

  it('a rel other than dofollow is a warning: released, health warning', async () => {
    const { payment } = await placement();
    const url = outlet.serve(freshPath(), { body: page(`<a rel="nofollow" href="${BRAND_SITE}">x</a>`) });
    const res = await admin.post(`/api/admin/payments/${payment.id}/release`, { liveUrl: url });
    expect(res.status, res.text).toBe(200);
    const pub = await publicationOf(payment.id);
    expect(pub.health).toBe('warning');
    expect(pub.lastCheck).toMatchObject({ result: 'warning', link: { found: true, rel: 'nofollow' } });
    expect(pub.lastCheck!.problems.map((p) => p.code)).toEqual(['rel_mismatch']);
  });

  it('a draft the brand has not approved needs a reason; with one it is released and the reason kept', async () => {
    const { payment } = await placement('pending_brand_review');
    const url = outlet.serve(freshPath());
    const refused = await admin.post(`/api/admin/payments/${payment.id}/release`, { liveUrl: url });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('The brand has not approved the draft yet. Give a reason to publish anyway.');
    expect((await paymentRow(t.db, payment.id)).status).toBe('paid');

    const ok = await admin.post(`/api/admin/payments/${payment.id}/release`, { liveUrl: url, overrideReason: 'Approved by e-mail.' });
    expect(ok.status, ok.text).toBe(200);
    // the reason is the approval's record: the check was made
    expect(await publicationOf(payment.id)).toMatchObject({ health: 'ok', overrideReason: 'Approved by e-mail.', releasedWithout: [] });
  });

  it("the spec's body (none) releases as before, recorded without a live link", async () => {
    const { brand, payment } = await placement('awaiting_brand_brief');
    const res = await admin.post(`/api/admin/payments/${payment.id}/release`);
    expect(res.status, res.text).toBe(200);
    expect(await publicationOf(payment.id)).toMatchObject({ url: null, health: 'unverified', verifiedAt: null, nextCheckAt: null });
    expect((await myArticle(brand, payment.id))?.publication).toMatchObject({ url: null, health: 'unverified', lastCheck: null });
    const [mail] = await mailsOf(payment.id, 'published');
    expect(mail.data).toMatchObject({ liveUrl: null, checks: [] });
  });

  it.each([
    ['javascript:alert(1)'],
    ['ftp://outlet.example.com/story'],
    ['http://'],
    [12],
  ])('a malformed liveUrl (%s) is a 400 naming the field, nothing changes', async (liveUrl) => {
    const { payment } = await placement();
    const res = await admin.post(`/api/admin/payments/${payment.id}/release`, { liveUrl });
    expect(res.status).toBe(400);
    expect(res.body.errors.liveUrl).toBe('Enter the address of the live article (https://…)');
    expect((await paymentRow(t.db, payment.id)).status).toBe('paid');
  });

  it('counts each recorded check by its result for /metrics (byline_link_checks_total)', async () => {
    const counted: string[] = [];
    const stop = onCountedEvent((event, label) => {
      if (event === 'link-check') counted.push(label ?? '');
    });
    try {
      const { payment } = await placement();
      expect((await admin.post(`/api/admin/payments/${payment.id}/release`, { liveUrl: outlet.serve(freshPath()) })).status).toBe(200);
    } finally {
      stop();
    }
    expect(counted).toEqual(['pass']);
  });

  it('a second release is refused (409) and records nothing more', async () => {
    const { payment } = await placement();
    const url = outlet.serve(freshPath());
    expect((await admin.post(`/api/admin/payments/${payment.id}/release`, { liveUrl: url })).status).toBe(200);
    const again = await admin.post(`/api/admin/payments/${payment.id}/release`, { liveUrl: url });
    expect(again.status).toBe(409);
    expect(await t.db.select().from(publications).where(eq(publications.placementId, payment.id))).toHaveLength(1);
  });
});

describe('one release path: the spec’s two calls', () => {
  const releaseBy = {
    post: (id: string) => admin.post(`/api/admin/payments/${id}/release`),
    patch: (id: string) => admin.patch(`/api/admin/payments/${id}/status`, { status: 'released' }),
  };
  const historyOf = (paymentId: string) =>
    t.db
      .select({ kind: placementEvents.kind, actorType: placementEvents.actorType, actorId: placementEvents.actorId, details: placementEvents.details })
      .from(placementEvents)
      .where(eq(placementEvents.placementId, paymentId))
      .orderBy(placementEvents.id);

  it('POST …/release and PATCH …/status {status: "released"} answer the whole Payment, record the same history and mail, and refuse alike', async () => {
    const seen: Record<string, { body: Record<string, unknown>; history: unknown[]; mail: unknown }> = {};
    for (const way of ['post', 'patch'] as const) {
      const { payment } = await placement('awaiting_brand_brief');
      const res = await releaseBy[way](payment.id);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: payment.id, brandId: payment.brandId, status: 'released', paidAt: expect.any(String), releasedAt: expect.any(String) });
      const [mail] = await mailsOf(payment.id, 'published');
      seen[way] = { body: res.body, history: await historyOf(payment.id), mail: { liveUrl: mail.data.liveUrl, checks: mail.data.checks, guaranteeDate: mail.data.guaranteeDate } };
      expect(await publicationOf(payment.id)).toMatchObject({ url: null, health: 'unverified' });

      const again = await releaseBy[way](payment.id);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ message: 'Only a payment held in escrow can be released (this one is released)', code: 'payment_not_in_escrow' });

      const refunding = await makePayment(t.db, payment.brandId, payment.opportunityId, { refundRequestedAt: new Date(), refundReason: 'guarantee' });
      const refused = await releaseBy[way](refunding.id);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ message: 'A refund is in progress for this payment', code: 'refund_in_progress' });
      expect((await paymentRow(t.db, refunding.id)).status).toBe('paid');
    }
    // the same members both ways (the PATCH's draft answer, a PlacementPayment, would lack brandId, paidAt, …)
    expect(Object.keys(seen.patch.body).sort()).toEqual(Object.keys(seen.post.body).sort());
    expect(seen.patch.history).toEqual(seen.post.history);
    expect(seen.post.history.map((e) => (e as { kind: string }).kind)).toEqual(['published', 'released']);
    expect(seen.patch.mail).toEqual(seen.post.mail);
  });
});

describe('the live URL later, checks on demand', () => {
  it('a preview check changes nothing; PUT adds the URL of a placement released without one', async () => {
    const { brand, payment } = await placement();
    const url = outlet.serve(freshPath());
    const preview = await admin.post(`/api/admin/payments/${payment.id}/publication/check`, { liveUrl: url });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toMatchObject({ result: 'pass', link: { found: true, rel: 'dofollow' } });
    expect(await publicationOf(payment.id)).toBeUndefined();
    expect((await paymentRow(t.db, payment.id)).status).toBe('paid');

    // before release there is no publication to change
    expect((await admin.put(`/api/admin/payments/${payment.id}/publication`, { liveUrl: url })).status).toBe(409);

    expect((await admin.post(`/api/admin/payments/${payment.id}/release`)).status).toBe(200);
    const missing = await admin.put(`/api/admin/payments/${payment.id}/publication`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors.liveUrl).toBeTruthy();

    const bad = outlet.serve(freshPath(), { status: 404 });
    const refused = await admin.put(`/api/admin/payments/${payment.id}/publication`, { liveUrl: bad });
    expect(refused.status).toBe(409);
    expect(refused.body.check.problems.map((p: { code: string }) => p.code)).toContain('http_error');
    expect((await publicationOf(payment.id)).url).toBeNull();

    const put = await admin.put(`/api/admin/payments/${payment.id}/publication`, { liveUrl: url });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ ok: true, check: { result: 'pass', httpStatus: 200 } });
    expect(await publicationOf(payment.id)).toMatchObject({ url, health: 'ok' });
    expect((await myArticle(brand, payment.id))?.publication).toMatchObject({ url, health: 'ok' });
  });

  it('Recheck now runs the check and answers it; a refused URL cannot be rechecked before it has one', async () => {
    const { payment } = await placement();
    expect((await admin.post(`/api/admin/payments/${payment.id}/release`)).status).toBe(200);
    const none = await admin.post(`/api/admin/payments/${payment.id}/publication/check`);
    expect(none.status).toBe(409);
    expect(none.body.message).toMatch(/add its URL first/);

    const path = freshPath();
    const url = outlet.serve(path);
    expect((await admin.put(`/api/admin/payments/${payment.id}/publication`, { liveUrl: url })).status).toBe(200);
    const hits = outlet.hits.get(path) ?? 0;
    const res = await admin.post(`/api/admin/payments/${payment.id}/publication/check`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ result: 'pass', httpStatus: 200 });
    expect(outlet.hits.get(path)).toBe(hits + 1);
    expect(await t.db.select().from(publicationChecks).where(eq(publicationChecks.placementId, payment.id))).toHaveLength(2);
  });

  it('unknown and malformed payment ids are 404 on every new route', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await admin.put(`/api/admin/payments/${id}/publication`, { liveUrl: 'https://a.example.com/x' })).status).toBe(404);
      expect((await admin.post(`/api/admin/payments/${id}/publication/check`)).status).toBe(404);
    }
  });
});

describe('Admin Placements', () => {
  it('lists published placements with their health, filters by health, counts open issues; a refund shows everywhere', async () => {
    const ok = await placement();
    expect((await admin.post(`/api/admin/payments/${ok.payment.id}/release`, { liveUrl: outlet.serve(freshPath()) })).status).toBe(200);
    const unverified = await placement();
    expect((await admin.post(`/api/admin/payments/${unverified.payment.id}/release`)).status).toBe(200);

    const all = await admin.get('/api/admin/placements?limit=200');
    expect(all.status).toBe(200);
    const row = (all.body as { paymentId: string }[]).find((r) => r.paymentId === ok.payment.id);
    expect(row).toMatchObject({ paymentId: ok.payment.id, amount: '1250.00', brand: { email: expect.any(String) }, publication: { health: 'ok' } });
    const onlyOk = (await admin.get('/api/admin/placements?health=ok&limit=200')).body as { paymentId: string; publication: { health: string } }[];
    expect(onlyOk.every((r) => r.publication.health === 'ok')).toBe(true);
    expect(onlyOk.map((r) => r.paymentId)).toContain(ok.payment.id);
    expect(onlyOk.map((r) => r.paymentId)).not.toContain(unverified.payment.id);
    expect((await admin.get('/api/admin/placements?health=sideways')).status).toBe(400);

    const counts = (await admin.get('/api/admin/placements/counts')).body;
    expect(counts.all).toBeGreaterThanOrEqual(2);
    expect(counts.all).toBe(counts.ok + counts.warning + counts.unverified + counts.issue + counts.refunded);

    // a refund from Placements: the money comes back although released, and it shows as refunded
    const before = refunds.length;
    const refund = await admin.post(`/api/admin/payments/${ok.payment.id}/refund`);
    expect(refund.status, refund.text).toBe(200);
    expect(refund.body.status).toBe('refunded');
    expect(refunds.slice(before)).toEqual([{ providerRef: ok.payment.stripePaymentId, amountCents: 125000, idempotencyKey: ok.payment.id }]);
    expect(await publicationOf(ok.payment.id)).toMatchObject({ health: 'refunded', nextCheckAt: null });
    expect((await myArticle(ok.brand, ok.payment.id))?.publication).toMatchObject({ health: 'refunded' });
    const refunded = (await admin.get('/api/admin/placements?health=refunded&limit=200')).body as { paymentId: string }[];
    expect(refunded.map((r) => r.paymentId)).toContain(ok.payment.id);
    expect((await admin.post(`/api/admin/payments/${ok.payment.id}/refund`)).status).toBe(409);
    const moved = await admin.put(`/api/admin/payments/${ok.payment.id}/publication`, { liveUrl: outlet.serve(freshPath()) });
    expect(moved.status).toBe(409);
    expect(moved.body.message).toBe('This placement was refunded');
    expect(refunds.length).toBe(before + 1);
    expect(await mailsOf(ok.payment.id, 'admin_publication_refunded')).toHaveLength(1);
  });
});

describe('the watch (controllable clock)', () => {
  const DAY = 86_400_000;
  const HOUR = 3_600_000;
  // far from now and from the other tests' clocks, so only this placement is due
  let t0: Date;
  const at = (days: number, hours = 0) => new Date(t0.getTime() + days * DAY + hours * HOUR);

  beforeEach(async () => {
    // the watch is global: placements of earlier tests must not be due on this clock
    await t.db.update(publications).set({ nextCheckAt: null });
  });

  it('removed → confirmed an hour later → case → restored → removed again → refunded once at the deadline → no more checks', async () => {
    t0 = new Date(Date.now() + 1000 * DAY);
    const { brand, payment } = await placement();
    const path = freshPath();
    const url = outlet.serve(path);
    await releasePayment(deps, payment.id, { liveUrl: url }, at(0));
    expect((await publicationOf(payment.id)).health).toBe('ok');

    // day 10: removed; the first failing check is not yet a case
    outlet.remove(path);
    expect(await runDueChecks(deps, at(10))).toBe(1);
    let pub = await publicationOf(payment.id);
    expect(pub.health).toBe('ok');
    expect(pub.failingSince).toEqual(at(10));
    expect(pub.nextCheckAt).toEqual(at(10, 1));
    expect(await t.db.select().from(publicationCases).where(eq(publicationCases.placementId, payment.id))).toHaveLength(0);

    // +1 h: still gone → a case, both sides told, a restore deadline ten days on
    expect(await runDueChecks(deps, at(10, 1))).toBe(1);
    pub = await publicationOf(payment.id);
    expect(pub.health).toBe('issue');
    const [open] = await t.db.select().from(publicationCases).where(eq(publicationCases.placementId, payment.id));
    expect(open).toMatchObject({ closedAt: null, restoreBy: at(20, 1) });
    expect(open.reason).toMatch(/404/);
    const issueMails = await mailsOf(payment.id, 'publication_issue');
    expect(issueMails.map((m) => m.data.forAdmin).sort()).toEqual([false, true]);
    const card = (await myArticle(brand, payment.id))?.publication as { health: string; issue: { reason: string; restoreBy: string; evidence: { httpStatus: number } } };
    expect(card.health).toBe('issue');
    expect(card.issue).toMatchObject({ reason: open.reason, restoreBy: at(20, 1).toISOString(), evidence: { httpStatus: 404 } });
    const counts = (await admin.get('/api/admin/placements/counts')).body;
    expect(counts.issues).toBeGreaterThanOrEqual(1);

    // day 15: restored → the case closes, both told
    outlet.serve(path);
    expect(await runDueChecks(deps, at(15))).toBe(1);
    pub = await publicationOf(payment.id);
    expect(pub).toMatchObject({ health: 'ok', failingSince: null, restoredAt: at(15) });
    const [closed] = await t.db.select().from(publicationCases).where(eq(publicationCases.placementId, payment.id));
    expect(closed).toMatchObject({ outcome: 'restored', closedAt: at(15) });
    expect(await mailsOf(payment.id, 'publication_restored')).toHaveLength(2);
    expect(((await myArticle(brand, payment.id))?.publication as { issue: unknown }).issue).toBeNull();

    // day 40: removed again; +1 h case; day 45 still gone, no refund yet; the deadline (day 50 +1 h) refunds
    outlet.remove(path);
    const before = refunds.length;
    expect(await runDueChecks(deps, at(40))).toBe(1);
    expect(await runDueChecks(deps, at(40, 1))).toBe(1);
    expect((await publicationOf(payment.id)).health).toBe('issue');
    await runDueChecks(deps, at(45));
    expect(refunds.length).toBe(before);
    expect((await paymentRow(t.db, payment.id)).status).toBe('released');
    const due = (await publicationOf(payment.id)).nextCheckAt!;
    expect(due.getTime()).toBeLessThanOrEqual(at(50, 1).getTime());

    expect(await runDueChecks(deps, at(50, 1))).toBeGreaterThanOrEqual(1);
    expect(refunds.slice(before)).toEqual([{ providerRef: payment.stripePaymentId, amountCents: 125000, idempotencyKey: payment.id }]);
    expect(await paymentRow(t.db, payment.id)).toMatchObject({ status: 'refunded', refundReason: 'not_restored' });
    expect(await publicationOf(payment.id)).toMatchObject({ health: 'refunded', nextCheckAt: null });
    const cases = await t.db.select().from(publicationCases).where(eq(publicationCases.placementId, payment.id));
    expect(cases.map((c) => c.outcome).sort()).toEqual(['refunded', 'restored']);
    expect(((await myArticle(brand, payment.id))?.publication as { health: string }).health).toBe('refunded');
    expect(await mailsOf(payment.id, 'refund_issued')).toHaveLength(1);
    expect(await mailsOf(payment.id, 'admin_publication_refunded')).toHaveLength(1);

    // reruns and the refund sweep change nothing
    const hits = outlet.hits.get(path);
    expect(await runDueChecks(deps, at(51))).toBe(0);
    expect(await runDueChecks(deps, at(200))).toBe(0);
    // (the sweep refunds other tests' unpublished payments on this far-off clock: only this one counts)
    await refundOverduePayments(t.db, t.provider, at(60));
    expect(refunds.slice(before).filter((r) => r.idempotencyKey === payment.id)).toHaveLength(1);
    expect(outlet.hits.get(path)).toBe(hits);
  });

  it('a 503 that recovers within the hour is not a case; a 410 confirmed an hour later is', async () => {
    t0 = new Date(Date.now() + 1500 * DAY);
    const { payment } = await placement();
    const path = freshPath();
    await releasePayment(deps, payment.id, { liveUrl: outlet.serve(path) }, at(0));
    outlet.serve(path, { status: 503, body: page('Down for maintenance') });
    expect(await runDueChecks(deps, at(2))).toBe(1);
    expect((await publicationOf(payment.id)).failingSince).toEqual(at(2));
    outlet.serve(path);
    expect(await runDueChecks(deps, at(2, 1))).toBe(1);
    expect(await publicationOf(payment.id)).toMatchObject({ health: 'ok', failingSince: null });
    expect(await t.db.select().from(publicationCases).where(eq(publicationCases.placementId, payment.id))).toHaveLength(0);
    expect(await mailsOf(payment.id, 'publication_issue')).toHaveLength(0);

    outlet.serve(path, { status: 410, body: page('Gone') });
    await runDueChecks(deps, at(5));
    await runDueChecks(deps, at(5, 1));
    const [open] = await t.db.select().from(publicationCases).where(eq(publicationCases.placementId, payment.id));
    expect(open.reason).toMatch(/410/);
    expect((await publicationOf(payment.id)).health).toBe('issue');
  });

  it('checks run through the guarantee window and stop after it', async () => {
    t0 = new Date(Date.now() + 2000 * DAY);
    const { payment } = await placement();
    const path = freshPath();
    await releasePayment(deps, payment.id, { liveUrl: outlet.serve(path) }, at(0));
    // the job every six hours of the clock, 95 days long
    const checked: number[] = [];
    for (let hours = 6; hours <= 95 * 24; hours += 6) {
      if ((await runDueChecks(deps, at(0, hours))) > 0) checked.push(hours);
    }
    // about one check a day (jittered), the last at the guarantee's end, none after
    expect(checked.length).toBeGreaterThanOrEqual(75);
    expect(checked.length).toBeLessThanOrEqual(95);
    expect(Math.max(...checked)).toBe(90 * 24);
    const pub = await publicationOf(payment.id);
    expect(pub).toMatchObject({ health: 'ok', nextCheckAt: null, failingSince: null, updatedAt: at(0, 90 * 24) });
    expect(pub.lastCheck).toMatchObject({ result: 'pass', httpStatus: 200, link: { found: true, rel: 'dofollow' } });
    // every check is kept as evidence: the release's and each one of the watch
    const kept = await t.db.select().from(publicationChecks).where(eq(publicationChecks.placementId, payment.id));
    expect(kept).toHaveLength(checked.length + 1);
    expect(kept.every((c) => c.result === 'pass' && c.url === pub.url)).toBe(true);
  });

  it('a refund claimed but not completed (provider down) is finished by the refund sweep, once', async () => {
    t0 = new Date(Date.now() + 3000 * DAY);
    const { payment } = await placement();
    const path = freshPath();
    await releasePayment(deps, payment.id, { liveUrl: outlet.serve(path) }, at(0));
    outlet.remove(path);
    await runDueChecks(deps, at(2));
    await runDueChecks(deps, at(2, 1));
    expect((await publicationOf(payment.id)).health).toBe('issue');

    const failing: PublicationDeps = {
      ...deps,
      provider: {
        ...deps.provider,
        refund: () => Promise.reject(new Error('provider down')),
      },
    };
    await expect(runDueChecks(failing, at(12, 2))).rejects.toThrow('provider down');
    expect(await paymentRow(t.db, payment.id)).toMatchObject({ status: 'released', refundReason: 'not_restored' });
    // the watch does not claim it again; the refund sweep completes it
    const before = refunds.length;
    expect(await runDueChecks(deps, at(13))).toBe(0);
    expect(await refundOverduePayments(t.db, t.provider, at(13))).toEqual([payment.id]);
    expect(refunds.length).toBe(before + 1);
    expect(await publicationOf(payment.id)).toMatchObject({ health: 'refunded' });
  });

  it('a refund the watch claims is claimed once when two checkers race for it (the sweep and Recheck now)', async () => {
    t0 = new Date(Date.now() + 5000 * DAY);
    const { payment } = await placement();
    const path = freshPath();
    await releasePayment(deps, payment.id, { liveUrl: outlet.serve(path) }, at(0));
    outlet.remove(path);
    await runDueChecks(deps, at(2));
    await runDueChecks(deps, at(2, 1));
    expect((await publicationOf(payment.id)).health).toBe('issue');
    // the provider answers slowly: the second checker decides while the first one's refund is being made
    const slow: PublicationDeps = {
      ...deps,
      provider: {
        ...deps.provider,
        refund: async (req) => {
          await new Promise((resolve) => setTimeout(resolve, 500));
          return deps.provider.refund(req);
        },
      },
    };
    const before = refunds.length;
    const checks = () => t.db.$count(publicationChecks, eq(publicationChecks.placementId, payment.id));
    const checked = await checks();
    // past the restore deadline (day 12 + 1 h): both find the article still gone
    const [swept, rechecked] = await Promise.allSettled([runDueChecks(slow, at(12, 2)), recheckNow(slow, payment.id, at(12, 2))]);
    expect(swept).toMatchObject({ status: 'fulfilled', value: 1 });
    expect(rechecked.status).toBe('fulfilled');
    expect(await checks()).toBe(checked + 2);
    expect(refunds.slice(before).filter((r) => r.idempotencyKey === payment.id)).toHaveLength(1);
    expect(await paymentRow(t.db, payment.id)).toMatchObject({ status: 'refunded', refundReason: 'not_restored' });
    expect(await t.db.$count(placementEvents, and(eq(placementEvents.placementId, payment.id), eq(placementEvents.kind, 'refunded')))).toBe(1);
    expect(await mailsOf(payment.id, 'refund_issued')).toHaveLength(1);
  });

  it('two instances sweeping at once check each placement once and refund each once', async () => {
    t0 = new Date(Date.now() + 4000 * DAY);
    const n = 12;
    const made = await Promise.all(Array.from({ length: n }, () => placement()));
    const paths = made.map(() => freshPath());
    for (const [i, m] of made.entries()) await releasePayment(deps, m.payment.id, { liveUrl: outlet.serve(paths[i]) }, at(0));
    const hits = () => paths.reduce((sum, p) => sum + (outlet.hits.get(p) ?? 0), 0);
    const start = hits();
    const other: PublicationDeps = { ...deps, checker: testChecker(t.config) };
    const [a, b] = await Promise.all([runDueChecks(deps, at(2)), runDueChecks(other, at(2))]);
    expect(a + b).toBe(n);
    expect(hits() - start).toBe(n);

    // all removed, confirmed, and past the deadline: both instances at once, one refund each
    // (day 3 + 6 h: every next check, a day after day 2 give or take 10%, is due)
    for (const p of paths) outlet.remove(p);
    await Promise.all([runDueChecks(deps, at(3, 6)), runDueChecks(other, at(3, 6))]);
    await Promise.all([runDueChecks(deps, at(3, 7)), runDueChecks(other, at(3, 7))]);
    const before = refunds.length;
    await Promise.all([runDueChecks(deps, at(13, 8)), runDueChecks(other, at(13, 8))]);
    const keys = refunds.slice(before).map((r) => r.idempotencyKey);
    expect(keys.sort()).toEqual(made.map((m) => m.payment.id).sort());
    const statuses = await t.db.select({ status: payments.status }).from(payments).where(sql`${payments.id} IN ${made.map((m) => m.payment.id)}`);
    expect(statuses.every((s) => s.status === 'refunded')).toBe(true);
  });
});

describe('PUBLICATION_GUARANTEE_DAYS', () => {
  it('sets how long a released article is watched and guaranteed; the refund after payment keeps its own fixed term', async () => {
    const other = await createPaymentsTestApp({ provider: spyingLocalProvider([]), config: { LINK_CHECK_ALLOW: outlet.allowed, PUBLICATION_GUARANTEE_DAYS: 30 } });
    try {
      const otherAdmin = (await signedIn(other.app, other.db, kinds.admin)).agent;
      const brand = await signedIn(other.app, other.db, { ...kinds.approvedBrand, website: BRAND_SITE });
      const opp = await createOpportunity(other.db, { maxSlots: 1 });
      const payment = await makePayment(other.db, brand.user.id, opp.id, { draftReviewStatus: 'approved', draftDocumentUrl: 'https://docs.example.com/d/1' });
      await submittedBrief(other.db, payment);
      const res = await otherAdmin.post(`/api/admin/payments/${payment.id}/release`, { liveUrl: outlet.serve(freshPath()) });
      expect(res.status, res.text).toBe(200);
      const [pub] = await other.db.select().from(publications).where(eq(publications.placementId, payment.id));
      expect((pub.guaranteeEndsAt.getTime() - pub.publishedAt.getTime()) / DAY_MS).toBe(30);
      const article = (await brand.agent.get('/api/brand/my-articles')).body.find((a: { payment: { id: string } }) => a.payment.id === payment.id);
      expect(article.publication.guaranteeEndsAt).toBe(pub.guaranteeEndsAt.toISOString());
    } finally {
      await other.close();
    }
  });
});
