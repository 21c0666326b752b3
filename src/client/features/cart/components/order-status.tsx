import { toCents } from '@shared/money';
import type { PaymentStatus } from '@shared/payment';
import type { Order } from '@shared/schemas/cart';
import { Badge } from '@/components/ui/badge';

type Variant = 'success' | 'info' | 'warning' | 'destructive' | 'outline';

const LINE: Record<PaymentStatus, [string, Variant]> = {
  paid: ['In escrow', 'info'],
  released: ['Released', 'success'],
  refunded: ['Refunded', 'destructive'],
};

/** A line's money: held in escrow, released to the outlet (published), or refunded. */
export function LineStatusBadge({ status }: { status: PaymentStatus }) {
  const [label, variant] = LINE[status];
  return (
    <Badge variant={variant} data-testid="order-line-status">
      {label}
    </Badge>
  );
}

type Money = Pick<Order, 'status' | 'paidUsd' | 'heldUsd' | 'releasedUsd' | 'refundedUsd' | 'openDisputes'>;

/**
 * Where an order stands, in one word: awaiting payment, in escrow, released, refunded, or between;
 * an order with a dispute not resolved is not done, whatever its money (issue 57).
 */
function orderState(o: Money): [string, Variant] {
  if (o.status === 'open') return ['Awaiting payment', 'warning'];
  if (o.status === 'expired') return ['Expired', 'outline'];
  if (o.status === 'cancelled') return ['Cancelled', 'outline'];
  if (o.openDisputes > 0) return [o.openDisputes === 1 ? 'Dispute open' : `${o.openDisputes} disputes open`, 'warning'];
  const [held, released, refunded] = [o.heldUsd, o.releasedUsd, o.refundedUsd].map(toCents);
  if (released === 0 && refunded === 0) return ['In escrow', 'info'];
  if (held > 0) return ['In progress', 'info'];
  if (refunded === 0) return ['Released', 'success'];
  if (released === 0) return ['Refunded', 'destructive'];
  return ['Completed', 'success'];
}

export function OrderStatusBadge({ order }: { order: Money }) {
  const [label, variant] = orderState(order);
  return (
    <Badge variant={variant} data-testid="order-status">
      {label}
    </Badge>
  );
}
