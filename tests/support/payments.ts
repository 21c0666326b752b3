import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { testChecker } from './outlets';
import { configSchema, type Config } from '../../src/server/config';
import type { Db, DbHandle } from '../../src/server/db/client';
import { checkouts, opportunities, organisations, payments, users } from '../../src/server/db/schema';
import { SESSION_COOKIE, createSession } from '../../src/server/modules/auth/session';
import { testCheckoutProvider } from '../../src/server/providers/test-checkout';
import type { PaymentProvider, RefundRequest } from '../../src/server/providers/provider';
import { diskFileStore } from '../../src/server/storage/file-store';
import { Agent } from './app';
import { createTestDb } from './db';
import { insertPlacedPayment, type PlacedPaymentValues } from './placements';

export interface PaymentsTestApp {
  app: FastifyInstance;
  db: Db;
  handle: DbHandle;
  config: Config;
  provider: PaymentProvider;
  uploadsDir: string;
  close(): Promise<void>;
}

/** Like createTestApp, with the payment provider chosen by the test (default: the built-in one). */
export async function createPaymentsTestApp(
  opts: { provider?: (db: Db) => PaymentProvider; config?: Partial<Config> } = {},
): Promise<PaymentsTestApp> {
  const handle = await createTestDb();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'byline-pay-'));
  // bursts of up to 200 requests at once race the money: past the overload guard (tests/support/app.ts)
  const config = { ...configSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDir, MAX_REQUESTS_IN_FLIGHT: 10_000 }), ...opts.config };
  const provider = (opts.provider ?? testCheckoutProvider)(handle.db);
  const uploadsDir = path.join(dataDir, 'uploads');
  const app = await buildApp({ db: handle.db, config, files: diskFileStore(uploadsDir), payments: provider, checker: testChecker(config) });
  await app.ready();
  return {
    app,
    db: handle.db,
    handle,
    config,
    provider,
    uploadsDir,
    async close() {
      await app.close();
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The built-in provider with every refund call recorded. */
export function spyingLocalProvider(refunds: RefundRequest[]) {
  return (db: Db): PaymentProvider => {
    const inner = testCheckoutProvider(db);
    return {
      ...inner,
      async refund(req) {
        refunds.push(req);
        return inner.refund(req);
      },
    };
  };
}

type OpportunityOverrides = Partial<typeof opportunities.$inferInsert>;

export async function createOpportunity(db: Db, overrides: OpportunityOverrides = {}) {
  const [row] = await db
    .insert(opportunities)
    .values({
      title: 'How Acme rebuilt payments',
      outletName: 'The Daily Ledger',
      description: 'A profile of the company',
      type: ['profile_article'],
      priceUsd: '1250.00',
      maxSlots: 1,
      ...overrides,
    })
    .returning();
  return row;
}

export async function opportunityRow(db: Db, id: string) {
  const [row] = await db.select().from(opportunities).where(eq(opportunities.id, id));
  return row;
}

export const checkoutsOf = (db: Db, opportunityId: string) =>
  db.select().from(checkouts).where(eq(checkouts.opportunityId, opportunityId));
export const paymentsOf = (db: Db, opportunityId: string) =>
  db.select().from(payments).where(eq(payments.opportunityId, opportunityId));

/** The session id at the end of a local checkout URL ("/checkout/cs_local_..."). */
export const sessionIdOf = (url: string) => url.split('/').pop()!;

/**
 * Many signed-in brands quickly: a session row made directly (no password hashing), as the
 * login fixture of a browser suite would. Login itself is covered by the auth tests.
 */
export async function quickBrands(app: FastifyInstance, db: Db, n: number, overrides: Partial<typeof users.$inferInsert> = {}) {
  const rows = await db
    .insert(users)
    .values(
      Array.from({ length: n }, (_, i) => ({
        email: `brand-${randomBytes(6).toString('hex')}-${i}@example.com`,
        password: 'not-a-hash: this user never signs in with a password',
        role: 'brand' as const,
        name: `Brand Person ${i}`,
        brandName: `Brand ${i}`,
        website: 'https://brand.example.com',
        approved: true,
        ...overrides,
      })),
    )
    .returning();
  // each owns a one-person organisation, as profile completion makes it
  for (const user of rows) {
    if (user.role !== 'brand' || user.name === null || user.organisationId) continue;
    const [org] = await db.insert(organisations).values({ name: user.brandName ?? user.name, approved: user.approved }).returning();
    const [updated] = await db.update(users).set({ organisationId: org.id, orgRole: 'owner' }).where(eq(users.id, user.id)).returning();
    Object.assign(user, updated);
  }
  return Promise.all(
    rows.map(async (user) => {
      const { token } = await createSession(db, user.id, 1);
      const agent = new Agent(app);
      agent.cookie = `${SESSION_COOKIE}=${token}`;
      return { user, agent };
    }),
  );
}

/** A payment as fulfilment leaves it: the opportunity's slot is taken. */
export async function makePayment(db: Db, brandId: string, opportunityId: string, overrides: Partial<PlacedPaymentValues> = {}, opts: { ledger?: boolean } = {}) {
  const ref = randomBytes(12).toString('hex');
  await db
    .update(opportunities)
    .set({
      filledSlots: sql`${opportunities.filledSlots} + 1`,
      status: sql`CASE WHEN ${opportunities.filledSlots} + 1 >= ${opportunities.maxSlots} THEN 'full' ELSE ${opportunities.status} END`,
    })
    .where(eq(opportunities.id, opportunityId));
  return insertPlacedPayment(db, {
    brandId,
    opportunityId,
    stripePaymentId: `pi_local_${ref}`,
    providerSessionId: `cs_local_${ref}`,
    amount: '1250.00',
    ...overrides,
  }, opts);
}

