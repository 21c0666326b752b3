import * as React from 'react';
import { format, formatDistanceToNow } from 'date-fns';
import { formatUsd } from '@shared/money';
import type { PurchaseRequest } from '@shared/schemas/org';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useApprovePurchase, usePayRequest } from '../api/budget';

const STATUS: Record<PurchaseRequest['status'], { label: string; variant: 'warning' | 'success' | 'destructive' | 'secondary' | 'info' }> = {
  pending: { label: 'Pending', variant: 'warning' },
  approved: { label: 'Approved', variant: 'success' },
  declined: { label: 'Declined', variant: 'destructive' },
  expired: { label: 'Expired', variant: 'secondary' },
  paid: { label: 'Paid', variant: 'info' },
};

const day = (iso: string) => format(new Date(iso), 'MMM d, yyyy');

/**
 * One purchase request: the placement, its price, who asked and when, until when. An approver
 * approves or declines another member's pending request; the requester pays an approved one.
 */
export function PurchaseRequestRow({
  request: r,
  mine,
  canDecide,
  onDecline,
}: {
  request: PurchaseRequest;
  mine: boolean;
  canDecide: boolean;
  onDecline: (r: PurchaseRequest) => void;
}) {
  const approve = useApprovePurchase();
  const pay = usePayRequest();
  const [redirecting, setRedirecting] = React.useState(false);
  const who = r.requestedBy.name || r.requestedBy.email;
  const status = STATUS[r.status];
  const onApprove = () =>
    approve.mutate(r.id, {
      onSuccess: () => toast({ title: 'Request approved', description: `${who} can now pay for ${r.outletName}.` }),
      onError: (err) => toast({ title: 'Error', description: errorMessage(err, 'Failed to approve the request'), variant: 'destructive' }),
    });
  const onPay = () =>
    pay.mutate(r, {
      onSuccess: ({ url }) => {
        setRedirecting(true);
        window.location.assign(url);
      },
      onError: (err) => toast({ title: 'Checkout failed', description: errorMessage(err, 'Failed to create checkout session'), variant: 'destructive' }),
    });
  const decidable = canDecide && !mine && r.status === 'pending';
  const payable = mine && r.status === 'approved';
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between" data-testid="purchase-request">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="min-w-0 font-medium wrap-anywhere">{r.title}</p>
          <Badge variant={status.variant}>{status.label}</Badge>
        </div>
        <p className="text-sm text-muted-foreground wrap-anywhere">{r.outletName}</p>
        <p className="text-sm">
          <span className="font-semibold tabular-nums">{formatUsd(r.amountUsd)}</span>
          <span className="text-muted-foreground">
            {' · '}
            {mine ? 'requested by you' : `requested by ${who}`} {formatDistanceToNow(new Date(r.createdAt), { addSuffix: true })}
          </span>
        </p>
        {(r.status === 'pending' || r.status === 'approved') && (
          <p className="text-xs text-muted-foreground">
            {r.status === 'pending' ? 'Waits for a decision until' : 'Pay by'} {day(r.expiresAt)}
          </p>
        )}
        {r.status === 'expired' && <p className="text-xs text-muted-foreground">Expired {day(r.expiresAt)}</p>}
        {r.decidedBy && r.status !== 'pending' && (
          <p className="text-xs text-muted-foreground wrap-anywhere">
            {r.status === 'declined' ? 'Declined' : 'Approved'} by {r.decidedBy.name || r.decidedBy.email}
            {r.decidedAt ? ` on ${day(r.decidedAt)}` : ''}
          </p>
        )}
        {r.reason && (
          <p className="rounded-md bg-muted/50 px-2 py-1 text-sm wrap-anywhere" data-testid="decline-reason">
            “{r.reason}”
          </p>
        )}
      </div>
      {(decidable || payable) && (
        <div className="grid grid-cols-2 gap-2 sm:flex sm:shrink-0">
          {decidable && (
            <>
              <Button size="sm" onClick={onApprove} disabled={approve.isPending}>
                {approve.isPending ? 'Approving...' : 'Approve'}
              </Button>
              <Button size="sm" variant="outline" onClick={() => onDecline(r)} disabled={approve.isPending}>
                Decline
              </Button>
            </>
          )}
          {payable && (
            <Button size="sm" className="col-span-2" onClick={onPay} disabled={pay.isPending || redirecting}>
              {pay.isPending || redirecting ? 'Processing...' : 'Pay now'}
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
