import * as React from 'react';
import type { PurchaseRequest } from '@shared/schemas/org';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useDeclinePurchase } from '../api/budget';

/** Declining a purchase request asks why; the requester reads the reason. */
export function DeclineDialog({ request, onClose }: { request: PurchaseRequest | null; onClose: () => void }) {
  const [reason, setReason] = React.useState('');
  const [error, setError] = React.useState<string | undefined>();
  const decline = useDeclinePurchase();
  const close = () => {
    setReason('');
    setError(undefined);
    onClose();
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!request) return;
    setError(undefined);
    decline.mutate(
      { id: request.id, reason },
      {
        onSuccess: () => {
          toast({ title: 'Request declined', description: `${request.requestedBy.name || request.requestedBy.email} is told why.` });
          close();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 400 && err.errors?.reason) setError(err.errors.reason);
          else toast({ title: 'Error', description: errorMessage(err, 'Failed to decline the request'), variant: 'destructive' });
        },
      },
    );
  };
  return (
    <Dialog open={request !== null} onOpenChange={(o) => !o && !decline.isPending && close()}>
      <DialogContent data-testid="decline-dialog">
        <form onSubmit={submit} noValidate className="space-y-4">
          <DialogHeader>
            <DialogTitle>Decline this purchase?</DialogTitle>
            <DialogDescription>
              {request ? `${request.outletName}: ${request.title}, requested by ${request.requestedBy.name || request.requestedBy.email}.` : ''}
            </DialogDescription>
          </DialogHeader>
          <FormField id="decline-reason" label="Reason" error={error} hint="The requester sees it.">
            <Textarea
              id="decline-reason"
              rows={3}
              maxLength={1000}
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                setError(undefined);
              }}
              aria-invalid={Boolean(error)}
              aria-describedby={error ? 'decline-reason-error' : undefined}
            />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={close} disabled={decline.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={decline.isPending}>
              {decline.isPending ? 'Declining...' : 'Decline'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
