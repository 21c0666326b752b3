import * as React from 'react';
import { useMutation } from '@tanstack/react-query';
import { formatUsd } from '@shared/money';
import type { PaymentDto } from '@shared/payment';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { queryClient } from '@/lib/query-client';

/** Every admin screen a refund changes: the money moved, a slot may be free, a watch ends, the timeline grows. */
const REFUND_CHANGES = [
  '/api/admin/payments',
  '/api/admin/payments/totals',
  '/api/admin/opportunities',
  '/api/admin/projects',
  '/api/admin/placements',
  '/api/admin/placements/counts',
  '/api/projects/timeline',
];

/**
 * Refunds a payment in full through the provider, after a confirmation that says what goes back,
 * to whom and what follows (Payments: a held payment; Placements: a published one).
 */
export function RefundButton({
  paymentId,
  amount,
  title,
  brand,
  question,
  consequence,
}: {
  paymentId: string;
  amount: string;
  /** the opportunity's title */
  title: string;
  brand: string;
  /** the dialog's title */
  question: string;
  /** what happens besides the money, e.g. "the slot becomes available again" */
  consequence: string;
}) {
  const [open, setOpen] = React.useState(false);
  const refund = useMutation({
    mutationFn: () => apiRequest<PaymentDto>('POST', `/api/admin/payments/${paymentId}/refund`),
    onSettled: () => {
      for (const key of REFUND_CHANGES) void queryClient.invalidateQueries({ queryKey: [key] });
    },
  });
  const confirm = () =>
    refund.mutate(undefined, {
      onSuccess: () => {
        toast({ title: 'Payment refunded', description: `${formatUsd(amount)} has been refunded to the brand.` });
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
            <DialogTitle>{question}</DialogTitle>
            <DialogDescription>
              {formatUsd(amount)} for "{title}" goes back in full to {brand}, and {consequence}. This cannot be undone.
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
