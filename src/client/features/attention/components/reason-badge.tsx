import { format } from 'date-fns';
import type { AttentionReason } from '@shared/attention';
import { Badge } from '@/components/ui/badge';

const day = (iso: string) => format(new Date(iso), 'MMM d, yyyy');

/** One reason a placement waits on the team, as a badge: money at stake in red, the rest in amber or blue. */
export function ReasonBadge({ reason }: { reason: AttentionReason }) {
  switch (reason.kind) {
    case 'open_case':
      return <Badge variant="destructive">Open case: restore by {day(reason.restoreBy)}</Badge>;
    case 'guarantee_near':
      return <Badge variant="destructive">Guarantee refund on {day(reason.refundAt)}</Badge>;
    case 'overdue':
      return <Badge variant="warning">Overdue</Badge>;
    case 'unread_messages':
      return (
        <Badge variant="info">
          {reason.count} unread {reason.count === 1 ? 'message' : 'messages'}
        </Badge>
      );
    case 'edits_requested':
      return <Badge variant="warning">Edits requested</Badge>;
    case 'approved_unpublished':
      return <Badge variant="success">Approved, not published</Badge>;
    case 'answer_due': {
      const what = { cancellation: 'Cancellation', dispute: 'Dispute', decision: 'Escalated dispute', extra_revision: 'Extra revision' }[reason.what];
      // missed, the brand gets what it asked for: money at stake
      return reason.dueAt ? (
        <Badge variant="destructive">
          {what}: {reason.what === 'decision' ? 'decide' : 'answer'} by {day(reason.dueAt)}
        </Badge>
      ) : (
        <Badge variant="warning">{what} to answer</Badge>
      );
    }
  }
}
