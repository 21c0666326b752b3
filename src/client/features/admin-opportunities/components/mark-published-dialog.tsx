import * as React from 'react';
import { format } from 'date-fns';
import { Send } from 'lucide-react';
import { formatUsd } from '@shared/money';
import { paymentIdTail, type AdminPaymentItem } from '@shared/payment';
import type { AdminOpportunityItem } from '@shared/opportunity';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { EMPTY_LIVE_ARTICLE, LiveArticleFields, learnFromRefusal, publishBody, reasonNeeded, type LiveArticle } from '@/components/publication/live-article-fields';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { useRelease } from '@/components/publication/use-release';
import { useHeldPayments } from '../api/payments';
import { Spinner } from '@/components/ui/spinner';
import { QueryError } from '@/components/query-error';

/**
 * The placement's stage as the server's table says it (its `life`, issue 58: the same words as its
 * card and page), so the admin does not release one that is not ready by mistake (and can tell two
 * payments of one brand apart). Only a held payment is listed here.
 */
function contentState(p: AdminPaymentItem): { label: string; ready: boolean } {
  return { label: p.life.label, ready: p.life.state === 'approved' };
}

const NOT_APPROVED = 'The brand has not approved the draft yet. Give a reason to publish anyway.';

/** Releases one of the opportunity's held payments once its article is published. */
export function MarkPublishedButton({ o }: { o: AdminOpportunityItem }) {
  const [open, setOpen] = React.useState(false);
  const heldQuery = useHeldPayments(o.id, open);
  const { data: held = [], isLoading } = heldQuery;
  const [chosen, setChosen] = React.useState<string | null>(null);
  const [article, setArticle] = React.useState<LiveArticle>(EMPTY_LIVE_ARTICLE);
  const release = useRelease('release');

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setChosen(null);
      setArticle(EMPTY_LIVE_ARTICLE);
    }
  };
  const onRelease = () => {
    if (!chosen) return;
    release.mutate(
      { paymentId: chosen, body: publishBody(article) },
      {
        onSuccess: () => {
          toast({ title: 'Payment released', description: 'The payment has been marked as released' });
          onOpenChange(false);
        },
        onError: (err) => {
          if (learnFromRefusal(err, setArticle)) return;
          toast({ title: 'Release failed', description: errorMessage(err, 'Failed to release payment'), variant: 'destructive' });
        },
      },
    );
  };

  return (
    <>
      <Button variant="outline" size="sm" disabled={!o.hasPayments} onClick={() => setOpen(true)} aria-label={`Mark Published ${o.title}`}>
        <Send /> Mark Published
      </Button>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent className="max-h-[90dvh] overflow-y-auto">
          <DialogHeader>
            <DialogTitle>Mark as Published</DialogTitle>
            <DialogDescription>Select a payment to release for this opportunity</DialogDescription>
          </DialogHeader>
          {isLoading ? (
            <Spinner className="mx-auto" label="Loading payments" />
          ) : heldQuery.isError && !heldQuery.data ? (
            <QueryError query={heldQuery} title="Couldn't load the held payments" className="py-6" />
          ) : held.length === 0 ? (
            <p className="text-sm text-muted-foreground">No payment of this opportunity is held in escrow.</p>
          ) : (
            <div role="radiogroup" aria-label="Held payments" className="space-y-2">
              {held.map((p) => {
                const state = contentState(p);
                return (
                  <button
                    key={p.id}
                    type="button"
                    role="radio"
                    aria-checked={chosen === p.id}
                    onClick={() => {
                      setChosen(p.id);
                      // releasing a draft the brand has not approved takes a written reason, link or not
                      setArticle((a) => ({ ...a, check: null, reasonAsked: state.ready ? null : NOT_APPROVED }));
                    }}
                    className={cn(
                      'flex w-full cursor-pointer items-center justify-between gap-3 rounded-lg border p-3 text-left text-sm transition-colors hover:bg-accent',
                      chosen === p.id && 'border-primary bg-primary/5 ring-1 ring-primary',
                    )}
                  >
                    {/* named by brand, payment date and stage; the spec's last 8 characters of the reference stay */}
                    <span className="min-w-0">
                      <span className="block font-semibold" data-testid="payment-brand">
                        {p.user.brandName || p.user.name || p.user.email}
                      </span>
                      <span className="block text-muted-foreground">
                        Paid <span data-testid="payment-date">{format(new Date(p.paidAt), 'MMM d, yyyy')}</span> ·{' '}
                        <span className="whitespace-nowrap font-mono">…{paymentIdTail(p.stripePaymentId)}</span>
                      </span>
                    </span>
                    <span className="flex shrink-0 flex-col items-end gap-1">
                      <span className="font-semibold tabular-nums">{formatUsd(p.amount)}</span>
                      <Badge variant={state.ready ? 'success' : 'warning'} data-testid="content-state">
                        {state.label}
                      </Badge>
                    </span>
                  </button>
                );
              })}
            </div>
          )}
          {chosen && (
            <>
              <LiveArticleFields paymentId={chosen} value={article} onChange={setArticle} disabled={release.isPending} />
            </>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button onClick={onRelease} disabled={!chosen || release.isPending || (reasonNeeded(article) && !article.reason.trim())}>
              {release.isPending ? 'Releasing...' : reasonNeeded(article) ? 'Release anyway' : 'Release Payment'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
