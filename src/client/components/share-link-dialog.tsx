import * as React from 'react';
import { useMutation } from '@tanstack/react-query';
import { format } from 'date-fns';
import { Check, Copy, Link2 } from 'lucide-react';
import { SHARE_DAYS_DEFAULT, SHARE_DAYS_MAX } from '@shared/reports';
import type { Share } from '@shared/schemas/reports';
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
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { ApiError, apiRequest, errorMessage } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { apiUrl } from '@shared/api-paths';

/** The organisation's share links (GET /api/org/shares), read by the Reports page. */
export const sharesKey = [apiUrl('/api/org/shares')];
export type ShareLink = Share;

type Created = { id: string; url: string; expiresAt: string };

function ShareLinkForm({ endpoint, onClose }: { endpoint: string; onClose: () => void }) {
  const [days, setDays] = React.useState(String(SHARE_DAYS_DEFAULT));
  const [error, setError] = React.useState<string | undefined>();
  const [copied, setCopied] = React.useState(false);
  const urlField = React.useRef<HTMLInputElement>(null);
  const create = useMutation({
    mutationFn: (expiresInDays: number) => apiRequest<Created>('POST', endpoint, { expiresInDays }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharesKey }),
  });
  const link = create.data;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const n = Number(days);
    if (!Number.isInteger(n) || n < 1 || n > SHARE_DAYS_MAX) {
      setError(`A number of days from 1 to ${SHARE_DAYS_MAX}`);
      return;
    }
    setError(undefined);
    create.mutate(n, {
      onError: (err) =>
        setError(
          err instanceof ApiError && err.errors?.expiresInDays
            ? err.errors.expiresInDays
            : errorMessage(err, 'Failed to create the link'),
        ),
    });
  };

  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(true);
      toast({ title: 'Link copied', description: 'The link is on your clipboard.' });
    } catch {
      urlField.current?.select();
      toast({ title: 'Copy failed', description: 'Select the link and copy it yourself.', variant: 'destructive' });
    }
  };

  if (link)
    return (
      <div className="space-y-4">
        <FormField id="share-url" label="Link" hint="Anyone with the link can open it without signing in.">
          <div className="flex gap-2">
            <Input
              ref={urlField}
              id="share-url"
              readOnly
              value={link.url}
              onFocus={(e) => e.currentTarget.select()}
              data-testid="share-url"
              className="min-w-0 flex-1"
            />
            <Button type="button" variant="outline" onClick={() => void copy()}>
              {copied ? <Check /> : <Copy />} {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
        </FormField>
        <p className="text-sm" data-testid="share-expires">
          Expires on <span className="font-medium">{format(new Date(link.expiresAt), 'MMM d, yyyy')}</span>. You can
          revoke it sooner on the Reports page.
        </p>
        <DialogFooter>
          <Button type="button" onClick={onClose}>
            Done
          </Button>
        </DialogFooter>
      </div>
    );

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField
        id="share-days"
        label="Expires after (days)"
        error={error}
        hint={`From 1 to ${SHARE_DAYS_MAX} days. You can revoke the link at any time.`}
      >
        <Input
          id="share-days"
          type="number"
          inputMode="numeric"
          min={1}
          max={SHARE_DAYS_MAX}
          value={days}
          onChange={(e) => {
            setDays(e.target.value);
            setError(undefined);
          }}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? 'share-days-error' : undefined}
          className="sm:w-40"
        />
      </FormField>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          <Link2 /> {create.isPending ? 'Creating...' : 'Create link'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * A link that opens a report or a placement's proof signed out, until it expires or is revoked:
 * the days it lasts, then the link to copy. `endpoint` is the POST that makes it.
 */
export function ShareLinkDialog({
  open,
  onOpenChange,
  endpoint,
  title,
  description,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  endpoint: string;
  title: string;
  description: React.ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="share-dialog">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <ShareLinkForm endpoint={endpoint} onClose={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
