/**
 * Gaps the mutation probe of issue 15 found in the money code (scripts/mutation.ts, `npm run
 * test:mutation`): each test here fails when its mutant is applied and passes without it.
 * - closeCheckouts without `test_provider_ref IS NULL`: the sweep would give back the slot of a hold the
 *   built-in checkout has already charged, and the payment would then be refunded as sold out.
 * - slotIsFree without `filled_slots < max_slots`: an opportunity left `available` with every slot
 *   filled would be oversold (the only other test of it also sees status `full`).
 * And the mutants of the same run that no test noticed before (each test names its mutant):
 * a hold at its exact expiry instant, a provider failure that kept the slot, a late payment held to
 * the purchase deadline, a rate-limit window that never ends, an upload sweep that forgot a kind
 * of reference, an approved brand without a profile buying, and successful sign-ins counted as
 * failures.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, createTestApp } from '../support/app';
import { PASSWORD, createUser } from '../support/factories';
import { checkouts, opportunities, payments, uploads } from '../../src/server/db/schema';
import { claimLimits, RateLimitError, type Limit } from '../../src/server/lib/rate-limit';
import { startCheckout } from '../../src/server/modules/payments/checkout';
import { fulfilCheckout } from '../../src/server/modules/payments/fulfil';
import { expireCheckouts, reserveSlot } from '../../src/server/modules/payments/slots';
import { fulfilChargedTestCheckouts } from '../../src/server/modules/payments/checkout';
import { limitsFor } from '../../src/server/limits';
import { testCheckoutProvider } from '../../src/server/providers/test-checkout';
import type { PaymentProvider, RefundRequest } from '../../src/server/providers/provider';
import type { FileStore } from '../../src/server/storage/file-store';
import { generatedName, sweepUnreferencedUploads } from '../../src/server/storage/uploads';
import {
  createOpportunity,
  createPaymentsTestApp,
  checkoutsOf,
  makePayment,
  opportunityRow,
  paymentsOf,
  quickBrands,
  sessionIdOf,
  spyingLocalProvider,
  type PaymentsTestApp,
} from '../support/payments';

let t: PaymentsTestApp;
const refunds: RefundRequest[] = [];
beforeAll(async () => {
  t = await createPaymentsTestApp({ provider: spyingLocalProvider(refunds) });
});
afterAll(() => t.close());

describe('a hold already charged by the built-in checkout (fulfilment not yet run)', () => {
  it('keeps its slot when it expires, and fulfilment books a normal paid payment holding it: never a sold-out refund', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 1, priceUsd: '300.00' });
    const [a, b] = await quickBrands(t.app, t.db, 2);
    const claim = await a.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(claim.status).toBe(200);
    const sessionId = sessionIdOf(claim.body.url);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'full' });

    // the brand pressed Pay (the charge is recorded on the hold), then the server stopped before
    // fulfilment; by the time it is back the hold's time is up
    const now = new Date();
    await t.db
      .update(checkouts)
      .set({ testProviderRef: 'pi_local_charged_before_crash_01', expiresAt: new Date(now.getTime() - 60_000) })
      .where(eq(checkouts.providerSessionId, sessionId));

    await expireCheckouts(t.db, now);
    const [hold] = await checkoutsOf(t.db, opp.id);
    expect(hold).toMatchObject({ status: 'open', closedAt: null, testProviderRef: 'pi_local_charged_before_crash_01' });
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'full' });

    // the slot is still taken: another brand cannot have it
    const other = await b.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(other.status).toBe(409);
    expect(other.body.message).toBe('This opportunity is sold out');
    expect(await checkoutsOf(t.db, opp.id)).toHaveLength(1);

    const before = refunds.length;
    // the every-minute job books it (fulfilChargedTestCheckouts), as a redelivered webhook would
    await t.db.update(checkouts).set({ createdAt: new Date(now.getTime() - 120_000) }).where(eq(checkouts.providerSessionId, sessionId));
    expect(await fulfilChargedTestCheckouts(t.db, t.provider, now)).toBe(1);
    expect(await fulfilChargedTestCheckouts(t.db, t.provider, now)).toBe(0);
    const out = await fulfilCheckout(t.db, t.provider, sessionId, now);
    expect(out.outcome).toBe('paid');
    const rows = await paymentsOf(t.db, opp.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: hold.id,
      brandId: a.user.id,
      status: 'paid',
      holdsSlot: true,
      amount: '300.00',
      stripePaymentId: 'pi_local_charged_before_crash_01',
      refundRequestedAt: null,
      refundReason: null,
      refundedAt: null,
    });
    expect(refunds.length).toBe(before);
    expect((await checkoutsOf(t.db, opp.id))[0].status).toBe('completed');
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'full' });

    // a later sweep changes nothing either
    await expireCheckouts(t.db, new Date(now.getTime() + 3_600_000));
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'full' });
  });
});

describe('an opportunity still marked available with every slot filled', () => {
  it('checkout answers 409 "This opportunity is sold out", takes nothing and creates no hold', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 2, filledSlots: 2, status: 'available' });
    const [brand] = await quickBrands(t.app, t.db, 1);
    const res = await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This opportunity is sold out');
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 2, maxSlots: 2, status: 'available' });
    expect(await checkoutsOf(t.db, opp.id)).toHaveLength(0);
  });

  it('reserveSlot (the late-payment path) takes nothing, with or without the deadline', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 1, filledSlots: 1, status: 'available' });
    const now = new Date();
    expect(await reserveSlot(t.db, opp.id, now)).toBeUndefined();
    expect(await reserveSlot(t.db, opp.id, now, { ignoreDeadline: true })).toBeUndefined();
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 1, status: 'available' });
  });

  it('a payment completing after its hold expired finds no free slot there and is refunded as sold out', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 2 });
    const [brand] = await quickBrands(t.app, t.db, 1);
    const claim = await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(claim.status).toBe(200);
    const sessionId = sessionIdOf(claim.body.url);
    const now = new Date();
    await t.db
      .update(checkouts)
      .set({ expiresAt: new Date(now.getTime() - 1000) })
      .where(eq(checkouts.providerSessionId, sessionId));
    await expireCheckouts(t.db, now);
    expect((await checkoutsOf(t.db, opp.id))[0].status).toBe('expired');
    // every slot filled while the opportunity stayed `available`; then the charge is reported
    await t.db.update(opportunities).set({ filledSlots: 2, status: 'available' }).where(eq(opportunities.id, opp.id));
    await t.db
      .update(checkouts)
      .set({ testProviderRef: 'pi_local_late_no_free_slot_01' })
      .where(eq(checkouts.providerSessionId, sessionId));

    const before = refunds.length;
    const out = await fulfilCheckout(t.db, t.provider, sessionId, now);
    expect(out.outcome).toBe('refunded');
    const [p] = await paymentsOf(t.db, opp.id);
    expect(p).toMatchObject({ status: 'refunded', holdsSlot: false, refundReason: 'sold_out' });
    expect(refunds.slice(before)).toEqual([
      { providerRef: 'pi_local_late_no_free_slot_01', amountCents: 125000, idempotencyKey: p.id },
    ]);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 2, status: 'available' });
    expect(await t.db.$count(payments, eq(payments.opportunityId, opp.id))).toBe(1);
  });
});

describe('holds, checkouts and late payments at their edges', () => {
  it('a hold is expired at its exact expiry instant, as checkout and Pay already see it (mutant: <= becomes <)', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 1 });
    const [brand] = await quickBrands(t.app, t.db, 1);
    const claim = await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(claim.status).toBe(200);
    const [hold] = await checkoutsOf(t.db, opp.id);
    // (the sweep is global: other tests' holds may close too, so this hold is looked at, not the count)
    await expireCheckouts(t.db, new Date(hold.expiresAt.getTime() - 1));
    expect((await checkoutsOf(t.db, opp.id))[0].status).toBe('open');
    await expireCheckouts(t.db, hold.expiresAt);
    expect((await checkoutsOf(t.db, opp.id))[0].status).toBe('expired');
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 0, status: 'available' });
  });

  it('when the provider fails to open the checkout, the answer is 502 and the slot is given straight back (mutant: the slot kept)', async () => {
    const opp = await createOpportunity(t.db, { maxSlots: 1 });
    const [brand] = await quickBrands(t.app, t.db, 1);
    const inner = testCheckoutProvider(t.db);
    const failing: PaymentProvider = {
      ...inner,
      precomputedCheckout: undefined,
      async createCheckout() {
        throw new Error('the provider is down');
      },
    };
    const args = {
      brand: { id: brand.user.id, email: brand.user.email, organisationId: brand.user.organisationId! },
      opportunityId: opp.id,
      publicUrl: 'http://localhost',
      limit: limitsFor(t.config).checkouts,
    };
    await expect(startCheckout(t.db, failing, args)).rejects.toMatchObject({
      status: 502,
      code: 'checkout_session_failed',
      message: 'Failed to create checkout session',
    });
    expect((await checkoutsOf(t.db, opp.id)).map((h) => h.status)).toEqual(['cancelled']);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 0, status: 'available' });
    // the brand can try again at once
    expect((await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id })).status).toBe(200);
  });

  it('a payment started on the deadline day and completed after it still takes a free slot (mutant: late payment held to the deadline)', async () => {
    const today = new Date();
    today.setUTCHours(0, 0, 0, 0);
    const opp = await createOpportunity(t.db, { maxSlots: 2, deadlineDate: today });
    const [brand] = await quickBrands(t.app, t.db, 1);
    const claim = await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(claim.status).toBe(200);
    const sessionId = sessionIdOf(claim.body.url);
    // the hold ran out and was swept; the charge is reported after midnight UTC
    const tomorrow = new Date(today.getTime() + 86_400_000 + 3_600_000);
    await expireCheckouts(t.db, tomorrow);
    expect(await opportunityRow(t.db, opp.id)).toMatchObject({ filledSlots: 0, status: 'available' });
    await t.db
      .update(checkouts)
      .set({ testProviderRef: 'pi_local_after_the_deadline_1' })
      .where(eq(checkouts.providerSessionId, sessionId));

    const before = refunds.length;
    const out = await fulfilCheckout(t.db, t.provider, sessionId, tomorrow);
    expect(out.outcome).toBe('paid');
    expect((await paymentsOf(t.db, opp.id))[0]).toMatchObject({ status: 'paid', holdsSlot: true, refundReason: null });
    expect(refunds.length).toBe(before);
    expect((await opportunityRow(t.db, opp.id)).filledSlots).toBe(1);
  });
});

describe('rate limits', () => {
  it('an event stops counting once it leaves the window (mutant: the window ignored)', async () => {
    const limit: Limit = {
      bucket: 'mutation-window',
      max: 2,
      windowMs: 60_000,
      message: (when) => `Too many, try again ${when}`,
    };
    const subject = `window-${Date.now()}`;
    const t0 = new Date('2031-06-01T12:00:00Z');
    const at = (ms: number) => new Date(t0.getTime() + ms);
    await claimLimits(t.db, [{ limit, subject }], at(0));
    await claimLimits(t.db, [{ limit, subject }], at(1_000));
    const refused = await claimLimits(t.db, [{ limit, subject }], at(2_000)).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RateLimitError);
    expect((refused as RateLimitError).retryAfterSeconds).toBe(58);
    // the first event left the window: one more fits, and then none again
    expect(await claimLimits(t.db, [{ limit, subject }], at(60_500))).toHaveLength(1);
    await expect(claimLimits(t.db, [{ limit, subject }], at(60_600))).rejects.toBeInstanceOf(RateLimitError);
  });
});

describe('the unreferenced-upload sweep', () => {
  it('keeps a logo, an example image and an attached draft document; deletes only what nothing refers to (mutant: a reference forgotten)', async () => {
    const [brand] = await quickBrands(t.app, t.db, 1);
    const names = {
      logo: generatedName('png'),
      example: generatedName('jpg'),
      draft: generatedName('pdf'),
      orphan: generatedName('png'),
    };
    const dayAndAHourAgo = new Date(Date.now() - 25 * 3_600_000);
    await t.db.insert(uploads).values([
      { name: names.logo, ownerId: brand.user.id, kind: 'image', bytes: 10, createdAt: dayAndAHourAgo },
      { name: names.example, ownerId: brand.user.id, kind: 'image', bytes: 10, createdAt: dayAndAHourAgo },
      { name: names.draft, ownerId: brand.user.id, kind: 'document', bytes: 10, createdAt: dayAndAHourAgo },
      { name: names.orphan, ownerId: brand.user.id, kind: 'image', bytes: 10, createdAt: dayAndAHourAgo },
    ]);
    const opp = await createOpportunity(t.db, {
      maxSlots: 2,
      logoUrl: `/uploads/${names.logo}`,
      exampleUrls: ['/uploads/other.png', `/uploads/${names.example}`],
    });
    await makePayment(t.db, brand.user.id, opp.id, { draftDocumentFile: `/api/files/${names.draft}` });

    const deletedFiles: string[] = [];
    const files: FileStore = {
      put: async () => undefined,
      get: async () => null,
      stat: async () => null,
      delete: async (name) => {
        deletedFiles.push(name);
      },
    };
    const deleted = await sweepUnreferencedUploads(t.db, files);
    expect(deleted).toEqual([names.orphan]);
    expect(deletedFiles).toEqual([names.orphan]);
    const left = (await t.db.select({ name: uploads.name }).from(uploads)).map((u) => u.name).sort();
    expect(left).toEqual([names.logo, names.example, names.draft].sort());
  });
});

describe('guards', () => {
  it('an approved brand without a completed profile cannot buy: 403 "Please complete your profile first" (mutant: the profile check removed)', async () => {
    // reachable: the approve endpoint takes any pending brand's id, whether or not its profile is done
    const opp = await createOpportunity(t.db, { maxSlots: 1 });
    const [brand] = await quickBrands(t.app, t.db, 1, { name: null, brandName: null, website: null, approved: true });
    const res = await brand.agent.post('/api/payments/checkout', { opportunityId: opp.id });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Please complete your profile first');
    expect(await checkoutsOf(t.db, opp.id)).toHaveLength(0);
  });
});

describe('sign-in limits', () => {
  it('successful sign-ins are not failures: they never use up the per-address limit (mutant: the claim kept on success)', async () => {
    // an office behind one address: 3 failures per address allowed here, so a 4th sign-in would show it
    const small = await createTestApp({ LIMIT_SIGNIN_FAILURES_PER_ADDRESS: { max: 3, windowMs: 15 * 60_000 } });
    try {
      const users = await Promise.all(Array.from({ length: 5 }, () => createUser(small.db)));
      for (const user of users) {
        const res = await new Agent(small.app).post('/api/login', { email: user.email, password: PASSWORD });
        expect(res.status, `sign-in of ${user.email}`).toBe(200);
      }
      // the limit itself is in force: 3 failures from the address, then 429 even with the right password
      for (const user of users.slice(0, 3))
        expect(
          (await new Agent(small.app).post('/api/login', { email: user.email, password: 'wrong-password' })).status,
        ).toBe(401);
      expect(
        (await new Agent(small.app).post('/api/login', { email: users[4].email, password: PASSWORD })).status,
      ).toBe(429);
    } finally {
      await small.close();
    }
  });
});
