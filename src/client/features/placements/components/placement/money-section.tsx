import { format } from 'date-fns';
import { Wallet } from 'lucide-react';
import { GUARANTEE_DAYS } from '@shared/constants';
import { formatUsd } from '@shared/money';
import type { MessageSide } from '@shared/messages';
import { shortPaymentId, type PaymentStatus } from '@shared/payment';
import type { PlacementPayment } from '@shared/schemas/brief';
import { DocumentLinks } from '@/components/document-links';
import { RefundButton } from '@/components/refund-button';
import { Badge } from '@/components/ui/badge';
import { PageSection } from './page-section';

const STATE: Record<PaymentStatus, { label: string; variant: 'warning' | 'success' | 'destructive' }> = {
  paid: { label: 'Held in escrow', variant: 'warning' },
  released: { label: 'Released', variant: 'success' },
  refunded: { label: 'Refunded', variant: 'destructive' },
};

/** What the money's state means, for whom it is read. */
function meaning(side: MessageSide, p: PlacementPayment): string {
  const amount = formatUsd(p.amount);
  if (p.status === 'released') return side === 'brand' ? `${amount} was released to the outlet when the article was published.` : `${amount} was released on publication.`;
  if (p.status === 'refunded') return side === 'brand' ? `${amount} was refunded to your card.` : `${amount} was refunded to the brand's card.`;
  return side === 'brand'
    ? `${amount} is held until the article is published. If it is not published within ${GUARANTEE_DAYS} days of payment, you are refunded in full automatically.`
    : `${amount} is held until publication, and refunded to the brand automatically if it is not published within ${GUARANTEE_DAYS} days of payment.`;
}

/**
 * The money of the placement: the amount and its state in words (held in escrow, released,
 * refunded), when it was paid and the provider's reference, the invoice and, once refunded, the
 * credit note. The editorial team can refund it from here as from Payments and Placements.
 */
export function MoneySection({
  side,
  payment: p,
  title,
  brand,
}: {
  side: MessageSide;
  payment: PlacementPayment;
  title: string;
  /** the brand's name, for the admin's refund question */
  brand?: string;
}) {
  const state = STATE[p.status];
  return (
    <PageSection title="Money" icon={<Wallet />} testId="money-section">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-2xl font-semibold tabular-nums" data-testid="money-amount">
          {formatUsd(p.amount)}
        </p>
        <Badge variant={state.variant} data-testid="money-status">
          {state.label}
        </Badge>
      </div>
      <p className="text-sm text-muted-foreground">{meaning(side, p)}</p>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Paid</dt>
        <dd>{format(new Date(p.createdAt), 'MMM dd, yyyy')}</dd>
        <dt className="text-muted-foreground">Payment</dt>
        <dd className="font-mono text-xs leading-5 break-all" title={p.stripePaymentId}>
          {side === 'brand' ? shortPaymentId(p.stripePaymentId) : p.stripePaymentId}
        </dd>
      </dl>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <DocumentLinks base={`/api/${side}/payments`} paymentId={p.id} status={p.status} />
        {side === 'admin' && p.status !== 'refunded' && (
          <RefundButton
            paymentId={p.id}
            amount={p.amount}
            title={title}
            brand={brand ?? 'the brand'}
            question={p.status === 'released' ? 'Refund this placement?' : 'Refund this payment?'}
            consequence={p.status === 'released' ? 'the article is no longer watched' : 'the slot becomes available again'}
          />
        )}
      </div>
    </PageSection>
  );
}
