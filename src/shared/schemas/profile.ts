import { z } from 'zod';
import { nameSchema } from './one-line';

/** http(s) URL; other schemes (javascript:, data:) are refused. */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.includes('.');
  } catch {
    return false;
  }
}

/** "acme.com" or "www.acme.com/about": a host name with a dot and no scheme, optionally a port and path. */
const BARE_DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*(?::\d{1,5})?(?:[/?#]\S*)?$/i;

/**
 * A bare domain gets "https://" in front (what anyone typing "acme.com" means); anything else is
 * left as typed for the URL check to judge, so "javascript:…", "ftp://…" and words stay refused.
 * Shared by every URL field's schema, so the form and the server store the same address.
 */
export const withHttps = (value: string): string => (BARE_DOMAIN.test(value) ? `https://${value}` : value);

const name = nameSchema('Name is required', 120, 'Name must be at most 120 characters');
/** The company's name: the organisation's. */
const brandName = nameSchema('Company name is required', 120, 'Company name must be at most 120 characters');
/** A website as the profile takes it (and a client's each of its websites, issue 57). */
export const websiteSchema = z
  .string({ error: 'Website is required' })
  .trim()
  .min(1, 'Website is required')
  .transform(withHttps)
  .pipe(z.string().max(2048, 'Must be a valid URL').refine(isHttpUrl, 'Must be a valid URL'));

/** Profile completion ("Almost there"). */
export const completeProfileSchema = z.object({
  name,
  brandName,
  website: websiteSchema,
  inviteCode: z.string().trim().max(64, 'Invalid invite code').optional(),
});
export type CompleteProfileInput = z.infer<typeof completeProfileSchema>;

/** The profile screen: admins edit only the name; brands also brand name and website. */
export const editProfileSchema = z.object({
  name,
  brandName: brandName.optional(),
  website: websiteSchema.optional(),
  emailNotifications: z.boolean({ error: 'E-mail preference must be on or off' }).optional(),
});
export type EditProfileInput = z.infer<typeof editProfileSchema>;

/** PATCH /api/user/profile with only the avatar. The URL must be one of our own uploads. */
export const avatarProfileSchema = z.object({
  avatarUrl: z
    .string()
    .regex(/^\/uploads\/[A-Za-z0-9_-]+\.(png|jpg|gif|webp)$/, 'Avatar must be an uploaded image'),
});

/** PATCH /api/user/profile with only the brand's e-mail preference (the profile page's switch). */
export const emailPreferenceSchema = z.object({
  emailNotifications: z.boolean({ error: 'E-mail preference must be on or off' }),
});
