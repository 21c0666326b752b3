// Relative imports on purpose: the unit tests run without the client's path aliases.
import { formatUsd } from '../../../../../shared/money';
import { releasedWithoutText } from '../../../../../shared/publication';
import type { TimelineEntry } from '../../../../../shared/timeline';

/** What one timeline line says: a sentence, and maybe a quoted text or a link. */
export interface TimelineLine {
  sentence: string;
  quote?: string;
  link?: string;
}

// details come from the server as JSON: each is read defensively, a missing one leaves its words out
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const money = (v: unknown) => {
  try {
    return typeof v === 'string' || typeof v === 'number' ? formatUsd(v) : null;
  } catch {
    return null;
  }
};
const httpUrl = (v: unknown) => {
  const s = str(v);
  if (!s) return null;
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
};

const REFUND_REASONS: Record<string, string> = {
  guarantee: 'not published within the guarantee',
  admin: 'by the editorial team',
  sold_out: 'sold out while paying',
  provider: 'through the card provider',
  not_restored: 'the live article was not restored in time',
  declined: 'declined by the outlet, no alternative chosen in time',
  swap: 'the difference of a swap',
  cancelled: 'cancelled by the brand',
  dispute: 'a dispute decided for the brand',
  late_credit: 'late credit, Byline is late',
  late_cancel: 'cancelled by the brand, Byline very late',
};

const reminderDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** The human sentence of a timeline entry, per kind. */
export function timelineLine(e: TimelineEntry): TimelineLine {
  const d = e.details ?? {};
  const round = num(d.round);
  const url = httpUrl(d.url);
  switch (e.kind) {
    case 'paid': {
      const amount = money(d.amount);
      return { sentence: amount ? `Paid ${amount}` : 'Paid' };
    }
    case 'brief_saved':
      return { sentence: 'Brief started' };
    case 'brief_submitted':
      return { sentence: 'Brief submitted' };
    case 'draft_attached':
      return { sentence: round ? `Draft attached (round ${round})` : 'Draft attached' };
    case 'edits_requested': {
      // issue 47: which of the included rounds (or an extra one the editorial team accepted)
      const n = num(d.revision);
      const of = num(d.included);
      return { sentence: n && of !== null ? `Edits requested (revision ${n} of ${of})` : 'Edits requested', quote: str(d.feedback) ?? undefined };
    }
    case 'revision_requested':
      return { sentence: 'Extra revision asked for, awaiting the editorial team', quote: str(d.reason) ?? undefined };
    case 'revision_accepted':
      return { sentence: 'Extra revision accepted by the editorial team' };
    case 'revision_declined':
      return { sentence: 'Extra revision declined by the editorial team', quote: str(d.reason) ?? undefined };
    case 'writing_started':
      return { sentence: 'Writing started' };
    case 'cancel_requested':
      return { sentence: 'Cancellation asked for', quote: str(d.reason) ?? undefined };
    case 'dispute_opened':
      return { sentence: 'Dispute opened', quote: str(d.text) ?? undefined };
    case 'dispute_answered': {
      const action = str(d.action);
      const amount = money(d.amount);
      const sentence =
        action === 'accept'
          ? 'Dispute accepted by the editorial team'
          : action === 'offer'
            ? `Dispute answered with an offer${amount ? ` of ${amount}` : ' of a correction'}`
            : e.actor.type === 'system'
              ? 'Dispute answered by Byline’s checks: no problem found'
              : 'Dispute rejected by the editorial team';
      return { sentence, quote: str(d.reason) ?? undefined };
    }
    case 'dispute_escalated':
      return { sentence: 'Dispute escalated within the editorial team' };
    case 'dispute_resolved': {
      const amount = money(d.amount);
      const resolution = str(d.resolution);
      const what: Record<string, string> = {
        refunded_full: 'refunded in full',
        refunded_partial: amount ? `${amount} refunded` : 'refunded in part',
        corrected: 'a correction agreed',
        restored: 'the article restored',
        rejected: 'rejected',
      };
      return { sentence: `Dispute resolved${resolution && what[resolution] ? `: ${what[resolution]}` : ''}`, quote: str(d.reason) ?? undefined };
    }
    case 'cancel_answered': {
      const amount = money(d.amount);
      const outcome = str(d.outcome);
      const sentence =
        outcome === 'refuse'
          ? 'Cancellation refused'
          : d.byDeadline === true
            ? `Cancellation granted${amount ? ` (${amount} refunded)` : ''}: not answered in time`
            : `Cancellation granted${amount ? ` (${amount} refunded)` : ''}`;
      return { sentence, quote: str(d.reason) ?? undefined };
    }
    case 'edits_completed':
      return { sentence: 'Edits marked complete' };
    case 'approved':
      return { sentence: e.actor.type === 'system' ? 'Draft approved automatically' : 'Draft approved' };
    case 'published': {
      // the spec's release call checks no page (issue 57): said, with the approval it went without
      const without = releasedWithoutText(Array.isArray(d.without) ? d.without : []);
      if (without) return { sentence: without, quote: str(d.overrideReason) ?? undefined };
      return { sentence: 'Published', link: url ?? undefined };
    }
    case 'released': {
      const amount = money(d.amount);
      return { sentence: amount ? `Payment released (${amount})` : 'Payment released' };
    }
    case 'refunded': {
      const amount = money(d.amount);
      const reason = str(d.reason);
      if (d.partial === true) return { sentence: `Refunded ${amount ?? 'a part'} of the payment`, quote: str(d.note) ?? undefined };
      return {
        sentence: `Refunded${amount ? ` ${amount}` : ''}${reason ? `: ${REFUND_REASONS[reason] ?? reason}` : ''}`,
      };
    }
    case 'check_failed': {
      const problems = Array.isArray(d.problems) ? d.problems.filter((p): p is string => typeof p === 'string') : [];
      return {
        sentence: problems.length
          ? `Check of the live article failed: ${problems.join('; ')}`
          : 'Check of the live article failed',
        link: url ?? undefined,
      };
    }
    case 'case_opened': {
      const reason = str(d.reason);
      const by = str(d.restoreBy);
      const date =
        by && !Number.isNaN(Date.parse(by))
          ? new Date(by).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })
          : null;
      return {
        sentence: `Case opened${reason ? `: ${reason}` : ''}${date ? ` (to be restored by ${date})` : ''}`,
        link: url ?? undefined,
      };
    }
    case 'case_closed':
      return {
        sentence: str(d.outcome) === 'restored' ? 'Case closed: the live article is back' : 'Case closed',
        link: url ?? undefined,
      };
    case 'live_url_changed':
      return { sentence: 'Live article link changed', link: url ?? undefined };
    case 'brief_reminder': {
      const day = num(d.day);
      return { sentence: day ? `Reminder sent: the brief is still missing ${day} days after payment` : 'Reminder sent' };
    }
    case 'review_reminder': {
      // the date Byline approves the draft by itself is told, not hidden
      const on = str(d.autoApproveOn);
      const day = on && !Number.isNaN(Date.parse(on)) ? reminderDate.format(new Date(on)) : null;
      return { sentence: day ? `Reminder sent: the draft will be approved automatically on ${day}` : 'Reminder sent: the draft waits for review' };
    }
    case 'deadline_reminder': {
      // issue 59: what happens on its own, and when, said before it happens
      const on = str(d.at);
      const day = on && !Number.isNaN(Date.parse(on)) ? reminderDate.format(new Date(on)) : null;
      const step = str(d.deadline);
      const what =
        step === 'guarantee'
          ? 'refunded in full unless published'
          : step === 'cancellation'
            ? 'the cancellation is granted unless answered'
            : 'refunded in full unless an alternative is chosen';
      return { sentence: `Reminder sent: ${what}${day ? ` by ${day}` : ''}` };
    }
    case 'declined': {
      const by = str(d.swapBy);
      const day = by && !Number.isNaN(Date.parse(by)) ? reminderDate.format(new Date(by)) : null;
      return { sentence: `Declined by the outlet${day ? `: choose an alternative by ${day}` : ''}`, quote: str(d.reason) ?? undefined };
    }
    case 'swapped': {
      const to = str(d.toOutlet);
      const amount = money(d.amount);
      const money_ = amount ? ` (${amount} ${d.paid === true ? 'paid' : 'refunded'})` : '';
      return { sentence: `Swapped${to ? ` for ${to}` : ''}${money_}${e.actor.type === 'system' ? ' automatically' : ''}` };
    }
    default:
      return { sentence: String(e.kind).replace(/_/g, ' ') };
  }
}
