/**
 * The fair terms' deadlines (issue 47) run by the job queue survive a kill -9: a real process runs
 * the sweep with the clock moved past the deadline and is killed with SIGKILL while the card
 * provider (the Stripe stand-in on loopback) has made the refund but not yet answered; the next
 * run (the guarantee job finishes claimed refunds) records it once, with the same refund and one
 * credit note. PostgreSQL only: an embedded PGlite database belongs to one process.
 */
import { spawn } from 'node:child_process';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/server/db/client';
import {
  cancellations,
  disputes,
  paymentRefunds,
  payments,
  placementEvents,
  placements,
  taxDocuments,
} from '../../src/server/db/schema';
import { runDisputeDeadlines } from '../../src/server/modules/disputes/service';
import { grantUnansweredCancellations } from '../../src/server/modules/payments/cancel';
import { completePendingPartialRefunds, refundOverduePayments } from '../../src/server/modules/payments/refunds';
import { issueInvoice, TEST_INVOICING } from '../../src/server/modules/invoices/service';
import { stripeProvider } from '../../src/server/providers/stripe';
import { DAY_MS } from '../../src/shared/constants';
import { createTestDb, dbKind } from '../support/db';
import { createUser, kinds } from '../support/factories';
import { createOpportunity, makePayment } from '../support/payments';
import { startStripeStandIn } from '../support/stripe-stand-in';

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
    const [after] = await h.db.select().from(payments).where(eq(payments.id, p.id));
    expect(after).toMatchObject({ status: 'refunded', refundedAmount: '300.00', refundReason: 'cancelled' });
    // one refund at the provider: the same idempotency key both times, 300.00 given back once
    const refundCalls = stripe.calls.filter((x) => x.path === '/v1/refunds');
    expect(new Set(refundCalls.map((x) => x.idempotencyKey))).toEqual(new Set([p.id]));
    expect(stripe.refundedOf('pi_test_cancel_kill')).toBe(30000);
    expect(stripe.unexpected).toEqual([]);
    const [granted] = await h.db.select().from(cancellations).where(eq(cancellations.id, c.id));
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
        .select({ status: payments.status, refundedAmount: payments.refundedAmount })
        .from(payments)
        .where(eq(payments.id, p.id)),
    ).toEqual([{ status: 'paid', refundedAmount: '120.00' }]);
    expect(await h.db.$count(taxDocuments, eq(taxDocuments.refundId, claimed.id))).toBe(1);
    expect(stripe.unexpected).toEqual([]);
  });
});
