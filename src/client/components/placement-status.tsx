import { PARTLY_REFUNDED, isPartlyRefunded, type PlacementStatus } from '@shared/payment';
import { Badge } from '@/components/ui/badge';

const VARIANT = {
  Pending: 'warning',
  'Needs Review': 'info',
  'Approved – awaiting publication': 'success',
  Released: 'success',
  Refunded: 'destructive',
  [PARTLY_REFUNDED]: 'destructive',
} as const satisfies Record<PlacementStatus, string>;

/** A placement's status badge (shared/payment.ts `placementStatus`): the same words and colour on every screen. */
export function PlacementStatusBadge({ status, testId }: { status: PlacementStatus; testId?: string }) {
  return (
    <Badge variant={VARIANT[status]} data-testid={testId}>
      {status}
    </Badge>
  );
}

/**
 * "Partially refunded" beside the status of a payment still held or released of which a part went
 * back (issue 47). A refunded one says it in its status instead (`placementStatus`), so nothing here;
 * nor for a payment read without its amounts (a client reviewer's, decision 035).
 */
export function PartlyRefundedBadge({ payment }: { payment: { status: string; amount?: string; refundedAmount?: string } }) {
  if (payment.status === 'refunded' || !isPartlyRefunded(payment)) return null;
  return (
    <Badge variant={VARIANT[PARTLY_REFUNDED]} data-testid="partly-refunded">
      {PARTLY_REFUNDED}
    </Badge>
  );
}
