import { eq } from 'drizzle-orm';
import type { PublicUser } from '../../../shared/user';
import type { Versioned } from '../../../shared/schemas/version';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { contentVersion } from '../../lib/version';
import type { SessionUser } from '../../lib/session-user';

export type UserRow = typeof users.$inferSelect;
export type { SessionUser };

/**
 * The version of what the profile form edits (decision 019): name, company name and website. The
 * avatar and the e-mail switch save on their own at once, so they change no version.
 */
export const profileVersion = (u: Pick<UserRow, 'name' | 'brandName' | 'website'>) => contentVersion([u.name, u.brandName, u.website]);

export function toPublicUser(u: SessionUser): Versioned<PublicUser> {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role,
    brandName: u.brandName,
    website: u.website,
    avatarUrl: u.avatarUrl,
    approved: u.approved,
    emailNotifications: u.emailNotifications,
    createdAt: u.createdAt.toISOString(),
    version: profileVersion(u),
  };
}

// users can type their address in any case, but we store and match it in lowercase
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, normaliseEmail(email))).limit(1);
  return row ?? null;
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}
