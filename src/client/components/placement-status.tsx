import type { PlacementStatus } from '@shared/payment';
import { Badge } from '@/components/ui/badge';

const VARIANT = {
  Pending: 'warning',
  'Needs Review': 'info',
  'Approved – awaiting publication': 'success',
  Released: 'success',
  Refunded: 'destructive',
} as const satisfies Record<PlacementStatus, string>;

/** A placement's status badge (shared/payment.ts `placementStatus`): the same words and colour on every screen. */
export function PlacementStatusBadge({ status, testId }: { status: PlacementStatus; testId?: string }) {
  return (
    <Badge variant={VARIANT[status]} data-testid={testId}>
      {status}
    </Badge>
  );
}
