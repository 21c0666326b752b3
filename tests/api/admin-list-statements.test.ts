/**
 * [ADMIN][LISTS] Each admin list request sends at most two statements to the database (issue 61),
 * whatever its tab, filters, search or page: the page is one statement whose items the database
 * builds. Counted as the database receives them (tests/support/statements.ts), on PGlite and on
 * PostgreSQL. Left out: what every API request sends before its route runs, the session's lookup
 * (a signed-in request) and, in test mode only, the test clock's offset (app.ts); both are checked
 * to be exactly that, so a third per-request statement would show here too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { opportunities, placements, publications } from '../../src/server/db/schema';
import { createTestApp, type Agent, type TestApp } from '../support/app';
import { createUser, kinds, signedIn } from '../support/factories';
import { insertPlacedPayment } from '../support/placements';
import { statementCounter } from '../support/statements';

const MAX_STATEMENTS = 2;

let t: TestApp;
let admin: Agent;
let counter: ReturnType<typeof statementCounter>;
let opportunityIds: string[];
let adminId: string;

beforeAll(async () => {
  t = await createTestApp();
  const a = await signedIn(t.app, t.db, kinds.admin);
  admin = a.agent;
  adminId = a.user.id;
  const brand = await createUser(t.db, { name: 'Zed Brand', brandName: 'Zedco Robotics' });
  const made = await t.db
    .insert(opportunities)
    .values(
      [1, 2].map((n) => ({ title: `Robots at work ${n}`, outletName: 'Morgenpost', description: 'A feature', type: ['listicle'], priceUsd: '10.00', maxSlots: 50 })),
    )
    .returning();
  opportunityIds = made.map((o) => o.id);
  // two of each: every tab, filter and health has a page after its first in pages of one
  const KINDS = [
    ...(['issue', 'issue', 'ok', 'ok'] as const).map((health) => ({ status: 'released' as const, draftReviewStatus: 'approved' as const, health })),
    ...(['awaiting_brand_brief', 'awaiting_brand_brief', 'pending_brand_review', 'pending_brand_review', 'approved', 'approved'] as const).map(
      (draftReviewStatus) => ({ status: 'paid' as const, draftReviewStatus, health: null }),
    ),
    { status: 'refunded' as const, draftReviewStatus: 'awaiting_brand_brief' as const, health: null },
    { status: 'refunded' as const, draftReviewStatus: 'awaiting_brand_brief' as const, health: null },
  ];
  for (const [i, kind] of KINDS.entries()) {
    const at = new Date(Date.UTC(2026, 0, 1 + i));
    const p = await insertPlacedPayment(t.db, {
      brandId: brand.id,
      opportunityId: opportunityIds[0],
      amount: '10.00',
      stripePaymentId: `pi_count_${i}`,
      providerSessionId: `cs_count_${i}`,
      status: kind.status,
      draftReviewStatus: kind.draftReviewStatus,
      releasedAt: kind.status === 'released' ? at : null,
      createdAt: at,
    });
    if (kind.health) {
      await t.db.insert(publications).values({
        placementId: p.id,
        url: `https://outlet.example.com/story-${i}`,
        health: kind.health,
        publishedAt: at,
        guaranteeEndsAt: new Date(at.getTime() + 90 * 86_400_000),
      });
    }
  }
  // the admin edits every placement in progress (Projects' "Mine")
  await t.db.update(placements).set({ assigneeId: adminId }).where(eq(placements.state, 'in_progress'));
  counter = statementCounter(t.handle);
});
afterAll(async () => t?.close());

/** What every API request sends before its route (see above). */
const SHARED = [/\bFROM "sessions"/i, /^select "offset_ms" from "test_clock"$/i];
const isShared = (text: string) => SHARED.some((re) => re.test(text.trim()));

/** The statements of one request, its shared ones apart; and its next page's URL. */
async function statementsOf(url: string) {
  const { result, statements } = await counter.during(() => admin.get(url));
  expect(result.status, `${url}: ${result.text}`).toBe(200);
  const link = result.headers.link;
  const next = typeof link === 'string' ? /<([^>]+)>/.exec(link)![1] : null;
  return { own: statements.filter((s) => !isShared(s)), shared: statements.filter(isShared), next };
}

const LISTS = [
  '/api/admin/payments',
  '/api/admin/payments?status=paid',
  '/api/admin/payments?status=refunded',
  '/api/admin/payments?q=zedco',
  `/api/admin/payments?opportunityId=OPPORTUNITY&status=released&q=zed`,
  '/api/admin/projects',
  '/api/admin/projects?tab=awaiting',
  '/api/admin/projects?tab=review',
  '/api/admin/projects?tab=approved',
  '/api/admin/projects?tab=published',
  '/api/admin/projects?tab=refunded',
  '/api/admin/projects?q=zed',
  '/api/admin/projects?mine=true',
  '/api/admin/projects?sort=due',
  '/api/admin/projects?clock=late',
  '/api/admin/projects?tab=awaiting&q=zed&mine=true',
  '/api/admin/placements',
  '/api/admin/placements?health=ok',
  '/api/admin/placements?q=zedco',
  '/api/admin/placements?health=issue&q=zed',
  '/api/admin/opportunities',
  '/api/admin/opportunities?status=available',
  '/api/admin/opportunities?type=listicle&full=false',
  // the words, and the outlet's name with a typo (its threshold set by the statement itself)
  '/api/admin/opportunities?q=robots',
  '/api/admin/opportunities?q=Mrogenpost',
  '/api/admin/opportunities?q=robots&status=available',
];

describe('[ADMIN][LISTS] statements a request', () => {
  beforeAll(async () => {
    // the prepared statements' first use (PostgreSQL prepares one per pooled connection) is not what is counted
    await admin.get('/api/admin/payments');
  });

  it.each(LISTS)(`%s, and its next page: at most ${MAX_STATEMENTS} statements`, async (list) => {
    const url = list.replace('OPPORTUNITY', opportunityIds[0]);
    const first = await statementsOf(url);
    // in pages of one, the page after the first, through its Link
    const second = (await statementsOf(`${url}${url.includes('?') ? '&' : '?'}limit=1`)).next;
    expect(second, 'a next page').not.toBeNull();
    const next = await statementsOf(second!);
    for (const [which, page] of [['first page', first], ['next page', next]] as const) {
      expect(page.own.length, `${which}:\n${page.own.join('\n---\n')}`).toBeLessThanOrEqual(MAX_STATEMENTS);
      expect(page.own.length, which).toBeGreaterThan(0);
      expect(page.shared.length, which).toBe(2);
    }
    // each is one statement today
    expect([first.own.length, next.own.length]).toEqual([1, 1]);
  });

  it('the typo search finds the outlet in its one statement: its threshold was in force for the page', async () => {
    const typo = await admin.get('/api/admin/opportunities?q=Mrogenpost');
    expect((typo.body as { id: string }[]).map((o) => o.id).sort()).toEqual([...opportunityIds].sort());
  });
});
