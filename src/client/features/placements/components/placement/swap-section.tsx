import * as React from 'react';
import { ArrowLeftRight, Ban } from 'lucide-react';
import { formatUsd } from '@shared/money';
import type { AdminPlacementItem, BrandPlacementItem } from '@shared/schemas/brief';
import type { SwapOption } from '@shared/schemas/cart';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useReviewOnly } from '@/lib/org';
import { useDecline, useSwap, useSwapOptions } from '../../api/many-at-once';
import { Note, PageSection } from '@/components/page-section';

const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/**
 * A placement the outlet declined (issue 46), on its brand's page: why, until when to choose, and
 * the alternatives (closest first); choosing one moves the placement there, a cheaper one refunding
 * the difference. Without a choice by then it is refunded in full.
 */
export function SwapSection({ article: a }: { article: BrandPlacementItem }) {
  const declined = a.declined;
  const reviewOnly = useReviewOnly() === true;
  const options = useSwapOptions(a.payment.id, Boolean(declined) && !reviewOnly);
  const swap = useSwap(a.payment.id);
  const [choice, setChoice] = React.useState<SwapOption | null>(null);
  const ref = React.useRef<HTMLElement>(null);
  React.useEffect(() => {
    if (declined && window.location.hash === '#swap') ref.current?.scrollIntoView({ block: 'start' });
  }, [declined]);
  if (!declined || a.payment.status !== 'paid') return null;

  return (
    <section ref={ref} id="swap" className="scroll-mt-20">
      <PageSection title="Declined by the outlet" icon={<Ban />} testId="swap-section" className="border-amber-300">
        <p className="text-sm">
          The editorial team could not place this article: <span className="font-medium">{declined.reason}</span>
        </p>
        <p className="text-sm text-muted-foreground">
          Choose an alternative by{' '}
          <span className="font-medium text-foreground">{day.format(new Date(declined.swapBy))}</span>. Its brief and
          this conversation come with it. Without a choice by then, you are refunded in full.
        </p>
        {reviewOnly ? (
          <Note>An owner, admin or buyer of your organisation chooses the alternative.</Note>
        ) : options.isLoading ? (
          <Note>Finding alternatives…</Note>
        ) : !options.data?.length ? (
          <Note testId="no-alternatives">
            No alternative is available right now. You will be refunded in full unless one appears before then.
          </Note>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Alternatives">
            {options.data.map((o) => (
              <li
                key={o.id}
                className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between"
                data-testid="swap-option"
              >
                <div className="min-w-0 space-y-0.5">
                  <p className="font-medium leading-snug">{o.outletName}</p>
                  <p className="text-sm text-muted-foreground">{o.title}</p>
                  <p className="text-xs text-muted-foreground">
                    {formatUsd(o.priceUsd)}
                    {o.domainAuthority !== null ? ` · DA ${o.domainAuthority}` : ''}
                    {Number(o.refundUsd) > 0 ? ` · ${formatUsd(o.refundUsd)} refunded` : ''}
                    {Number(o.payUsd) > 0 ? ` · ${formatUsd(o.payUsd)} more to pay` : ''}
                  </p>
                </div>
                <Button size="sm" onClick={() => setChoice(o)} className="shrink-0">
                  <ArrowLeftRight /> Choose
                </Button>
              </li>
            ))}
          </ul>
        )}
      </PageSection>
      <ConfirmDialog
        open={choice !== null}
        onOpenChange={(o) => !o && setChoice(null)}
        title={`Swap for ${choice?.outletName ?? ''}?`}
        description={
          choice && Number(choice.refundUsd) > 0
            ? `“${choice.title}” costs ${formatUsd(choice.priceUsd)}: ${formatUsd(choice.refundUsd)} is refunded to your card.`
            : choice && Number(choice.payUsd) > 0
              ? `“${choice.title}” costs ${formatUsd(choice.priceUsd)}: you pay the ${formatUsd(choice.payUsd)} difference on the next page, and the placement moves once it is paid.`
              : `“${choice?.title ?? ''}” costs what you paid. Your brief and conversation move with the placement.`
        }
        confirmLabel={choice && Number(choice.payUsd) > 0 ? `Pay ${formatUsd(choice.payUsd)} and swap` : 'Swap'}
        pendingLabel="Swapping…"
        pending={swap.isPending}
        onConfirm={() =>
          choice &&
          swap.mutate(choice.id, {
            onSuccess: (res) => {
              // a dearer one: the difference is paid on the provider's page first
              if (res.url) return window.location.assign(res.url);
              setChoice(null);
              toast({
                title: `Swapped for ${choice.outletName}`,
                description:
                  Number(res.refundedUsd) > 0
                    ? `${formatUsd(res.refundedUsd)} is on its way back to your card.`
                    : undefined,
              });
            },
            onError: (err) => {
              setChoice(null);
              toast({
                title: 'Could not swap',
                description: errorMessage(err, 'Please try again'),
                variant: 'destructive',
              });
            },
          })
        }
      />
    </section>
  );
}

/**
 * The admins' "Decline" (issue 46): before writing starts, with a reason the brand reads; the brand
 * then chooses an alternative or is refunded. Once declined, the page says so.
 */
export function DeclineControl({ item }: { item: AdminPlacementItem }) {
  const decline = useDecline(item.payment.id);
  const [open, setOpen] = React.useState(false);
  const [reason, setReason] = React.useState('');
  const [error, setError] = React.useState<string | null>(null);
  if (item.declined) {
    return (
      <p
        role="status"
        className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
        data-testid="declined-status"
      >
        Declined: {item.declined.reason}. The brand chooses an alternative by{' '}
        {day.format(new Date(item.declined.swapBy))}, or is refunded in full then.
      </p>
    );
  }
  const writing =
    Boolean(item.payment.draftDocumentUrl || item.payment.draftDocumentFile) ||
    item.payment.draftReviewStatus === 'approved';
  if (item.payment.status !== 'paid' || writing) return null;
  return (
    <div className="flex justify-end">
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <Ban /> Decline
      </Button>
      <Dialog open={open} onOpenChange={(o) => !decline.isPending && setOpen(o)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Decline this placement</DialogTitle>
            <DialogDescription>
              The outlet refused it or the slot fell through. The brand is told why and chooses an alternative, or is
              refunded in full.
            </DialogDescription>
          </DialogHeader>
          <div className="space-y-2">
            <Label htmlFor="decline-reason">Reason</Label>
            <Textarea
              id="decline-reason"
              rows={3}
              maxLength={1000}
              value={reason}
              aria-invalid={Boolean(error)}
              onChange={(e) => setReason(e.target.value)}
            />
            {error && (
              <p role="alert" className="text-sm text-destructive">
                {error}
              </p>
            )}
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)} disabled={decline.isPending}>
              Cancel
            </Button>
            <Button
              variant="destructive"
              disabled={decline.isPending}
              onClick={() =>
                decline.mutate(reason, {
                  onSuccess: () => {
                    setOpen(false);
                    toast({
                      title: 'Placement declined',
                      description: 'The brand has been told and can choose an alternative.',
                    });
                  },
                  onError: (err) => setError(errorMessage(err, 'Could not decline')),
                })
              }
            >
              {decline.isPending ? 'Declining…' : 'Decline placement'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
