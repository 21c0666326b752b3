import { format } from 'date-fns';
import type { DisputeReason, DisputeResolution } from '@shared/enums';
import { formatUsd } from '@shared/money';
import {
  DISPUTE_OUTCOME_LABELS,
  DISPUTE_REASON_LABELS,
  type Dispute,
  type DisputeRef,
} from '@shared/schemas/fair-terms';
import type { MessageSide } from '@shared/messages';

export const disputeDay = (iso: string) => format(new Date(iso), 'MMM d, yyyy');
export const disputeMoment = (iso: string) => format(new Date(iso), 'MMM d, yyyy, h:mm a');

type Variant = 'warning' | 'info' | 'success' | 'secondary' | 'destructive';

export const RESOLUTION_LABELS: Record<DisputeResolution, string> = {
  refunded_full: 'Refunded in full',
  refunded_partial: 'Partially refunded',
  corrected: 'Correction agreed',
  restored: 'Article restored',
  rejected: 'Rejected',
};

/** What a dispute (or a card's reference to one) needs to say where it stands. */
type DisputeState = Pick<DisputeRef, 'kind' | 'status' | 'resolution' | 'dueAt'> & {
  /** offered: was it an offer, or a rejection (the card's reference does not say) */
  answered?: 'accept' | 'offer' | 'reject' | null;
};

/** Where a dispute stands, as a badge, in the words of the side reading it. */
export function disputeBadge(d: DisputeState, side: MessageSide): { label: string; variant: Variant } {
  if (d.status === 'resolved') {
    const label = d.resolution ? RESOLUTION_LABELS[d.resolution] : 'Resolved';
    return { label, variant: d.resolution === 'rejected' ? 'secondary' : 'success' };
  }
  if (d.status === 'escalated') return { label: 'Escalated', variant: 'destructive' };
  if (d.status === 'offered') {
    if (side === 'admin') return { label: 'Awaiting the brand', variant: 'info' };
    return d.answered === 'reject'
      ? { label: 'Rejected: accept or escalate', variant: 'warning' }
      : d.answered === 'offer'
        ? { label: 'Offer made', variant: 'warning' }
        : { label: 'Answered', variant: 'warning' };
  }
  if (d.kind === 'link') return { label: 'Checking the link', variant: 'info' };
  return side === 'admin'
    ? { label: 'To answer', variant: 'warning' }
    : { label: 'Awaiting the team', variant: 'info' };
}

/** The next deadline in words ("Answer by Mar 3, 2026"), or null when none applies. */
export function dueLine(d: DisputeState, side: MessageSide): string | null {
  if (d.status === 'resolved') return null;
  if (d.status === 'open' && d.kind === 'link') return 'Byline’s checks decide it';
  if (!d.dueAt) return null;
  const when = disputeDay(d.dueAt);
  if (d.status === 'open') return side === 'brand' ? `The editorial team answers by ${when}` : `Answer by ${when}`;
  if (d.status === 'offered')
    return side === 'brand' ? `Accept or escalate by ${when}` : `The brand answers by ${when}`;
  return `Decision due by ${when}`;
}

/** The deadline that applies now, from a whole dispute. */
export function dueAtOf(d: Dispute): string | null {
  if (d.status === 'open') return d.respondBy;
  if (d.status === 'offered') return d.escalateBy;
  if (d.status === 'escalated') return d.decideBy;
  return null;
}

/** What the brand asked for, in words ("A partial refund of $150.00"). */
export function askedFor(d: Pick<Dispute, 'outcome' | 'amountUsd'>): string {
  return d.outcome === 'refund_partial' && d.amountUsd
    ? `${DISPUTE_OUTCOME_LABELS.refund_partial} of ${formatUsd(d.amountUsd)}`
    : DISPUTE_OUTCOME_LABELS[d.outcome];
}

export const reasonLabel = (r: DisputeReason) => DISPUTE_REASON_LABELS[r];
