import type { z } from 'zod';
import type { publicUserSchema } from './schemas/responses/account';

/** The user as the API returns it: never the password hash (its schema: schemas/responses/account.ts). */
export type PublicUser = z.infer<typeof publicUserSchema>;

/** First letters of the first two words of the name, uppercased; "U" without a name. */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'U';
  return words
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
}

/** Where a signed-in user belongs, per the route guard of spec §2. */
export function homeFor(user: Pick<PublicUser, 'role' | 'name' | 'approved'>): string {
  if (user.role === 'admin') return '/admin';
  if (!user.name) return '/complete-profile';
  if (!user.approved) return '/pending-approval';
  return '/brand';
}
