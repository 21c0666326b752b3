/**
 * The lists that grow (My Articles, Payment History, Admin Projects, Admin Payments, the admin
 * dashboard) answer JSON built by the database. Each item must be exactly what the API's TypeScript
 * mappers give for the same rows (paymentJson, placementPayment, toOpportunityJson — the ones the
 * single-item answers still use): same keys in the same order, same values, awkward data included
 * (quotes, backslashes, newlines, emoji, nulls, microsecond timestamps, several types, every status).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { briefs, opportunities, organisations, payments, placements, users } from '../../src/server/db/schema';
import { placementPayment } from '../../src/server/modules/placements/item';
import { toOpportunityJson } from '../../src/server/modules/opportunities/service';
import { paymentJson } from '../../src/server/modules/payments/service';
import { paymentMoneyColumns } from '../../src/server/modules/ledger/ledger';
import { createTestApp, type Agent, type TestApp } from '../support/app';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPayment } from '../support/content';
import { lifeOf, type Viewer } from '../../src/shared/placement-machine';
import { clockOf } from '../../src/shared/stage-clock';
import { now } from '../../src/server/lib/clock';
import { addBusinessDays } from '../support/business-days';

let t: TestApp;
let admin: Agent;
let brand: Awaited<ReturnType<typeof signedIn>>;

/** What the life is made of, from the rows themselves (no revision request, cancellation or dispute here). */
const lifeInputs = (p: typeof placements.$inferSelect, b: { submittedAt: Date | null } | undefined) => {
  const hasDraft = p.draftDocumentUrl !== null || p.draftDocumentFile !== null;
  return {
    state: p.state,
    draftReviewStatus: p.draftReviewStatus,
    briefSubmitted: Boolean(b?.submittedAt),
    hasDraft,
    declined: p.declinedAt !== null,
    writingStarted: p.writingStartedAt !== null || hasDraft,
    revisionsUsed: p.revisionsUsed,
    revisionsIncluded: p.revisionsIncluded,
    extraRevisionPending: false,
    cancellationPending: false,
    disputeStatus: null,
    disputeOffer: false,
    since: p.stateSince.toISOString(),
  };
};

/** The life the lists answer: the table's, and the stage clock from the placement's columns (issue 59), at Byline's now. */
const lifeWithClock = (p: typeof placements.$inferSelect, b: { submittedAt: Date | null } | undefined, viewer: Viewer) => ({
  ...lifeOf(lifeInputs(p, b), viewer),
  clock: clockOf(
    {
      stage: p.clockStage,
      startedAt: p.clockStartedAt?.toISOString() ?? null,
      dueAt: p.clockDueAt?.toISOString() ?? null,
      pausedAt: p.clockPausedAt?.toISOString() ?? null,
      liveBy: p.promisedBy ? addBusinessDaysIf(p.promisedBy, p.promiseMovedDays).toISOString() : null,
      movedDays: p.promiseMovedDays,
      moves: p.promiseMoves,
    },
    now(),
  ),
});
const addBusinessDaysIf = (d: Date, n: number) => (n > 0 ? addBusinessDays(d, n) : d);

const AWKWARD = 'Say "hi" \\ to\nthe 🚀 crew — ünïcödé\t<script>&amp;';

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  brand = await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: `Zoë ${AWKWARD}`, brandName: null });

  const plain = await createOpportunity(t.db, {
    title: 'Plain',
    outletUrl: null,
    tat: null,
    logoUrl: null,
    domainAuthority: null,
  });
  const awkward = await createOpportunity(t.db, {
    title: AWKWARD,
    outletName: 'Outlet "Quoted"',
    outletUrl: 'https://example.com/a?b=c&d="e"',
    description: AWKWARD.repeat(3),
    type: ['listicle', 'editorial_feature'],
    tat: '2–3 weeks',
    priceUsd: '1234567.89',
    logoUrl: '/uploads/logo.png',
    exampleUrls: ['https://example.com/1', '/uploads/example.webp'],
    maxSlots: 9,
    domainAuthority: 100,
    status: 'available',
  });
  // microseconds that must be truncated (as a JS Date does), not rounded
  await t.db.execute(
    sql`UPDATE opportunities SET deadline_date = '2031-05-06 00:00:00.999999+00', created_at = '2026-01-02 03:04:05.678999+00' WHERE id = ${awkward.id}`,
  );

  const held = await createPayment(t.db, { brandId: brand.user.id, opportunityId: awkward.id, amount: '0.10' });
  const drafted = await createPayment(t.db, {
    brandId: brand.user.id,
    opportunityId: awkward.id,
    draftReviewStatus: 'edits_requested',
    brandFeedback: AWKWARD,
    draftDocumentUrl: 'https://docs.google.com/document/d/x',
  });
  const released = await createPayment(t.db, {
    brandId: brand.user.id,
    opportunityId: plain.id,
    status: 'released',
    releasedAt: new Date(),
    draftReviewStatus: 'approved',
    draftDocumentFile: '/api/files/draft.pdf',
  });
  await createPayment(t.db, {
    brandId: brand.user.id,
    opportunityId: plain.id,
    status: 'refunded',
    refundReason: 'guarantee',
    refundedAt: new Date(),
    amount: '99999.99',
  });
  await t.db.execute(
    sql`UPDATE payments SET created_at = '2026-02-03 04:05:06.000001+00', paid_at = '2026-02-03 04:05:06.999+00' WHERE id = ${held.id}`,
  );
  // a brief saved as a draft (not submitted), and a submitted one with awkward text
  await t.db
    .insert(briefs)
    .values({
      placementId: held.id,
      brandId: brand.user.id,
      organisationId: brand.user.organisationId!,
      opportunityId: awkward.id,
      part1Json: { personOrBrandName: 'Draft' },
      part2Json: {},
    });
  await t.db.insert(briefs).values({
    placementId: drafted.id,
    brandId: brand.user.id,
    organisationId: brand.user.organisationId!,
    opportunityId: awkward.id,
    part1Json: { personOrBrandName: AWKWARD, backgroundExperience: 'x'.repeat(2000) },
    part2Json: {
      mainGoal: 'Goal',
      targetAudience: 'Everyone',
      mainMessage: AWKWARD,
      socialMediaLinks: 'a.com, https://b.com',
    },
    submittedAt: new Date('2026-03-04T05:06:07.891234Z'),
  });
  void released;
});
afterAll(() => t.close());

/** The body as sent, and the same list rebuilt from rows with the TypeScript mappers. */
async function compare(agent: Agent, url: string, expected: unknown[]) {
  const res = await agent.get(`${url}${url.includes('?') ? '&' : '?'}limit=200`);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.body).toEqual(expected);
  // same keys in the same order, too
  expect(JSON.stringify(res.body)).toBe(JSON.stringify(expected));
}

const newestFirst = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1);

async function rows() {
  const all = await t.db
    .select({ payment: payments, placement: placements, opportunity: opportunities, user: users, org: organisations, money: paymentMoneyColumns(payments.id) })
    .from(payments)
    .innerJoin(placements, eq(placements.paymentId, payments.id))
    .innerJoin(organisations, eq(organisations.id, payments.organisationId))
    .innerJoin(opportunities, eq(opportunities.id, payments.opportunityId))
    .innerJoin(users, eq(users.id, payments.brandId));
  const briefRows = await t.db.select().from(briefs);
  // created_at with microseconds decides the order; a JS Date has only milliseconds
  const order = (await t.db.execute(sql`SELECT id FROM payments ORDER BY created_at DESC, id DESC`)) as unknown as {
    rows: { id: string }[];
  };
  const rank = new Map(order.rows.map((r, i) => [r.id, i]));
  all.sort((a, b) => rank.get(a.payment.id)! - rank.get(b.payment.id)!);
  return { all, briefOf: (paymentId: string) => briefRows.find((b) => b.placementId === paymentId) };
}

const card = (o: typeof opportunities.$inferSelect) => ({
  id: o.id,
  title: o.title,
  type: o.type,
  outletName: o.outletName,
  priceUsd: o.priceUsd,
});
const userOf = (u: typeof users.$inferSelect) => ({ id: u.id, name: u.name, brandName: u.brandName, email: u.email });

describe('lists built by the database are the API shapes, field for field', () => {
  it('My Articles', async () => {
    const { all, briefOf } = await rows();
    await compare(
      brand.agent,
      '/api/brand/my-articles',
      all.map((r) => {
        const b = briefOf(r.payment.id);
        return {
          ...card(r.opportunity),
          payment: placementPayment(r.placement, r.payment, r.money),
          brief: b ? { submittedAt: b.submittedAt?.toISOString() ?? null } : null,
          // these rows were made directly, never released through the API: no live article
          publication: null,
          unreadMessages: 0,
          // bought for no client (clients.test.ts has some)
          client: null,
          // bought alone, never declined (cart.test.ts, bulk-and-swap.test.ts have some)
          orderId: null,
          declined: null,
          // issue 47: the rounds it was bought with, none asked beyond them, never cancelled
          writingStartedAt: r.placement.writingStartedAt?.toISOString() ?? null,
          revisions: { used: r.placement.revisionsUsed, included: r.placement.revisionsIncluded, request: null },
          cancellation: null,
          dispute: null,
          // issue 59: the promise the database fixed on the row when it was made
          promisedBy: r.placement.promisedBy?.toISOString() ?? null,
          usuallyBy: r.placement.usuallyBy?.toISOString() ?? null,
          // issue 58: the table's life of the same row, for its owner
          life: lifeWithClock(r.placement, b, { side: 'brand', role: 'owner' }),
        };
      }),
    );
  });

  it('Payment History', async () => {
    const { all } = await rows();
    const opp = (o: typeof opportunities.$inferSelect) => ({
      id: o.id,
      title: o.title,
      outletName: o.outletName,
      type: o.type,
      priceUsd: o.priceUsd,
    });
    await compare(
      brand.agent,
      '/api/brand/payments',
      all.map((r) => ({ ...paymentJson(r.payment, r.placement, r.money), opportunity: opp(r.opportunity), client: null })),
    );
  });

  it('Admin Projects (held and released; the brief once submitted)', async () => {
    const { all, briefOf } = await rows();
    await compare(
      admin,
      '/api/admin/projects',
      all
        .filter((r) => r.payment.status !== 'refunded')
        .map((r) => {
          const b = briefOf(r.payment.id);
          return {
            ...card(r.opportunity),
            payment: placementPayment(r.placement, r.payment, r.money),
            brief: b?.submittedAt
              ? { part1Json: b.part1Json, part2Json: b.part2Json, submittedAt: b.submittedAt.toISOString() }
              : null,
            user: userOf(r.user),
            organisation: { id: r.org.id, name: r.org.name },
            client: null,
            publication: null,
            // the brief in, no draft within the turnaround (tatDays, else 14 days)
            overdue:
              r.payment.status === 'paid' &&
              r.placement.draftReviewStatus === 'awaiting_brand_brief' &&
              Boolean(b?.submittedAt) &&
              b!.submittedAt!.getTime() + (r.opportunity.tatDays ?? 14) * 86_400_000 < Date.now(),
            unreadMessages: 0,
            orderId: null,
            declined: null,
            writingStartedAt: r.placement.writingStartedAt?.toISOString() ?? null,
            revisions: { used: r.placement.revisionsUsed, included: r.placement.revisionsIncluded, request: null },
            cancellation: null,
            dispute: null,
            assignee: null,
            promisedBy: r.placement.promisedBy?.toISOString() ?? null,
            usuallyBy: r.placement.usuallyBy?.toISOString() ?? null,
            life: lifeWithClock(r.placement, b, { side: 'admin' }),
          };
        }),
    );
  });

  it('Admin Payments', async () => {
    const { all, briefOf } = await rows();
    const opp = (o: typeof opportunities.$inferSelect) => ({
      id: o.id,
      title: o.title,
      outletName: o.outletName,
      priceUsd: o.priceUsd,
    });
    const submitted = (paymentId: string) => briefOf(paymentId)?.submittedAt?.toISOString() ?? null;
    await compare(
      admin,
      '/api/admin/payments',
      all.map((r) => ({ ...paymentJson(r.payment, r.placement, r.money), opportunity: opp(r.opportunity), user: userOf(r.user), organisation: { id: r.org.id, name: r.org.name }, client: null, briefSubmittedAt: submitted(r.payment.id), releasedWithout: [], life: lifeWithClock(r.placement, briefOf(r.payment.id), { side: 'admin' }) })),
    );
    await compare(
      admin,
      '/api/admin/payments?status=refunded',
      all
        .filter((r) => r.payment.status === 'refunded')
        .map((r) => ({ ...paymentJson(r.payment, r.placement, r.money), opportunity: opp(r.opportunity), user: userOf(r.user), organisation: { id: r.org.id, name: r.org.name }, client: null, briefSubmittedAt: submitted(r.payment.id), releasedWithout: [], life: lifeWithClock(r.placement, briefOf(r.payment.id), { side: 'admin' }) })),
    );
  });

  it('the admin dashboard, with "has payments"', async () => {
    const opps = (await t.db.select().from(opportunities)).sort(newestFirst);
    const paid = new Set((await t.db.select({ id: payments.opportunityId }).from(payments)).map((p) => p.id));
    const unpaid = await createOpportunity(t.db, { title: 'Nobody bought this' });
    await compare(admin, '/api/admin/opportunities', [
      { ...toOpportunityJson(unpaid), hasPayments: false },
      ...opps.map((o) => ({ ...toOpportunityJson(o), hasPayments: paid.has(o.id) })),
    ]);
    await compare(
      admin,
      '/api/admin/opportunities?type=listicle',
      opps
        .filter((o) => o.type.includes('listicle'))
        .map((o) => ({ ...toOpportunityJson(o), hasPayments: paid.has(o.id) })),
    );
  });
});
