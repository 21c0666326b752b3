import * as React from 'react';
import { Send } from 'lucide-react';
import { formatUsd } from '@shared/money';
import { paymentIdTail } from '@shared/payment';
import type { AdminOpportunityItem } from '@shared/opportunity';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { useHeldPayments, useReleasePayment } from '../api/payments';
import { Spinner } from '@/components/ui/spinner';

/** Releases one of the opportunity's held payments once its article is published. */
export function MarkPublishedButton({ o }: { o: AdminOpportunityItem }) {
  const [open, setOpen] = React.useState(false);
  const { data: held = [], isLoading } = useHeldPayments(o.id, open);
  const [chosen, setChosen] = React.useState<string | null>(null);
  const release = useReleasePayment();

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) setChosen(null);
  };
  const onRelease = () => {
    if (!chosen) return;
    release.mutate(chosen, {
      onSuccess: () => {
        toast({ title: 'Payment released', description: 'The payment has been marked as released' });
        onOpenChange(false);
      },
      onError: (err) => toast({ title: 'Release failed', description: errorMessage(err, 'Failed to release payment'), variant: 'destructive' }),
    });
  };

  return (
    <>
      <Button variant="outline" size="sm" disabled={!o.hasPayments} onClick={() => setOpen(true)} aria-label={`Mark Published ${o.title}`}>
        <Send /> Mark Published
      </Button>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Mark as Published</DialogTitle>
            <DialogDescription>Select a payment to release for this opportunity</DialogDescription>
          </DialogHeader>
          {isLoading ? (
            <Spinner className="mx-auto" label="Loading payments" />
          ) : held.length === 0 ? (
            <p className="text-sm text-muted-foreground">No payment of this opportunity is held in escrow.</p>
          ) : (
            <div role="radiogroup" aria-label="Held payments" className="space-y-2">
              {held.map((p) => (
                <button
                  key={p.id}
                  type="button"
                  role="radio"
                  aria-checked={chosen === p.id}
                  onClick={() => setChosen(p.id)}
                  className={cn(
                    'flex w-full cursor-pointer items-center justify-between gap-3 rounded-lg border p-3 text-left text-sm transition-colors hover:bg-accent',
                    chosen === p.id && 'border-primary bg-primary/5 ring-1 ring-primary',
                  )}
                >
                  <span className="min-w-0">
                    <span className="block font-mono font-semibold">…{paymentIdTail(p.stripePaymentId)}</span>
                    <span className="block truncate text-muted-foreground">{p.user.brandName || p.user.name || p.user.email}</span>
                  </span>
                  <span className="font-semibold tabular-nums">{formatUsd(p.amount)}</span>
                </button>
              ))}
            </div>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button onClick={onRelease} disabled={!chosen || release.isPending}>
              {release.isPending ? 'Releasing...' : 'Release Payment'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
