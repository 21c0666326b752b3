import * as React from 'react';
import { formatUsd } from '@shared/money';
import type { AdminPlacementItem } from '@shared/publication';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useRefundPlacement } from '../../api/admin-placements';
import { brandLabel } from './brand-label';

/** Refunds a published placement in full through the provider, after a confirmation; its watch ends. */
export function RefundPlacementButton({ placement }: { placement: AdminPlacementItem }) {
  const [open, setOpen] = React.useState(false);
  const refund = useRefundPlacement();
  const confirm = () =>
    refund.mutate(placement.paymentId, {
      onSuccess: () => {
        toast({
          title: 'Payment refunded',
          description: `${formatUsd(placement.amount)} has been refunded to the brand.`,
        });
        setOpen(false);
      },
      onError: (err) =>
        toast({
          title: 'Refund failed',
          description: errorMessage(err, 'Failed to refund payment'),
          variant: 'destructive',
        }),
    });
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        Refund
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Refund this placement?</DialogTitle>
            <DialogDescription>
              {formatUsd(placement.amount)} for "{placement.title}" goes back in full to {brandLabel(placement.brand)},
              and the article is no longer watched. This cannot be undone.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)} disabled={refund.isPending}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={confirm} disabled={refund.isPending}>
              {refund.isPending ? 'Refunding...' : 'Refund payment'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
