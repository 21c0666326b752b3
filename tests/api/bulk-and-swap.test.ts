/**
 * Working on an order's placements together, and declines (issue 46): one brief copied to the rest
 * of its order (never over a brief of its own), brief templates, drafts approved at once (the
 * rest skipped with why); a placement the outlet declined, swapped for a cheaper alternative with
 * the difference refunded on its own credit note, or refunded in full once its time to choose ran
 * out, exactly once however many runs race and after a run that stopped half-way.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, briefs, mailOutbox, opportunities, paymentRefunds, payments, placementEvents, placements, taxDocuments } from '../../src/server/db/schema';
import { refundUnswapped } from '../../src/server/modules/payments/swap';
import { completePendingPartialRefunds, refundOverduePayments } from '../../src/server/modules/payments/refunds';
import type { RefundRequest } from '../../src/server/providers/provider';
import { testCheckoutProvider } from '../../src/server/providers/test-checkout';
import type { Res } from '../support/app';
import { PART1, PART2 } from '../support/content';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPaymentsTestApp, opportunityRow, sessionIdOf, type PaymentsTestApp } from '../support/payments';
import { pdfText } from '../support/pdf';
import { paymentWithRefunded } from '../support/placements';

const refunds: RefundRequest[] = [];
let failNextRefund = false;
/** the provider refunds, then the process dies before our record of it (a kill -9 there) */
let dieAfterNextRefund = false;
let t: PaymentsTestApp;
beforeAll(async () => {
  t = await createPaymentsTestApp({
    config: { LIMIT_CHECKOUTS: { max: 1000, windowMs: 3_600_000 } },
    provider: (db) => {
      const inner = testCheckoutProvider(db);
      return {
        ...inner,
        async refund(req) {
          refunds.push(req);
          // a provider outage, or the process killed between the claim and the record
          if (failNextRefund) {
            failNextRefund = false;
            throw new Error('provider unreachable');
          }
          const made = await inner.refund(req);
          if (dieAfterNextRefund) {
            dieAfterNextRefund = false;
            throw new Error('process killed after the provider refunded');
          }
          return made;
        },
      };
    },
  });
});
afterAll(() => t.close());

type Signed = Awaited<ReturnType<typeof signedIn>>;
const ok = (res: Res, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

/** An order of `n` placements, paid; their ids in the order's line order. */
async function order(brand: Signed, n: number, opts: { price?: (i: number) => string; autoSwap?: boolean; opp?: Partial<typeof opportunities.$inferInsert> } = {}) {
  const opps = [];
  for (let i = 0; i < n; i++) {
    opps.push(
      await createOpportunity(t.db, {
        maxSlots: 3,
        priceUsd: opts.price?.(i) ?? '200.00',
        title: `Bulk ${i + 1}`,
        outletName: `Bulk outlet ${i + 1}`,
        type: ['profile_article'],
        topics: ['tech'],
        domainAuthority: 50,
        ...opts.opp,
      }),
    );
  }
  for (const o of opps) ok(await brand.agent.put(`/api/cart/lines/${o.id}`), 'add');
  const started = ok(await brand.agent.post('/api/cart/checkout', opts.autoSwap ? { autoSwap: true } : {}), 'checkout');
  ok(await brand.agent.post(`/api/payments/checkout/${sessionIdOf(started.url)}/pay`), 'pay');
  const o = ok(await brand.agent.get(`/api/brand/orders/${started.orderId}`), 'order');
  return { orderId: started.orderId as string, ids: (o.lines as { paymentId: string }[]).map((l) => l.paymentId), opps };
}

describe('one brief for many', () => {
  it('copies a submitted brief to the rest of the order, keeping a brief of its own; each copy stays editable', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const { ids } = await order(brand, 4);
    const [first, second, third, fourth] = ids;
    // not before it is submitted
    ok(await brand.agent.post(`/api/brand/brief/${first}`, { part1Json: PART1 }), 'draft');
    expect((await brand.agent.post(`/api/brand/brief/${first}/copy`, {})).status).toBe(409);
    ok(await brand.agent.post(`/api/brand/brief/${first}/submit`, { part1Json: PART1, part2Json: PART2 }), 'submit');
    // the third has its own draft: kept, and said so (not left out of the count unsaid; issue 57)
    ok(await brand.agent.post(`/api/brand/brief/${third}`, { part1Json: { personOrBrandName: 'Its own' } }), 'own draft');
    const all = ok(await brand.agent.post(`/api/brand/brief/${first}/copy`, {}), 'copy');
    expect(all.copied.sort()).toEqual([second, fourth].sort());
    expect(all.skipped).toEqual([{ paymentId: third, reason: 'It has a draft brief of its own, not submitted yet, which is kept' }]);
    const chosen = ok(await brand.agent.post(`/api/brand/brief/${first}/copy`, { paymentIds: [third, second] }), 'copy chosen');
    expect(chosen).toEqual({
      copied: [],
      skipped: [
        { paymentId: third, reason: 'It has a draft brief of its own, not submitted yet, which is kept' },
        { paymentId: second, reason: 'It has a brief of its own, which is kept' },
      ],
    });
    const [copy] = await t.db.select().from(briefs).where(eq(briefs.placementId, second));
    expect(copy.part2Json).toMatchObject({ mainGoal: PART2.mainGoal });
    expect(copy.submittedAt).not.toBeNull();
    const [own] = await t.db.select().from(briefs).where(eq(briefs.placementId, third));
    expect(own.part1Json).toEqual({ personOrBrandName: 'Its own' });
    expect(own.submittedAt).toBeNull();
    // editable afterwards, on its own
    ok(await brand.agent.post(`/api/brand/brief/${second}`, { part2Json: { ...PART2, mainGoal: 'Something else' } }), 'edit copy');
    expect((await t.db.select().from(briefs).where(eq(briefs.placementId, first)))[0].part2Json).toMatchObject({ mainGoal: PART2.mainGoal });
    expect(await t.db.$count(placementEvents, and(eq(placementEvents.placementId, fourth), eq(placementEvents.kind, 'brief_submitted')))).toBe(1);
    // another organisation's placement is neither a source nor a target
    const stranger = await signedIn(t.app, t.db, kinds.approvedBrand);
    expect((await stranger.agent.post(`/api/brand/brief/${first}/copy`, {})).status).toBe(404);
    const theirs = await order(stranger, 1);
    const cross = ok(await brand.agent.post(`/api/brand/brief/${first}/copy`, { paymentIds: [theirs.ids[0]] }), 'cross');
    expect(cross.skipped).toEqual([{ paymentId: theirs.ids[0], reason: 'Not a placement of the same order' }]);
    expect(await t.db.$count(briefs, eq(briefs.placementId, theirs.ids[0]))).toBe(0);
  });

  it('keeps brief templates by name for the organisation', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const saved = await brand.agent.post('/api/brand/brief-templates', { name: 'Launch', part1Json: PART1, part2Json: { toneStyleGuidelines: 'Warm' } });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ name: 'Launch', part1Json: PART1, part2Json: { toneStyleGuidelines: 'Warm' } });
    expect((await brand.agent.post('/api/brand/brief-templates', { name: ' launch ' })).status).toBe(409);
    expect((await brand.agent.post('/api/brand/brief-templates', { name: '' })).body.message).toBe('Name the template');
    ok(await brand.agent.post('/api/brand/brief-templates', { name: 'Anniversary' }), 'second');
    expect(ok(await brand.agent.get('/api/brand/brief-templates'), 'list').map((x: { name: string }) => x.name)).toEqual(['Anniversary', 'Launch']);
    const stranger = await signedIn(t.app, t.db, kinds.approvedBrand);
    expect(ok(await stranger.agent.get('/api/brand/brief-templates'), 'theirs')).toEqual([]);
    expect((await stranger.agent.delete(`/api/brand/brief-templates/${saved.body.id}`)).status).toBe(404);
    expect((await brand.agent.delete(`/api/brand/brief-templates/${saved.body.id}`)).status).toBe(204);
    expect(ok(await brand.agent.get('/api/brand/brief-templates'), 'list').map((x: { name: string }) => x.name)).toEqual(['Anniversary']);
  });
});

describe('approving drafts at once', () => {
  it('approves the ready drafts and lists the others with why', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const admin = await signedIn(t.app, t.db, kinds.admin);
    const { ids } = await order(brand, 4);
    for (const id of ids) ok(await brand.agent.post(`/api/brand/brief/${id}/submit`, { part1Json: PART1, part2Json: PART2 }), 'brief');
    for (const id of ids.slice(0, 3)) ok(await admin.agent.patch(`/api/admin/payments/${id}/status`, { draftDocumentUrl: 'https://docs.google.com/document/d/bulk' }), 'draft');
    ok(await brand.agent.post(`/api/brand/projects/${ids[0]}/approve`), 'one approved already');
    const stranger = await signedIn(t.app, t.db, kinds.approvedBrand);
    const theirs = await order(stranger, 1);
    const res = ok(await brand.agent.post('/api/brand/projects/approve', { paymentIds: [...ids, theirs.ids[0]] }), 'bulk');
    expect(res.approved).toEqual([ids[1], ids[2]]);
    expect(res.skipped).toEqual([
      { paymentId: ids[0], reason: 'This draft has already been approved' },
      { paymentId: ids[3], reason: 'There is no draft to review yet' },
      { paymentId: theirs.ids[0], reason: 'Payment not found' },
    ]);
    const states = await t.db.select({ id: placements.id, s: placements.draftReviewStatus }).from(placements).where(sql`${placements.id} IN ${ids}`);
    expect(Object.fromEntries(states.map((r) => [r.id, r.s]))).toEqual({ [ids[0]]: 'approved', [ids[1]]: 'approved', [ids[2]]: 'approved', [ids[3]]: 'awaiting_brand_brief' });
    expect(await t.db.$count(auditEntries, and(eq(auditEntries.action, 'draft_approved'), sql`${auditEntries.subject} IN ${ids}`))).toBe(3);
    expect((await brand.agent.post('/api/brand/projects/approve', { paymentIds: [] })).body.message).toBe('Choose at least one placement');
  });
});

describe('decline and swap', () => {
  async function declined(opts: { autoSwap?: boolean } = {}) {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const admin = await signedIn(t.app, t.db, kinds.admin);
    const topic = `topic-${Math.random().toString(36).slice(2, 8)}`;
    const { ids, opps, orderId } = await order(brand, 1, { price: () => '500.00', autoSwap: opts.autoSwap, opp: { topics: [topic] } });
    // alternatives: cheaper within 20 %, equal, dearer, too cheap, another topic, another type
    const alt = (priceUsd: string, more: Partial<typeof opportunities.$inferInsert> = {}) =>
      createOpportunity(t.db, { priceUsd, type: ['profile_article'], topics: [topic], domainAuthority: 52, outletName: `Alt ${priceUsd}`, title: `Alt story ${priceUsd}`, ...more });
    const near = await alt('450.00');
    const same = await alt('500.00', { domainAuthority: 58 });
    const dear = await alt('550.00');
    await alt('350.00');
    await alt('480.00', { topics: ['elsewhere'] });
    await alt('470.00', { type: ['news_article'] as never });
    await alt('460.00', { domainAuthority: 80 });
    return { brand, admin, id: ids[0], was: opps[0], near, same, dear, orderId };
  }

  it('an admin declines before writing; the brand is told, sees up to 5 alternatives and swaps for a cheaper one, refunded the difference', async () => {
    const { brand, admin, id, was, near, same, orderId } = await declined();
    expect((await brand.agent.post(`/api/admin/payments/${id}/decline`, { reason: 'x' })).status).toBe(403);
    expect((await admin.agent.post(`/api/admin/payments/${id}/decline`, { reason: ' ' })).body.message).toBe('Say why the placement is declined');
    const res = ok(await admin.agent.post(`/api/admin/payments/${id}/decline`, { reason: 'The outlet refused the topic' }), 'decline');
    expect(res.declined.reason).toBe('The outlet refused the topic');
    expect(new Date(res.declined.swapBy).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect((await admin.agent.post(`/api/admin/payments/${id}/decline`, { reason: 'again' })).status).toBe(409);
    expect((await opportunityRow(t.db, was.id)).filledSlots).toBe(0);
    const item = ok(await brand.agent.get(`/api/brand/my-articles/${id}`), 'item');
    expect(item.declined).toEqual(res.declined);
    expect(item.orderId).toBe(orderId);
    const mails = await t.db.select().from(mailOutbox).where(and(eq(mailOutbox.kind, 'placement_declined'), eq(mailOutbox.toAddress, brand.user.email)));
    expect(mails).toHaveLength(1);

    const options = ok(await brand.agent.get(`/api/brand/projects/${id}/swap-options`), 'options');
    // within 20 % either way, closest first: 500, then 450 and 550 (as close; 450 first by id or DA)
    expect(options.map((o: { priceUsd: string }) => o.priceUsd).sort()).toEqual(['450.00', '500.00', '550.00']);
    expect(options[0].priceUsd).toBe('500.00');
    expect(options.find((o: { priceUsd: string }) => o.priceUsd === '550.00')).toMatchObject({ refundUsd: '0.00', payUsd: '50.00' });
    expect(options.find((o: { id: string }) => o.id === near.id)).toMatchObject({ refundUsd: '50.00', payUsd: '0.00' });
    expect(options[0]).toMatchObject({ id: same.id, refundUsd: '0.00' });
    // not one of them: refused
    expect((await brand.agent.post(`/api/brand/projects/${id}/swap`, { opportunityId: was.id })).status).toBe(409);

    const swapped = ok(await brand.agent.post(`/api/brand/projects/${id}/swap`, { opportunityId: near.id }), 'swap');
    expect(swapped).toEqual({ paymentId: id, opportunityId: near.id, refundedUsd: '50.00' });
    const p = await paymentWithRefunded(t.db, id);
    expect(p).toMatchObject({ opportunityId: near.id, refundedAmount: '50.00', status: 'paid', holdsSlot: true });
    expect((await opportunityRow(t.db, near.id)).filledSlots).toBe(1);
    expect(ok(await brand.agent.get(`/api/brand/my-articles/${id}`), 'item after')).toMatchObject({ declined: null, outletName: 'Alt 450.00' });
    expect(ok(await brand.agent.get('/api/brand/wallet'), 'wallet').balance).toBe('450.00');
    expect(ok(await brand.agent.get(`/api/brand/orders/${orderId}`), 'order')).toMatchObject({ refundedUsd: '50.00', heldUsd: '450.00' });
    expect(refunds.filter((r) => r.amountCents === 5000 && r.idempotencyKey.startsWith('refund-'))).toHaveLength(1);
    // its own credit note, for the difference; the spec-era route answers the latest credit note (issue 47)
    const [note] = await t.db.select().from(taxDocuments).where(and(eq(taxDocuments.paymentId, id), sql`${taxDocuments.refundId} IS NOT NULL`));
    expect(note.content).toMatchObject({ totalCents: 5000, partial: true, refundReason: 'swap' });
    expect((await brand.agent.get(`/api/brand/payments/${id}/credit-note`)).headers['content-disposition']).toContain(note.number);
    // a later full refund gives back only what is left, on a credit note for that
    ok(await admin.agent.post(`/api/admin/payments/${id}/refund`), 'full refund');
    expect(refunds.at(-1)).toMatchObject({ amountCents: 45000, idempotencyKey: id });
    const full = await t.app.inject({ method: 'GET', url: `/api/brand/payments/${id}/credit-note`, headers: { cookie: brand.agent.cookie! } });
    expect(full.statusCode).toBe(200);
    expect(await pdfText(full.rawPayload)).toContain('$450.00');
    expect(ok(await brand.agent.get(`/api/brand/orders/${orderId}`), 'order')).toMatchObject({ refundedUsd: '500.00', heldUsd: '0.00' });
    // a swap after that: not declined any more
    expect((await brand.agent.post(`/api/brand/projects/${id}/swap`, { opportunityId: same.id })).status).toBe(409);
  });

  it('a dearer alternative: the difference is paid through a checkout, then the placement moves; released and refunded with it', async () => {
    const { brand, admin, id, dear, was } = await declined();
    ok(await admin.agent.post(`/api/admin/payments/${id}/decline`, { reason: 'Refused' }), 'decline');
    const answer = ok(await brand.agent.post(`/api/brand/projects/${id}/swap`, { opportunityId: dear.id }), 'swap');
    expect(answer).toMatchObject({ paymentId: id, opportunityId: dear.id, refundedUsd: '0.00', payUsd: '50.00', url: expect.stringMatching(/^\/checkout\/cs_local_/) });
    // the alternative's slot is held while the brand pays; nothing has moved yet
    expect((await opportunityRow(t.db, dear.id)).filledSlots).toBe(1);
    expect((await t.db.select().from(placements).where(eq(placements.id, id)))[0]).toMatchObject({ opportunityId: was.id });
    // a second click gets the same checkout
    expect(ok(await brand.agent.post(`/api/brand/projects/${id}/swap`, { opportunityId: dear.id }), 'again').url).toBe(answer.url);
    const view = ok(await brand.agent.get(`/api/payments/checkout/${sessionIdOf(answer.url)}`), 'view');
    expect(view).toMatchObject({ amount: '50.00', opportunityId: dear.id });
    ok(await brand.agent.post(`/api/payments/checkout/${sessionIdOf(answer.url)}/pay`), 'pay');

    const [moved] = await t.db.select().from(placements).where(eq(placements.id, id));
    expect(moved).toMatchObject({ opportunityId: dear.id, declinedAt: null });
    const [topup] = await t.db.select().from(payments).where(eq(payments.topupOf, id));
    expect(topup).toMatchObject({ amount: '50.00', status: 'paid', opportunityId: dear.id });
    expect(ok(await brand.agent.get('/api/brand/wallet'), 'wallet').balance).toBe('550.00');
    // both charges are in Payment History, each with its own invoice
    const history = ok(await brand.agent.get('/api/brand/payments'), 'history') as { id: string; amount: string }[];
    expect(history.filter((h) => h.id === id || h.id === topup.id).map((h) => h.amount).sort()).toEqual(['50.00', '500.00']);
    expect(await t.db.$count(taxDocuments, and(eq(taxDocuments.paymentId, topup.id), eq(taxDocuments.kind, 'invoice')))).toBe(1);
    const events = await t.db.select().from(placementEvents).where(and(eq(placementEvents.placementId, id), eq(placementEvents.kind, 'swapped')));
    expect(events[0].details).toMatchObject({ amount: '50.00', paid: true });

    // a full refund gives back both charges, each with its own key and credit note
    const before = refunds.length;
    ok(await admin.agent.post(`/api/admin/payments/${id}/refund`), 'refund');
    expect(refunds.slice(before).map((r) => [r.idempotencyKey, r.amountCents])).toEqual([
      [id, 50000],
      [topup.id, 5000],
    ]);
    const after = await t.db.select({ id: payments.id, status: payments.status }).from(payments).where(sql`${payments.id} IN (${id}, ${topup.id})`);
    expect(after.every((r) => r.status === 'refunded')).toBe(true);
    expect(await t.db.$count(taxDocuments, and(eq(taxDocuments.paymentId, topup.id), eq(taxDocuments.kind, 'credit_note')))).toBe(1);
    expect(ok(await brand.agent.get('/api/brand/wallet'), 'wallet').balance).toBe('0.00');
  });

  it('a dearer swap released with its placement; a difference paid after the deadline refund is refunded', async () => {
    const first = await declined();
    ok(await first.admin.agent.post(`/api/admin/payments/${first.id}/decline`, { reason: 'Refused' }), 'decline');
    const a = ok(await first.brand.agent.post(`/api/brand/projects/${first.id}/swap`, { opportunityId: first.dear.id }), 'swap');
    ok(await first.brand.agent.post(`/api/payments/checkout/${sessionIdOf(a.url)}/pay`), 'pay');
    ok(await first.admin.agent.patch(`/api/admin/payments/${first.id}/status`, { status: 'released' }), 'release');
    const released = await t.db.select({ status: payments.status }).from(payments).where(sql`${payments.id} = ${first.id} OR ${payments.topupOf} = ${first.id}`);
    expect(released.map((r) => r.status)).toEqual(['released', 'released']);

    const second = await declined();
    ok(await second.admin.agent.post(`/api/admin/payments/${second.id}/decline`, { reason: 'Refused' }), 'decline');
    const b = ok(await second.brand.agent.post(`/api/brand/projects/${second.id}/swap`, { opportunityId: second.dear.id }), 'swap');
    // the placement is refunded (its deadline) while the brand was paying the difference
    await refundUnswapped(t.db, t.provider, new Date(Date.now() + 8 * 86_400_000));
    ok(await second.brand.agent.post(`/api/payments/checkout/${sessionIdOf(b.url)}/pay`), 'pay');
    const [late] = await t.db.select().from(payments).where(eq(payments.topupOf, second.id));
    expect(late).toMatchObject({ status: 'refunded', refundReason: 'swap' });
    expect((await t.db.select().from(placements).where(eq(placements.id, second.id)))[0].opportunityId).toBe(second.was.id);
    expect((await opportunityRow(t.db, second.dear.id)).filledSlots).toBe(0);
  });

  it('a swap chosen after swapBy, before the refund job ran, answers 409 and moves nothing', async () => {
    const { brand, admin, id, was, near, same } = await declined();
    ok(await admin.agent.post(`/api/admin/payments/${id}/decline`, { reason: 'Refused' }), 'decline');
    // the time to choose ran out a second ago; the job has not refunded it yet
    await t.db.update(placements).set({ swapBy: new Date(Date.now() - 1000) }).where(eq(placements.id, id));
    for (const choice of [near, same]) {
      const res = await brand.agent.post(`/api/brand/projects/${id}/swap`, { opportunityId: choice.id });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('The time to choose an alternative has passed: this placement is being refunded in full');
      expect((await opportunityRow(t.db, choice.id)).filledSlots).toBe(0);
    }
    const [p] = await t.db.select().from(placements).where(eq(placements.id, id));
    expect(p).toMatchObject({ opportunityId: was.id });
    expect(p.declinedAt).not.toBeNull();
    expect(await t.db.$count(paymentRefunds, eq(paymentRefunds.paymentId, id))).toBe(0);
    // the job then refunds it in full
    expect(await refundUnswapped(t.db, t.provider)).toContain(id);
    expect(await paymentWithRefunded(t.db, id)).toMatchObject({ status: 'refunded', refundReason: 'declined', refundedAmount: '500.00' });
  });

  it('writing started: cannot be declined', async () => {
    const brand = await signedIn(t.app, t.db, kinds.approvedBrand);
    const admin = await signedIn(t.app, t.db, kinds.admin);
    const { ids } = await order(brand, 1);
    ok(await brand.agent.post(`/api/brand/brief/${ids[0]}/submit`, { part1Json: PART1, part2Json: PART2 }), 'brief');
    ok(await admin.agent.patch(`/api/admin/payments/${ids[0]}/status`, { draftDocumentUrl: 'https://docs.google.com/document/d/started' }), 'draft');
    const res = await admin.agent.post(`/api/admin/payments/${ids[0]}/decline`, { reason: 'too late' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Only a placement in progress whose writing has not started can be declined');
  });

  it('chosen at checkout, the closest alternative is taken at once', async () => {
    const { admin, id, same } = await declined({ autoSwap: true });
    ok(await admin.agent.post(`/api/admin/payments/${id}/decline`, { reason: 'Slot fell through' }), 'decline');
    const [p] = await t.db.select().from(placements).where(eq(placements.id, id));
    expect(p).toMatchObject({ opportunityId: same.id, declinedAt: null });
    const events = await t.db.select().from(placementEvents).where(eq(placementEvents.placementId, id));
    expect(events.map((e) => e.kind)).toEqual(expect.arrayContaining(['declined', 'swapped']));
    expect(events.find((e) => e.kind === 'swapped')!.actorType).toBe('system');
  });

  it('no choice by the deadline: refunded in full exactly once, with runs racing and after a run that stopped half-way', async () => {
    const { brand, admin, id } = await declined();
    ok(await admin.agent.post(`/api/admin/payments/${id}/decline`, { reason: 'Outlet closed' }), 'decline');
    const before = refunds.length;
    // the deadline not reached: nothing
    expect(await refundUnswapped(t.db, t.provider, new Date())).toEqual([]);
    const later = new Date(Date.now() + 8 * 86_400_000);
    // the first run claims the refund, then the provider call fails (as a process killed there would)
    failNextRefund = true;
    await expect(refundUnswapped(t.db, t.provider, later)).rejects.toThrow('provider unreachable');
    const [claimed] = await t.db.select().from(payments).where(eq(payments.id, id));
    expect(claimed).toMatchObject({ status: 'paid', refundReason: 'declined' });
    expect(claimed.refundRequestedAt).not.toBeNull();
    // the swap is closed once the claim is made
    expect((await brand.agent.post(`/api/brand/projects/${id}/swap`, { opportunityId: id })).status).toBe(409);
    // two runs at once, and the guarantee job: one refund recorded
    const runs = await Promise.all([refundUnswapped(t.db, t.provider, later), refundUnswapped(t.db, t.provider, later), refundOverduePayments(t.db, t.provider, later)]);
    expect(runs.flat().filter((x) => x === id)).toHaveLength(1);
    const [after] = await t.db.select().from(payments).where(eq(payments.id, id));
    expect(after).toMatchObject({ status: 'refunded', refundReason: 'declined' });
    expect(await t.db.$count(placementEvents, and(eq(placementEvents.placementId, id), eq(placementEvents.kind, 'refunded')))).toBe(1);
    expect(await t.db.$count(taxDocuments, and(eq(taxDocuments.paymentId, id), eq(taxDocuments.kind, 'credit_note')))).toBe(1);
    // every provider call for it carried the same idempotency key: the provider refunds once
    expect(new Set(refunds.slice(before).map((r) => r.idempotencyKey))).toEqual(new Set([id]));
    expect(await refundUnswapped(t.db, t.provider, later)).toEqual([]);
  });

  it('the process killed after the provider refunded and before the record: the next run records it once, same refund', async () => {
    const { admin, id } = await declined();
    ok(await admin.agent.post(`/api/admin/payments/${id}/decline`, { reason: 'Outlet closed' }), 'decline');
    const later = new Date(Date.now() + 8 * 86_400_000);
    const before = refunds.length;
    dieAfterNextRefund = true;
    await expect(refundUnswapped(t.db, t.provider, later)).rejects.toThrow('process killed');
    expect((await t.db.select().from(payments).where(eq(payments.id, id)))[0].status).toBe('paid');
    expect(await refundUnswapped(t.db, t.provider, later)).toEqual([id]);
    const calls = refunds.slice(before);
    // the provider was asked twice with the same key: one refund on its side
    expect(calls.map((c) => c.idempotencyKey)).toEqual([id, id]);
    expect(await t.db.$count(placementEvents, and(eq(placementEvents.placementId, id), eq(placementEvents.kind, 'refunded')))).toBe(1);
    expect(await t.db.$count(taxDocuments, and(eq(taxDocuments.paymentId, id), eq(taxDocuments.kind, 'credit_note')))).toBe(1);
  });

  it('a part refund whose provider call failed is finished once by the job', async () => {
    const { brand, admin, id, near } = await declined();
    ok(await admin.agent.post(`/api/admin/payments/${id}/decline`, { reason: 'Refused' }), 'decline');
    failNextRefund = true;
    const res = await brand.agent.post(`/api/brand/projects/${id}/swap`, { opportunityId: near.id });
    expect(res.status).toBe(200);
    // the swap itself is done; the refund is claimed and waits
    const p = await paymentWithRefunded(t.db, id);
    expect(p).toMatchObject({ opportunityId: near.id, refundedAmount: '50.00' });
    expect(await t.db.$count(paymentRefunds, and(eq(paymentRefunds.paymentId, id), sql`${paymentRefunds.completedAt} IS NULL`))).toBe(1);
    const done = await Promise.all([completePendingPartialRefunds(t.db, t.provider), completePendingPartialRefunds(t.db, t.provider)]);
    expect(done[0] + done[1]).toBeGreaterThanOrEqual(1);
    expect(await t.db.$count(taxDocuments, and(eq(taxDocuments.paymentId, id), sql`${taxDocuments.refundId} IS NOT NULL`))).toBe(1);
    expect(await t.db.$count(paymentRefunds, and(eq(paymentRefunds.paymentId, id), sql`${paymentRefunds.completedAt} IS NULL`))).toBe(0);
  });
});

