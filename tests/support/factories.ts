import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/server/db/client';
import { eq } from 'drizzle-orm';
import { organisations, users } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/lib/password';
import { Agent } from './app';

export const PASSWORD = 'correct-horse-battery';

export const uniqueEmail = (prefix = 'user') => `${prefix}-${randomBytes(5).toString('hex')}@example.com`;

type UserOverrides = Partial<typeof users.$inferInsert>;

// argon2 is slow on purpose: hash the shared test password once per worker
let passwordHash: Promise<string> | undefined;
const testPasswordHash = () => (passwordHash ??= hashPassword(PASSWORD));

/**
 * A user. A brand with a name (its profile completed) owns a one-person organisation, as profile
 * completion makes it (decision 033), unless `organisationId` is given.
 */
export async function createUser(db: Db, overrides: UserOverrides = {}) {
  const values = {
    email: uniqueEmail(overrides.role ?? 'brand'),
    password: await testPasswordHash(),
    role: 'brand' as const,
    name: 'Test Person' as string | null,
    brandName: 'Test Brand' as string | null,
    website: 'https://brand.example.com' as string | null,
    approved: true,
    ...overrides,
  };
  if (values.role === 'brand' && values.name !== null && overrides.organisationId === undefined) {
    const [org] = await db
      .insert(organisations)
      // a fixed user id fixes its organisation's too (as migration 0025 gave each brand's)
      .values({ id: overrides.id, name: values.brandName ?? values.name, approved: values.approved })
      .returning({ id: organisations.id });
    Object.assign(values, { organisationId: org.id, orgRole: 'owner' });
  }
  const [user] = await db.insert(users).values(values).returning();
  return user;
}

/** The organisation of a brand (what its placements, payments and briefs belong to). */
export async function orgIdOf(db: Db, userId: string): Promise<string> {
  const [row] = await db.select({ id: users.organisationId }).from(users).where(eq(users.id, userId));
  if (!row?.id) throw new Error(`orgIdOf: user ${userId} has no organisation`);
  return row.id;
}

/** Creates the user and returns an agent signed in as them. */
export async function signedIn(app: FastifyInstance, db: Db, overrides: UserOverrides = {}) {
  const user = await createUser(db, overrides);
  const agent = new Agent(app);
  const res = await agent.post('/api/login', { email: user.email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return { user, agent };
}

export const kinds = {
  admin: { role: 'admin' as const, name: 'Ada Admin', brandName: null, website: null },
  unnamedBrand: { role: 'brand' as const, name: null, brandName: null, website: null, approved: false },
  pendingBrand: { role: 'brand' as const, approved: false },
  approvedBrand: { role: 'brand' as const, approved: true },
};

/** One signed-in agent per kind of user, plus a visitor. */
export async function everyKind(app: FastifyInstance, db: Db) {
  const [admin, unnamedBrand, pendingBrand, approvedBrand] = await Promise.all([
    signedIn(app, db, kinds.admin),
    signedIn(app, db, kinds.unnamedBrand),
    signedIn(app, db, kinds.pendingBrand),
    signedIn(app, db, kinds.approvedBrand),
  ]);
  return { visitor: { agent: new Agent(app), user: null }, admin, unnamedBrand, pendingBrand, approvedBrand };
}
