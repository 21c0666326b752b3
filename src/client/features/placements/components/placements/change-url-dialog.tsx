import * as React from 'react';
import { SearchCheck } from 'lucide-react';
import type { LivePlacementItem, PublicationCheck } from '@shared/publication';
import { CheckResult } from '@/components/publication/check-result';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useChangeLiveUrl, usePreviewCheck } from '../../api/admin-placements';

/** What the dialog names and changes: the placement, and its live URL now. */
type UrlOf = Pick<LivePlacementItem, 'paymentId' | 'title' | 'outletName'> & { publication: Pick<LivePlacementItem['publication'], 'url'> };

/**
 * Moves a placement to a new live URL (the outlet moved the article), or gives the URL of one
 * released without a link. "Check article" previews the page without changing anything; Save checks
 * it again and, when the server finds problems, shows them and asks for a reason to save anyway.
 */
export function ChangeUrlDialog({
  placement,
  open,
  onOpenChange,
}: {
  placement: UrlOf;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* the content (and so the form's state) is mounted afresh each time the dialog opens */}
      <DialogContent>
        <ChangeUrlForm placement={placement} close={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ChangeUrlForm({ placement, close }: { placement: UrlOf; close: () => void }) {
  const current = placement.publication.url;
  const [url, setUrl] = React.useState(current ?? '');
  const [reason, setReason] = React.useState('');
  // the check shown under the URL: a preview the admin asked for, or the one a refused save carried
  const [check, setCheck] = React.useState<PublicationCheck | null>(null);
  // the last save of this URL was refused for its problems
  const [refused, setRefused] = React.useState(false);
  // once asked for, the reason stays on screen: nothing is sent that the admin cannot see
  const [reasonOpen, setReasonOpen] = React.useState(false);
  const [error, setError] = React.useState<string | undefined>();
  const preview = usePreviewCheck();
  const save = useChangeLiveUrl();
  const id = React.useId();

  const trimmed = url.trim();
  const busy = preview.isPending || save.isPending;

  const runCheck = () => {
    if (!trimmed) return;
    setError(undefined);
    preview.mutate(
      { paymentId: placement.paymentId, liveUrl: trimmed },
      {
        onSuccess: setCheck,
        onError: (err) => setError(errorMessage(err, 'The check could not be run')),
      },
    );
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!trimmed) {
      // the server's own words (LIVE_URL_MESSAGE); not imported, as its module brings zod along
      setError('Enter the address of the live article (https://…)');
      return;
    }
    setError(undefined);
    const overrideReason = reasonOpen ? reason.trim() : '';
    save.mutate(
      { paymentId: placement.paymentId, body: { liveUrl: trimmed, ...(overrideReason ? { overrideReason } : {}) } },
      {
        onSuccess: () => {
          toast({
            title: 'Live URL updated',
            description: 'The article was checked and is watched at its new address.',
          });
          close();
        },
        onError: (err) => {
          const found =
            err instanceof ApiError && err.status === 409
              ? (err.body?.check as PublicationCheck | undefined)
              : undefined;
          if (found) {
            setCheck(found);
            setRefused(true);
            setReasonOpen(true);
          } else {
            setError(errorMessage(err, 'Failed to update the live URL'));
          }
        },
      },
    );
  };

  return (
    <form onSubmit={submit} className="grid min-w-0 gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>{current ? 'Change live URL' : 'Add live URL'}</DialogTitle>
        <DialogDescription>
          "{placement.title}" on {placement.outletName}. The page is checked before it is saved, then watched until the
          guarantee ends.
        </DialogDescription>
      </DialogHeader>

      <FormField id={`${id}-url`} label="Live article URL" error={error}>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://outlet.com/the-article"
            value={url}
            disabled={save.isPending}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? `${id}-url-error` : undefined}
            onChange={(e) => {
              setUrl(e.target.value);
              setError(undefined);
              // another address needs its own check (a reason already typed stays on screen)
              setCheck(null);
              setRefused(false);
            }}
          />
          <Button type="button" variant="outline" className="shrink-0" onClick={runCheck} disabled={busy || !trimmed}>
            <SearchCheck /> {preview.isPending ? 'Checking...' : 'Check article'}
          </Button>
        </div>
      </FormField>

      {check && (
        <div className="min-w-0 space-y-2 rounded-md border bg-muted/40 p-3" data-testid="url-check">
          {refused && (
            <p role="alert" className="text-sm font-medium text-destructive">
              The page has problems. Give a reason to save it anyway.
            </p>
          )}
          {check.title && <p className="text-sm font-medium break-words">{check.title}</p>}
          <CheckResult check={check} />
        </div>
      )}

      {reasonOpen && (
        <FormField
          id={`${id}-reason`}
          label="Reason"
          hint="Why this address is accepted despite its problems. Kept with the placement."
        >
          <Textarea
            id={`${id}-reason`}
            value={reason}
            maxLength={1000}
            disabled={save.isPending}
            onChange={(e) => setReason(e.target.value)}
          />
        </FormField>
      )}

      <DialogFooter>
        <Button type="button" variant="outline" onClick={close} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy || !trimmed || (refused && !reason.trim())}>
          {save.isPending ? 'Saving...' : reasonOpen && reason.trim() ? 'Save anyway' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}
