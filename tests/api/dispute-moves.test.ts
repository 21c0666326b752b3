/**
 * A dispute's moves are the placement table's (issue 58, decision 042): the brand's acceptance and
 * escalation are refused to a member who may not work on it, and the placement's `life.actions`
 * list `accept_dispute_offer` / `escalate_dispute` exactly while an offer stands, for that member only;
 * the editorial team's answer and decision likewise.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disputes, payments, placementEvents, placements } from '../../src/server/db/schema';
import type { Life } from '../../src/shared/schemas/brief';
import type { Agent, Res } from '../support/app';
import { submittedBrief } from '../support/content';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, makePayment, type PaymentsTestApp } from '../support/payments';

let t: PaymentsTestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
let other: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  t = await createPaymentsTestApp();
  admin = await signedIn(t.app, t.db, { ...kinds.admin, name: 'First Admin' });
  other = await signedIn(t.app, t.db, { ...kinds.admin, name: 'Second Admin' });
});
afterAll(() => t.close());

const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};
const DISPUTE_MOVES = [
  'answer_dispute',
  'accept_dispute',
  'accept_dispute_offer',
  'escalate_dispute',
  'decide_dispute',
];
const disputeActions = (life: Life) => life.actions.filter((a) => DISPUTE_MOVES.includes(a));

/** A brand's owner and a viewer of its organisation, and a placement with its draft under review. */
async function disputed() {
  const owner = await signedIn(t.app, t.db, kinds.approvedBrand);
  const viewer = await signedIn(t.app, t.db, {
    ...kinds.approvedBrand,
    organisationId: owner.user.organisationId!,
    orgRole: 'viewer',
  });
  const opp = await createOpportunity(t.db, { maxSlots: 1, priceUsd: '600.00' });
  const p = await makePayment(t.db, owner.user.id, opp.id, {
    amount: '600.00',
    draftReviewStatus: 'pending_brand_review',
    draftDocumentUrl: 'https://docs.example.com/d/1',
  });
  await submittedBrief(t.db, p);
  const opened = ok(
    await owner.agent.post(`/api/brand/projects/${p.id}/disputes`, {
      reason: 'not_as_briefed',
      outcome: 'refund_partial',
      amountUsd: '200.00',
      text: 'The article ignores the product we briefed.',
    }),
    'open',
  );
  return { owner, viewer, placementId: p.id, id: opened.id as string };
}
const brandLife = async (agent: Agent, id: string) => {
  const res = await agent.get<{ life: Life }>(`/api/brand/disputes/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.life;
};
const adminLife = async (agent: Agent, id: string) =>
  ok(await agent.get(`/api/admin/disputes/${id}`), 'detail').life as Life;
const placementLife = async (agent: Agent, placementId: string) =>
  ok(await agent.get(`/api/brand/my-articles/${placementId}`), 'placement').life as Life;

describe('a dispute’s moves, by the table', () => {
  it('lists accept and escalate exactly while an offer stands, for a member who may work on it only', async () => {
    const { owner, viewer, placementId, id } = await disputed();
    // open: the team answers it; the brand waits
    expect(disputeActions(await brandLife(owner.agent, id))).toEqual([]);
    expect(disputeActions(await adminLife(admin.agent, id))).toEqual(['answer_dispute', 'accept_dispute']);
    expect(await placementLife(owner.agent, placementId)).toMatchObject({ request: 'dispute', waitingOn: 'team' });

    ok(
      await admin.agent.post(`/api/admin/disputes/${id}/answer`, {
        action: 'offer',
        amountUsd: '100.00',
        reason: 'Half of it',
      }),
      'answer',
    );
    expect(disputeActions(await brandLife(owner.agent, id))).toEqual(['accept_dispute_offer', 'escalate_dispute']);
    expect(disputeActions(await placementLife(owner.agent, placementId))).toEqual([
      'accept_dispute_offer',
      'escalate_dispute',
    ]);
    // a viewer reads the dispute but may make none of its moves, and the server refuses them
    expect(disputeActions(await brandLife(viewer.agent, id))).toEqual([]);
    expect(disputeActions(await adminLife(admin.agent, id))).toEqual([]);
    const accepting = await viewer.agent.post(`/api/brand/disputes/${id}/accept-offer`);
    expect(accepting.status).toBe(403);
    const escalating = await viewer.agent.post(`/api/brand/disputes/${id}/escalate`);
    expect(escalating.status).toBe(403);
    expect((await t.db.select().from(disputes).where(eq(disputes.id, id)))[0].status).toBe('offered');

    ok(await owner.agent.post(`/api/brand/disputes/${id}/escalate`), 'escalate');
    expect(disputeActions(await brandLife(owner.agent, id))).toEqual([]);
    // the admin who answered may not decide it (the service's 403), but the table lists it for admins
    expect(disputeActions(await adminLife(other.agent, id))).toEqual(['decide_dispute']);
    ok(
      await other.agent.post(`/api/admin/disputes/${id}/decide`, { outcome: 'reject', reason: 'As briefed' }),
      'decide',
    );
    expect(disputeActions(await adminLife(other.agent, id))).toEqual([]);
    expect(disputeActions(await brandLife(owner.agent, id))).toEqual([]);
    // each move appended its own timeline entry, in order
    const entries = await t.db
      .select({ kind: placementEvents.kind })
      .from(placementEvents)
      .where(eq(placementEvents.placementId, placementId))
      .orderBy(placementEvents.id);
    expect(entries.map((e) => e.kind).filter((k) => k.startsWith('dispute_'))).toEqual([
      'dispute_opened',
      'dispute_answered',
      'dispute_escalated',
      'dispute_resolved',
    ]);
  });

  it('lists only escalation after a rejection, and refuses an acceptance there (409)', async () => {
    const { owner, id } = await disputed();
    ok(
      await admin.agent.post(`/api/admin/disputes/${id}/answer`, { action: 'reject', reason: 'The brief allowed it' }),
      'answer',
    );
    expect(disputeActions(await brandLife(owner.agent, id))).toEqual(['escalate_dispute']);
    const res = await owner.agent.post(`/api/brand/disputes/${id}/accept-offer`);
    expect(res.status).toBe(409);
    expect((await t.db.select().from(disputes).where(eq(disputes.id, id)))[0].status).toBe('offered');
  });

  it('lists escalation only until escalate_by, and the server refuses it after in its own words (decision 050)', async () => {
    const { owner, id } = await disputed();
    ok(await admin.agent.post(`/api/admin/disputes/${id}/answer`, { action: 'offer', amountUsd: '50.00', reason: 'Some' }), 'answer');
    await t.db.update(disputes).set({ escalateBy: new Date(Date.now() - 60_000) }).where(eq(disputes.id, id));
    // the offer may still be accepted; the escalation's days are over
    expect(disputeActions(await brandLife(owner.agent, id))).toEqual(['accept_dispute_offer']);
    const res = await owner.agent.post(`/api/brand/disputes/${id}/escalate`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'escalation_window_passed', message: 'The time to escalate this dispute has passed' });
    expect((await t.db.select().from(disputes).where(eq(disputes.id, id)))[0].status).toBe('offered');
  });

  it('lists opening a content dispute only until DISPUTE_DAYS after release (decision 050)', async () => {
    const owner = await signedIn(t.app, t.db, kinds.approvedBrand);
    const opp = await createOpportunity(t.db, { maxSlots: 1, priceUsd: '300.00' });
    const p = await makePayment(t.db, owner.user.id, opp.id, {
      amount: '300.00',
      draftReviewStatus: 'pending_brand_review',
      draftDocumentUrl: 'https://docs.example.com/d/2',
    });
    await submittedBrief(t.db, p);
    expect((await placementLife(owner.agent, p.id)).actions).toContain('open_dispute');
    // released eight days ago (DISPUTE_DAYS is 7 by default): the window is over
    await t.db.update(payments).set({ status: 'released', releasedAt: new Date(Date.now() - 8 * 86_400_000) }).where(eq(payments.id, p.id));
    await t.db.update(placements).set({ state: 'published' }).where(eq(placements.id, p.id));
    expect((await placementLife(owner.agent, p.id)).actions).not.toContain('open_dispute');
    const res = await owner.agent.post(`/api/brand/projects/${p.id}/disputes`, {
      reason: 'not_as_briefed',
      outcome: 'correction',
      text: 'The article ignores the product we briefed.',
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('dispute_content_window');
    expect(await t.db.$count(disputes, eq(disputes.placementId, p.id))).toBe(0);
  });
});
