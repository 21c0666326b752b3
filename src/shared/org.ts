/**
 * Organisations (decision 033): who buys. Each brand account belongs to one organisation with a
 * role; what a role may do is a set of capabilities, checked by the server on every brand route
 * (lib/contract.ts `can`) and used by the client only to hide what would be refused.
 */

import { RELEASED_WITHOUT_APPROVAL, RELEASED_WITHOUT_URL } from './publication';

/** A member's role, most powerful first. */
export const ORG_ROLES = ['owner', 'admin', 'buyer', 'reviewer', 'viewer'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/** The roles an invitation may give (ownership is transferred, never invited). */
export const INVITABLE_ROLES = ['admin', 'buyer', 'reviewer', 'viewer'] as const satisfies readonly OrgRole[];

export const ORG_ROLE_LABELS: Record<OrgRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  buyer: 'Buyer',
  reviewer: 'Reviewer',
  viewer: 'Viewer',
};

export const ORG_ROLE_DESCRIPTIONS: Record<OrgRole, string> = {
  owner: 'Everything, including billing details, members and transferring ownership',
  admin: 'Members (except the owner), and everything a buyer does',
  buyer: 'Search, shortlist, buy, briefs, messages and draft review',
  reviewer: 'Briefs, messages, draft review and the shortlist; no buying',
  viewer: 'Read only',
};

/**
 * What a route asks of a member:
 * - `read`: see the organisation's placements, payments and catalogue (every role);
 * - `work`: briefs, messages, draft review, saving to the shortlist (not viewers);
 * - `buy`: the cart and checkouts (owner, admin, buyer);
 * - `manage`: members and invitations (owner, admin);
 * - `own`: billing details and transferring ownership (owner).
 */
export type Capability = 'read' | 'work' | 'buy' | 'manage' | 'own';

const GRANTS: Record<OrgRole, readonly Capability[]> = {
  owner: ['read', 'work', 'buy', 'manage', 'own'],
  admin: ['read', 'work', 'buy', 'manage'],
  buyer: ['read', 'work', 'buy'],
  reviewer: ['read', 'work'],
  viewer: ['read'],
};

export const roleCan = (role: OrgRole | null | undefined, capability: Capability): boolean =>
  role != null && GRANTS[role].includes(capability);

/**
 * What a member who cannot buy does in the catalogue, said once at its top (issue 57): saving to
 * the shortlist is work, not buying.
 */
export const CATALOGUE_ROLE_NOTES: Partial<Record<OrgRole, string>> = {
  reviewer:
    'Your role is Reviewer: you can browse and save opportunities to your organisation’s shortlist; an owner, admin or buyer buys them.',
  viewer: 'Your role is Viewer: you can browse the catalogue and the shortlist; saving and buying are for the other roles.',
};

/** The refusal of a capability a role lacks, in the member's words. */
export const CAPABILITY_REFUSALS: Record<Capability, string> = {
  read: 'You are not a member of an organisation',
  work: 'Your role in this organisation is read only',
  buy: 'Your role in this organisation cannot buy',
  manage: 'Only the owner or an admin of this organisation can do this',
  own: 'Only the owner of this organisation can do this',
};

/**
 * Clients (decision 035): a member limited to some of the organisation's clients (`clientIds` not
 * null) sees and buys only their placements; a reviewer so limited is an agency's client reviewing
 * its articles, and never sees a price or an amount.
 */
export const hidesAmounts = (role: OrgRole | null | undefined, clientIds: readonly string[] | null | undefined): boolean =>
  role === 'reviewer' && clientIds != null;

/** The refusal of a route that shows money, to a client reviewer. */
export const AMOUNTS_REFUSAL = 'Your access is limited to reviewing your articles';

/**
 * Who may set a member's monthly cap and approval threshold (issue 57): an owner or admin, never
 * their own (a limit is set by someone above the member), never the owner's, and an admin's only
 * the owner. Null: allowed; else why not, in the words of the 403.
 */
export function limitsRefusal(by: { role: OrgRole; self: boolean }, targetRole: OrgRole): string | null {
  if (by.self) return 'You cannot change your own limits';
  if (targetRole === 'owner') return 'The owner’s limits cannot be changed';
  if (targetRole === 'admin' && by.role !== 'owner') return 'Only the owner can change an admin’s limits';
  return null;
}

/** How many clients an organisation may have. */
export const MAX_CLIENTS = 200;

/** How many websites a client lists (its brands' sites, its shops). */
export const MAX_CLIENT_WEBSITES = 10;

/** How long an invitation link stays valid. */
export const INVITATION_DAYS = 7;

/** What the audit log records. */
export const AUDIT_ACTIONS = [
  'organisation_created',
  'member_invited',
  'invitation_revoked',
  'invitation_resent',
  'member_joined',
  'member_removed',
  'role_changed',
  'ownership_transferred',
  'paid',
  'brief_submitted',
  'draft_approved',
  // issue 47
  'placement_cancelled',
  'cancellation_requested',
  'extra_revision_requested',
  'dispute_opened',
  'dispute_escalated',
  'edits_requested',
  'billing_changed',
  'budget_changed',
  'limits_changed',
  'purchase_requested',
  'purchase_approved',
  'purchase_declined',
  'client_added',
  'client_changed',
  'placement_swapped',
  // issue 57: the editorial team released the money by the spec's call, which checks no live page
  'released_without_live_url',
  'released_without_approval',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  organisation_created: 'Organisation created',
  member_invited: 'Member invited',
  invitation_revoked: 'Invitation revoked',
  invitation_resent: 'Invitation resent',
  member_joined: 'Member joined',
  member_removed: 'Member removed',
  role_changed: 'Role changed',
  ownership_transferred: 'Ownership transferred',
  paid: 'Placement paid',
  placement_swapped: 'Placement swapped for an alternative',
  brief_submitted: 'Brief submitted',
  draft_approved: 'Draft approved',
  edits_requested: 'Edits requested',
  placement_cancelled: 'Placement cancelled',
  cancellation_requested: 'Cancellation asked for',
  extra_revision_requested: 'Extra revision asked for',
  dispute_opened: 'Dispute opened',
  dispute_escalated: 'Dispute escalated',
  billing_changed: 'Billing details changed',
  budget_changed: 'Budget changed',
  limits_changed: 'Member limits changed',
  purchase_requested: 'Purchase requested',
  purchase_approved: 'Purchase approved',
  purchase_declined: 'Purchase declined',
  client_added: 'Client added',
  client_changed: 'Client changed',
  released_without_live_url: RELEASED_WITHOUT_URL,
  released_without_approval: RELEASED_WITHOUT_APPROVAL,
};

/** A purchase request's stored status; a pending one past its expiry reads `expired`. */
export const PURCHASE_REQUEST_STATUSES = ['pending', 'approved', 'declined'] as const;
export const PURCHASE_REQUEST_VIEW_STATUSES = ['pending', 'approved', 'declined', 'expired', 'paid'] as const;
export type PurchaseRequestStatus = (typeof PURCHASE_REQUEST_VIEW_STATUSES)[number];

/** How long a purchase request waits for a decision, and an approved one for its payment. */
export const PURCHASE_REQUEST_DAYS = 7;

/** A line of a cart's purchase request (issue 46): what was asked for, at the price asked. */
export interface PurchaseRequestLine {
  opportunityId: string;
  title: string;
  outletName: string;
  priceUsd: string;
}
