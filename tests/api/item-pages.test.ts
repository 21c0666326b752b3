/**
 * The paged lists keep their items by row version (src/server/db/item-pages.ts, decision 011): a
 * page asked for again is answered from kept JSON only while every row it is made of is the version
 * the JSON was built from. Each test changes one such row the way another server or an operator
 * would (plain SQL, nothing told to this server) and expects the very next answer to show it, built
 * again for exactly the items made of that row, and an unchanged page to come from the kept items,
 * byte for byte as built.
 */
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { itemPageStats } from '../../src/server/db/item-pages';
import { createTestApp, type Agent, type TestApp } from '../support/app';
import { dbKind } from '../support/db';
import { sideOf } from '../../src/server/db/client';
import { kinds, signedIn } from '../support/factories';
import { createOpportunity, createPayment, submittedBrief } from '../support/content';

let t: TestApp;
let admin: Agent;
let brand: Awaited<ReturnType<typeof signedIn>>;
let opportunityId: string;
let unpaidOpportunityId: string;
let paymentId: string;

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
  paymentId = payment.id;
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
  it('Admin Payments: the payment, its opportunity and its brand', async () => {
    const url = '/api/admin/payments';
    expect(item(await getTwice(admin, url, 'admin_payments'), paymentId).brandFeedback).toBeNull();

    await t.db.execute(sql`UPDATE payments SET brand_feedback = 'Shorter, please' WHERE id = ${paymentId}`);
    expect(item(await getAfterChange(admin, url, 'admin_payments', 1), paymentId).brandFeedback).toBe('Shorter, please');

    await t.db.execute(sql`UPDATE opportunities SET title = 'Second title' WHERE id = ${opportunityId}`);
    const renamed = item(await getAfterChange(admin, url, 'admin_payments', 2), paymentId);
    expect((renamed.opportunity as { title: string }).title).toBe('Second title');

    await t.db.execute(sql`UPDATE users SET brand_name = 'Ada Incorporated' WHERE id = ${brand.user.id}`);
    const rebranded = item(await getAfterChange(admin, url, 'admin_payments', 2), paymentId);
    expect((rebranded.user as { brandName: string }).brandName).toBe('Ada Incorporated');
    await getTwice(admin, url, 'admin_payments');
  });

  it('Admin Projects: the payment, its opportunity, its brand and its brief', async () => {
    const url = '/api/admin/projects';
    const first = item(await getTwice(admin, url, 'admin_projects'), paymentId, 'payment');
    expect((first.brief as { submittedAt: string | null }).submittedAt).not.toBeNull();

    await t.db.execute(sql`UPDATE briefs SET submitted_at = NULL WHERE payment_id = ${paymentId}`);
    expect(item(await getAfterChange(admin, url, 'admin_projects', 1), paymentId, 'payment').brief).toBeNull();

    await t.db.execute(sql`UPDATE users SET name = 'Ada Lovelace' WHERE id = ${brand.user.id}`);
    const renamed = item(await getAfterChange(admin, url, 'admin_projects', 2), paymentId, 'payment');
    expect((renamed.user as { name: string }).name).toBe('Ada Lovelace');

    await t.db.execute(sql`UPDATE payments SET draft_review_status = 'edits_requested' WHERE id = ${paymentId}`);
    const moved = item(await getAfterChange(admin, url, 'admin_projects', 1), paymentId, 'payment');
    expect((moved.payment as { draftReviewStatus: string }).draftReviewStatus).toBe('edits_requested');
  });

  it('My Articles and Payment History: the payment, its opportunity and its brief', async () => {
    const url = '/api/brand/my-articles';
    const first = item(await getTwice(brand.agent, url, 'my_articles'), paymentId, 'payment');
    const submitted = (first.brief as { submittedAt: string | null } | null)?.submittedAt ?? null;

    await t.db.execute(sql`UPDATE briefs SET submitted_at = '2030-01-02T03:04:05.678Z' WHERE payment_id = ${paymentId}`);
    const resubmitted = item(await getAfterChange(brand.agent, url, 'my_articles', 1), paymentId, 'payment');
    expect((resubmitted.brief as { submittedAt: string }).submittedAt).toBe('2030-01-02T03:04:05.678Z');
    expect(submitted).not.toBe('2030-01-02T03:04:05.678Z');

    await t.db.execute(sql`UPDATE opportunities SET outlet_name = 'The Daily Byline' WHERE id = ${opportunityId}`);
    expect(item(await getAfterChange(brand.agent, url, 'my_articles', 2), paymentId, 'payment').outletName).toBe('The Daily Byline');

    const history = '/api/brand/payments';
    await getTwice(brand.agent, history, 'brand_payments');
    await t.db.execute(sql`UPDATE payments SET amount = '1300.00' WHERE id = ${paymentId}`);
    expect(item(await getAfterChange(brand.agent, history, 'brand_payments', 1), paymentId).amount).toBe('1300.00');
  });

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

  it('requests that find the same item changed at once build it once: the others wait for that build', async () => {
    const url = '/api/admin/projects';
    await getTwice(admin, url, 'admin_projects');
    await t.db.execute(sql`UPDATE payments SET brand_feedback = 'Asked at once' WHERE id = ${paymentId}`);
    const before = { ...stats('admin_projects') };
    const answers = await Promise.all(Array.from({ length: 8 }, () => admin.get(url)));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.text).toBe(answers[0].text);
    }
    expect((item(answers[0].body as Record<string, unknown>[], paymentId, 'payment').payment as { brandFeedback: string }).brandFeedback).toBe('Asked at once');
    const after = stats('admin_projects');
    expect(after.builds - before.builds).toBe(1);
    expect(after.itemsBuilt - before.itemsBuilt).toBe(1);
    // every other request was answered from the kept items (after the build, or waiting for it), or
    // from the page kept whole once the first answer had kept it
    expect(after.hits + after.unchanged + after.grouped - before.hits - before.unchanged - before.grouped).toBe(7);
  });

  /** Every connection of the main pool, held until `release`. */
  async function holdPool() {
    const pool = t.db.$client as unknown as pg.Pool;
    const held = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
    return { pool, held, release: () => held.forEach((c) => c.release()) };
  }
  /**
   * How many statements of this database wait on a lock (seen through `client`, inside the locking
   * transaction). PostgreSQL reads the list of connections once per transaction: without clearing
   * that snapshot, a connection the pool opens after the lock was taken would never be seen waiting.
   */
  const waitingOnLocks = async (client: pg.PoolClient): Promise<number> => {
    await client.query('SELECT pg_stat_clear_snapshot()');
    return (await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`)).rows[0].n;
  };
  const until = async (what: () => boolean | Promise<boolean>, label: string) => {
    for (let i = 0; i < 200; i++) {
      if (await what()) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`timed out waiting for ${label}`);
  };

  it.runIf(dbKind === 'postgres')('requests for a page of one session, while its statement waits for a connection, share it: it answers as of when it runs', async () => {
    const url = '/api/admin/projects';
    await getTwice(admin, url, 'admin_projects');
    const before = { ...stats('admin_projects') };
    const { pool, held, release } = await holdPool();
    let answers: Promise<{ status: number; text: string }[]>;
    try {
      answers = Promise.all(Array.from({ length: 4 }, () => admin.get(url).then((r) => r)));
      await until(() => stats('admin_projects').grouped === before.grouped + 3, 'three requests to join the first');
      expect(pool.waitingCount).toBe(1);
      // committed after all four arrived, before their statement is sent: every answer shows it
      await held[0].query(`UPDATE payments SET brand_feedback = 'Joined while waiting' WHERE id = $1`, [paymentId]);
    } finally {
      release();
    }
    const done = await answers;
    for (const res of done) {
      expect(res.status).toBe(200);
      expect(res.text).toBe(done[0].text);
    }
    expect(done[0].text).toContain('Joined while waiting');
    const after = stats('admin_projects');
    expect(after.grouped - before.grouped).toBe(3);
    expect(after.builds - before.builds).toBe(1);
  });

  it.runIf(dbKind === 'postgres')('a request arriving after the statement was sent does not join it: its own is sent once that one has answered; another session sends at once', async () => {
    const url = '/api/admin/projects';
    const other = (await signedIn(t.app, t.db, kinds.admin)).agent;
    await getTwice(admin, url, 'admin_projects');
    await getTwice(other, url, 'admin_projects');
    const before = { ...stats('admin_projects') };
    const pool = t.db.$client as unknown as pg.Pool;
    const locker = await pool.connect();
    const waiting = () => waitingOnLocks(locker);
    let answers: Promise<{ status: number; text: string }[]>;
    try {
      // the first request's statement is sent and then waits on the lock
      await locker.query('BEGIN; LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE');
      const first = admin.get(url).then((r) => r);
      await until(async () => (await waiting()) === 1, 'the first statement to wait on the lock');
      // the same page of the same session: held back, not joined to the statement already sent
      const later = admin.get(url).then((r) => r);
      await until(() => stats('admin_projects').queued === before.queued + 1, 'the later request to be held back');
      // another session's statement is its own, sent at once
      const otherSession = other.get(url).then((r) => r);
      await until(async () => (await waiting()) === 2, "the other session's statement to wait on the lock");
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await waiting()).toBe(2);
      // committed while the later request is held: its statement, sent afterwards, shows it
      await pool.query(`UPDATE payments SET brand_feedback = 'Held back, then sent' WHERE id = $1`, [paymentId]);
      answers = Promise.all([first, later, otherSession]);
    } finally {
      await locker.query('COMMIT');
      locker.release();
    }
    const [, later] = await answers;
    for (const res of await answers) expect(res.status).toBe(200);
    expect(later.text).toContain('Held back, then sent');
    expect(stats('admin_projects').grouped).toBe(before.grouped);
  });

  it.runIf(dbKind === 'postgres')('a request held behind a statement that does not answer is sent after two seconds anyway', async () => {
    const url = '/api/admin/projects';
    await getTwice(admin, url, 'admin_projects');
    const before = { ...stats('admin_projects') };
    const pool = t.db.$client as unknown as pg.Pool;
    const locker = await pool.connect();
    const waiting = () => waitingOnLocks(locker);
    let answers: Promise<{ status: number }[]>;
    try {
      await locker.query('BEGIN; LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE');
      const first = admin.get(url).then((r) => r);
      await until(async () => (await waiting()) === 1, 'the first statement to wait on the lock');
      const heldAt = Date.now();
      const later = admin.get(url).then((r) => r);
      await until(() => stats('admin_projects').queued === before.queued + 1, 'the later request to be held back');
      // the first never answers while the lock is held: the later one is sent once it has waited long enough
      for (let i = 0; i < 40 && (await waiting()) < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await waiting()).toBe(2);
      expect(Date.now() - heldAt).toBeGreaterThanOrEqual(1_900);
      answers = Promise.all([first, later]);
    } finally {
      await locker.query('COMMIT');
      locker.release();
    }
    for (const res of await answers) expect(res.status).toBe(200);
  });

  it.runIf(dbKind === 'postgres')('the changed items are built on the connections kept apart for it, not through the main pool', async () => {
    const url = '/api/admin/payments';
    await getTwice(admin, url, 'admin_payments');
    const side = sideOf(t.db).$client as unknown as { query: (...args: unknown[]) => unknown };
    expect(side).not.toBe(t.db.$client);
    const query = side.query.bind(side);
    let sideStatements = 0;
    side.query = (...args: unknown[]) => {
      sideStatements++;
      return query(...args);
    };
    try {
      await admin.get(url);
      expect(sideStatements).toBe(0);
      await t.db.execute(sql`UPDATE payments SET brand_feedback = 'Built apart' WHERE id = ${paymentId}`);
      const res = await admin.get(url);
      expect(res.text).toContain('Built apart');
      expect(sideStatements).toBe(1);
    } finally {
      side.query = query;
    }
  });

  it('a page kept whole is read again when an item changes with time alone: a draft falls due', async () => {
    const url = '/api/admin/projects';
    const opportunity = await createOpportunity(t.db, { title: 'Falls due', tatDays: 1 });
    const payment = await createPayment(t.db, { brandId: brand.user.id, opportunityId: opportunity.id, status: 'paid', draftReviewStatus: 'awaiting_brand_brief' });
    const brief = await submittedBrief(t.db, payment);
    // due in 1.5 s: submitted a day ago, less 1.5 s
    const [{ due }] = (
      (await t.db.execute(sql`UPDATE briefs SET submitted_at = now() - interval '1 day' + interval '1500 milliseconds'
        WHERE id = ${brief.id} RETURNING (submitted_at + interval '1 day')::text AS due`)) as unknown as { rows: { due: string }[] }
    ).rows;
    const overdueOf = (items: Record<string, unknown>[]) => item(items, payment.id, 'payment').overdue;
    expect(overdueOf(await getTwice(admin, url, 'admin_projects'))).toBe(false);
    const before = { ...stats('admin_projects') };
    expect(overdueOf((await admin.get(url)).body)).toBe(false);
    if (dbKind === 'pglite') expect(stats('admin_projects').unchanged).toBe(before.unchanged + 1);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, new Date(due).getTime() - Date.now()) + 100));
    const after = { ...stats('admin_projects') };
    const res = await admin.get(url);
    expect(res.status).toBe(200);
    expect(overdueOf(res.body)).toBe(true);
    // nothing was committed: the page was read again because the kept one said until when it held
    expect(stats('admin_projects').unchanged).toBe(after.unchanged);
    expect(stats('admin_projects').itemsBuilt).toBe(after.itemsBuilt + 1);
  });

  it('a page kept whole that empties since answers empty', async () => {
    const owner = await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: 'Brief Owner' });
    const only = await createPayment(t.db, { brandId: owner.user.id, opportunityId });
    expect((await getTwice(owner.agent, '/api/brand/payments', 'brand_payments')).map((p) => p.id)).toEqual([only.id]);
    await t.db.execute(sql`DELETE FROM payments WHERE id = ${only.id}`);
    const res = await owner.agent.get('/api/brand/payments');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('a change rolled back changes nothing, and the page still comes from the kept items', async () => {
    const url = '/api/admin/payments';
    const before = await getTwice(admin, url, 'admin_payments');
    await t.db
      .transaction(async (tx) => {
        await tx.execute(sql`UPDATE payments SET brand_feedback = 'never committed' WHERE id = ${paymentId}`);
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await getTwice(admin, url, 'admin_payments')).toEqual(before);
  });

  it('a brand never gets another brand’s kept items', async () => {
    // brand A's page is kept; brand B has a purchase of the same opportunity
    const mine = (await getTwice(brand.agent, '/api/brand/my-articles', 'my_articles')).map((i) => (i.payment as { id: string }).id);
    const other = await signedIn(t.app, t.db, { ...kinds.approvedBrand, name: 'Other Brand' });
    const theirs = await createPayment(t.db, { brandId: other.user.id, opportunityId });
    for (const url of ['/api/brand/my-articles', '/api/brand/payments']) {
      const res = await other.agent.get(url);
      expect(res.status).toBe(200);
      const ids = (res.body as Record<string, unknown>[]).map((i) => (url.endsWith('payments') ? i.id : (i.payment as { id: string }).id));
      expect(ids).toEqual([theirs.id]);
      expect(ids.some((id) => mine.includes(id as string))).toBe(false);
    }
    // and brand A's kept page is still its own
    const again = (await getTwice(brand.agent, '/api/brand/my-articles', 'my_articles')).map((i) => (i.payment as { id: string }).id);
    expect(again).toEqual(mine);
  });
});
