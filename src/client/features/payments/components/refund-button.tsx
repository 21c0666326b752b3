import * as React from 'react';
import { formatUsd } from '@shared/money';
import type { AdminPaymentItem } from '@shared/payment';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useRefundPayment } from '../api/admin-payments';

/** Refunds a held payment in full through the provider, after a confirmation. */
export function RefundButton({ payment }: { payment: AdminPaymentItem }) {
  const [open, setOpen] = React.useState(false);
  const refund = useRefundPayment();
  const confirm = () =>
    refund.mutate(payment.id, {
      onSuccess: () => {
        toast({ title: 'Payment refunded', description: `${formatUsd(payment.amount)} has been refunded to the brand.` });
        setOpen(false);
      },
      onError: (err) => toast({ title: 'Refund failed', description: errorMessage(err, 'Failed to refund payment'), variant: 'destructive' }),
    });
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        Refund
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Refund this payment?</DialogTitle>
            <DialogDescription>
              {formatUsd(payment.amount)} for "{payment.opportunity.title}" goes back in full to {payment.user.brandName || payment.user.name || payment.user.email}, and
              the slot becomes available again. This cannot be undone.
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
