import * as React from 'react';
import { format } from 'date-fns';
import { Check, Copy, Link2 } from 'lucide-react';
import type { ShareLink } from '@/components/share-link-dialog';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useRevokeShare, useShares } from '../api/reports';

const day = (iso: string) => format(new Date(iso), 'MMM d, yyyy');

type State = 'active' | 'expired' | 'revoked';
const stateOf = (s: ShareLink, now: number): State =>
  s.revokedAt ? 'revoked' : new Date(s.expiresAt).getTime() <= now ? 'expired' : 'active';
const STATE_BADGE = {
  active: { label: 'Active', variant: 'success' },
  expired: { label: 'Expired', variant: 'secondary' },
  revoked: { label: 'Revoked', variant: 'destructive' },
} as const;

/** An active link copied again (issue 57): to send it to someone else without making another. */
function CopyLinkButton({ url, subject }: { url: string; subject: string }) {
  const [copied, setCopied] = React.useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      toast({ title: 'Link copied', description: 'The link is on your clipboard.' });
    } catch {
      // no clipboard (an insecure page, a refused permission): the link, to copy by hand
      toast({ title: 'Copy failed', description: `Copy the link yourself: ${url}`, variant: 'destructive' });
    }
  };
  return (
    <Button variant="outline" size="sm" onClick={() => void copy()} data-testid="share-copy">
      {copied ? <Check aria-hidden /> : <Copy aria-hidden />} {copied ? 'Copied' : 'Copy link'}
      <span className="sr-only"> to {subject}</span>
    </Button>
  );
}

function ShareRow({ share: s, canWork, now }: { share: ShareLink; canWork: boolean; now: number }) {
  const [confirming, setConfirming] = React.useState(false);
  const revoke = useRevokeShare();
  const state = stateOf(s, now);
  const badge = STATE_BADGE[state];
  const onRevoke = () =>
    revoke.mutate(s.id, {
      onSuccess: () => {
        toast({ title: 'Link revoked', description: 'Whoever opens it now gets a page saying it is not available.' });
        setConfirming(false);
      },
      onError: (err) =>
        toast({
          title: 'Link not revoked',
          description: errorMessage(err, 'Please try again'),
          variant: 'destructive',
        }),
    });
  return (
    <li
      className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-6"
      data-testid="share-row"
    >
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-medium wrap-anywhere" data-testid="share-subject">
            {s.subject}
          </p>
          <Badge variant="outline">{s.kind === 'report' ? 'Report' : 'Placement proof'}</Badge>
          <Badge variant={badge.variant} data-testid="share-status">
            {badge.label}
          </Badge>
        </div>
        <p className="text-sm text-muted-foreground" data-testid="share-facts">
          {state === 'revoked'
            ? `Revoked ${day(s.revokedAt!)}`
            : `${state === 'expired' ? 'Expired' : 'Expires'} ${day(s.expiresAt)}`}
          {' · '}
          <span data-testid="share-views">
            {s.views} {s.views === 1 ? 'view' : 'views'}
          </span>
          {' · '}
          {s.lastViewedAt ? `last opened ${day(s.lastViewedAt)}` : 'never opened'}
          {' · '}
          created {day(s.createdAt)}
        </p>
      </div>
      {canWork && state === 'active' && (
        <div className="flex shrink-0 gap-2 self-start sm:self-auto">
          {s.url && <CopyLinkButton url={s.url} subject={s.subject} />}
          <Button variant="outline" size="sm" onClick={() => setConfirming(true)}>
            Revoke<span className="sr-only"> the link to {s.subject}</span>
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Revoke this link?"
        description={`“${s.subject}” stops opening at once for everyone who has the link. This cannot be undone: make a new link to share it again.`}
        confirmLabel="Revoke link"
        pendingLabel="Revoking..."
        pending={revoke.isPending}
        destructive
        onConfirm={onRevoke}
      />
    </li>
  );
}

/** The organisation's share links (reports and placement proofs): how often each was opened, and Revoke. */
export function ShareLinks({ canWork }: { canWork: boolean }) {
  const shares = useShares();
  // one clock for the whole list, read when it was fetched
  const now = shares.dataUpdatedAt;
  const list = shares.data ?? [];
  return (
    <Card data-testid="share-links">
      <CardHeader className="pb-2">
        <CardTitle className="text-base">Share links</CardTitle>
        <CardDescription>
          Links to your reports and to placements’ proof of publication. Each opens signed out until it expires or you
          revoke it.
        </CardDescription>
      </CardHeader>
      {shares.isLoading ? (
        <div className="flex justify-center py-8">
          <Spinner label="Loading the share links" />
        </div>
      ) : shares.isError ? (
        <QueryError query={shares} title="Couldn't load the share links" className="py-8" />
      ) : list.length === 0 ? (
        <p className="flex items-center gap-2 px-6 pb-6 text-sm text-muted-foreground">
          <Link2 className="size-4 shrink-0" aria-hidden />
          {canWork
            ? 'No share links yet. Use Share on a report, or Share proof on a published placement.'
            : 'No share links yet. Links your team makes to reports and proofs appear here.'}
        </p>
      ) : (
        <ul className="divide-y border-t">
          {list.map((s) => (
            <ShareRow key={s.id} share={s} canWork={canWork} now={now} />
          ))}
        </ul>
      )}
    </Card>
  );
}
