/**
 * The fair terms' deadlines (issue 47) run by the job queue survive a kill -9: a real process runs
 * the sweep with the clock moved past the deadline and is killed with SIGKILL while the card
 * provider (the Stripe stand-in on loopback) has made the refund but not yet answered; the next
 * run (the guarantee job finishes claimed refunds) records it once, with the same refund and one
 * credit note. PostgreSQL only: an embedded PGlite database belongs to one process.
 *
 * The last case runs the deadlines through the job queue itself (pg-boss, as the server starts it,
 * in two processes sharing the database): the instance running the job is killed mid-refund, the
 * queue gives the job to another once it expires, and two instances sweeping at once grant each
 * deadline once. Scheduled reports (issue 48) are sent the same way: once per period whatever the
 * number of instances, and not again when nothing changed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PgBoss } from 'pg-boss';
import { and, eq, getTableColumns, sql } from 'drizzle-orm';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/server/db/client';
import {
  cancellations,
  disputes,
  mailOutbox,
  paymentRefunds,
  payments,
  placementEvents,
  placements,
  reports,
  taxDocuments,
} from '../../src/server/db/schema';
import { runDisputeDeadlines } from '../../src/server/modules/disputes/service';
import { grantUnansweredCancellations } from '../../src/server/modules/payments/cancel';
import { completePendingPartialRefunds, refundOverduePayments } from '../../src/server/modules/payments/refunds';
import { issueInvoice, TEST_INVOICING } from '../../src/server/modules/invoices/service';
import { stripeProvider } from '../../src/server/providers/stripe';
import { JOBS } from '../../src/server/jobs/boss';
import { DAY_MS } from '../../src/shared/constants';
import { createTestDb, dbKind } from '../support/db';
import { createUser, kinds } from '../support/factories';
import { createOpportunity, makePayment } from '../support/payments';
import { startStripeStandIn } from '../support/stripe-stand-in';
import { paymentWithRefunded } from '../support/placements';
import { cancellationAmountSql, refundedSql } from '../../src/server/modules/ledger/ledger';

/** A cancellation's row with what it gave back as the answers read it: from its movement (decision 050). */
const withAmount = { ...getTableColumns(cancellations), amount: cancellationAmountSql };

let h: DbHandle;
let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
let dbUrl = '';

describe.skipIf(dbKind !== 'postgres')('deadlines through a kill -9', () => {
  beforeAll(async () => {
    h = await createTestDb();
    const name = ((await h.db.execute(sql`SELECT current_database() AS d`)) as unknown as { rows: { d: string }[] })
      .rows[0].d;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    dbUrl = url.toString();
    stripe = await startStripeStandIn();
  });
  afterAll(async () => {
    await stripe?.close();
    await h?.close();
  });

  /** Runs the sweep in a child process with the clock at `now`; kills it with SIGKILL once the provider has the refund. */
  async function killedMidRefund(job: string, now: Date) {
    stripe.holdRefunds(true);
    const from = stripe.calls.length;
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/deadline-child.ts'], {
      env: {
        ...process.env,
        DEADLINE_DB_URL: dbUrl,
        STRIPE_PORT: String(stripe.port),
        NOW: now.toISOString(),
        JOB: job,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    const deadline = Date.now() + 30_000;
    while (!stripe.calls.slice(from).some((c) => c.path === '/v1/refunds')) {
      if (Date.now() > deadline) throw new Error(`the sweep never called the provider: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(out).not.toContain('finished');
    stripe.holdRefunds(false);
  }

  it('a cancellation left unanswered: granted in full once, although the sweep was killed after the provider refunded', async () => {
    const brand = await createUser(h.db, kinds.approvedBrand);
    const opp = await createOpportunity(h.db, { priceUsd: '300.00' });
    const p = await makePayment(h.db, brand.id, opp.id, { amount: '300.00', stripePaymentId: 'pi_test_cancel_kill' });
    await h.db.update(placements).set({ writingStartedAt: new Date() }).where(eq(placements.id, p.id));
    await h.db.transaction((tx) => issueInvoice(tx, p.id, TEST_INVOICING, new Date()));
    const asked = new Date();
    const [c] = await h.db
      .insert(cancellations)
      .values({
        placementId: p.id,
        reason: 'No answer',
        respondBy: new Date(asked.getTime() + 3 * DAY_MS),
        requestedBy: brand.id,
        createdAt: asked,
      })
      .returning();
    const later = new Date(asked.getTime() + 3 * DAY_MS + 60_000);
    await killedMidRefund('cancellations', later);
    // the grant and the refund's claim were committed before the provider was called; the record was not
    const [mid] = await h.db.select().from(payments).where(eq(payments.id, p.id));
    expect(mid.status).toBe('paid');
    expect(mid.refundRequestedAt).not.toBeNull();
    // the next runs: the sweep finds nothing more to grant, the guarantee job finishes the claimed refund
    const provider = stripeProvider({
      secretKey: 'sk_test_byline',
      webhookSecret: 'whsec_test',
      host: '127.0.0.1',
      port: stripe.port,
      protocol: 'http',
    });
    expect(await grantUnansweredCancellations(h.db, provider, later)).toEqual([]);
    expect(await refundOverduePayments(h.db, provider, later)).toEqual([p.id]);
    expect(await refundOverduePayments(h.db, provider, later)).toEqual([]);
    const after = await paymentWithRefunded(h.db, p.id);
    expect(after).toMatchObject({ status: 'refunded', refundedAmount: '300.00', refundReason: 'cancelled' });
    // one refund at the provider: the same idempotency key both times, 300.00 given back once
    const refundCalls = stripe.calls.filter((x) => x.path === '/v1/refunds');
    expect(new Set(refundCalls.map((x) => x.idempotencyKey))).toEqual(new Set([p.id]));
    expect(stripe.refundedOf('pi_test_cancel_kill')).toBe(30000);
    expect(stripe.unexpected).toEqual([]);
    const [granted] = await h.db.select(withAmount).from(cancellations).where(eq(cancellations.id, c.id));
    expect(granted).toMatchObject({ status: 'granted', outcome: 'refund_full', amount: '300.00' });
    expect(
      await h.db.$count(taxDocuments, and(eq(taxDocuments.paymentId, p.id), eq(taxDocuments.kind, 'credit_note'))),
    ).toBe(1);
    expect(
      await h.db.$count(
        placementEvents,
        and(eq(placementEvents.placementId, p.id), eq(placementEvents.kind, 'cancel_answered')),
      ),
    ).toBe(1);
    expect(
      await h.db.$count(
        placementEvents,
        and(eq(placementEvents.placementId, p.id), eq(placementEvents.kind, 'refunded')),
      ),
    ).toBe(1);
    expect(
      (await h.db.select({ state: placements.state }).from(placements).where(eq(placements.id, p.id)))[0].state,
    ).toBe('refunded');
  });

  it('a dispute the team left unanswered: the brand gets what it asked for once, although the sweep was killed after the provider refunded', async () => {
    const brand = await createUser(h.db, kinds.approvedBrand);
    const opp = await createOpportunity(h.db, { priceUsd: '400.00' });
    const p = await makePayment(h.db, brand.id, opp.id, {
      amount: '400.00',
      stripePaymentId: 'pi_test_dispute_kill',
      draftReviewStatus: 'pending_brand_review',
      draftDocumentUrl: 'https://docs.example.com/d',
    });
    await h.db.transaction((tx) => issueInvoice(tx, p.id, TEST_INVOICING, new Date()));
    const opened = new Date();
    const [d] = await h.db
      .insert(disputes)
      .values({
        placementId: p.id,
        kind: 'content',
        reason: 'not_as_briefed',
        asked: 'refund_partial',
        askedAmount: '120.00',
        text: 'Half of it',
        respondBy: new Date(opened.getTime() + 3 * DAY_MS),
        requestedBy: brand.id,
        createdAt: opened,
      })
      .returning();
    const later = new Date(opened.getTime() + 3 * DAY_MS + 60_000);
    const calls = stripe.calls.length;
    await killedMidRefund('disputes', later);
    // resolved and its part claimed in one transaction before the provider was called; the part's record was not made
    expect(
      await h.db
        .select({ status: disputes.status, resolution: disputes.resolution })
        .from(disputes)
        .where(eq(disputes.id, d.id)),
    ).toEqual([{ status: 'resolved', resolution: 'refunded_partial' }]);
    const [claimed] = await h.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, p.id));
    expect(claimed.completedAt).toBeNull();
    const provider = stripeProvider({
      secretKey: 'sk_test_byline',
      webhookSecret: 'whsec_test',
      host: '127.0.0.1',
      port: stripe.port,
      protocol: 'http',
    });
    expect(await runDisputeDeadlines(h.db, provider, later)).toEqual([]);
    expect(await completePendingPartialRefunds(h.db, provider, later)).toBe(1);
    expect(await completePendingPartialRefunds(h.db, provider, later)).toBe(0);
    const refundCalls = stripe.calls.slice(calls).filter((x) => x.path === '/v1/refunds');
    expect(new Set(refundCalls.map((x) => x.idempotencyKey))).toEqual(new Set([`refund-${claimed.id}`]));
    expect(stripe.refundedOf('pi_test_dispute_kill')).toBe(12000);
    expect(
      await h.db
        .select({ status: payments.status, refundedAmount: refundedSql(payments.id) })
        .from(payments)
        .where(eq(payments.id, p.id)),
    ).toEqual([{ status: 'paid', refundedAmount: '120.00' }]);
    expect(await h.db.$count(taxDocuments, eq(taxDocuments.refundId, claimed.id))).toBe(1);
    expect(stripe.unexpected).toEqual([]);
  });

  /** An instance of the job queue (tests/support/jobs-child.ts), once its workers are asking for jobs. */
  async function instance(filesDir: string): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/jobs-child.ts'], {
      env: { ...process.env, JOBS_DB_URL: dbUrl, STRIPE_PORT: String(stripe.port), FILES_DIR: filesDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (c) => {
        out += c;
        if (out.includes('ready')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`the instance exited (${code}) before it was ready: ${out}`)));
    });
    return child;
  }

  const killed = (child: ChildProcess) =>
    new Promise<NodeJS.Signals | null>((resolve) => {
      child.on('exit', (_code, signal) => resolve(signal));
      child.kill('SIGKILL');
    });

  async function until<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 120_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = await fn();
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  it('through the job queue on two instances: the one killed mid-refund is taken over, each deadline granted once', async () => {
    const brand = await createUser(h.db, kinds.approvedBrand);
    // a cancellation and a dispute whose deadlines passed a minute ago (asked three days and a minute back)
    const asked = new Date(Date.now() - 3 * DAY_MS - 60_000);
    const oppA = await createOpportunity(h.db, { priceUsd: '250.00' });
    const a = await makePayment(h.db, brand.id, oppA.id, { amount: '250.00', stripePaymentId: 'pi_test_queue_cancel' });
    await h.db.update(placements).set({ writingStartedAt: asked }).where(eq(placements.id, a.id));
    await h.db.transaction((tx) => issueInvoice(tx, a.id, TEST_INVOICING, asked));
    const [c] = await h.db
      .insert(cancellations)
      .values({
        placementId: a.id,
        reason: 'No answer',
        respondBy: new Date(asked.getTime() + 3 * DAY_MS),
        requestedBy: brand.id,
        createdAt: asked,
      })
      .returning();
    const oppB = await createOpportunity(h.db, { priceUsd: '500.00' });
    const b = await makePayment(h.db, brand.id, oppB.id, {
      amount: '500.00',
      stripePaymentId: 'pi_test_queue_dispute',
      draftReviewStatus: 'pending_brand_review',
      draftDocumentUrl: 'https://docs.example.com/d',
    });
    await h.db.transaction((tx) => issueInvoice(tx, b.id, TEST_INVOICING, asked));
    const [d] = await h.db
      .insert(disputes)
      .values({
        placementId: b.id,
        kind: 'content',
        reason: 'not_as_briefed',
        asked: 'refund_partial',
        askedAmount: '150.00',
        text: 'Half of it',
        respondBy: new Date(asked.getTime() + 3 * DAY_MS),
        requestedBy: brand.id,
        createdAt: asked,
      })
      .returning();

    const filesDir = mkdtempSync(path.join(tmpdir(), 'byline-jobs-'));
    const boss = new PgBoss({ connectionString: dbUrl, supervise: false, schedule: false });
    await boss.start();
    const others: ChildProcess[] = [];
    try {
      // ---- one instance takes the deadlines job (as its schedule starts it) and is killed mid-refund ----
      const first = await instance(filesDir);
      stripe.holdRefunds(true);
      const calls = stripe.calls.length;
      const job = await boss.send(JOBS.guaranteeRefunds, {}, { expireInSeconds: 2, retryLimit: 3, retryDelay: 0 });
      await until('the provider to be asked for a refund', async () =>
        stripe.calls.slice(calls).some((x) => x.path === '/v1/refunds'),
      );
      expect(await killed(first)).toBe('SIGKILL');
      stripe.holdRefunds(false);
      expect((await boss.getJobById(JOBS.guaranteeRefunds, job!))?.state).toBe('active');

      // ---- two instances: the queue hands the killed job over once it expires, and both sweep at once ----
      others.push(await instance(filesDir), await instance(filesDir));
      await Promise.all([boss.send(JOBS.guaranteeRefunds, {}), boss.send(JOBS.guaranteeRefunds, {})]);
      await until('the killed job to be run again and completed', async () => {
        const j = await boss.getJobById(JOBS.guaranteeRefunds, job!);
        return j?.state === 'completed' && j.retryCount >= 1;
      });
      await until('both deadlines to be granted', async () => {
        const [pa] = await h.db.select().from(payments).where(eq(payments.id, a.id));
        const pb = await paymentWithRefunded(h.db, b.id);
        return pa.status === 'refunded' && pb.refundedAmount === '150.00';
      });
    } finally {
      await Promise.all(others.map(killed));
      await boss.stop({ graceful: false });
      rmSync(filesDir, { recursive: true, force: true });
    }

    // the cancellation: granted once, one refund at the provider (the killed call's key again), one credit note
    expect((await h.db.select(withAmount).from(cancellations).where(eq(cancellations.id, c.id)))[0]).toMatchObject({
      status: 'granted',
      outcome: 'refund_full',
      amount: '250.00',
    });
    expect(stripe.refundedOf('pi_test_queue_cancel')).toBe(25000);
    expect(
      await h.db.$count(taxDocuments, and(eq(taxDocuments.paymentId, a.id), eq(taxDocuments.kind, 'credit_note'))),
    ).toBe(1);
    expect(
      await h.db.$count(
        placementEvents,
        and(eq(placementEvents.placementId, a.id), eq(placementEvents.kind, 'refunded')),
      ),
    ).toBe(1);
    // the dispute: what the brand asked for, once
    expect(
      (
        await h.db
          .select({ status: disputes.status, resolution: disputes.resolution })
          .from(disputes)
          .where(eq(disputes.id, d.id))
      )[0],
    ).toEqual({ status: 'resolved', resolution: 'refunded_partial' });
    expect(stripe.refundedOf('pi_test_queue_dispute')).toBe(15000);
    expect(await h.db.$count(paymentRefunds, eq(paymentRefunds.paymentId, b.id))).toBe(1);
    expect(
      await h.db.$count(taxDocuments, and(eq(taxDocuments.paymentId, b.id), eq(taxDocuments.kind, 'credit_note'))),
    ).toBe(1);
    expect(
      await h.db.$count(
        placementEvents,
        and(eq(placementEvents.placementId, b.id), eq(placementEvents.kind, 'dispute_resolved')),
      ),
    ).toBe(1);
    expect(stripe.unexpected).toEqual([]);
  }, 180_000);

  it('scheduled reports through the job queue on two instances: each period sent once, and not when nothing changed', async () => {
    const owner = await createUser(h.db, kinds.approvedBrand);
    const opp = await createOpportunity(h.db, { priceUsd: '200.00' });
    await makePayment(h.db, owner.id, opp.id, { amount: '200.00' });
    const [report] = await h.db
      .insert(reports)
      .values({
        organisationId: owner.organisationId!,
        name: 'Weekly for the board',
        columns: ['outlet', 'title', 'status'],
        cadence: 'weekly',
        recipients: ['board@client.example', 'cfo@client.example', 'ops@client.example'],
        unsubscribeKey: 'test-key',
        createdBy: owner.id,
      })
      .returning();
    const mailsOf = async () =>
      (
        await h.db
          .select({ to: mailOutbox.toAddress, data: mailOutbox.data })
          .from(mailOutbox)
          .where(eq(mailOutbox.kind, 'scheduled_report'))
      ).filter((m) => (m.data as { reportId: string }).reportId === report.id);
    const filesDir = mkdtempSync(path.join(tmpdir(), 'byline-jobs-'));
    const boss = new PgBoss({ connectionString: dbUrl, supervise: false, schedule: false });
    await boss.start();
    const instances: ChildProcess[] = [];
    try {
      instances.push(await instance(filesDir), await instance(filesDir));
      /** The job sent `n` times at once (as two instances' schedules would), done when every one completed. */
      const runs = async (n: number) => {
        const ids = await Promise.all(Array.from({ length: n }, () => boss.send(JOBS.scheduledReports, {})));
        await until('the scheduled-report jobs to complete', async () => {
          const jobs = await Promise.all(ids.map((id) => boss.getJobById(JOBS.scheduledReports, id!)));
          return jobs.every((j) => j?.state === 'completed');
        });
      };
      await runs(4);
      expect((await mailsOf()).map((m) => m.to).sort()).toEqual([
        'board@client.example',
        'cfo@client.example',
        'ops@client.example',
      ]);
      // the same period again, from both instances: nothing more
      await runs(4);
      expect(await mailsOf()).toHaveLength(3);
      // a new period with nothing changed: claimed, not sent
      await h.db.update(reports).set({ lastPeriod: '2000-W01' }).where(eq(reports.id, report.id));
      await runs(4);
      expect(await mailsOf()).toHaveLength(3);
      expect((await h.db.select().from(reports).where(eq(reports.id, report.id)))[0].lastPeriod).not.toBe('2000-W01');
    } finally {
      await Promise.all(instances.map(killed));
      await boss.stop({ graceful: false });
      rmSync(filesDir, { recursive: true, force: true });
    }
  }, 120_000);
});
