import type { Role } from './constants';

/** The user as the API returns it: never the password hash. */
export interface PublicUser {
  id: string;
  name: string | null;
  email: string;
  role: Role;
  brandName: string | null;
  website: string | null;
  avatarUrl: string | null;
  approved: boolean;
  /** brands: progress e-mails on (receipts, refunds and password mail always go) */
  emailNotifications: boolean;
  createdAt: string;
}

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
