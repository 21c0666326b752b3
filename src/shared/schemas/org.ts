import { z } from 'zod';
import { AUDIT_ACTIONS, INVITABLE_ROLES, ORG_ROLES } from '../org';
import { count, id, timestamp } from './responses/common';

/**
 * Organisations (decision 033): what the Team screen and the invitation page send and receive.
 * Every refusal is `{message}` (with `errors` per field), as everywhere.
 */

const email = z
  .string({ error: 'Invalid email address' })
  .trim()
  .max(254, 'Invalid email address')
  .pipe(z.email({ error: 'Invalid email address' }))
  .transform((v) => v.toLowerCase());

const invitableRole = z.enum(INVITABLE_ROLES, { error: 'Choose a role: admin, buyer, reviewer or viewer' });

/** POST /api/org/invitations */
export const invitationInputSchema = z.object({ email, role: invitableRole });
export type InvitationInput = z.infer<typeof invitationInputSchema>;

/** PATCH /api/org/members/{userId} */
export const memberChangeSchema = z.object({ role: invitableRole });

/** POST /api/org/transfer-ownership */
export const transferOwnershipSchema = z.object({ userId: id.describe('the member who becomes the owner') });

/** POST /api/invitations/{token}/accept: the name, for an account that has none yet. */
export const acceptInvitationSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(120, 'Name must be at most 120 characters').optional(),
});

/** GET /api/org */
export const orgSchema = z
  .object({
    id,
    name: z.string(),
    approved: z.boolean(),
    role: z.enum(ORG_ROLES).describe('the signed-in member’s role'),
    clientIds: z.array(id).nullable().describe('the clients the member is limited to; null: all'),
    memberCount: count,
  })
  .meta({ id: 'Organisation' });
export type Org = z.infer<typeof orgSchema>;

/** GET /api/org/members item */
export const memberSchema = z
  .object({ id, name: z.string().nullable(), email: z.string(), role: z.enum(ORG_ROLES) })
  .meta({ id: 'Member' });
export type OrgMember = z.infer<typeof memberSchema>;

/** An invitation as its organisation sees it. */
export const invitationSchema = z
  .object({
    id,
    email: z.string(),
    role: z.enum(INVITABLE_ROLES),
    expiresAt: timestamp,
    expired: z.boolean().describe('past its expiry: resend it to send a new link'),
  })
  .meta({ id: 'Invitation' });
export type OrgInvitation = z.infer<typeof invitationSchema>;

/** GET /api/invitations/{token}: what the invited person sees before accepting. */
export const invitationPreviewSchema = z
  .object({ organisationName: z.string(), role: z.enum(INVITABLE_ROLES), email: z.string() })
  .meta({ id: 'InvitationPreview' });
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** GET /api/org/audit: filters */
export const auditQuerySchema = z.object({
  actor: id.optional().describe('a member’s user id'),
  action: z.enum(AUDIT_ACTIONS, { error: 'Unknown action' }).optional(),
  from: z.iso.date({ error: 'Use a date as YYYY-MM-DD' }).optional().describe('from this day (UTC), inclusive'),
  to: z.iso.date({ error: 'Use a date as YYYY-MM-DD' }).optional().describe('up to this day (UTC), inclusive'),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** GET /api/org/audit item */
export const auditEntrySchema = z
  .object({
    id: z.string().describe('the entry’s number, as text'),
    at: timestamp,
    actor: z.object({ id: id.nullable(), name: z.string().nullable(), email: z.string() }),
    action: z.enum(AUDIT_ACTIONS),
    subject: z.string(),
    details: z.record(z.string(), z.unknown()),
    address: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;
