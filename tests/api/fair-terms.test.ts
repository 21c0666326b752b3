/**
 * Fair when things go wrong (issue 47): part refunds by an admin (never beyond the amount charged,
 * however many run at once, each with one credit note), revision rounds (REVISIONS_INCLUDED, then
 * the editorial team's yes or no), and cancellation (refunded in full before writing, a request the
 * team answers within RESPONSE_DAYS after; unanswered, granted in full by the job, exactly once).
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cancellations,
  mailOutbox,
  paymentRefunds,
  placementEvents,
  placements,
  revisionRequests,
  taxDocuments,
} from '../../src/server/db/schema';
import { grantUnansweredCancellations } from '../../src/server/modules/payments/cancel';
import { refundPart } from '../../src/server/modules/payments/refunds';
import { requestEdits } from '../../src/server/modules/placements/review';
import type { Member } from '../../src/server/lib/contract';
import { DAY_MS } from '../../src/shared/constants';
import { toCents } from '../../src/shared/money';
import { PART1, PART2 } from '../support/content';
import type { RefundRequest } from '../../src/server/providers/provider';
import { testCheckoutProvider } from '../../src/server/providers/test-checkout';
import type { Agent, Res } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, sessionIdOf, type PaymentsTestApp } from '../support/payments';
import { pdfText } from '../support/pdf';
import { paymentWithRefunded } from '../support/placements';

const refunds: RefundRequest[] = [];
let t: PaymentsTestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  t = await createPaymentsTestApp({
    config: { LIMIT_CHECKOUTS: { max: 1000, windowMs: 3_600_000 }, REVISIONS_INCLUDED: 2, RESPONSE_DAYS: 3 },
    provider: (db) => {
      const inner = testCheckoutProvider(db);
      return {
        ...inner,
        async refund(req) {
          refunds.push(req);
          return inner.refund(req);
        },
      };
    },
  });
  admin = await signedIn(t.app, t.db, kinds.admin);
});
afterAll(() => t.close());

const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

/** Claims and pays an opportunity as the brand does on the test checkout; the payment (placement) id. */
async function buy(agent: Agent, priceUsd = '500.00'): Promise<string> {
  const opp = await createOpportunity(t.db, { priceUsd, maxSlots: 5 });
  const claim = ok(await agent.post('/api/payments/checkout', { opportunityId: opp.id }), 'claim');
  return ok(await agent.post(`/api/payments/checkout/${sessionIdOf(claim.url)}/pay`), 'pay').paymentId;
}

async function download(agent: Agent, url: string) {
  const res = await t.app.inject({
    method: 'GET',
    url,
    headers: { host: 'localhost:80', ...(agent.cookie ? { cookie: agent.cookie } : {}) },
  });
  return { status: res.statusCode, bytes: res.rawPayload, headers: res.headers };
}

const paymentRow = (id: string) => paymentWithRefunded(t.db, id);

describe('part refunds by an admin', () => {
  it('refunds a part with its own credit note; the payment keeps its status and shows what went back', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await buy(brand.agent);
    const before = refunds.length;
    const totalsBefore = ok(await admin.agent.get('/api/admin/payments/totals'), 'totals');
    const res = await admin.agent.post(`/api/admin/payments/${id}/refund`, {
      amountUsd: '120.50',
      reason: 'Two days late',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'paid', amount: '500.00', refundedAmount: '120.50' });
    // the admins' totals: held less the part, refunded more by it; the brand's escrow holds what is left
    const totalsAfter = ok(await admin.agent.get('/api/admin/payments/totals'), 'totals');
    expect(toCents(totalsBefore.held) - toCents(totalsAfter.held)).toBe(12050);
    expect(toCents(totalsAfter.refunded) - toCents(totalsBefore.refunded)).toBe(12050);
    expect(ok(await brand.agent.get('/api/brand/wallet'), 'wallet')).toEqual({ balance: '379.50' });
    expect(refunds.slice(before)).toEqual([expect.objectContaining({ amountCents: 12050 })]);
    const [part] = await t.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, id));
    expect(part).toMatchObject({
      amount: '120.50',
      reason: 'admin',
      note: 'Two days late',
      requestedBy: admin.user.id,
    });
    expect(part.completedAt).not.toBeNull();
    // the brand's lists say so, and its payment is still held
    const mine = ok(await brand.agent.get('/api/brand/payments'), 'payments');
    expect(mine[0]).toMatchObject({ id, status: 'paid', refundedAmount: '120.50' });
    const card = ok(await brand.agent.get('/api/brand/my-articles'), 'articles')[0];
    expect(card.payment).toMatchObject({ status: 'paid', refundedAmount: '120.50' });
    // one credit note, listed and downloadable; the spec-era route answers the latest
    const notes = ok(await brand.agent.get(`/api/brand/payments/${id}/credit-notes`), 'notes');
    expect(notes).toEqual([
      {
        id: expect.any(String),
        number: expect.stringMatching(/^BYL-CN-\d{4}-\d{6}$/),
        amountUsd: '120.50',
        issuedAt: expect.any(String),
      },
    ]);
    const pdf = await download(brand.agent, `/api/brand/payments/${id}/credit-notes/${notes[0].id}`);
    expect(pdf.status).toBe(200);
    const text = await pdfText(pdf.bytes);
    expect(text).toContain(notes[0].number);
    expect(text).toContain('120.50');
    expect(
      (await download(brand.agent, `/api/brand/payments/${id}/credit-note`)).headers['content-disposition'],
    ).toContain(notes[0].number);
    // the brand is e-mailed, with the admin's reason; the timeline says it
    const mail = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, brand.user.email));
    expect(mail.map((m) => m.data)).toContainEqual(
      expect.objectContaining({ kind: 'refund_issued', partial: true, amount: '120.50', note: 'Two days late' }),
    );
    expect(
      await t.db.$count(
        placementEvents,
        and(eq(placementEvents.placementId, id), eq(placementEvents.kind, 'refunded')),
      ),
    ).toBe(1);
    // another brand sees none of it
    const stranger = await signedIn(t.app, t.db, kinds.approvedBrand);
    expect((await stranger.agent.get(`/api/brand/payments/${id}/credit-notes`)).status).toBe(404);
    expect((await download(stranger.agent, `/api/brand/payments/${id}/credit-notes/${notes[0].id}`)).status).toBe(404);
    // the admin's list and the rest in full: the last credit note credits what was left
    expect(ok(await admin.agent.get(`/api/admin/payments/${id}/credit-notes`), 'admin notes')).toHaveLength(1);
    const rest = await admin.agent.post(`/api/admin/payments/${id}/refund`);
    expect(rest.body).toMatchObject({ status: 'refunded', refundedAmount: '500.00' });
    expect(refunds.at(-1)).toMatchObject({ amountCents: 37950 });
    const all = ok(await brand.agent.get(`/api/brand/payments/${id}/credit-notes`), 'notes');
    expect(all.map((n: { amountUsd: string }) => n.amountUsd)).toEqual(['120.50', '379.50']);
  });

  it('refuses more than is left, with what is left, and changes nothing', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await buy(brand.agent, '300.00');
    ok(await admin.agent.post(`/api/admin/payments/${id}/refund`, { amountUsd: '100.00' }), 'part');
    const res = await admin.agent.post(`/api/admin/payments/${id}/refund`, { amountUsd: '200.01' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('That is more than is left to refund: $200.00 of $300.00');
    for (const bad of ['0', '-5', 'ten', '1.234']) {
      const r = await admin.agent.post(`/api/admin/payments/${id}/refund`, { amountUsd: bad });
      expect(r.status, bad).toBe(400);
    }
    expect((await paymentRow(id)).refundedAmount).toBe('100.00');
    // exactly what is left: refunded in full
    expect(
      ok(await admin.agent.post(`/api/admin/payments/${id}/refund`, { amountUsd: '200.00' }), 'rest'),
    ).toMatchObject({ status: 'refunded', refundedAmount: '300.00' });
    expect((await admin.agent.post(`/api/admin/payments/${id}/refund`, { amountUsd: '1.00' })).status).toBe(409);
    // a brand cannot refund
    expect((await brand.agent.post(`/api/admin/payments/${id}/refund`, { amountUsd: '1.00' })).status).toBe(403);
  });

  it('two parts at once whose sum is the amount: one made, the other refused (409 when both read the whole amount left); never held with nothing left', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await buy(brand.agent, '100.00');
    const answers = await Promise.all([0, 1].map(() => admin.agent.post(`/api/admin/payments/${id}/refund`, { amountUsd: '50.00' })));
    const refused = answers.find((r) => r.status === 409);
    if (refused) {
      // both read $100.00 left: one part is claimed, the other finds $50.00 left and is refused
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(refused.body.message).toBe('That is more than is left to refund: $50.00 of $100.00');
      expect(await paymentRow(id)).toMatchObject({ status: 'paid', refundedAmount: '50.00' });
    } else {
      // one after the other (the embedded database runs one transaction at a time): the second
      // asked for exactly what was left, which is a refund in full
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      expect(await paymentRow(id)).toMatchObject({ status: 'refunded', refundedAmount: '100.00' });
    }
    // both parts past the route's check at once (as on a server with many connections): one is claimed
    const other = await buy(brand.agent, '100.00');
    const actor = { type: 'admin' as const, id: admin.user.id };
    const parts = await Promise.all([0, 1].map(() => refundPart(t.db, t.provider, other, 5000, 'admin', actor)));
    expect(parts.filter(Boolean)).toHaveLength(1);
    expect(await paymentRow(other)).toMatchObject({ status: 'paid', refundedAmount: '50.00' });
    expect(await t.db.$count(paymentRefunds, eq(paymentRefunds.paymentId, other))).toBe(1);
    // what is left is refunded in full: the payment ends refunded, the provider asked for each half once
    expect(ok(await admin.agent.post(`/api/admin/payments/${other}/refund`, { amountUsd: '50.00' }), 'rest')).toMatchObject({ status: 'refunded', refundedAmount: '100.00' });
    const [part] = await t.db.select({ id: paymentRefunds.id }).from(paymentRefunds).where(eq(paymentRefunds.paymentId, other));
    expect(refunds.filter((r) => r.idempotencyKey === other || r.idempotencyKey === `refund-${part.id}`).map((r) => r.amountCents)).toEqual([5000, 5000]);
  });

  it('never refunds beyond the amount charged when refunds run at once; each has one credit note', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await buy(brand.agent, '100.00');
    // eight parts of 30.00 at once: at most three fit under 100.00 (a fourth would reach 120.00)
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => admin.agent.post(`/api/admin/payments/${id}/refund`, { amountUsd: '30.00' })),
    );
    const made = answers.filter((r) => r.status === 200);
    expect(made).toHaveLength(3);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(5);
    const p = await paymentRow(id);
    expect(p.refundedAmount).toBe('90.00');
    const parts = await t.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, id));
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(await t.db.$count(taxDocuments, eq(taxDocuments.refundId, part.id))).toBe(1);
    // the rest in full, raced by more parts: the total stays the amount charged
    const race = await Promise.all([
      admin.agent.post(`/api/admin/payments/${id}/refund`),
      admin.agent.post(`/api/admin/payments/${id}/refund`, { amountUsd: '5.00' }),
      admin.agent.post(`/api/admin/payments/${id}/refund`, { amountUsd: '5.00' }),
    ]);
    expect(race[0].status).toBe(200);
    // the parts that lost the race are refused, never an error (two transactions once deadlocked here)
    for (const r of race.slice(1)) expect([200, 409]).toContain(r.status);
    const after = await paymentRow(id);
    expect(after.status).toBe('refunded');
    const given = await t.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, id));
    const partsCents = given.reduce((sum, g) => sum + Math.round(Number(g.amount) * 100), 0);
    const fullCents = refunds
      .filter((r) => r.idempotencyKey === id)
      .reduce((sum, r) => Math.max(sum, r.amountCents ?? 0), 0);
    expect(partsCents + fullCents).toBe(10000);
    const notes = await t.db
      .select()
      .from(taxDocuments)
      .where(and(eq(taxDocuments.paymentId, id), eq(taxDocuments.kind, 'credit_note')));
    expect(notes).toHaveLength(given.length + 1);
  });
});

type Signed = Awaited<ReturnType<typeof signedIn>>;

/** A placement whose brief is in and whose draft is attached: ready for the brand's review. */
async function withDraft(brand: Signed, priceUsd = '500.00') {
  const id = await buy(brand.agent, priceUsd);
  ok(await brand.agent.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 }), 'brief');
  ok(
    await admin.agent.patch(`/api/admin/payments/${id}/status`, {
      draftDocumentUrl: 'https://docs.example.com/draft-1',
    }),
    'draft',
  );
  return id;
}

const card = async (brand: Signed, id: string) => ok(await brand.agent.get(`/api/brand/my-articles/${id}`), 'card');
const events = async (id: string) =>
  (
    await t.db
      .select({ kind: placementEvents.kind })
      .from(placementEvents)
      .where(eq(placementEvents.placementId, id))
      .orderBy(placementEvents.id)
  ).map((e) => e.kind);

const ROUNDS_USED = 'The included revisions are used: say how the draft departs from the brief to ask for another';

describe('revision rounds', () => {
  it('includes REVISIONS_INCLUDED rounds; a third needs a reason and the team’s answer', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await withDraft(brand);
    expect((await card(brand, id)).revisions).toEqual({ used: 0, included: 2, request: null });
    for (const n of [1, 2]) {
      const res = await brand.agent.post(`/api/brand/projects/${id}/request-edits`, { feedback: `Round ${n}` });
      expect(res.status).toBe(200);
      expect((await card(brand, id)).revisions).toMatchObject({ used: n, included: 2 });
      ok(await admin.agent.post(`/api/admin/projects/${id}/mark-edits-complete`), 'complete');
    }
    // the third: a reason is asked for, and nothing changes without it
    const bare = await brand.agent.post(`/api/brand/projects/${id}/request-edits`, { feedback: 'Round 3' });
    expect(bare.status).toBe(400);
    expect(bare.body.errors).toEqual({
      reason: 'Say how the draft departs from the brief: extra revisions are for what the brief asked for',
    });
    expect(await t.db.$count(revisionRequests, eq(revisionRequests.placementId, id))).toBe(0);
    const asked = await brand.agent.post(`/api/brand/projects/${id}/request-edits`, {
      feedback: 'Round 3',
      reason: 'The brief asked for the 2019 figures',
    });
    expect(asked.status).toBe(202);
    expect(asked.body.revisions).toMatchObject({
      used: 2,
      included: 2,
      request: { status: 'pending', feedback: 'Round 3', reason: 'The brief asked for the 2019 figures' },
    });
    // one at a time; the draft stays under review meanwhile
    expect(
      (await brand.agent.post(`/api/brand/projects/${id}/request-edits`, { feedback: 'x', reason: 'y' })).status,
    ).toBe(409);
    expect((await card(brand, id)).payment.draftReviewStatus).toBe('edits_complete');
    // the admins' card shows it; declining needs a reason
    expect(ok(await admin.agent.get(`/api/admin/projects/${id}`), 'project').revisions.request).toMatchObject({
      status: 'pending',
    });
    expect((await admin.agent.post(`/api/admin/payments/${id}/revision-request/decline`, { reason: '' })).status).toBe(
      400,
    );
    ok(
      await admin.agent.post(`/api/admin/payments/${id}/revision-request/decline`, {
        reason: 'The figures were not in the brief',
      }),
      'decline',
    );
    expect((await card(brand, id)).revisions.request).toMatchObject({
      status: 'declined',
      answer: 'The figures were not in the brief',
    });
    expect((await admin.agent.post(`/api/admin/payments/${id}/revision-request/accept`)).status).toBe(409);
    // asked again, accepted: the round opens with its feedback
    expect(
      (
        await brand.agent.post(`/api/brand/projects/${id}/request-edits`, {
          feedback: 'Round 3 again',
          reason: 'Page 2 of the brief',
        })
      ).status,
    ).toBe(202);
    const accepted = ok(await admin.agent.post(`/api/admin/payments/${id}/revision-request/accept`), 'accept');
    expect(accepted).toMatchObject({ draftReviewStatus: 'edits_requested', brandFeedback: 'Round 3 again' });
    expect((await card(brand, id)).revisions).toMatchObject({ used: 3, included: 2, request: { status: 'accepted' } });
    expect(await events(id)).toEqual(
      expect.arrayContaining(['revision_requested', 'revision_declined', 'revision_accepted']),
    );
    const mails = (await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'terms_update'))).map(
      (m) => m.data as { paymentId: string; headline: string },
    );
    expect(mails.filter((m) => m.paymentId === id).map((m) => m.headline)).toEqual([
      'An extra revision was asked for',
      'Your extra revision was declined',
      'An extra revision was asked for',
      'Your extra revision was accepted',
    ]);
    // another brand cannot ask, an admin route refuses a brand
    const stranger = await signedIn(t.app, t.db, kinds.approvedBrand);
    expect(
      (await stranger.agent.post(`/api/brand/projects/${id}/request-edits`, { feedback: 'x', reason: 'y' })).status,
    ).toBe(404);
    expect((await brand.agent.post(`/api/admin/payments/${id}/revision-request/accept`)).status).toBe(403);
  });

  it('two edit requests at once on the last included round: one made, the other refused (409 when both read a round left); rounds used never exceed those included', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await withDraft(brand);
    ok(await brand.agent.post(`/api/brand/projects/${id}/request-edits`, { feedback: 'Round 1' }), 'round 1');
    ok(await admin.agent.post(`/api/admin/projects/${id}/mark-edits-complete`), 'complete');
    const answers = await Promise.all(
      ['Round 2 from one tab', 'Round 2 from another'].map((feedback) => brand.agent.post(`/api/brand/projects/${id}/request-edits`, { feedback })),
    );
    // the other is refused: asked after the first, for a reason (400); at the same time, 409
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = answers.find((r) => r.status !== 200)!;
    if (refused.status === 400) expect(refused.body.errors).toHaveProperty('reason');
    else expect(refused.body.message).toBe(ROUNDS_USED);
    // both past the route's look at the rounds left at once (as on a server with many connections): one moves
    const other = await withDraft(brand);
    ok(await brand.agent.post(`/api/brand/projects/${other}/request-edits`, { feedback: 'Round 1' }), 'round 1');
    ok(await admin.agent.post(`/api/admin/projects/${other}/mark-edits-complete`), 'complete');
    const member: Member = { userId: brand.user.id, organisationId: brand.user.organisationId!, role: 'owner', clientIds: null, name: brand.user.name, email: brand.user.email, address: '127.0.0.1' };
    const moves = await Promise.allSettled([requestEdits(t.db, member, other, 'One tab'), requestEdits(t.db, member, other, 'Another')]);
    expect(moves.filter((m) => m.status === 'fulfilled')).toHaveLength(1);
    expect(moves.filter((m) => m.status === 'rejected').map((m) => (m as PromiseRejectedResult).reason.message)).toEqual([ROUNDS_USED]);
    for (const placementId of [id, other]) {
      const [p] = await t.db.select().from(placements).where(eq(placements.id, placementId));
      expect(p).toMatchObject({ revisionsUsed: 2, revisionsIncluded: 2, draftReviewStatus: 'edits_requested' });
      expect((await events(placementId)).filter((k) => k === 'edits_requested')).toHaveLength(2);
    }
  });

  it('keeps the rounds a placement was bought with', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await withDraft(brand);
    await t.db.update(placements).set({ revisionsIncluded: 0 }).where(eq(placements.id, id));
    expect((await brand.agent.post(`/api/brand/projects/${id}/request-edits`, { feedback: 'More' })).status).toBe(400);
  });
});

describe('cancellation', () => {
  it('before writing: refunded in full at once, exactly once, with its credit note', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await buy(brand.agent, '400.00');
    const before = refunds.length;
    const answers = await Promise.all([
      brand.agent.post(`/api/brand/projects/${id}/cancel`, { reason: 'Plans changed' }),
      brand.agent.post(`/api/brand/projects/${id}/cancel`, {}),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const done = answers.find((a) => a.status === 200)!.body;
    expect(done).toMatchObject({
      refundedUsd: '400.00',
      cancellation: { status: 'granted', outcome: 'refund_full', amountUsd: '400.00', byDeadline: false },
    });
    expect(refunds.slice(before)).toEqual([expect.objectContaining({ amountCents: 40000, idempotencyKey: id })]);
    expect(await paymentRow(id)).toMatchObject({
      status: 'refunded',
      refundedAmount: '400.00',
      refundReason: 'cancelled',
    });
    expect(
      await t.db.$count(taxDocuments, and(eq(taxDocuments.paymentId, id), eq(taxDocuments.kind, 'credit_note'))),
    ).toBe(1);
    expect((await card(brand, id)).cancellation).toMatchObject({ status: 'granted' });
    expect((await brand.agent.post(`/api/brand/projects/${id}/cancel`, {})).status).toBe(409);
  });

  it('after writing started: a request the team answers: refused, or a part refund that ends the placement', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await buy(brand.agent, '400.00');
    ok(await admin.agent.post(`/api/admin/payments/${id}/writing-started`), 'started');
    expect((await admin.agent.post(`/api/admin/payments/${id}/writing-started`)).status).toBe(409);
    // writing started: the outlet can no longer decline it (issue 46's decline is before writing)
    expect((await admin.agent.post(`/api/admin/payments/${id}/decline`, { reason: 'Too late' })).status).toBe(409);
    const asked = await brand.agent.post(`/api/brand/projects/${id}/cancel`, { reason: 'Budget cut' });
    expect(asked.status).toBe(202);
    expect(asked.body.cancellation).toMatchObject({ status: 'requested', reason: 'Budget cut' });
    expect(new Date(asked.body.cancellation.respondBy).getTime() - Date.now()).toBeGreaterThan(3 * DAY_MS - 60_000);
    expect((await brand.agent.post(`/api/brand/projects/${id}/cancel`, {})).status).toBe(409);
    expect((await paymentRow(id)).status).toBe('paid');
    // the admins' attention list names the answer due, by its deadline
    const attention = ok(await admin.agent.get('/api/admin/attention'), 'attention');
    const entry = attention.items.find((i: { paymentId: string }) => i.paymentId === id);
    expect(entry.reasons).toContainEqual({ kind: 'answer_due', what: 'cancellation', dueAt: asked.body.cancellation.respondBy });
    const open = ok(await admin.agent.get('/api/admin/cancellations'), 'open');
    expect(open.find((c: { paymentId: string }) => c.paymentId === id)).toMatchObject({
      status: 'requested',
      amount: '400.00',
    });
    // a refusal needs its reason; refused, the placement goes on
    const cid = asked.body.cancellation.id;
    expect((await admin.agent.post(`/api/admin/cancellations/${cid}/answer`, { outcome: 'refuse' })).status).toBe(400);
    ok(
      await admin.agent.post(`/api/admin/cancellations/${cid}/answer`, {
        outcome: 'refuse',
        reason: 'The article is nearly done',
      }),
      'refuse',
    );
    expect((await card(brand, id)).cancellation).toMatchObject({
      status: 'refused',
      answer: 'The article is nearly done',
    });
    expect((await admin.agent.post(`/api/admin/cancellations/${cid}/answer`, { outcome: 'refund_full' })).status).toBe(
      409,
    );
    // asked again: a part refund for the work done; the placement ends and the rest is kept
    const again = ok(await brand.agent.post(`/api/brand/projects/${id}/cancel`, { reason: 'Please' }), 'again');
    const before = refunds.length;
    expect(
      (
        await admin.agent.post(`/api/admin/cancellations/${again.cancellation.id}/answer`, {
          outcome: 'refund_partial',
          amountUsd: '400.01',
          reason: 'x',
        })
      ).status,
    ).toBe(409);
    const answered = ok(
      await admin.agent.post(`/api/admin/cancellations/${again.cancellation.id}/answer`, {
        outcome: 'refund_partial',
        amountUsd: '150.00',
        reason: 'Half the writing is done',
      }),
      'part',
    );
    expect(answered).toMatchObject({ status: 'granted', outcome: 'refund_partial', amountUsd: '150.00' });
    expect(refunds.slice(before)).toEqual([expect.objectContaining({ amountCents: 15000 })]);
    expect(await paymentRow(id)).toMatchObject({ status: 'refunded', refundedAmount: '150.00' });
    expect((await card(brand, id)).payment).toMatchObject({ status: 'refunded', refundedAmount: '150.00' });
    const notes = ok(await brand.agent.get(`/api/brand/payments/${id}/credit-notes`), 'notes');
    expect(notes.map((n: { amountUsd: string }) => n.amountUsd)).toEqual(['150.00']);
    // the part kept for the work done still counts as spent this month, the part refunded does not
    const org = ok(await admin.agent.get(`/api/admin/organisations/${brand.user.organisationId}`), 'org');
    expect(org).toMatchObject({ spentUsd: '250.00', paidTotalUsd: '250.00' });
    // nothing more can be refunded, and the guarantee job leaves it alone
    expect((await admin.agent.post(`/api/admin/payments/${id}/refund`)).status).toBe(409);
  });

  it('unanswered by RESPONSE_DAYS: granted in full by the job, once, however many instances run it', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const id = await buy(brand.agent, '250.00');
    ok(await admin.agent.post(`/api/admin/payments/${id}/writing-started`), 'started');
    const asked = ok(await brand.agent.post(`/api/brand/projects/${id}/cancel`, { reason: 'No answer' }), 'ask');
    // not yet due
    expect(await grantUnansweredCancellations(t.db, t.provider, new Date(Date.now() + 2 * DAY_MS))).not.toContain(
      asked.cancellation.id,
    );
    const later = new Date(Date.now() + 3 * DAY_MS + 60_000);
    const before = refunds.length;
    const runs = await Promise.all([
      grantUnansweredCancellations(t.db, t.provider, later),
      grantUnansweredCancellations(t.db, t.provider, later),
    ]);
    expect(runs.flat().filter((c) => c === asked.cancellation.id)).toHaveLength(1);
    expect(refunds.slice(before).filter((r) => r.idempotencyKey === id)).toHaveLength(1);
    expect(await paymentRow(id)).toMatchObject({
      status: 'refunded',
      refundedAmount: '250.00',
      refundReason: 'cancelled',
    });
    const [c] = await t.db.select().from(cancellations).where(eq(cancellations.id, asked.cancellation.id));
    expect(c).toMatchObject({ status: 'granted', outcome: 'refund_full', answeredBy: null });
    expect((await card(brand, id)).cancellation).toMatchObject({ status: 'granted', byDeadline: true });
    expect(
      await t.db.$count(taxDocuments, and(eq(taxDocuments.paymentId, id), eq(taxDocuments.kind, 'credit_note'))),
    ).toBe(1);
    // a later run finds nothing
    expect(await grantUnansweredCancellations(t.db, t.provider, later)).toEqual([]);
  });
});
