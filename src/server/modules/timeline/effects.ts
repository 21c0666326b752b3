import { eq } from 'drizzle-orm';
import { LINK_DISPUTE_REASONS, type DisputeReason, type DisputeResolution } from '../../../shared/enums';
import type { TimelineKind } from '../../../shared/placement-machine';
import { formatUsd, fromCents, toCents } from '../../../shared/money';
import type { AuditAction } from '../../../shared/org';
import { DISPUTE_REASON_LABELS } from '../../../shared/schemas/fair-terms';
import { payments, placements } from '../../db/schema';
import {
  notifyAutoApproved,
  notifyDeadlineReminder,
  notifyDeclined,
  notifyPaymentReceived,
  notifyPlacement,
  notifyPublicationIssue,
  notifyPublicationRestored,
  notifyRefunded,
  notifyReminder,
  notifyTermsUpdate,
} from '../../mail/notify';
import type { Tx } from '../../mail/outbox';
import type { DeadlineStep } from '../../mail/templates';
import { actorOf, recordAudit, type Actor as AuditActor } from '../org/audit';
import { now as clockNow } from '../../lib/clock';

/**
 * What follows a placement's timeline entry (issue 58, decision 045): the organisation's audit
 * entry and the e-mails, one row per timeline kind in `EFFECTS`. `recordEvent` (and
 * `recordReminderOnce`, when it recorded the step) runs the row of the entry's kind in the
 * entry's own transaction, right after inserting it: no service writes an audit entry or queues a
 * placement's mail itself, so an entry and what it causes can neither disagree nor be forgotten.
 *
 * Each row reads the entry's details, plus `facts`: what the change knows that the entry does not
 * keep (who acted with their address, a deadline, the invoice of a receipt…).
 */

/** What a change knows beyond its entry's details, for its audit entry and its mails. */
export interface EffectFacts {
  /**
   * Who acted, as the audit log names them (a member with the request's address). Default: the
   * entry's user, read from the users table, without an address; Byline's own entries have no audit.
   */
  by?: AuditActor;
  /** paid: the receipt's invoice */
  invoiceNumber?: string | null;
  /** refunded: the payment was released (its article gone), so the admins are told too */
  toAdmins?: boolean;
  /** refunded: the refund is of a swap's top-up, which has no mail of its own */
  topup?: boolean;
  /** published: what the live article's check found, and until when it is watched */
  checks?: string[];
  guaranteeDate?: string | null;
  /** dispute_opened: by when the team answers (none for a dispute about the live link) */
  respondBy?: Date | null;
  /** dispute_answered (offered or rejected): by when the brand accepts or escalates */
  escalateBy?: Date;
}

/** Who an entry names (timeline/service.ts `Actor`). */
type EntryActor = { type: 'brand' | 'admin'; id: string } | { type: 'system' };

/** One entry, as its effects read it. */
export interface PlacementEvent {
  placementId: string;
  kind: TimelineKind;
  actor: EntryActor;
  details: Record<string, unknown>;
  facts: EffectFacts;
}

interface Effect {
  /** The audit entry about the placement (its subject), or null: none this time. */
  audit?: (e: PlacementEvent, tx: Tx) => AuditEntry | null | Promise<AuditEntry | null>;
  /** The mails. */
  mail?: (tx: Tx, e: PlacementEvent) => Promise<void>;
}
type AuditEntry = { action: AuditAction; details?: Record<string, unknown> };

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const day = (iso: string | Date) => (typeof iso === 'string' ? iso : iso.toISOString()).slice(0, 10);

/** What a dispute's resolution tells the brand (an amount, when refunded in part). */
function resolutionHeadline(resolution: DisputeResolution, amount: string | null): string | { text: string; withoutAmount: string } {
  switch (resolution) {
    case 'refunded_full':
      return 'Your dispute was resolved: refunded in full';
    case 'refunded_partial':
      return { text: `Your dispute was resolved: ${formatUsd(amount!)} refunded`, withoutAmount: 'Your dispute was resolved: refunded in part' };
    case 'corrected':
      return 'Your dispute was resolved: the article will be corrected';
    case 'restored':
      return 'Your dispute was resolved: the article was restored';
    case 'rejected':
      return 'Your dispute was resolved: rejected';
  }
}

/**
 * The table: for each kind, the audit entry and the mails that follow it. A kind with `{}` causes
 * nothing beyond its entry. Adding a notification to an existing transition is a change of its row.
 */
export const EFFECTS: Record<TimelineKind, Effect> = {
  paid: {
    // a cart's lines (orderId) are told and audited once for the whole order (payments/orders.ts)
    audit: (e) => (e.details.orderId ? null : { action: 'paid', details: { amountUsd: e.details.amount } }),
    mail: async (tx, e) => {
      if (e.details.orderId) return;
      // a payment sold out while paying gets its refund mail instead of the receipt
      const [pay] = await tx.select({ holdsSlot: payments.holdsSlot }).from(payments).where(eq(payments.id, e.placementId));
      if (pay?.holdsSlot) await notifyPaymentReceived(tx, e.placementId, e.facts.invoiceNumber);
    },
  },
  brief_saved: {},
  brief_submitted: {
    audit: () => ({ action: 'brief_submitted' }),
    mail: (tx, e) => notifyPlacement(tx, e.placementId, 'admin_brief_submitted'),
  },
  draft_attached: {
    // a draft the brand is to review (first attached, or replaced before it answered); one replaced
    // after an edit request is announced by "edits completed"
    mail: async (tx, e) => {
      const [p] = await tx.select({ status: placements.draftReviewStatus }).from(placements).where(eq(placements.id, e.placementId));
      if (p?.status === 'pending_brand_review') await notifyPlacement(tx, e.placementId, 'draft_ready');
    },
  },
  edits_requested: {
    // an accepted extra revision opens its round too: its answer (revision_accepted) is the news
    audit: (e) => (e.details.extra ? null : { action: 'edits_requested' }),
    mail: async (tx, e) => {
      if (!e.details.extra) await notifyPlacement(tx, e.placementId, 'admin_edits_requested');
    },
  },
  edits_completed: { mail: (tx, e) => notifyPlacement(tx, e.placementId, 'edits_complete') },
  approved: {
    audit: (e) => (e.details.automatic ? null : { action: 'draft_approved' }),
    mail: (tx, e) => (e.details.automatic ? notifyAutoApproved(tx, e.placementId) : notifyPlacement(tx, e.placementId, 'admin_draft_approved')),
  },
  published: {
    // what the release skipped is on the organisation's record too (issue 57), with the admin who did it
    audit: (e) => {
      const without = (e.details.without as string[] | undefined) ?? [];
      if (!without.length || e.actor.type !== 'admin') return null;
      const reason = text(e.details.overrideReason);
      return { action: without.includes('approval') ? 'released_without_approval' : 'released_without_live_url', details: reason ? { reason } : {} };
    },
    mail: (tx, e) =>
      notifyPlacement(tx, e.placementId, 'published', {
        liveUrl: text(e.details.url),
        checks: e.facts.checks ?? [],
        guaranteeDate: e.facts.guaranteeDate ?? null,
      }),
  },
  released: {},
  refunded: {
    mail: async (tx, e) => {
      // a swap's top-up has no placement of its own to name: the one it topped up keeps the entry only
      if (e.details.topup || e.facts.topup) return;
      await notifyRefunded(tx, e.placementId, {
        toAdmins: e.facts.toAdmins ?? false,
        amount: text(e.details.amount) ?? undefined,
        ...(e.details.partial ? { note: text(e.details.note) } : {}),
        ...(typeof e.details.lateDay === 'number' ? { lateDay: e.details.lateDay } : {}),
      });
    },
  },
  check_failed: {},
  case_opened: {
    mail: (tx, e) =>
      notifyPublicationIssue(tx, e.placementId, { liveUrl: text(e.details.url)!, reason: text(e.details.reason)!, restoreBy: text(e.details.restoreBy)! }),
  },
  case_closed: {
    mail: async (tx, e) => {
      if (e.details.outcome === 'restored') await notifyPublicationRestored(tx, e.placementId, text(e.details.url)!);
    },
  },
  live_url_changed: {},
  brief_reminder: { mail: (tx, e) => notifyReminder(tx, e.placementId, { kind: 'brief_reminder' }) },
  deadline_reminder: { mail: (tx, e) => notifyDeadlineReminder(tx, e.placementId, e.details.deadline as DeadlineStep, String(e.details.at)) },
  review_reminder: {
    mail: (tx, e) => notifyReminder(tx, e.placementId, { kind: 'review_reminder', autoApproveOn: text(e.details.autoApproveOn) }),
  },
  declined: {
    mail: (tx, e) => notifyDeclined(tx, e.placementId, { reason: text(e.details.reason)!, swapBy: text(e.details.swapBy)! }),
  },
  swapped: {
    // the alternative it moved to (the placement's opportunity now), and what was paid for a dearer one
    audit: async (e, tx) => {
      const [p] = await tx.select({ opportunityId: placements.opportunityId }).from(placements).where(eq(placements.id, e.placementId));
      return { action: 'placement_swapped', details: { opportunityId: p.opportunityId, ...(e.details.paid ? { paidUsd: e.details.amount } : {}) } };
    },
  },
  writing_started: {},
  revision_requested: {
    audit: () => ({ action: 'extra_revision_requested' }),
    mail: (tx, e) => notifyTermsUpdate(tx, e.placementId, 'admins', 'An extra revision was asked for', `${text(e.details.reason)}\n\n${text(e.details.feedback)}`),
  },
  revision_accepted: { mail: (tx, e) => notifyTermsUpdate(tx, e.placementId, 'brand', 'Your extra revision was accepted', null) },
  revision_declined: {
    mail: (tx, e) => notifyTermsUpdate(tx, e.placementId, 'brand', 'Your extra revision was declined', text(e.details.reason)),
  },
  cancel_requested: {
    // before writing it is granted at once (its refund mail follows the refund); after, a request the team answers
    // very late (issue 59), it is granted at once too
    audit: (e) => ({ action: e.details.beforeWriting || e.details.late ? 'placement_cancelled' : 'cancellation_requested' }),
    mail: async (tx, e) => {
      if (e.details.beforeWriting || e.details.late) return;
      await notifyTermsUpdate(tx, e.placementId, 'admins', `Cancellation asked for, answer by ${day(text(e.details.respondBy)!)}`, text(e.details.reason));
    },
  },
  cancel_answered: {
    // granted in full: the refund's own entry (refunded) tells the brand when it is made
    mail: async (tx, e) => {
      if (e.details.outcome === 'refuse') await notifyTermsUpdate(tx, e.placementId, 'brand', 'Your cancellation was refused', text(e.details.reason));
      else if (e.details.outcome === 'refund_partial') await notifyRefunded(tx, e.placementId, { amount: text(e.details.amount)! });
    },
  },
  dispute_opened: {
    audit: () => ({ action: 'dispute_opened' }),
    mail: async (tx, e) => {
      const reason = e.details.reason as DisputeReason;
      const headline = LINK_DISPUTE_REASONS.includes(reason)
        ? 'A dispute about the live link was opened: Byline checks it now'
        : `A dispute was opened, answer by ${day(e.facts.respondBy!)}`;
      await notifyTermsUpdate(tx, e.placementId, 'admins', headline, `${DISPUTE_REASON_LABELS[reason]}. ${text(e.details.text)}`);
    },
  },
  dispute_answered: {
    // accepted: the resolution (dispute_resolved) tells the brand
    mail: async (tx, e) => {
      const action = e.details.action;
      if (action === 'accept') return;
      const reason = text(e.details.reason);
      const by = day(e.facts.escalateBy!);
      if (e.actor.type === 'system') {
        await notifyTermsUpdate(tx, e.placementId, 'brand', `Your dispute was answered by Byline's checks: escalate by ${by} if you disagree`, reason);
        return;
      }
      const amount = text(e.details.amount);
      const offerAmount = action === 'offer' && amount ? fromCents(toCents(amount)) : null;
      const what = action === 'reject' ? 'Your dispute was rejected' : offerAmount ? `You were offered ${formatUsd(offerAmount)} back` : 'You were offered a correction';
      const until = `: accept or escalate by ${by}`;
      await notifyTermsUpdate(
        tx,
        e.placementId,
        'brand',
        offerAmount ? { text: `${what}${until}`, withoutAmount: `You were offered a part refund${until}` } : `${what}${until}`,
        reason,
      );
    },
  },
  dispute_escalated: {
    audit: () => ({ action: 'dispute_escalated' }),
    mail: (tx, e) =>
      notifyTermsUpdate(
        tx,
        e.placementId,
        'admins',
        `A dispute was escalated, decide by ${day(text(e.details.decideBy)!)}`,
        'Only an admin who neither released this placement nor answered the dispute can decide it.',
      ),
  },
  dispute_resolved: {
    mail: (tx, e) =>
      notifyTermsUpdate(
        tx,
        e.placementId,
        'brand',
        resolutionHeadline(e.details.resolution as DisputeResolution, text(e.details.amount)),
        text(e.details.reason),
      ),
  },
};

/** Runs the effects of an entry just inserted, in its transaction (`at`: the audit entry's time). */
export async function runEffects(tx: Tx, e: PlacementEvent, at: Date = clockNow()): Promise<void> {
  const effect = EFFECTS[e.kind];
  const audit = effect.audit && (await effect.audit(e, tx));
  if (audit) {
    const actor = e.facts.by ?? (e.actor.type === 'system' ? null : await actorOf(tx, e.actor.id));
    if (actor) {
      const [p] = await tx.select({ organisationId: placements.organisationId }).from(placements).where(eq(placements.id, e.placementId));
      await recordAudit(tx, { organisationId: p.organisationId, actor, action: audit.action, subject: e.placementId, ...(audit.details ? { details: audit.details } : {}) }, at);
    }
  }
  if (effect.mail) await effect.mail(tx, e);
}
