/**
 * Disputes (issue 47): windows (content from the first draft to DISPUTE_DAYS after release; the live
 * link during the publication guarantee), the editorial team's answer, the brand's acceptance or
 * escalation, the decision by an admin who is neither side (403 otherwise), every deadline the team
 * misses granting what was asked exactly once, and a link dispute decided by Byline's own checks of
 * a loopback outlet: confirmed, the publication case, refunded at its restore deadline.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, getTableColumns, gte } from 'drizzle-orm';
import { disputeRefundedSql } from '../../src/server/modules/ledger/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  disputes,
  paymentRefunds,
  payments,
  placementMessages,
  placements,
  publicationChecks,
  publications,
  taxDocuments,
} from '../../src/server/db/schema';
import { acceptOffer, escalateDispute, runDisputeDeadlines } from '../../src/server/modules/disputes/service';
import type { Member } from '../../src/server/lib/contract';
import { issueInvoice, TEST_INVOICING } from '../../src/server/modules/invoices/service';
import { runDueChecks, type PublicationDeps } from '../../src/server/modules/placements/watch';
import type { RefundRequest } from '../../src/server/providers/provider';
import { DAY_MS } from '../../src/shared/constants';
import type { Agent, Res } from '../support/app';
import { submittedBrief } from '../support/content';
import { kinds, signedIn } from '../support/factories';
import { testChecker } from '../support/outlets';
import {
  createOpportunity,
  createPaymentsTestApp,
  makePayment,
  spyingLocalProvider,
  type PaymentsTestApp,
} from '../support/payments';
import { paymentWithRefunded } from '../support/placements';

const BRAND_SITE = 'https://brand.example.com';
const PAGE = `<!doctype html><html><head><title>A story</title></head><body><article><h1>A story</h1><p>${'The quick brown fox writes about the industry and its many interesting companies. '.repeat(20)}</p><a href="${BRAND_SITE}/product">our partner</a></article></body></html>`;

/** The outlet on loopback: each path answers the article, or 404 once removed. */
const served = new Map<string, number>();
const outlet = http.createServer((req, res) => {
  const status = served.get(req.url ?? '/') ?? 404;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(status === 200 ? PAGE : 'Not found');
});
let base = '';

const refunds: RefundRequest[] = [];
let t: PaymentsTestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
let second: Awaited<ReturnType<typeof signedIn>>;
let deps: PublicationDeps;
beforeAll(async () => {
  await new Promise<void>((resolve) => outlet.listen(0, '127.0.0.1', resolve));
  const { port } = outlet.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  t = await createPaymentsTestApp({
    provider: spyingLocalProvider(refunds),
    config: { LINK_CHECK_ALLOW: `127.0.0.1:${port}`, RESPONSE_DAYS: 3, DISPUTE_DAYS: 7 },
  });
  admin = await signedIn(t.app, t.db, { ...kinds.admin, name: 'First Admin' });
  second = await signedIn(t.app, t.db, { ...kinds.admin, name: 'Second Admin' });
  deps = {
    db: t.db,
    provider: t.provider,
    checker: testChecker(t.config),
    terms: { guaranteeDays: 90, restoreDays: 10, checkIntervalHours: 24 },
  };
});
afterAll(async () => {
  await t.close();
  outlet.closeAllConnections();
  await new Promise<void>((resolve) => outlet.close(() => resolve()));
});

const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

type Brand = Awaited<ReturnType<typeof signedIn>>;
/** A held placement with its brief in; with `draft`, its draft attached. */
async function placement(brand: Brand, { draft = true, amount = '600.00' } = {}) {
  const opp = await createOpportunity(t.db, { maxSlots: 1, priceUsd: amount });
  const p = await makePayment(t.db, brand.user.id, opp.id, {
    amount,
    draftReviewStatus: draft ? 'pending_brand_review' : 'awaiting_brand_brief',
    ...(draft ? { draftDocumentUrl: 'https://docs.example.com/d/1' } : {}),
  });
  await submittedBrief(t.db, p);
  // its invoice, as a paid checkout issues it: the credit notes refer to it
  await t.db.transaction((tx) => issueInvoice(tx, p.id, TEST_INVOICING, new Date()));
  return p.id;
}
const dispute = (agent: Agent, id: string, body: Record<string, unknown>) =>
  agent.post(`/api/brand/projects/${id}/disputes`, body);
// the dispute's row, with what it gave back as the answers read it: from its movement on the ledger (decision 050)
const row = async (id: string) =>
  (await t.db.select({ ...getTableColumns(disputes), refunded: disputeRefundedSql }).from(disputes).where(eq(disputes.id, id)))[0];
const payment = (id: string) => paymentWithRefunded(t.db, id);

describe('a content dispute', () => {
  it('opens from the first draft, once; answered with a rejection, escalated, decided by another admin with a part refund', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const early = await placement(brand, { draft: false });
    const body = {
      reason: 'not_as_briefed',
      outcome: 'refund_partial',
      amountUsd: '200.00',
      text: 'The article ignores the product we briefed.',
    };
    const before = await dispute(brand.agent, early, body);
    expect(before.status).toBe(409);
    expect(before.body.message).toBe(
      'A dispute about the content can be opened from the first draft until 7 days after release',
    );
    const id = await placement(brand);
    expect(
      (await dispute(brand.agent, id, { ...body, outcome: 'refund_partial', amountUsd: undefined })).body.errors,
    ).toEqual({ amountUsd: 'Give the amount you ask for' });
    expect((await dispute(brand.agent, id, { ...body, amountUsd: '600.01' })).status).toBe(409);
    const opened = await dispute(brand.agent, id, body);
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      paymentId: id,
      kind: 'content',
      status: 'open',
      outcome: 'refund_partial',
      amountUsd: '200.00',
    });
    expect(new Date(opened.body.respondBy).getTime() - Date.now()).toBeGreaterThan(3 * DAY_MS - 60_000);
    expect((await dispute(brand.agent, id, body)).body.message).toBe('A dispute about this placement is already open');
    // the text is in the placement's conversation; the card shows the dispute
    const [message] = await t.db.select().from(placementMessages).where(eq(placementMessages.placementId, id));
    expect(message.text).toContain(
      'Dispute opened: The article is not as briefed. Asking for: A partial refund of $200.00.',
    );
    const card = ok(await brand.agent.get(`/api/brand/my-articles/${id}`), 'card');
    expect(card.dispute).toMatchObject({ id: opened.body.id, status: 'open', dueAt: opened.body.respondBy });
    // another brand sees nothing
    const stranger = await signedIn(t.app, t.db, kinds.approvedBrand);
    expect((await dispute(stranger.agent, id, body)).status).toBe(404);
    expect((await stranger.agent.get(`/api/brand/disputes/${opened.body.id}`)).status).toBe(404);
    expect((await stranger.agent.post(`/api/brand/disputes/${opened.body.id}/escalate`)).status).toBe(404);
    // the admins' list counts it
    const list = ok(await admin.agent.get('/api/admin/disputes?status=open'), 'list');
    expect(list.counts.open).toBeGreaterThanOrEqual(1);
    expect(list.items.map((d: { id: string }) => d.id)).toContain(opened.body.id);
    // rejected (a reason is required), then escalated; no offer to accept
    expect((await admin.agent.post(`/api/admin/disputes/${opened.body.id}/answer`, { action: 'reject' })).status).toBe(
      400,
    );
    const answered = ok(
      await admin.agent.post(`/api/admin/disputes/${opened.body.id}/answer`, {
        action: 'reject',
        reason: 'The brief allowed it',
      }),
      'answer',
    );
    expect(answered).toMatchObject({ status: 'offered', answer: { action: 'reject', reason: 'The brief allowed it' } });
    expect((await brand.agent.post(`/api/brand/disputes/${opened.body.id}/accept-offer`)).status).toBe(409);
    const escalated = ok(await brand.agent.post(`/api/brand/disputes/${opened.body.id}/escalate`), 'escalate');
    expect(escalated.status).toBe('escalated');
    expect(new Date(escalated.decideBy).getTime() - Date.now()).toBeGreaterThan(10 * DAY_MS - 60_000);
    // the admin who answered may not decide it
    const refused = await admin.agent.post(`/api/admin/disputes/${opened.body.id}/decide`, {
      outcome: 'reject',
      reason: 'Still fine',
    });
    expect(refused.status).toBe(403);
    expect((await row(opened.body.id)).status).toBe('escalated');
    // issue 57: the page says so before the click: who may decide it, not the admin who answered
    const asAnswerer = ok(await admin.agent.get(`/api/admin/disputes/${opened.body.id}`), 'detail');
    expect(asAnswerer.deciders.you).toBe(false);
    expect(asAnswerer.deciders.names).toContain(`Second Admin (${second.user.email})`);
    expect(asAnswerer.deciders.names).not.toContain(`First Admin (${admin.user.email})`);
    expect(ok(await second.agent.get(`/api/admin/disputes/${opened.body.id}`), 'detail').deciders.you).toBe(true);
    // the brand's view names no admin
    expect(ok(await brand.agent.get(`/api/brand/disputes/${opened.body.id}`), 'brand detail')).not.toHaveProperty('deciders');
    const decided = ok(
      await second.agent.post(`/api/admin/disputes/${opened.body.id}/decide`, {
        outcome: 'refund_partial',
        amountUsd: '150.00',
        reason: 'Half the brief was missed',
      }),
      'decide',
    );
    expect(decided).toMatchObject({
      status: 'resolved',
      resolution: 'refunded_partial',
      refundedUsd: '150.00',
      decision: { reason: 'Half the brief was missed' },
    });
    expect(await payment(id)).toMatchObject({ status: 'paid', refundedAmount: '150.00' });
    expect(ok(await admin.agent.get(`/api/admin/disputes/${opened.body.id}`), 'detail')).toMatchObject({
      amount: '600.00',
      refundedAmount: '150.00',
      brandName: brand.user.brandName,
    });
    const [part] = await t.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, id));
    expect(part).toMatchObject({ amount: '150.00', reason: 'dispute' });
    expect(await t.db.$count(taxDocuments, eq(taxDocuments.refundId, part.id))).toBe(1);
    expect(
      (await second.agent.post(`/api/admin/disputes/${opened.body.id}/decide`, { outcome: 'reject', reason: 'Again' }))
        .status,
    ).toBe(409);
    // a brand may not answer or decide
    expect((await brand.agent.post(`/api/admin/disputes/${opened.body.id}/answer`, { action: 'accept' })).status).toBe(
      403,
    );
  });

  it('the admin who released the placement may not decide its dispute', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await placement(brand);
    await t.db.update(payments).set({ status: 'paid' }).where(eq(payments.id, id));
    ok(await brand.agent.post(`/api/brand/projects/${id}/approve`), 'approve');
    ok(await second.agent.post(`/api/admin/payments/${id}/release`, {}), 'release');
    const d = ok(
      await dispute(brand.agent, id, { reason: 'other', outcome: 'refund_full', text: 'Not what we paid for.' }),
      'open',
    );
    ok(
      await admin.agent.post(`/api/admin/disputes/${d.id}/answer`, { action: 'offer', reason: 'We will correct it' }),
      'offer a correction',
    );
    ok(await brand.agent.post(`/api/brand/disputes/${d.id}/escalate`), 'escalate');
    // the first admin answered, the second released: no one of them decides
    expect(
      (await admin.agent.post(`/api/admin/disputes/${d.id}/decide`, { outcome: 'reject', reason: 'x' })).status,
    ).toBe(403);
    expect(
      (await second.agent.post(`/api/admin/disputes/${d.id}/decide`, { outcome: 'reject', reason: 'x' })).status,
    ).toBe(403);
    const third = await signedIn(t.app, t.db, { ...kinds.admin, name: 'Third Admin' });
    const decided = ok(
      await third.agent.post(`/api/admin/disputes/${d.id}/decide`, {
        outcome: 'refund_full',
        reason: 'It was not what was briefed',
      }),
      'decide',
    );
    expect(decided).toMatchObject({ resolution: 'refunded_full', refundedUsd: '600.00' });
    expect(await payment(id)).toMatchObject({ status: 'refunded', refundedAmount: '600.00', refundReason: 'dispute' });
    // released more than DISPUTE_DAYS ago: too late for the content
    const late = await placement(brand);
    ok(await brand.agent.post(`/api/brand/projects/${late}/approve`), 'approve');
    ok(await second.agent.post(`/api/admin/payments/${late}/release`, {}), 'release');
    await t.db
      .update(payments)
      .set({ releasedAt: new Date(Date.now() - 8 * DAY_MS) })
      .where(eq(payments.id, late));
    expect((await dispute(brand.agent, late, { reason: 'other', outcome: 'correction', text: 'Late' })).status).toBe(
      409,
    );
  });

  it('an offer accepted refunds it; a file goes into the conversation', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await placement(brand);
    const form = new FormData();
    form.set('reason', 'not_as_briefed');
    form.set('outcome', 'refund_full');
    form.set('text', 'See the attached brief.');
    form.set(
      'file',
      new Blob([Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n')], { type: 'application/pdf' }),
      'brief.pdf',
    );
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/brand/projects/${id}/disputes`,
      headers: { host: 'localhost:80', cookie: brand.agent.cookie!, origin: 'http://localhost:80' },
      payload: form,
    });
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json();
    const [message] = await t.db.select().from(placementMessages).where(eq(placementMessages.placementId, id));
    expect(message).toMatchObject({ attachmentName: 'brief.pdf', attachmentType: 'application/pdf' });
    ok(
      await admin.agent.post(`/api/admin/disputes/${d.id}/answer`, {
        action: 'offer',
        amountUsd: '100.00',
        reason: 'A fair part',
      }),
      'offer',
    );
    const accepted = ok(await brand.agent.post(`/api/brand/disputes/${d.id}/accept-offer`), 'accept');
    expect(accepted).toMatchObject({ status: 'resolved', resolution: 'refunded_partial', refundedUsd: '100.00' });
    expect(await payment(id)).toMatchObject({ status: 'paid', refundedAmount: '100.00' });
  });
});

describe('deadlines', () => {
  it('the team’s silence grants what was asked, once, with runs at once; an offer not escalated stands; a decision not made grants', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    // unanswered
    const a = await placement(brand);
    const da = ok(
      await dispute(brand.agent, a, { reason: 'not_as_briefed', outcome: 'refund_full', text: 'Wrong topic' }),
      'open a',
    );
    expect(await runDisputeDeadlines(t.db, t.provider, new Date(Date.now() + 2 * DAY_MS))).not.toContain(da.id);
    const later = new Date(Date.now() + 3 * DAY_MS + 60_000);
    const before = refunds.length;
    const runs = await Promise.all([
      runDisputeDeadlines(t.db, t.provider, later),
      runDisputeDeadlines(t.db, t.provider, later),
    ]);
    expect(runs.flat().filter((x) => x === da.id)).toHaveLength(1);
    expect(refunds.slice(before).filter((r) => r.idempotencyKey === a)).toHaveLength(1);
    expect(await row(da.id)).toMatchObject({ status: 'resolved', resolution: 'refunded_full', refunded: '600.00' });
    expect(await payment(a)).toMatchObject({ status: 'refunded', refundReason: 'dispute' });
    expect(
      await t.db.$count(taxDocuments, and(eq(taxDocuments.paymentId, a), eq(taxDocuments.kind, 'credit_note'))),
    ).toBe(1);
    // an offer the brand let lapse stands (the part is refunded)
    const b = await placement(brand);
    const db_ = ok(
      await dispute(brand.agent, b, { reason: 'other', outcome: 'refund_full', text: 'Too short' }),
      'open b',
    );
    ok(
      await admin.agent.post(`/api/admin/disputes/${db_.id}/answer`, {
        action: 'offer',
        amountUsd: '50.00',
        reason: 'A little',
      }),
      'offer',
    );
    const afterEscalation = new Date(Date.now() + 3 * DAY_MS + 60_000);
    await runDisputeDeadlines(t.db, t.provider, afterEscalation);
    expect(await row(db_.id)).toMatchObject({ status: 'resolved', resolution: 'refunded_partial', refunded: '50.00' });
    // an escalation not decided in 10 days grants what was asked
    const c = await placement(brand);
    const dc = ok(
      await dispute(brand.agent, c, {
        reason: 'other',
        outcome: 'refund_partial',
        amountUsd: '250.00',
        text: 'Half missing',
      }),
      'open c',
    );
    ok(await admin.agent.post(`/api/admin/disputes/${dc.id}/answer`, { action: 'reject', reason: 'No' }), 'reject');
    ok(await brand.agent.post(`/api/brand/disputes/${dc.id}/escalate`), 'escalate');
    await runDisputeDeadlines(t.db, t.provider, new Date(Date.now() + 9 * DAY_MS));
    expect((await row(dc.id)).status).toBe('escalated');
    await runDisputeDeadlines(t.db, t.provider, new Date(Date.now() + 10 * DAY_MS + 60_000));
    expect(await row(dc.id)).toMatchObject({ status: 'resolved', resolution: 'refunded_partial', refunded: '250.00' });
    expect((await payment(c)).refundedAmount).toBe('250.00');
  });
});

describe('a member limited to clients', () => {
  it('gets 404 for a dispute of another client’s placement, or of one bought for no client, and changes nothing', async () => {
    const owner = await signedIn(t.app, t.db, kinds.approvedBrand);
    const orgId = owner.user.organisationId!;
    const client = async (name: string) => ok(await owner.agent.post('/api/org/clients', { name }), 'client').id as string;
    const [acme, bolt] = [await client('Acme Foods'), await client('Bolt Bikes')];
    const opened: Record<string, string> = {};
    for (const [key, clientId] of [['acme', acme], ['bolt', bolt], ['none', null]] as const) {
      const id = await placement(owner);
      await t.db.update(placements).set({ clientId }).where(eq(placements.id, id));
      await t.db.update(payments).set({ clientId }).where(eq(payments.id, id));
      const d = ok(await dispute(owner.agent, id, { reason: 'other', outcome: 'refund_full', text: 'Too short' }), 'open');
      ok(await admin.agent.post(`/api/admin/disputes/${d.id}/answer`, { action: 'offer', amountUsd: '20.00', reason: 'A little' }), 'offer');
      opened[key] = d.id;
    }
    const buyer = await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: 'Acme buyer', organisationId: orgId, orgRole: 'buyer', clientIds: [acme] });
    for (const key of ['bolt', 'none']) {
      const id = opened[key];
      for (const res of [
        await buyer.agent.get(`/api/brand/disputes/${id}`),
        await buyer.agent.post(`/api/brand/disputes/${id}/accept-offer`),
        await buyer.agent.post(`/api/brand/disputes/${id}/escalate`),
      ]) {
        expect(res.status, `${key}: ${res.text}`).toBe(404);
        expect(res.body.message).toBe('Dispute not found');
      }
      expect(await row(id)).toMatchObject({ status: 'offered', escalatedAt: null, refunded: '0.00' });
      // the service keeps its own check behind the contract's (actsOn): called without the route's
      // hook, it refuses the same and changes nothing
      const member: Member = { userId: buyer.user.id, organisationId: orgId, role: 'buyer', clientIds: [acme], name: 'Acme buyer', email: buyer.user.email, address: '127.0.0.1' };
      for (const call of [() => acceptOffer(t.db, t.provider, member, id), () => escalateDispute(t.db, t.provider, member, id)]) {
        await expect(call()).rejects.toMatchObject({ kind: 'not_found', code: 'dispute_not_found' });
      }
      expect(await row(id)).toMatchObject({ status: 'offered', escalatedAt: null, refunded: '0.00' });
    }
    // its own client's: read and escalated
    expect((await buyer.agent.get(`/api/brand/disputes/${opened.acme}`)).status).toBe(200);
    expect(ok(await buyer.agent.post(`/api/brand/disputes/${opened.acme}/escalate`), 'escalate').status).toBe('escalated');
  });
});

describe('an answer not escalated in time', () => {
  it('an escalation after escalateBy, before the deadline job ran, answers 409 and changes nothing; the job then lets the answer stand', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await placement(brand);
    const d = ok(await dispute(brand.agent, id, { reason: 'other', outcome: 'refund_full', text: 'Too short' }), 'open');
    ok(await admin.agent.post(`/api/admin/disputes/${d.id}/answer`, { action: 'reject', reason: 'It is as briefed' }), 'reject');
    // the three days ran out a second ago
    await t.db.update(disputes).set({ escalateBy: new Date(Date.now() - 1000) }).where(eq(disputes.id, d.id));
    const late = await brand.agent.post(`/api/brand/disputes/${d.id}/escalate`);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('The time to escalate this dispute has passed');
    expect(await row(d.id)).toMatchObject({ status: 'offered', escalatedAt: null, decideBy: null });
    expect(await runDisputeDeadlines(t.db, t.provider)).toContain(d.id);
    expect(await row(d.id)).toMatchObject({ status: 'resolved', resolution: 'rejected' });
    expect(await payment(id)).toMatchObject({ status: 'paid', refundedAmount: '0.00' });
  });
});

describe('a link dispute', () => {
  it('is decided by Byline’s checks: confirmed an hour apart, the publication case, refunded at its restore deadline', async () => {
    const brand = await signedIn(t.app, t.db, { ...kinds.approvedBrand, website: BRAND_SITE });
    const id = await placement(brand);
    // not published yet: no link to dispute
    expect(
      (await dispute(brand.agent, id, { reason: 'link_missing', outcome: 'refund_full', text: 'Where is it?' })).status,
    ).toBe(409);
    ok(await brand.agent.post(`/api/brand/projects/${id}/approve`), 'approve');
    served.set('/story-link', 200);
    ok(await second.agent.post(`/api/admin/payments/${id}/release`, { liveUrl: `${base}/story-link` }), 'release');
    served.set('/story-link', 404);
    const d = ok(
      await dispute(brand.agent, id, { reason: 'link_missing', outcome: 'refund_full', text: 'The page is gone' }),
      'open',
    );
    expect(d).toMatchObject({ kind: 'link', status: 'open', respondBy: null });
    // issue 57: the dispute's page shows the check it waits for, asked for at once
    const waiting = ok(await brand.agent.get(`/api/brand/disputes/${d.id}`), 'detail');
    expect(new Date(waiting.nextCheckAt).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    // the checks decide it: the team may grant it, not reject it
    const rejected = await admin.agent.post(`/api/admin/disputes/${d.id}/answer`, { action: 'reject', reason: 'Looks fine to us' });
    expect(rejected.status).toBe(409);
    expect(rejected.body.message).toBe('Byline’s checks decide a dispute about the live link: the editorial team can only accept it');
    // checked at once
    const now = Date.now();
    expect(
      (await t.db.select().from(publications).where(eq(publications.placementId, id)))[0].nextCheckAt!.getTime(),
    ).toBeLessThanOrEqual(now + 1000);
    await runDueChecks(deps, new Date(now + 1000));
    await runDisputeDeadlines(t.db, t.provider, new Date(now + 2000));
    expect((await row(d.id)).caseId).toBeNull();
    // the second failing check an hour later confirms it: the case, linked to the dispute
    await runDueChecks(deps, new Date(now + 3_700_000));
    await runDisputeDeadlines(t.db, t.provider, new Date(now + 3_800_000));
    const linked = await row(d.id);
    expect(linked.caseId).not.toBeNull();
    expect(linked.status).toBe('open');
    const detail = ok(await brand.agent.get(`/api/brand/disputes/${d.id}`), 'detail');
    expect(detail.evidence.length).toBeGreaterThanOrEqual(2);
    expect(detail.evidence[0]).toMatchObject({ result: 'fail', url: `${base}/story-link` });
    // not restored by RESTORE_DAYS: the watch refunds, the dispute follows
    await runDueChecks(deps, new Date(now + 11 * DAY_MS));
    await runDisputeDeadlines(t.db, t.provider, new Date(now + 11 * DAY_MS + 1000));
    expect(await row(d.id)).toMatchObject({ status: 'resolved', resolution: 'refunded_full', refunded: '600.00' });
    expect(await payment(id)).toMatchObject({ status: 'refunded' });
    expect(refunds.filter((r) => r.idempotencyKey === id)).toHaveLength(1);
  });

  it('is rejected only on two passing checks at least an hour apart: two within the hour are not enough, exactly an hour is', async () => {
    const brand = await signedIn(t.app, t.db, { ...kinds.approvedBrand, website: BRAND_SITE });
    const id = await placement(brand);
    ok(await brand.agent.post(`/api/brand/projects/${id}/approve`), 'approve');
    served.set('/story-hour', 200);
    ok(await second.agent.post(`/api/admin/payments/${id}/release`, { liveUrl: `${base}/story-hour` }), 'release');
    const d = ok(await dispute(brand.agent, id, { reason: 'link_changed', outcome: 'correction', text: 'The link moved' }), 'open');
    const opened = (await row(d.id)).createdAt.getTime();
    // the release's passing check, kept again at the times the watch would have checked
    const [released] = await t.db.select().from(publicationChecks).where(eq(publicationChecks.placementId, id));
    expect(released.result).toBe('pass');
    const passAt = (ms: number) =>
      t.db.insert(publicationChecks).values({ placementId: id, url: released.url, result: 'pass', check: released.check, checkedAt: new Date(opened + ms) });
    const first = 60_000;
    await passAt(first);
    await passAt(first + 59 * 60_000);
    expect(await runDisputeDeadlines(t.db, t.provider, new Date(opened + first + 59 * 60_000 + 1000))).not.toContain(d.id);
    expect(await row(d.id)).toMatchObject({ status: 'open', answerAction: null });
    await passAt(first + 3_600_000);
    expect(await runDisputeDeadlines(t.db, t.provider, new Date(opened + first + 3_600_000 + 1000))).toContain(d.id);
    expect(await row(d.id)).toMatchObject({ status: 'offered', answerAction: 'reject' });
  });

  it('checks that keep passing answer it as rejected, with the checks as evidence; the brand may escalate', async () => {
    const brand = await signedIn(t.app, t.db, { ...kinds.approvedBrand, website: BRAND_SITE });
    const id = await placement(brand);
    ok(await brand.agent.post(`/api/brand/projects/${id}/approve`), 'approve');
    served.set('/story-fine', 200);
    ok(await second.agent.post(`/api/admin/payments/${id}/release`, { liveUrl: `${base}/story-fine` }), 'release');
    const d = ok(
      await dispute(brand.agent, id, { reason: 'link_changed', outcome: 'correction', text: 'The link moved' }),
      'open',
    );
    const now = Date.now();
    await runDueChecks(deps, new Date(now + 1000));
    // one passing check is not enough
    await runDisputeDeadlines(t.db, t.provider, new Date(now + 2000));
    expect((await row(d.id)).status).toBe('open');
    // the checker stamps its checks with the real time: the dispute and its first check are moved two hours back
    await t.db
      .update(disputes)
      .set({ createdAt: new Date(now - 2 * 3_600_000) })
      .where(eq(disputes.id, d.id));
    await t.db
      .update(publicationChecks)
      .set({ checkedAt: new Date(now - 3_600_000 - 60_000) })
      .where(and(eq(publicationChecks.placementId, id), gte(publicationChecks.checkedAt, new Date(now - 60_000))));
    await t.db
      .update(publications)
      .set({ nextCheckAt: new Date(now) })
      .where(eq(publications.placementId, id));
    await runDueChecks(deps, new Date(now + 3000));
    await runDisputeDeadlines(t.db, t.provider, new Date(now + 4000));
    const answered = ok(await brand.agent.get(`/api/brand/disputes/${d.id}`), 'detail');
    expect(answered).toMatchObject({
      status: 'offered',
      answer: {
        action: 'reject',
        reason: 'Byline’s checks found the article live, with its link, at least an hour apart',
      },
    });
    expect(answered.evidence.filter((e: { result: string }) => e.result === 'pass').length).toBeGreaterThanOrEqual(2);
    ok(await brand.agent.post(`/api/brand/disputes/${d.id}/escalate`), 'escalate');
    expect((await row(d.id)).status).toBe('escalated');
  });
});
