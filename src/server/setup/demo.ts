import { and, eq, inArray } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { checkouts, inviteCodes, payments, taxDocuments, users } from '../db/schema';
import { DEMO_LOGINS } from './seed';
import { verifyPassword } from '../lib/password';
import { releaseSlot } from '../modules/payments/slots';

const DEMO_ACCOUNTS = [DEMO_LOGINS.admin, DEMO_LOGINS.brand];

/**
 * Why a production start must stop before it touches the database, if it must: ADMIN_EMAIL naming a
 * demo account would reset that account's password (and make the demo brand an admin), an account
 * whose address the README publishes.
 */
export function demoAdminEmailRefusal(config: Pick<Config, 'NODE_ENV' | 'ADMIN_EMAIL'>): string | null {
  const email = config.ADMIN_EMAIL?.trim().toLowerCase();
  if (config.NODE_ENV !== 'production' || !DEMO_ACCOUNTS.some((a) => a.email === email)) return null;
  return (
    `Refusing to start: ADMIN_EMAIL is ${email}, a demo account whose address and password are published in the README.\n` +
    '  Set ADMIN_EMAIL to an address of your own (and remove the demo accounts with: npm run db:remove-demo).'
  );
}

/**
 * What the demo seed left that anyone who read the README could use: demo accounts that still have
 * their published password, and the demo invite code while it is active.
 */
export async function publishedDemoAccess(db: Db): Promise<string[]> {
  const found: string[] = [];
  const rows = await db
    .select({ email: users.email, password: users.password })
    .from(users)
    .where(inArray(users.email, DEMO_ACCOUNTS.map((a) => a.email)));
  for (const row of rows) {
    const published = DEMO_ACCOUNTS.find((a) => a.email === row.email)!.password;
    if (await verifyPassword(row.password, published)) found.push(`${row.email} (password ${published})`);
  }
  const [code] = await db
    .select({ id: inviteCodes.id })
    .from(inviteCodes)
    .where(and(eq(inviteCodes.code, DEMO_LOGINS.inviteCode), eq(inviteCodes.active, true)));
  if (code) found.push(`invite code ${DEMO_LOGINS.inviteCode}`);
  return found;
}

/**
 * Removes the demo accounts (with anything they bought, giving its slots back) and the demo invite
 * code. The demo outlets stay: they are catalogue entries an admin can edit.
 */
export async function removeDemo(db: Db): Promise<{ accounts: number; codes: number }> {
  return db.transaction(async (tx) => {
    const demo = await tx
      .select({ id: users.id })
      .from(users)
      .where(inArray(users.email, DEMO_ACCOUNTS.map((a) => a.email)));
    const ids = demo.map((u) => u.id);
    if (ids.length) {
      const held = await tx
        .select({ opportunityId: payments.opportunityId })
        .from(payments)
        .where(and(inArray(payments.brandId, ids), eq(payments.holdsSlot, true)));
      for (const p of held) await releaseSlot(tx, p.opportunityId);
      // open checkouts hold slots too; closing them is the hold sweep's job, but these rows go now
      const open = await tx
        .select({ opportunityId: checkouts.opportunityId })
        .from(checkouts)
        .where(and(inArray(checkouts.brandId, ids), eq(checkouts.status, 'open')));
      for (const h of open) await releaseSlot(tx, h.opportunityId);
      // the demo's purchases were test-mode documents: they go with the payments
      await tx.delete(taxDocuments).where(inArray(taxDocuments.paymentId, tx.select({ id: payments.id }).from(payments).where(inArray(payments.brandId, ids))));
      await tx.delete(payments).where(inArray(payments.brandId, ids));
      await tx.delete(users).where(inArray(users.id, ids));
    }
    const codes = await tx.delete(inviteCodes).where(eq(inviteCodes.code, DEMO_LOGINS.inviteCode)).returning({ id: inviteCodes.id });
    return { accounts: ids.length, codes: codes.length };
  });
}

export async function hasAdmin(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
  return Boolean(row);
}
