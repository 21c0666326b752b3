/**
 * Lists read the database (issue 44): a change to any row a list item is made of, made the way
 * another server or an operator would (plain SQL, nothing told to this server), shows in the very
 * next answer, and a page asked for again with nothing changed answers the same bytes.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type Agent, type TestApp } from '../support/app';
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

/** Asks twice with nothing changed between: the same bytes both times. */
async function getTwice(agent: Agent, url: string) {
  const first = await agent.get(url);
  expect(first.status).toBe(200);
  const second = await agent.get(url);
  expect(second.status).toBe(200);
  expect(second.text).toBe(first.text);
  return JSON.parse(second.text) as Record<string, unknown>[];
}

/** The next answer after a change. */
async function getAfterChange(agent: Agent, url: string) {
  const res = await agent.get(url);
  expect(res.status).toBe(200);
  return res.body as Record<string, unknown>[];
}

const item = (items: Record<string, unknown>[], id: string, key = 'id') =>
  items.find((i) => (key === 'payment' ? (i.payment as { id: string }).id : i[key]) === id)!;

describe('list items follow every change to the rows they are made of', () => {
  it('the admin dashboard: the opportunity, and whether anyone has paid for it', async () => {
    const url = '/api/admin/opportunities';
    expect(item(await getTwice(admin, url), unpaidOpportunityId).hasPayments).toBe(false);

    // a payment is no change to the opportunity's row, but it changes what the item says
    await createPayment(t.db, { brandId: brand.user.id, opportunityId: unpaidOpportunityId });
    expect(item(await getAfterChange(admin, url), unpaidOpportunityId).hasPayments).toBe(true);

    await t.db.execute(sql`UPDATE opportunities SET filled_slots = filled_slots + 1 WHERE id = ${unpaidOpportunityId}`);
    const filled = item(await getAfterChange(admin, url), unpaidOpportunityId);
    expect(filled.filledSlots).toBe(1);
  });
});
