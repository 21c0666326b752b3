import * as React from 'react';
import { format } from 'date-fns';
import { CheckCircle2, PenLine, Rocket } from 'lucide-react';
import { formatUsd } from '@shared/money';
import type { AdminPlacementItem } from '@shared/schemas/brief';
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
import {
  EMPTY_LIVE_ARTICLE,
  LiveArticleFields,
  learnFromRefusal,
  publishBody,
  reasonNeeded,
  type LiveArticle,
} from '@/components/publication/live-article-fields';
import { useRelease } from '@/components/publication/use-release';
import { errorMessage } from '@/lib/api';
import { useMarkEditsComplete } from '../../api/mark-edits-complete';
import { useMarkWritingStarted } from '../../api/writing-started';
import { may } from '../../life';
import { brandOf, briefToText, type CopiedBrief } from './brief-text';

// What the admin does to a project, on its Projects card and on the placement's page alike.

/** Copy Brief: the plain-text brief on the clipboard (a brand copies its own from its page too). */
export async function copyBrief(item: CopiedBrief) {
  try {
    await navigator.clipboard.writeText(briefToText(item));
    toast({ title: 'Brief copied!', description: `The brief for "${item.title}" is on your clipboard.` });
  } catch {
    toast({
      title: 'Copy failed',
      description: 'Failed to copy brief to clipboard. Please try again.',
      variant: 'destructive',
    });
  }
}

export function MarkEditsCompleteButton({ paymentId }: { paymentId: string }) {
  const mark = useMarkEditsComplete();
  return (
    <Button
      size="sm"
      disabled={mark.isPending}
      onClick={() =>
        mark.mutate(paymentId, {
          onSuccess: () =>
            toast({ title: 'Edits marked complete', description: 'The brand will be notified to re-review the draft' }),
          onError: (err) =>
            toast({
              title: 'Error',
              description: errorMessage(err, 'Failed to mark edits complete'),
              variant: 'destructive',
            }),
        })
      }
    >
      <CheckCircle2 /> {mark.isPending ? 'Saving...' : 'Mark Edits Complete'}
    </Button>
  );
}

/**
 * Whether the editorial team may mark the writing as started (issue 47), as the placement's life says
 * (`start_writing`: held before writing, not declined, no draft yet and not marked). From then the
 * brand's cancellation is a request, not a refund at once.
 */
const canMarkWritingStarted = (item: AdminPlacementItem) => may(item, 'start_writing');

/** "Mark writing started", offered while `canMarkWritingStarted`; afterwards "Writing started <date>". */
export function WritingStarted({ item }: { item: AdminPlacementItem }) {
  const mark = useMarkWritingStarted(item.payment.id);
  if (item.writingStartedAt) {
    return (
      <p className="flex items-center gap-1.5 text-sm text-muted-foreground" data-testid="writing-started">
        <PenLine className="size-4 shrink-0" aria-hidden /> Writing started{' '}
        {format(new Date(item.writingStartedAt), 'MMM d, yyyy')}
      </p>
    );
  }
  if (!canMarkWritingStarted(item)) return null;
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={mark.isPending}
      title="From now the brand's cancellation is a request the editorial team answers"
      onClick={() =>
        mark.mutate(undefined, {
          onSuccess: () =>
            toast({
              title: 'Writing marked as started',
              description: 'A cancellation by the brand is now a request you answer.',
            }),
          onError: (err) =>
            toast({
              title: 'Error',
              description: errorMessage(err, 'Could not mark the writing as started'),
              variant: 'destructive',
            }),
        })
      }
    >
      <PenLine /> {mark.isPending ? 'Saving...' : 'Mark writing started'}
    </Button>
  );
}

/**
 * Releasing escrow cannot be undone: the admin confirms the amount and the brand first, and may
 * give the live article's URL, which is checked before any money moves.
 */
export function PublishButton({ item }: { item: AdminPlacementItem }) {
  const publish = useRelease('status');
  const [open, setOpen] = React.useState(false);
  const [article, setArticle] = React.useState<LiveArticle>(EMPTY_LIVE_ARTICLE);
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) setArticle(EMPTY_LIVE_ARTICLE);
  };
  const confirm = () =>
    publish.mutate(
      { paymentId: item.payment.id, body: publishBody(article) },
      {
        onSuccess: () => {
          onOpenChange(false);
          // says what happened and what moved (issue 20); the spec's toast follows as its description
          toast({
            title: `Published – ${formatUsd(item.payment.amount)} released`,
            description: 'Status updated: Project status has been updated successfully',
          });
        },
        onError: (err) => {
          if (learnFromRefusal(err, setArticle)) return;
          onOpenChange(false);
          toast({ title: 'Error', description: errorMessage(err, 'Failed to update status'), variant: 'destructive' });
        },
      },
    );
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)}>
        <Rocket /> Publish Content
      </Button>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent className="max-h-[90dvh] overflow-y-auto">
          <DialogHeader>
            <DialogTitle>Publish and release the payment?</DialogTitle>
            <DialogDescription>
              Confirm that "{item.title}" is published. {formatUsd(item.payment.amount)} held in escrow for{' '}
              {brandOf(item.user)} is then released; this cannot be undone.
            </DialogDescription>
          </DialogHeader>
          <LiveArticleFields
            paymentId={item.payment.id}
            value={article}
            onChange={setArticle}
            disabled={publish.isPending}
          />
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={publish.isPending}>
              Cancel
            </Button>
            <Button onClick={confirm} disabled={publish.isPending || (reasonNeeded(article) && !article.reason.trim())}>
              {publish.isPending ? 'Publishing...' : reasonNeeded(article) ? 'Publish anyway' : 'Publish and release'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
