import { z } from 'zod';
import { AUDIT_ACTIONS, INVITABLE_ROLES, MAX_CLIENT_WEBSITES, MAX_CLIENTS, ORG_ROLES, PURCHASE_REQUEST_VIEW_STATUSES } from '../org';
import { nameSchema } from './one-line';
import { websiteSchema } from './profile';
import { count, decimal, id, timestamp } from './responses/common';

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

/** The clients a member is limited to (decision 035): null or absent for all. */
const clientIds = z
  .array(z.string({ error: 'Client not found' }).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'Client not found'), {
    error: 'Choose the clients as a list',
  })
  .min(1, 'Choose at least one client, or all')
  .max(MAX_CLIENTS, `At most ${MAX_CLIENTS} clients`)
  .nullable()
  .describe('the clients the member is limited to; null: all');

/** POST /api/org/invitations */
export const invitationInputSchema = z.object({ email, role: invitableRole, clientIds: clientIds.optional() });
export type InvitationInput = z.infer<typeof invitationInputSchema>;

/** PATCH /api/org/members/{userId}: a new role, the clients, or both. */
export const memberChangeSchema = z
  .object({ role: invitableRole.optional(), clientIds: clientIds.optional() })
  .refine((v) => v.role !== undefined || v.clientIds !== undefined, 'Send a role or clients');
export type MemberChange = z.infer<typeof memberChangeSchema>;

const clientName = nameSchema('Client name is required', 120, 'Client name must be at most 120 characters');

/**
 * A client's websites (issue 57): each as the profile's website is taken (a bare domain gets
 * https://), the same one kept once. A placement bought for the client must link to one of them;
 * none: to the buyer's own website.
 */
const clientWebsites = z
  .array(websiteSchema, { error: 'List the websites, one per entry' })
  .max(MAX_CLIENT_WEBSITES, `At most ${MAX_CLIENT_WEBSITES} websites`)
  .transform((list) => [...new Set(list)])
  .describe('the client’s websites: a placement bought for it must link to one of them; empty: to the buyer’s own website');

/** POST /api/org/clients */
export const clientInputSchema = z.object({ name: clientName, websites: clientWebsites.optional() });
export type ClientInput = z.infer<typeof clientInputSchema>;

/** PATCH /api/org/clients/{id} */
export const clientChangeSchema = z
  .object({
    name: clientName.optional(),
    monthlyCapUsd: z.lazy(() => capUsd).optional().describe('the client’s monthly cap; null: none'),
    websites: clientWebsites.optional(),
  })
  .refine((v) => v.name !== undefined || v.monthlyCapUsd !== undefined || v.websites !== undefined, 'Send a name, a cap or websites');
export type ClientChange = z.infer<typeof clientChangeSchema>;

/** GET /api/org/clients item */
export const clientSchema = z
  .object({
    id,
    name: z.string(),
    monthlyCapUsd: decimal.nullable().describe('null: no cap of its own'),
    spentUsd: decimal.describe('charged this month (UTC) for it, minus refunds'),
    hasBilling: z.boolean().describe('its own billing details are saved (its invoices are addressed to it)'),
    websites: z.array(z.string()).describe('its websites (https URLs): what its placements must link to; empty: the buyer’s own website'),
  })
  .meta({ id: 'Client' });
export type OrgClient = z.infer<typeof clientSchema>;

/** POST /api/org/transfer-ownership */
export const transferOwnershipSchema = z.object({ userId: id.describe('the member who becomes the owner') });

/** POST /api/invitations/{token}/accept: the name, for an account that has none yet. */
export const acceptInvitationSchema = z.object({
  name: nameSchema('Name is required', 120, 'Name must be at most 120 characters').optional(),
});

/** GET /api/org */
export const orgSchema = z
  .object({
    id,
    name: z.string(),
    approved: z.boolean().describe('false until the editorial team approves the organisation (its other routes answer 403 until then)'),
    role: z.enum(ORG_ROLES).describe('the signed-in member’s role'),
    clientIds: z.array(id).nullable().describe('the clients the member is limited to; null: all'),
    memberCount: count,
  })
  .meta({ id: 'Organisation' });
export type Org = z.infer<typeof orgSchema>;

/** GET /api/admin/organisations/{id}: an organisation as the editorial team sees it. */
export const adminOrganisationSchema = z
  .object({
    id,
    name: z.string(),
    approved: z.boolean(),
    createdAt: timestamp,
    members: z.array(z.lazy(() => memberSchema)),
    clients: z.array(z.object({ id, name: z.string() })),
    month: z.string().describe('YYYY-MM, UTC'),
    spentUsd: decimal.describe('charged this month (UTC), minus refunds'),
    paidTotalUsd: decimal.describe('charged ever, minus refunds'),
    placements: count.describe('placements bought, refunded ones included'),
  })
  .meta({ id: 'AdminOrganisation' });
export type AdminOrganisation = z.infer<typeof adminOrganisationSchema>;

/** GET /api/admin/organisations item: one organisation in the admins' list (issue 57). */
export const adminOrganisationItemSchema = z
  .object({
    id,
    name: z.string(),
    approved: z.boolean(),
    createdAt: timestamp,
    owner: z.object({ name: z.string().nullable(), email: z.string() }).nullable(),
    memberCount: count,
    clientCount: count,
    placements: count.describe('placements bought, refunded ones included'),
  })
  .meta({ id: 'AdminOrganisationItem' });
export type AdminOrganisationItem = z.infer<typeof adminOrganisationItemSchema>;

/** GET /api/org/members item */
export const memberSchema = z
  .object({
    id,
    name: z.string().nullable(),
    email: z.string(),
    role: z.enum(ORG_ROLES),
    monthlyCapUsd: decimal.nullable().describe('the member’s own monthly cap; null: none'),
    approvalThresholdUsd: decimal.nullable().describe('purchases above it need approval; null: none'),
    clientIds: z.array(id).nullable().describe('the clients the member is limited to; null: all'),
  })
  .meta({ id: 'Member' });
export type OrgMember = z.infer<typeof memberSchema>;

/** An invitation as its organisation sees it. */
export const invitationSchema = z
  .object({
    id,
    email: z.string(),
    role: z.enum(INVITABLE_ROLES),
    clientIds: z.array(id).nullable(),
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
    // issue 57: the entry in words (the CSV's columns too); the fields above stay as they were
    title: z.string().describe('what the entry is about, in words: a placement as “outlet · article · client”, a member by name'),
    placementId: id.nullable().describe('the placement it is about (its page), or null'),
    orderId: id.nullable().describe('the order it is about (its page), or null'),
    actionText: z.string().describe('what was done, in words: “Changed Ana Díaz’s role to Buyer”'),
    detailsText: z.string().nullable().describe('the details in words (no ids), or null when there are none'),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** Whom an audit entry's actor is now: a member, someone no longer one, or Byline's editorial team. */
const AUDIT_ACTOR_KINDS = ['member', 'former_member', 'editorial_team'] as const;

/** GET /api/org/audit/actors item: everyone with entries, removed members too (the Member filter). */
export const auditActorSchema = z
  .object({
    id,
    name: z.string().nullable(),
    email: z.string(),
    kind: z.enum(AUDIT_ACTOR_KINDS),
  })
  .meta({ id: 'AuditActor' });
export type AuditActor = z.infer<typeof auditActorSchema>;

/** A cap or threshold in dollars: a positive amount with at most 2 decimals, or null for none. */
const capUsd = z
  .union([z.string(), z.number()], { error: 'Enter an amount in dollars, or leave it empty for none' })
  .nullable()
  .transform((v, ctx) => {
    if (v === null || v === '') return null;
    const text = String(v).trim();
    if (!/^\d{1,10}(\.\d{1,2})?$/.test(text) || Number(text) <= 0) {
      ctx.addIssue({ code: 'custom', message: 'Enter an amount in dollars above 0, with at most 2 decimals' });
      return z.NEVER;
    }
    return Number(text).toFixed(2);
  });

/** PUT /api/org/budget */
export const budgetInputSchema = z.object({ monthlyCapUsd: capUsd.describe('the organisation’s monthly cap; null: none') });

/** PUT /api/org/members/{userId}/limits */
export const memberLimitsSchema = z.object({
  monthlyCapUsd: capUsd.describe('the member’s own monthly cap; null: none'),
  approvalThresholdUsd: capUsd.describe('purchases above it need approval; null: none'),
});

const moneyOrNull = decimal.nullable();

/** What is spent of a cap this month (UTC): left = cap − spent − open checkouts. */
const spendLine = z.object({
  spentUsd: decimal.describe('charged this month minus refunds'),
  openUsd: decimal.describe('open checkouts, holding their slots'),
  capUsd: moneyOrNull,
  leftUsd: moneyOrNull.describe('null: no cap'),
});

/** GET /api/org/spend */
export const spendSchema = spendLine
  .extend({
    month: z.string().describe('YYYY-MM, UTC'),
    member: spendLine.extend({ approvalThresholdUsd: moneyOrNull }).describe('the signed-in member’s own'),
  })
  .meta({ id: 'Spend' });
export type Spend = z.infer<typeof spendSchema>;

/** POST /api/org/purchase-requests/{id}/decline */
export const declineSchema = z.object({
  reason: z.string({ error: 'Say why' }).trim().min(1, 'Say why').max(1000, 'At most 1000 characters'),
});

/** A purchase request, as its organisation's approvers and its requester see it. */
export const purchaseRequestSchema = z
  .object({
    id,
    status: z.enum(PURCHASE_REQUEST_VIEW_STATUSES),
    opportunityId: id,
    title: z.string().describe('the opportunity’s; for a cart, "n placements"'),
    outletName: z.string().describe('the outlet; for a cart, every line’s'),
    lines: z
      .array(z.object({ opportunityId: id, title: z.string(), outletName: z.string(), priceUsd: decimal }))
      .nullable()
      .describe('a cart’s request (issue 46): its lines at the prices asked for; null for one opportunity'),
    amountUsd: decimal,
    client: z.object({ id, name: z.string() }).nullable(),
    requestedBy: z.object({ id, name: z.string().nullable(), email: z.string() }),
    reason: z.string().nullable().describe('why it was declined'),
    decidedBy: z.object({ id, name: z.string().nullable(), email: z.string() }).nullable(),
    decidedAt: timestamp.nullable(),
    expiresAt: timestamp,
    createdAt: timestamp,
  })
  .meta({ id: 'PurchaseRequest' });
export type PurchaseRequest = z.infer<typeof purchaseRequestSchema>;

export const purchaseRequestsQuerySchema = z.object({
  status: z.enum(PURCHASE_REQUEST_VIEW_STATUSES, { error: 'Unknown status' }).optional(),
});

/** POST /api/payments/checkout's 202: the purchase waits for approval. */
export const purchaseRequestAnswerSchema = z
  .object({
    purchaseRequest: z.object({ id, status: z.literal('pending'), opportunityId: id, amountUsd: decimal, expiresAt: timestamp }),
  })
  .meta({ id: 'PurchaseRequestCreated' });
