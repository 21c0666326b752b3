/**
 * The test clock (issue 59, as Stripe's test clocks do): in test mode an admin moves Byline's time
 * forward with POST /api/admin/test-clock; every instance reads the offset from the database and
 * every sweep that came due runs before the answer, so the guarantee's refund, a deadline's
 * reminder and a cancellation granted for want of an answer happen through the route alone. Never
 * in production: the built server started with NODE_ENV=production and a card provider answers 404.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { openPostgres } from '../../src/server/db/client';
import { cancellations, disputes, lateCredits, mailOutbox, payments, placementEvents, placements, purchaseRequests, taxDocuments, testClock } from '../../src/server/db/schema';
import { clockOffsetMs, setClockOffsetMs } from '../../src/server/lib/clock';
import { diskFileStore } from '../../src/server/storage/file-store';
import { testCheckoutProvider } from '../../src/server/providers/test-checkout';
import { stripeProvider } from '../../src/server/providers/stripe';
import { GUARANTEE_DAYS } from '../../src/shared/constants';
import { Agent } from '../support/app';
import { buildServerBundle, freePort, ROOT } from '../support/built-server';
import { setTestClock } from '../support/clock';
import { submittedBrief } from '../support/content';
import { dbKind } from '../support/db';
import { createUser, kinds, signedIn } from '../support/factories';
import { withDatabase } from '../support/global-setup';
import { testChecker } from '../support/outlets';
import { startStripeStandIn } from '../support/stripe-stand-in';
import { createOpportunity, createPaymentsTestApp, sessionIdOf, type PaymentsTestApp } from '../support/payments';

const HOUR = 3_600_000;

let t: PaymentsTestApp;
let admin: Agent;
let brand: Agent;
let brandUser: { id: string; email: string; organisationId: string | null };

beforeAll(async () => {
  t = await createPaymentsTestApp({ config: { REMINDER_HOURS: 24, RESPONSE_DAYS: 3 } });
  admin = (await signedIn(t.app, t.db, kinds.admin)).agent;
  const b = await signedIn(t.app, t.db, kinds.approvedBrand);
  brand = b.agent;
  brandUser = b.user;
});
afterAll(async () => {
  await setTestClock(t.db, 0);
  await t.close();
});
// each test starts from the wall clock (the helper writes the row, as an instance would read it)
beforeEach(() => setTestClock(t.db, 0));

async function buy(tatDays?: number): Promise<{ id: string; paidAt: Date }> {
  const opp = await createOpportunity(t.db, { maxSlots: 10, tatDays });
  const res = await brand.post('/api/payments/checkout', { opportunityId: opp.id });
  expect(res.status, res.text).toBe(200);
  const sessionId = sessionIdOf(res.body.url);
  expect((await brand.post(`/api/payments/checkout/${sessionId}/pay`)).status).toBe(200);
  const [row] = await t.db.select().from(payments).where(eq(payments.providerSessionId, sessionId));
  return { id: row.id, paidAt: row.paidAt };
}

const paymentOf = async (id: string) => (await t.db.select().from(payments).where(eq(payments.id, id)))[0];
const reminderMails = (id: string) =>
  t.db.select().from(mailOutbox).where(and(eq(mailOutbox.kind, 'deadline_reminder'), sql`${mailOutbox.data} ->> 'paymentId' = ${id}`));
const reminderEntries = (id: string) =>
  t.db.select().from(placementEvents).where(and(eq(placementEvents.placementId, id), eq(placementEvents.kind, 'deadline_reminder')));

describe('the routes', () => {
  it('read the clock and move it forward, for admins only', async () => {
    const before = Date.now();
    const read = await admin.get('/api/admin/test-clock');
    expect(read.status).toBe(200);
    expect(read.body.offsetHours).toBe(0);
    expect(Math.abs(new Date(read.body.now).getTime() - before)).toBeLessThan(60_000);

    const moved = await admin.post('/api/admin/test-clock', { advanceHours: 72 });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.offsetHours).toBe(72);
    expect(new Date(moved.body.now).getTime() - Date.now()).toBeGreaterThan(72 * HOUR - 60_000);
    // kept in the database, where every instance reads it, and read back the same
    const [row] = await t.db.select().from(testClock);
    expect(Number(row.offsetMs)).toBe(72 * HOUR);
    expect((await admin.get('/api/admin/test-clock')).body.offsetHours).toBe(72);
    // moves add up
    expect((await admin.post('/api/admin/test-clock', { advanceHours: 1.5 })).body.offsetHours).toBe(73.5);
    // and SQL reads the same time
    const [{ ahead }] = ((await t.db.execute(sql`SELECT extract(epoch FROM clock_now() - now()) AS ahead`)) as unknown as { rows: { ahead: string }[] }).rows;
    expect(Number(ahead)).toBeCloseTo(73.5 * 3600, 0);

    for (const res of [await brand.get('/api/admin/test-clock'), await brand.post('/api/admin/test-clock', { advanceHours: 1 })]) {
      expect(res.status).toBe(403);
    }
    expect((await new Agent(t.app).get('/api/admin/test-clock')).status).toBe(401);
    expect((await admin.get('/api/admin/test-clock')).body.offsetHours).toBe(73.5);
  });

  it('refuses to move backwards, by nothing, too far or by no number, with a clear message', async () => {
    for (const body of [{ advanceHours: -1 }, { advanceHours: 0 }, { advanceHours: 24 * 400 + 1 }, { advanceHours: 'ten' }, {}]) {
      const res = await admin.post('/api/admin/test-clock', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(/\S/);
      expect(JSON.stringify(res.body)).toMatch(/hours/);
    }
    expect(JSON.stringify((await admin.post('/api/admin/test-clock', { advanceHours: -5 })).body)).toContain('only moves forward');
    expect((await admin.get('/api/admin/test-clock')).body.offsetHours).toBe(0);
  });
});

describe('the sweeps, before the answer', () => {
  it('refunds a paid placement not published GUARANTEE_DAYS after payment, the reminder going first', async () => {
    const { id } = await buy();
    const other = await buy();
    // to 12 hours before the guarantee's refund: the reminder, not the refund
    const toReminder = GUARANTEE_DAYS * 24 - 12;
    const warned = await admin.post('/api/admin/test-clock', { advanceHours: toReminder });
    expect(warned.status, warned.text).toBe(200);
    expect((await paymentOf(id)).status).toBe('paid');
    expect(await reminderEntries(id)).toHaveLength(1);
    expect((await reminderMails(id)).length).toBeGreaterThan(0);
    // past it: refunded within the same request, once
    const moved = await admin.post('/api/admin/test-clock', { advanceHours: 13 });
    expect(moved.status, moved.text).toBe(200);
    const pay = await paymentOf(id);
    expect(pay.status).toBe('refunded');
    expect(pay.refundReason).toBe('guarantee');
    expect((await paymentOf(other.id)).status).toBe('refunded');
    expect(await reminderEntries(id)).toHaveLength(1);
  });

  it('refunds at GUARANTEE_DAYS + 1 days in one move', async () => {
    const { id } = await buy();
    const moved = await admin.post('/api/admin/test-clock', { advanceHours: (GUARANTEE_DAYS + 1) * 24 });
    expect(moved.status, moved.text).toBe(200);
    expect((await paymentOf(id)).status).toBe('refunded');
  });

  it('leaves a placement paid while its guarantee has time left', async () => {
    const { id } = await buy();
    await admin.post('/api/admin/test-clock', { advanceHours: 48 });
    expect((await paymentOf(id)).status).toBe('paid');
    expect(await reminderEntries(id)).toHaveLength(0);
  });

  it('grants a cancellation request the team left unanswered past its deadline', async () => {
    const { id } = await buy();
    expect((await admin.post(`/api/admin/placements/${id}/writing-started`, {})).status).toBe(200);
    const asked = await brand.post(`/api/brand/placements/${id}/cancel`, { reason: 'Our launch moved' });
    expect(asked.status, asked.text).toBeLessThan(300);
    const [c] = await t.db.select().from(cancellations).where(eq(cancellations.placementId, id));
    expect(c.status).toBe('requested');
    const hoursLeft = (c.respondBy.getTime() - Date.now()) / HOUR;
    // just before: the team's reminder, still requested
    await admin.post('/api/admin/test-clock', { advanceHours: Math.ceil(hoursLeft) - 2 });
    expect((await t.db.select().from(cancellations).where(eq(cancellations.id, c.id)))[0].status).toBe('requested');
    expect((await reminderMails(id)).map((m) => (m.data as { step: string }).step)).toContain('cancellation');
    // past it: granted in full, refunded
    const moved = await admin.post('/api/admin/test-clock', { advanceHours: 3 });
    expect(moved.status, moved.text).toBe(200);
    const [after] = await t.db.select().from(cancellations).where(eq(cancellations.id, c.id));
    expect(after.status).toBe('granted');
    expect(after.answeredBy).toBeNull();
    expect((await paymentOf(id)).status).toBe('refunded');
  });

  it('credits a placement published late through the route alone, its reminder going first, then offers the late cancel', async () => {
    // a listed turnaround of 5 days: "Live by" is fixed at payment
    const { id } = await buy(5);
    // the first credit is due at the start (UTC) of the first business day after "Live by"
    const [{ at }] = await t.db
      .select({ at: sql<string>`to_char(date_trunc('day', add_business_days(live_by(${placements.promisedBy}, ${placements.promiseMovedDays}), 1) AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS"Z"')` })
      .from(placements)
      .where(eq(placements.id, id));
    const firstCredit = Date.parse(at);
    expect(firstCredit).toBeGreaterThan(Date.now());
    // 12 hours before: the team's reminder, nothing credited
    await admin.post('/api/admin/test-clock', { advanceHours: Math.floor((firstCredit - Date.now()) / HOUR) - 12 });
    expect((await reminderMails(id)).map((m) => (m.data as { step: string }).step)).toContain('late_credit');
    expect(await t.db.$count(lateCredits, eq(lateCredits.placementId, id))).toBe(0);
    // past it: the first business day late credited, with its credit note
    const moved = await admin.post('/api/admin/test-clock', { advanceHours: 13 });
    expect(moved.status, moved.text).toBe(200);
    expect((await t.db.select().from(lateCredits).where(eq(lateCredits.placementId, id))).map((c) => c.lateDay)).toEqual([1]);
    expect(await t.db.$count(taxDocuments, and(eq(taxDocuments.paymentId, id), eq(taxDocuments.kind, 'credit_note')))).toBe(1);
    // two weeks on: 10 business days late and more, the brand is offered the one-click cancel
    await admin.post('/api/admin/test-clock', { advanceHours: 14 * 24 });
    const page = await brand.get(`/api/brand/placements/${id}`);
    expect(page.status).toBe(200);
    expect(page.body.life.actions).toContain('cancel_late');
    expect((await t.db.select().from(lateCredits).where(eq(lateCredits.placementId, id))).length).toBe(10);
  });

  it('refunds a declined placement whose brand chose no alternative by its deadline, the brand reminded first', async () => {
    const { id } = await buy();
    const declined = await admin.post(`/api/admin/payments/${id}/decline`, { reason: 'The outlet refused the topic' });
    expect(declined.status, declined.text).toBe(200);
    const swapBy = Date.parse(declined.body.declined.swapBy);
    // 12 hours before: the brand, who can still choose, is reminded; still paid
    await admin.post('/api/admin/test-clock', { advanceHours: Math.floor((swapBy - Date.now()) / HOUR) - 12 });
    expect((await reminderMails(id)).map((m) => (m.data as { step: string }).step)).toContain('swap');
    expect((await paymentOf(id)).status).toBe('paid');
    // past it: refunded in full by the move alone
    expect((await admin.post('/api/admin/test-clock', { advanceHours: 13 })).status).toBe(200);
    expect((await paymentOf(id)).status).toBe('refunded');
  });

  it('reminds the approvers of a purchase request about to expire, then it reads expired', async () => {
    const buyer = await createUser(t.db, { ...kinds.approvedBrand, organisationId: brandUser.organisationId, orgRole: 'buyer' });
    const opp = await createOpportunity(t.db, { priceUsd: '900.00', title: 'A request that waits' });
    const expiresAt = new Date(Date.now() + 48 * HOUR);
    const [pr] = await t.db
      .insert(purchaseRequests)
      .values({ organisationId: brandUser.organisationId!, requestedBy: buyer.id, opportunityId: opp.id, amount: '900.00', expiresAt })
      .returning();
    const mails = () =>
      t.db.select().from(mailOutbox).where(and(eq(mailOutbox.kind, 'purchase_request'), sql`${mailOutbox.data} ->> 'expiresAt' = ${expiresAt.toISOString()}`));
    const statusOf = async () =>
      ((await brand.get('/api/org/purchase-requests')).body as { id: string; status: string }[]).find((r) => r.id === pr.id)?.status;
    expect(await statusOf()).toBe('pending');
    // 18 hours before it expires: the owner who can approve it is reminded
    await admin.post('/api/admin/test-clock', { advanceHours: 30 });
    expect((await mails()).map((m) => m.toAddress)).toEqual([brandUser.email]);
    // past it: expired, as every screen reads it in Byline's time
    await admin.post('/api/admin/test-clock', { advanceHours: 19 });
    expect(await statusOf()).toBe('expired');
  });

  it('grants a content dispute the team left unanswered, the team reminded first', async () => {
    const { id } = await buy();
    // its brief submitted and a draft attached: a content dispute can be opened
    const [p] = await t.db.select().from(payments).where(eq(payments.id, id));
    await submittedBrief(t.db, { id, brandId: p.brandId, organisationId: p.organisationId!, opportunityId: p.opportunityId });
    await t.db.update(placements).set({ draftReviewStatus: 'pending_brand_review', draftDocumentUrl: 'https://docs.example.com/d/1' }).where(eq(placements.id, id));
    const opened = await brand.post(`/api/brand/projects/${id}/disputes`, { reason: 'not_as_briefed', outcome: 'refund_full', text: 'Wrong topic' });
    expect(opened.status, opened.text).toBe(201);
    const respondBy = Date.parse(opened.body.respondBy);
    await admin.post('/api/admin/test-clock', { advanceHours: Math.floor((respondBy - Date.now()) / HOUR) - 12 });
    expect((await reminderMails(id)).map((m) => (m.data as { step: string }).step)).toContain('dispute_answer');
    expect((await t.db.select().from(disputes).where(eq(disputes.id, opened.body.id)))[0].status).toBe('open');
    expect((await admin.post('/api/admin/test-clock', { advanceHours: 13 })).status).toBe(200);
    expect((await t.db.select().from(disputes).where(eq(disputes.id, opened.body.id)))[0]).toMatchObject({ status: 'resolved', resolution: 'refunded_full' });
    expect((await paymentOf(id)).status).toBe('refunded');
  });

  it('stamps what happens after a move in Byline’s time', async () => {
    await admin.post('/api/admin/test-clock', { advanceHours: 240 });
    const { paidAt } = await buy();
    expect(paidAt.getTime() - Date.now()).toBeGreaterThan(240 * HOUR - 60_000);
  });
});

describe('two instances on one database', () => {
  it('read the same offset: one moves it, the other answers with it', async () => {
    // the second instance: its own app, and on PostgreSQL its own connections to the same database
    const [{ name }] = ((await t.db.execute(sql`SELECT current_database() AS name`)) as unknown as { rows: { name: string }[] }).rows;
    const other = dbKind === 'postgres' ? openPostgres(withDatabase(process.env.TEST_DATABASE_URL!, name), 4) : null;
    const db2 = other?.db ?? t.db;
    const app2 = await buildApp({ db: db2, config: t.config, files: diskFileStore(t.uploadsDir), payments: testCheckoutProvider(db2), checker: testChecker(t.config) });
    await app2.ready();
    try {
      const admin2 = (await signedIn(app2, db2, kinds.admin)).agent;
      expect((await admin.post('/api/admin/test-clock', { advanceHours: 30 })).status).toBe(200);
      // the other process has not heard of it (its own memory): it reads the database's row
      setClockOffsetMs(0);
      const seen = await admin2.get('/api/admin/test-clock');
      expect(seen.body.offsetHours).toBe(30);
      expect(clockOffsetMs()).toBe(30 * HOUR);
      // and a move there is seen here
      expect((await admin2.post('/api/admin/test-clock', { advanceHours: 6 })).body.offsetHours).toBe(36);
      setClockOffsetMs(0);
      expect((await admin.get('/api/admin/test-clock')).body.offsetHours).toBe(36);
      // a rule read by any request: a purchase on the first instance is paid in the moved time
      setClockOffsetMs(0);
      const { paidAt } = await buy();
      expect(paidAt.getTime() - Date.now()).toBeGreaterThan(36 * HOUR - 60_000);
    } finally {
      await app2.close();
      await other?.close();
    }
  });
});

describe('outside test mode', () => {
  it('[SECURITY] a database kept from test mode starts on the wall clock with a card provider, and has no test clock', async () => {
    expect((await admin.post('/api/admin/test-clock', { advanceHours: 48 })).status).toBe(200);
    const live = await buildApp({
      db: t.db,
      config: t.config,
      files: diskFileStore(t.uploadsDir),
      payments: stripeProvider({ secretKey: 'sk_test_unused', webhookSecret: 'whsec_unused' }),
      checker: testChecker(t.config),
    });
    await live.ready();
    try {
      expect(clockOffsetMs()).toBe(0);
      const [row] = await t.db.select().from(testClock);
      expect(Number(row.offsetMs)).toBe(0);
      const liveAdmin = (await signedIn(live, t.db, kinds.admin)).agent;
      expect((await liveAdmin.get('/api/admin/test-clock')).status).toBe(404);
      expect((await liveAdmin.post('/api/admin/test-clock', { advanceHours: 1 })).status).toBe(404);
    } finally {
      await live.close();
    }
  });
});

describe.skipIf(dbKind !== 'pglite')('in production (the built server)', () => {
  let outDir: string;
  let dataDir: string;
  beforeAll(() => {
    outDir = buildServerBundle('test-clock');
    dataDir = mkdtempSync(path.join(ROOT, '.tmp', 'test-clock-data-'));
  }, 120_000);
  afterAll(() => {
    rmSync(outDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('[SECURITY] answers 404 to both routes, an admin signed in, with a card provider', async () => {
    const stripe = await startStripeStandIn();
    const port = await freePort();
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(STRIPE_|DATABASE_URL|PAYMENT_PROVIDER|SEED_DEMO|NODE_ENV|ADMIN_)/.test(k)));
    const child = spawn(process.execPath, [path.join(outDir, 'main.js')], {
      cwd: ROOT,
      env: {
        ...clean,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        STRIPE_SECRET_KEY: 'sk_test_stand_in',
        STRIPE_WEBHOOK_SECRET: 'whsec_stand_in',
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: String(stripe.port),
        STRIPE_API_PROTOCOL: 'http',
        ADMIN_EMAIL: 'ops@example.com',
        ADMIN_PASSWORD: 'an-admin-password-1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline && child.exitCode === null) {
        if (await fetch(`${base}/api/user`).then(() => true, () => false)) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(child.exitCode, output).toBeNull();
      const login = await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ email: 'ops@example.com', password: 'an-admin-password-1' }),
      });
      expect(login.status, output).toBe(200);
      const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      const me = await fetch(`${base}/api/user`, { headers: { cookie } });
      expect((await me.json()).role).toBe('admin');
      const read = await fetch(`${base}/api/admin/test-clock`, { headers: { cookie } });
      expect(read.status).toBe(404);
      expect(await read.json()).toEqual({ message: 'Not found', code: 'not_found' });
      const move = await fetch(`${base}/api/admin/test-clock`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ advanceHours: 24 }),
      });
      expect(move.status).toBe(404);
      // and the API's documentation does not name them
      const doc = await (await fetch(`${base}/api/openapi.json`)).text();
      expect(doc).not.toContain('/api/admin/test-clock');
      expect(stripe.unexpected).toEqual([]);
    } finally {
      child.kill('SIGTERM');
      await exited;
      await stripe.close();
    }
  }, 180_000);
});
