import { eq } from 'drizzle-orm';
import type { PublicUser } from '../../../shared/user';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;
/** The signed-in user a request carries (`req.user`): the row without its password hash. */
export type SessionUser = Omit<UserRow, 'password'>;

export function toPublicUser(u: SessionUser): PublicUser {
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
