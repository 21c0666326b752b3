import * as React from 'react';
import { CheckCircle2, Download, ExternalLink, FileText, Hourglass, MessageSquareQuote, PenLine, RefreshCcw, XCircle } from 'lucide-react';
import type { LifeState } from '@shared/placement-machine';
import type { BrandPlacementItem } from '@shared/schemas/brief';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useApproveDraft } from '../../api/review-draft';
import { RevisionBadge } from '../projects/revisions';
import { REVIEW_LABELS, REVIEW_VARIANT, canReview } from './article-status';
import { RequestEditsDialog } from './request-edits-dialog';

/** The states in which the brand reviews the draft (placement-machine.ts). */
const UNDER_REVIEW: readonly LifeState[] = ['awaiting_review', 'edits_requested', 'edits_complete'];

/**
 * What approving asks first. While edits are requested the team is revising: approving then takes
 * the version the brand sent back, as it is, and the edits asked for are not made.
 */
function approveQuestion(article: BrandPlacementItem) {
  if (article.payment.draftReviewStatus === 'edits_requested')
    return {
      title: 'Approve the current version as it is?',
      description: `You asked for edits to "${article.title}" and the editorial team is revising it. Approving now accepts the current version as it is: the edits you asked for will not be made, and you can no longer request edits. Your payment stays in escrow until the article is published.`,
      confirmLabel: 'Approve current version',
    };
  return {
    title: 'Approve this draft?',
    description: `"${article.title}" goes to publication as it is: you can no longer request edits. Your payment stays in escrow until the article is published.`,
    confirmLabel: 'Approve Draft',
  };
}

/** The brand's edit request while the team works on it: said plainly, with what the brand wrote. */
function RevisingNote({ feedback }: { feedback: string | null }) {
  return (
    <div className="space-y-2" data-testid="revising-note">
      <p className="flex items-start gap-1.5 text-sm text-amber-900">
        <PenLine className="mt-0.5 size-4 shrink-0" />
        <span>The editorial team is revising the draft. You will be told when the new version is ready to review.</span>
      </p>
      <div className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
        <p className="flex items-center gap-1.5 font-medium">
          <MessageSquareQuote className="size-4" /> Your feedback
        </p>
        <p className={feedback ? 'mt-1 whitespace-pre-wrap break-words' : 'mt-1 text-amber-800/80'} data-testid="brand-feedback">
          {feedback || 'You sent the edit request without comments.'}
        </p>
      </div>
    </div>
  );
}

/**
 * An edit request beyond the included rounds (issue 47) while it awaits the editorial team, or
 * after they declined it (with their reason). Accepted, it is an edit round like the others.
 */
function ExtraRevisionNote({ request }: { request: BrandPlacementItem['revisions']['request'] }) {
  if (request?.status === 'pending') {
    return (
      <div className="space-y-1 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" role="status" data-testid="extra-revision">
        <p className="flex items-center gap-1.5 font-medium">
          <Hourglass className="size-4 shrink-0" /> Extra revision awaiting the editorial team
        </p>
        <p className="break-words">
          <span className="font-medium">Your reason:</span> {request.reason}
        </p>
      </div>
    );
  }
  if (request?.status === 'declined') {
    return (
      <p className="flex items-start gap-1.5 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900" data-testid="extra-revision">
        <XCircle className="mt-0.5 size-4 shrink-0" />
        <span className="min-w-0 break-words">Extra revision declined: {request.answer || 'no reason given'}</span>
      </p>
    );
  }
  return null;
}

/** The attached draft: where to read it, the review state, the brand's feedback and its two actions. */
export function DraftPanel({ article }: { article: BrandPlacementItem }) {
  const p = article.payment;
  const [editing, setEditing] = React.useState(false);
  const [confirming, setConfirming] = React.useState(false);
  const approve = useApproveDraft();
  // the draft is under the brand's review (the state, for every member) and this member may act on it
  const inReview = UNDER_REVIEW.includes(article.life.state);
  const reviewable = canReview(article);
  // the brand sent the draft back: it is with the team, not waiting for the brand (issue 43)
  const revising = inReview && article.life.state === 'edits_requested';
  const question = approveQuestion(article);
  const extraPending = article.revisions.request?.status === 'pending';

  const onApprove = () =>
    approve.mutate(p.id, {
      onSuccess: () => {
        setConfirming(false);
        toast({ title: 'Draft approved', description: "Thank you! The admin has been notified that you've approved the draft." });
      },
      onError: (err) => toast({ title: 'Failed to approve draft', description: errorMessage(err, 'Please try again.'), variant: 'destructive' }),
    });

  return (
    <section className="space-y-3 rounded-lg border border-sky-200 bg-sky-50/60 p-4" data-testid="draft-panel" aria-label="Draft">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="flex items-center gap-2 text-sm font-semibold" data-testid="draft-heading">
          <FileText className="size-4 shrink-0 text-sky-700" />
          {revising
            ? 'Edits requested – the team is revising'
            : inReview && extraPending
              ? 'Extra revision asked – awaiting the editorial team'
              : inReview
              ? 'Draft Ready for Review'
              : p.draftReviewStatus === 'approved'
                ? 'Approved draft'
                : 'Draft'}
        </h3>
        <div className="flex flex-wrap gap-1.5">
          {/* one state at a time (issue 57): an extra revision waits on the team, not on the brand's review */}
          {inReview && extraPending ? (
            <Badge variant="warning" data-testid="draft-review-badge">
              Extra revision asked
            </Badge>
          ) : (
            <Badge variant={REVIEW_VARIANT[p.draftReviewStatus]} data-testid="draft-review-badge">
              {REVIEW_LABELS[p.draftReviewStatus]}
            </Badge>
          )}
          <Badge variant="outline">{p.draftDocumentUrl ? 'Online document' : 'File'}</Badge>
          <RevisionBadge revisions={article.revisions} />
        </div>
      </div>

      {p.draftDocumentUrl ? (
        <Button asChild variant="outline" size="sm">
          <a href={p.draftDocumentUrl} target="_blank" rel="noopener noreferrer">
            <ExternalLink /> Open Document
          </a>
        </Button>
      ) : (
        p.draftDocumentFile && (
          <Button asChild variant="outline" size="sm">
            <a href={p.draftDocumentFile} download>
              <Download /> Download File
            </a>
          </Button>
        )
      )}

      {p.draftReviewStatus === 'edits_requested' && <RevisingNote feedback={p.brandFeedback} />}
      {p.draftReviewStatus === 'edits_complete' && (
        <p className="flex items-start gap-1.5 text-sm text-sky-900">
          <RefreshCcw className="mt-0.5 size-4 shrink-0" /> Edits complete - please re-review the updated draft.
        </p>
      )}
      {p.draftReviewStatus === 'approved' && p.status === 'paid' && (
        <p className="flex items-start gap-1.5 text-sm text-emerald-800">
          <CheckCircle2 className="mt-0.5 size-4 shrink-0" /> You approved this draft. It will be published soon; your payment is released on publication.
        </p>
      )}

      {inReview && <ExtraRevisionNote request={article.revisions.request} />}
      {reviewable && (
        <div className="space-y-2">
          {revising && <p className="text-sm text-muted-foreground">You can still approve the current version as it is, or add to your request.</p>}
          {extraPending && !revising && (
            <p className="text-sm text-muted-foreground">
              Meanwhile you can approve the draft as it is; a further edit request waits for the team’s answer.
            </p>
          )}
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button variant="outline" onClick={() => setEditing(true)} disabled={approve.isPending || extraPending}>
              Request Edits
            </Button>
            <Button onClick={() => setConfirming(true)} disabled={approve.isPending}>
              {approve.isPending ? 'Approving...' : 'Approve Draft'}
            </Button>
          </div>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={question.title}
        description={question.description}
        confirmLabel={question.confirmLabel}
        pendingLabel="Approving..."
        pending={approve.isPending}
        onConfirm={onApprove}
      />
      <RequestEditsDialog paymentId={p.id} revisions={article.revisions} open={editing} onOpenChange={setEditing} />
    </section>
  );
}
