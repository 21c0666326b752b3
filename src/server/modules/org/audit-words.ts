import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import { formatUsd } from '../../../shared/money';
import { AUDIT_ACTION_LABELS, ORG_ROLE_LABELS, ORG_ROLES, type AuditAction, type OrgRole } from '../../../shared/org';
import { RELEASED_WITHOUT_APPROVAL, RELEASED_WITHOUT_URL } from '../../../shared/publication';
import type { AuditActor } from '../../../shared/schemas/org';
import type { Db } from '../../db/client';
import { auditEntries, opportunities, orders, orgClients, placements, purchaseRequests, users } from '../../db/schema';

/**
 * The audit log in words (issue 57): an entry stores codes and ids (`action`, `subject` as a
 * placement's id or a member's e-mail, `details` as JSON); the screen and the CSV read what they
 * stand for, looked up once per page in the organisation's own rows: a placement as
 * "outlet · article · client" (its page linked), a member by name, a client by name, amounts as
 * dollars. A removed member keeps the name the entries copied when they acted.
 */

type Row = typeof auditEntries.$inferSelect;

export interface AuditWords {
  title: string;
  placementId: string | null;
  orderId: string | null;
  actionText: string;
  detailsText: string | null;
}

/** The actions about one placement, whose subject is its id (a `paid` of an order: the order's). */
const PLACEMENT_ACTIONS: readonly AuditAction[] = [
  'paid',
  'brief_submitted',
  'draft_approved',
  'edits_requested',
  'placement_cancelled',
  'cancellation_requested',
  'extra_revision_requested',
  'dispute_opened',
  'dispute_escalated',
  'placement_swapped',
  'released_without_live_url',
  'released_without_approval',
];

/** The actions about one person, whose subject is their e-mail. */
const PERSON_ACTIONS: readonly AuditAction[] = [
  'member_invited',
  'invitation_revoked',
  'invitation_resent',
  'member_joined',
  'member_removed',
  'role_changed',
  'ownership_transferred',
  'limits_changed',
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Lookups {
  placements: Map<string, string>;
  orders: Map<string, string | null>;
  people: Map<string, string>;
  clients: Map<string, string>;
  opportunities: Map<string, string>;
  requests: Map<string, string>;
}

const isOrder = (r: Row) => r.action === 'paid' && r.details.orderLines !== undefined;
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);
const strings = (v: unknown): string[] | null => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null);
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const role = (v: unknown): string | null => (ORG_ROLES.includes(v as OrgRole) ? ORG_ROLE_LABELS[v as OrgRole] : null);
/** "$1,250.00", "no cap" for null; anything unreadable is left out (null). */
const usd = (v: unknown, none = 'no cap'): string | null => {
  if (v === null) return none;
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  try {
    return formatUsd(v);
  } catch {
    return null;
  }
};
const list = (items: string[]) => (items.length ? items.join(', ') : 'none');
const possessive = (name: string) => `${name}’s`;

/** The names and titles the entries' subjects and details stand for, in the organisation's own rows. */
async function lookups(db: Db, organisationId: string, rows: Row[]): Promise<Lookups> {
  const placementIds = new Set<string>();
  const orderIds = new Set<string>();
  const emails = new Set<string>();
  const clientIds = new Set<string>();
  const opportunityIds = new Set<string>();
  const requestIds = new Set<string>();
  for (const r of rows) {
    const request = str(r.details.requestId);
    if (request && UUID.test(request)) requestIds.add(request);
    if (PLACEMENT_ACTIONS.includes(r.action) && UUID.test(r.subject)) (isOrder(r) ? orderIds : placementIds).add(r.subject);
    if (PERSON_ACTIONS.includes(r.action)) emails.add(r.subject);
    const clients = obj(r.details.clients);
    for (const id of [...(strings(clients.from) ?? []), ...(strings(clients.to) ?? [])]) if (UUID.test(id)) clientIds.add(id);
    const opp = str(r.details.opportunityId);
    if (opp && UUID.test(opp)) opportunityIds.add(opp);
  }
  const out: Lookups = { placements: new Map(), orders: new Map(), people: new Map(), clients: new Map(), opportunities: new Map(), requests: new Map() };
  if (placementIds.size) {
    const found = await db
      .select({ id: placements.id, outlet: opportunities.outletName, title: opportunities.title, client: orgClients.name })
      .from(placements)
      .innerJoin(opportunities, eq(opportunities.id, placements.opportunityId))
      .leftJoin(orgClients, eq(orgClients.id, placements.clientId))
      .where(and(eq(placements.organisationId, organisationId), inArray(placements.id, [...placementIds])));
    for (const p of found) out.placements.set(p.id, [p.outlet, p.title, p.client].filter(Boolean).join(' · '));
  }
  if (orderIds.size) {
    const found = await db
      .select({ id: orders.id, client: orgClients.name })
      .from(orders)
      .leftJoin(orgClients, eq(orgClients.id, orders.clientId))
      .where(and(eq(orders.organisationId, organisationId), inArray(orders.id, [...orderIds])));
    for (const o of found) out.orders.set(o.id, o.client);
  }
  if (emails.size) {
    // a member by the name they have now; someone gone by the name their own entries copied
    const copied = await db
      .select({ email: auditEntries.actorEmail, name: auditEntries.actorName })
      .from(auditEntries)
      .where(and(eq(auditEntries.organisationId, organisationId), inArray(auditEntries.actorEmail, [...emails]), isNotNull(auditEntries.actorName)))
      .orderBy(desc(auditEntries.id));
    for (const c of copied) if (c.name && !out.people.has(c.email)) out.people.set(c.email, c.name);
    const members = await db
      .select({ email: users.email, name: users.name })
      .from(users)
      .where(and(eq(users.organisationId, organisationId), inArray(users.email, [...emails])));
    for (const m of members) if (m.name) out.people.set(m.email, m.name);
  }
  if (clientIds.size) {
    const found = await db
      .select({ id: orgClients.id, name: orgClients.name })
      .from(orgClients)
      .where(and(eq(orgClients.organisationId, organisationId), inArray(orgClients.id, [...clientIds])));
    for (const c of found) out.clients.set(c.id, c.name);
  }
  if (requestIds.size) {
    // a purchase request as what it asked to buy: "outlet · article · client" (a cart's first line "and N more")
    const found = await db
      .select({ id: purchaseRequests.id, lines: purchaseRequests.lines, outlet: opportunities.outletName, title: opportunities.title, client: orgClients.name })
      .from(purchaseRequests)
      .innerJoin(opportunities, eq(opportunities.id, purchaseRequests.opportunityId))
      .leftJoin(orgClients, eq(orgClients.id, purchaseRequests.clientId))
      .where(and(eq(purchaseRequests.organisationId, organisationId), inArray(purchaseRequests.id, [...requestIds])));
    for (const r of found) {
      const first = r.lines?.[0];
      const more = (r.lines?.length ?? 1) - 1;
      const what = first ? `${first.outletName} · ${first.title}` : `${r.outlet} · ${r.title}`;
      out.requests.set(r.id, [more > 0 ? `${what} and ${more} more` : what, r.client].filter(Boolean).join(' · '));
    }
  }
  if (opportunityIds.size) {
    const found = await db
      .select({ id: opportunities.id, outlet: opportunities.outletName, title: opportunities.title })
      .from(opportunities)
      .where(inArray(opportunities.id, [...opportunityIds]));
    for (const o of found) out.opportunities.set(o.id, `${o.outlet} · ${o.title}`);
  }
  return out;
}

/** "Changed Ana Díaz's limits": what each limit is now, "(was …)" when it changed. */
function limitChanges(details: Record<string, unknown>): string | null {
  const from = obj(details.from);
  const to = obj(details.to);
  const parts: string[] = [];
  const one = (key: string, say: (amount: string | null) => string) => {
    if (!(key in to)) return;
    const words = (v: unknown) => (v === null ? say(null) : usd(v) === null ? null : say(usd(v)));
    const now = words(to[key]);
    const was = key in from ? words(from[key]) : null;
    if (now === null) return;
    parts.push(was !== null && was !== now ? `${now} (was ${was})` : now);
  };
  one('monthlyCapUsd', (a) => (a === null ? 'no monthly budget' : `a monthly budget of ${a}`));
  one('approvalThresholdUsd', (a) => (a === null ? 'no approval needed' : `approval needed above ${a}`));
  const text = parts.join('; ');
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : null;
}

/** The words of one entry. */
function words(r: Row, l: Lookups): AuditWords {
  const d = r.details;
  const person = l.people.get(r.subject) ?? r.subject;
  const clientNames = (ids: unknown) => (strings(ids) ?? []).map((id) => l.clients.get(id) ?? 'a client no longer listed');
  const reason = str(d.reason) ? `Reason: ${str(d.reason)}` : null;
  // a purchase request's subject was stored as "outlet: article"; its row says it with the client
  const requested = l.requests.get(str(d.requestId) ?? '') ?? r.subject;
  const about = (actionText: string, detailsText: string | null = null): AuditWords => ({ title: person, placementId: null, orderId: null, actionText, detailsText });
  const other = (title: string, actionText: string, detailsText: string | null = null): AuditWords => ({ title, placementId: null, orderId: null, actionText, detailsText });

  if (isOrder(r)) {
    const known = l.orders.has(r.subject);
    const n = typeof d.orderLines === 'number' ? d.orderLines : null;
    const title = [n === null ? 'An order' : `An order of ${n} placement${n === 1 ? '' : 's'}`, l.orders.get(r.subject)].filter(Boolean).join(' · ');
    return { title, placementId: null, orderId: known ? r.subject : null, actionText: 'Paid for the order', detailsText: usd(d.amountUsd) };
  }
  if (PLACEMENT_ACTIONS.includes(r.action)) {
    const title = l.placements.get(r.subject);
    const placed = (actionText: string, detailsText: string | null = null): AuditWords => ({
      title: title ?? 'A placement no longer listed',
      placementId: title ? r.subject : null,
      orderId: null,
      actionText,
      detailsText,
    });
    switch (r.action) {
      case 'paid':
        return placed('Paid for the placement', usd(d.amountUsd));
      case 'brief_submitted':
        return placed('Submitted the brief');
      case 'draft_approved':
        return placed('Approved the draft');
      case 'edits_requested':
        return placed('Requested edits to the draft');
      case 'placement_cancelled':
        return placed('Cancelled the placement');
      case 'cancellation_requested':
        return placed('Asked to cancel the placement');
      case 'extra_revision_requested':
        return placed('Asked for an extra revision');
      case 'dispute_opened':
        return placed('Opened a dispute');
      case 'dispute_escalated':
        return placed('Escalated the dispute to an admin');
      case 'placement_swapped': {
        const to = l.opportunities.get(str(d.opportunityId) ?? '');
        const paid = d.paidUsd !== undefined ? usd(d.paidUsd) : null;
        return placed(to ? `Swapped the placement for ${to}` : 'Swapped the placement for an alternative', paid ? `Paid ${paid} more` : null);
      }
      case 'released_without_live_url':
        return placed(RELEASED_WITHOUT_URL, reason);
      default:
        return placed(RELEASED_WITHOUT_APPROVAL, reason);
    }
  }
  switch (r.action) {
    case 'organisation_created':
      return other(r.subject, 'Created the organisation');
    case 'member_invited':
      return about(role(d.role) ? `Invited ${person} as ${role(d.role)}` : `Invited ${person}`);
    case 'invitation_revoked':
      return about(`Revoked the invitation of ${person}`);
    case 'invitation_resent':
      return about(`Sent the invitation to ${person} again`);
    case 'member_joined':
      return about(role(d.role) ? `Joined as ${role(d.role)}` : 'Joined the organisation');
    case 'member_removed':
      return about(r.subject === r.actorEmail ? 'Left the organisation' : `Removed ${person} from the organisation`, role(d.role) ? `Was ${role(d.role)}` : null);
    case 'role_changed': {
      if (d.clients !== undefined) {
        const c = obj(d.clients);
        const was = c.from === null ? 'Saw every client' : `Was limited to ${list(clientNames(c.from))}`;
        return about(c.to === null ? `Let ${person} see every client` : `Limited ${person} to ${list(clientNames(c.to))}`, was);
      }
      const to = role(d.to);
      const from = role(d.from);
      return about(to ? `Changed ${possessive(person)} role to ${to}` : `Changed ${possessive(person)} role`, from ? `Was ${from}` : null);
    }
    case 'ownership_transferred':
      return about(`Made ${person} the owner`, 'The previous owner is now an Admin');
    case 'limits_changed':
      return about(`Changed ${possessive(person)} limits`, limitChanges(d));
    case 'billing_changed':
      return other(r.subject.charAt(0).toUpperCase() + r.subject.slice(1), 'Changed the billing details');
    case 'budget_changed': {
      const to = usd(d.to);
      const from = usd(d.from);
      return other('Monthly budget', d.to === null ? 'Removed the monthly budget' : to ? `Set the monthly budget to ${to}` : 'Changed the monthly budget', from ? `Was ${from}` : null);
    }
    case 'purchase_requested':
      return other(requested, 'Asked for approval to buy', usd(d.amountUsd));
    case 'purchase_approved':
      return other(requested, 'Approved the purchase request', usd(d.amountUsd));
    case 'purchase_declined':
      return other(requested, 'Declined the purchase request', [usd(d.amountUsd), reason].filter(Boolean).join('. ') || null);
    case 'client_added': {
      const sites = strings(d.websites);
      return other(r.subject, `Added the client ${r.subject}`, sites?.length ? `Websites: ${sites.join(', ')}` : null);
    }
    case 'client_changed': {
      const parts: string[] = [];
      const name = obj(d.name);
      if (str(name.from)) parts.push(`Renamed from ${str(name.from)}`);
      if (d.monthlyCapUsd !== undefined) {
        const cap = obj(d.monthlyCapUsd);
        parts.push(`Monthly budget ${usd(cap.to) ?? 'changed'}${usd(cap.from) ? ` (was ${usd(cap.from)})` : ''}`);
      }
      if (d.websites !== undefined) parts.push(`Websites: ${list(strings(obj(d.websites).to) ?? [])}`);
      return other(r.subject, `Changed the client ${r.subject}`, parts.length ? parts.join('; ') : null);
    }
    default:
      // an action without words of its own yet: its label, never its code
      return other(r.subject, AUDIT_ACTION_LABELS[r.action]);
  }
}

/** The entries in words, in their order. */
export async function auditWords(db: Db, organisationId: string, rows: Row[]): Promise<AuditWords[]> {
  const l = await lookups(db, organisationId, rows);
  return rows.map((r) => words(r, l));
}

/**
 * GET /api/org/audit/actors: everyone with an entry in the organisation's log, members first, then
 * those no longer members (by the name their last entry copied) and Byline's editorial team (a
 * release it recorded here), each by name.
 */
export async function auditActors(db: Db, organisationId: string): Promise<AuditActor[]> {
  const rows = await db
    .selectDistinctOn([auditEntries.actorId], {
      id: auditEntries.actorId,
      copiedName: auditEntries.actorName,
      copiedEmail: auditEntries.actorEmail,
      name: users.name,
      email: users.email,
      role: users.role,
      organisationId: users.organisationId,
    })
    .from(auditEntries)
    .leftJoin(users, eq(users.id, auditEntries.actorId))
    .where(and(eq(auditEntries.organisationId, organisationId), isNotNull(auditEntries.actorId)))
    .orderBy(auditEntries.actorId, desc(auditEntries.id));
  const kindOf = (r: (typeof rows)[number]): AuditActor['kind'] =>
    r.organisationId === organisationId ? 'member' : r.role === 'admin' ? 'editorial_team' : 'former_member';
  const order: Record<AuditActor['kind'], number> = { member: 0, former_member: 1, editorial_team: 2 };
  return rows
    .map((r) => {
      const kind = kindOf(r);
      return kind === 'member'
        ? { id: r.id!, name: r.name ?? r.copiedName, email: r.email ?? r.copiedEmail, kind }
        : { id: r.id!, name: r.copiedName, email: r.copiedEmail, kind };
    })
    .sort((a, b) => order[a.kind] - order[b.kind] || (a.name ?? a.email).localeCompare(b.name ?? b.email));
}
