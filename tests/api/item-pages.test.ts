/**
 * The paged lists keep their items by row version (src/server/db/item-pages.ts, decision 011): a
 * page asked for again is answered from kept JSON only while every row it is made of is the version
 * the JSON was built from. Each test changes one such row the way another server or an operator
 * would (plain SQL, nothing told to this server) and expects the very next answer to show it, built
 * again for exactly the items made of that row, and an unchanged page to come from the kept items,
 * byte for byte as built.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { itemPageStats } from '../../src/server/db/item-pages';
import { createTestApp, type Agent, type TestApp } from '../support/app';
import { dbKind } from '../support/db';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPayment, submittedBrief } from '../support/content';

let t: TestApp;
let admin: Agent;
let brand: Awaited<ReturnType<typeof signedIn>>;
let opportunityId: string;
let unpaidOpportunityId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
});
// each test its own brand, opportunities and payments: the tests change them, and count the items
// made of them
beforeEach(async () => {
  brand = await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: 'Ada Brand', brandName: 'Ada Co' });
  const opportunity = await createOpportunity(t.db, { title: 'First title' });
  opportunityId = opportunity.id;
  unpaidOpportunityId = (await createOpportunity(t.db, { title: 'Nobody bought this' })).id;
  const payment = await createPayment(t.db, { brandId: brand.user.id, opportunityId, draftReviewStatus: 'pending_brand_review' });
  await createPayment(t.db, { brandId: brand.user.id, opportunityId });
  await submittedBrief(t.db, payment);
});
afterAll(() => t.close());

const stats = (list: string) => itemPageStats(t.db)[list];

/** Commits a transaction that changes no row: the database's snapshot moves, no list's rows do. */
const commitNothing = () => t.db.transaction(async (tx) => void (await tx.execute(sql`SELECT pg_current_xact_id()`)));

/**
 * Asks three times, each answer the same bytes: the second with nothing committed since the first,
 * answered from the page kept whole (on PGlite, where nothing else commits; on the PostgreSQL
 * server other tests' databases commit too, and a new snapshot reads the page again); the third
 * after a commit that changed no row of it, answered from the kept items.
 */
async function getTwice(agent: Agent, url: string, list: string) {
  const first = await agent.get(url);
  expect(first.status).toBe(200);
  let before = { ...stats(list) };
  const second = await agent.get(url);
  expect(second.status).toBe(200);
  expect(second.text).toBe(first.text);
  if (dbKind === 'pglite') expect(stats(list).unchanged).toBe(before.unchanged + 1);
  else expect(stats(list).unchanged + stats(list).hits).toBe(before.unchanged + before.hits + 1);
  expect(stats(list).builds).toBe(before.builds);

  await commitNothing();
  before = { ...stats(list) };
  const third = await agent.get(url);
  expect(third.status).toBe(200);
  expect(third.text).toBe(first.text);
  expect(stats(list).hits).toBe(before.hits + 1);
  expect(stats(list).unchanged).toBe(before.unchanged);
  expect(stats(list).builds).toBe(before.builds);
  return JSON.parse(third.text) as Record<string, unknown>[];
}

/**
 * After a change, the next answer shows it: the database builds the `built` items made of the
 * changed row again and the rest come from the kept items. That answer must be byte for byte the
 * page built whole, which the next request gives once every row of every list is a new version (an
 * update that changes nothing still makes one).
 */
async function getAfterChange(agent: Agent, url: string, list: string, built: number) {
  const before = { ...stats(list) };
  const res = await agent.get(url);
  expect(res.status).toBe(200);
  expect(stats(list).builds).toBe(before.builds + 1);
  expect(stats(list).itemsBuilt - before.itemsBuilt).toBe(built);
  const items = res.body as Record<string, unknown>[];

  for (const table of ['payments', 'opportunities', 'users', 'briefs']) {
    await t.db.execute(sql`UPDATE ${sql.identifier(table)} SET id = id`);
  }
  const whole = await agent.get(url);
  expect(stats(list).itemsBuilt - before.itemsBuilt).toBe(built + items.length);
  expect(whole.text).toBe(res.text);
  return items;
}

const item = (items: Record<string, unknown>[], id: string, key = 'id') =>
  items.find((i) => (key === 'payment' ? (i.payment as { id: string }).id : i[key]) === id)!;

describe('kept list items follow every change to the rows they are made of', () => {
  it('the admin dashboard: the opportunity, and whether anyone has paid for it', async () => {
    const url = '/api/admin/opportunities';
    expect(item(await getTwice(admin, url, 'admin_opportunities'), unpaidOpportunityId).hasPayments).toBe(false);

    // a payment is no change to the opportunity's row, but it changes what the item says
    await createPayment(t.db, { brandId: brand.user.id, opportunityId: unpaidOpportunityId });
    expect(item(await getAfterChange(admin, url, 'admin_opportunities', 1), unpaidOpportunityId).hasPayments).toBe(true);

    await t.db.execute(sql`UPDATE opportunities SET filled_slots = filled_slots + 1 WHERE id = ${unpaidOpportunityId}`);
    const filled = item(await getAfterChange(admin, url, 'admin_opportunities', 1), unpaidOpportunityId);
    expect(filled.filledSlots).toBe(1);
  });
});
