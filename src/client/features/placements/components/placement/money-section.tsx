import { format } from 'date-fns';
import { Download, Wallet } from 'lucide-react';
import { GUARANTEE_DAYS } from '@shared/constants';
import { formatUsd, fromCents, toCents } from '@shared/money';
import type { MessageSide } from '@shared/messages';
import { PARTLY_REFUNDED, isPartlyRefunded, leftToRefund, type PaymentStatus } from '@shared/payment';
import type { PlacementPayment } from '@shared/schemas/brief';
import { DocumentLinks } from '@/components/document-links';
import { PartlyRefundedBadge } from '@/components/placement-status';
import { RefundButton } from '@/components/refund-button';
import { Badge } from '@/components/ui/badge';
import { useCreditNotes } from '../../api/get-credit-notes';
import { PageSection } from '@/components/page-section';
import { apiUrl } from '@shared/api-paths';
import { lateCreditSentence } from '@shared/late-credit';
import { useTerms } from '@/lib/terms';

const STATE: Record<PaymentStatus, { label: string; variant: 'warning' | 'success' | 'destructive' }> = {
  paid: { label: 'Held in escrow', variant: 'warning' },
  released: { label: 'Released', variant: 'success' },
  refunded: { label: 'Refunded', variant: 'destructive' },
};

const day = (iso: string) => format(new Date(iso), 'MMM dd, yyyy');

/** What the money's state means, for whom it is read (and what went back, issue 47). */
function meaning(side: MessageSide, p: PlacementPayment): string {
  const amount = formatUsd(p.amount);
  const refunded = formatUsd(p.refundedAmount);
  const card = side === 'brand' ? 'your card' : "the brand's card";
  const part = isPartlyRefunded(p);
  if (p.status === 'released') {
    const released = side === 'brand' ? `${amount} was released to the outlet when the article was published.` : `${amount} was released on publication.`;
    return part ? `${released} ${refunded} of it was refunded to ${card}.` : released;
  }
  if (p.status === 'refunded') {
    // a cancellation granted with a part refund: the rest was kept for the work done
    return part ? `${refunded} of ${amount} was refunded to ${card}; the rest was kept for the work done.` : `${amount} was refunded to ${card}.`;
  }
  if (part) {
    const left = formatUsd(fromCents(leftToRefund(p)));
    return side === 'brand'
      ? `${refunded} of ${amount} was refunded to your card; the other ${left} is held until the article is published. If it is not published within ${GUARANTEE_DAYS} days of payment, that is refunded too, automatically.`
      : `${refunded} of ${amount} was refunded to the brand's card; the other ${left} is held until publication, and refunded automatically if it is not published within ${GUARANTEE_DAYS} days of payment.`;
  }
  return side === 'brand'
    ? `${amount} is held until the article is published. If it is not published within ${GUARANTEE_DAYS} days of payment, you are refunded in full automatically.`
    : `${amount} is held until publication, and refunded to the brand automatically if it is not published within ${GUARANTEE_DAYS} days of payment.`;
}

/** The payment's credit notes (issue 47): one per part refunded, each its own PDF. */
function CreditNotes({ side, paymentId }: { side: MessageSide; paymentId: string }) {
  const notes = useCreditNotes(side, paymentId);
  if (!notes.data?.length) {
    return notes.isError ? <p className="text-sm text-muted-foreground">The credit notes could not be listed. The latest is below.</p> : null;
  }
  return (
    <div className="space-y-1.5">
      <h3 className="text-sm font-medium">Credit notes</h3>
      <ul className="divide-y rounded-lg border text-sm" aria-label="Credit notes" data-testid="credit-notes">
        {notes.data.map((n) => (
          <li key={n.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2" data-testid="credit-note">
            <span className="min-w-0">
              <span className="font-mono text-xs break-all">{n.number}</span>
              <span className="text-muted-foreground"> · {day(n.issuedAt)}</span>
            </span>
            <span className="flex items-center gap-3">
              <span className="font-medium tabular-nums">{formatUsd(n.amountUsd)}</span>
              <a
                href={side === 'admin' ? apiUrl('/api/admin/payments/:paymentId/credit-notes/:noteId', { paymentId, noteId: n.id }) : apiUrl('/api/brand/payments/:paymentId/credit-notes/:noteId', { paymentId, noteId: n.id })}
                download
                className="inline-flex min-h-6 items-center gap-1 rounded-sm text-xs font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                // a distinct name, with the word shown (axe: link-name, label-content-name-mismatch)
                aria-label={`Credit note ${n.number} PDF`}
              >
                <Download className="size-3.5" aria-hidden="true" />
                PDF
              </a>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The money of the placement: the amount and its state in words (held in escrow, released,
 * refunded, in part or in full), when it was paid (and, for the team, the provider's reference), what was refunded
 * and its credit notes, and the invoice. The editorial team can refund it from here as from
 * Payments and Placements.
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
  const label = p.status === 'refunded' && isPartlyRefunded(p) ? PARTLY_REFUNDED : state.label;
  const refunded = toCents(p.refundedAmount) > 0;
  const rules = useTerms().data?.rules;
  return (
    <PageSection title="Money" icon={<Wallet />} testId="money-section">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-2xl font-semibold tabular-nums" data-testid="money-amount">
          {formatUsd(p.amount)}
        </p>
        <div className="flex flex-wrap gap-1.5">
          <Badge variant={state.variant} data-testid="money-status">
            {label}
          </Badge>
          <PartlyRefundedBadge payment={p} />
        </div>
      </div>
      <p className="text-sm text-muted-foreground">{meaning(side, p)}</p>
      {/* issue 59: while held, a placement past its "Live by" date is credited without a claim (its credit notes below) */}
      {p.status === 'paid' && rules && (
        <p className="text-sm text-muted-foreground" data-testid="late-credit-rule">
          {lateCreditSentence({ percent: rules.lateCreditPercent, maxPercent: rules.lateCreditMaxPercent })}, credited automatically; after{' '}
          {rules.lateCancelDays} business days late, {side === 'brand' ? 'you' : 'the brand'} may cancel for all that is left.
        </p>
      )}
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Paid</dt>
        <dd>{day(p.createdAt)}</dd>
        {/* the provider's reference is the team's, to find the charge in the provider's dashboard: a
            brand refers to its invoice (issue 57; Payment History keeps the spec's 20 characters) */}
        {side === 'admin' && (
          <>
            <dt className="text-muted-foreground">Payment</dt>
            <dd className="font-mono text-xs leading-5 break-all" data-testid="money-provider-ref">
              {p.stripePaymentId}
            </dd>
          </>
        )}
        {refunded && (
          <>
            <dt className="text-muted-foreground">Refunds</dt>
            <dd className="tabular-nums" data-testid="money-refunded">
              {formatUsd(p.refundedAmount)} refunded
            </dd>
          </>
        )}
      </dl>
      {refunded && <CreditNotes side={side} paymentId={p.id} />}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <DocumentLinks side={side} paymentId={p.id} status={p.status} refundedAmount={p.refundedAmount} />
        {side === 'admin' && p.status !== 'refunded' && (
          <RefundButton
            paymentId={p.id}
            amount={p.amount}
            refundedAmount={p.refundedAmount}
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
