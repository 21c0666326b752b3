import * as React from 'react';
import { CheckCircle2, Download, ExternalLink, FileText, MessageSquareQuote, RefreshCcw } from 'lucide-react';
import type { MyArticleItem } from '@shared/schemas/brief';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useApproveDraft } from '../../api/review-draft';
import { REVIEW_LABELS, REVIEW_VARIANT, canReview } from './article-status';
import { RequestEditsDialog } from './request-edits-dialog';

/** The attached draft: where to read it, the review state, the brand's feedback and its two actions. */
export function DraftPanel({ article }: { article: MyArticleItem }) {
  const p = article.payment;
  const [editing, setEditing] = React.useState(false);
  const [confirming, setConfirming] = React.useState(false);
  const approve = useApproveDraft();
  const reviewable = canReview(article);

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
        <h3 className="flex items-center gap-2 text-sm font-semibold">
          <FileText className="size-4 text-sky-700" />
          {reviewable ? 'Draft Ready for Review' : 'Draft'}
        </h3>
        <div className="flex flex-wrap gap-1.5">
          <Badge variant={REVIEW_VARIANT[p.draftReviewStatus]}>{REVIEW_LABELS[p.draftReviewStatus]}</Badge>
          <Badge variant="outline">{p.draftDocumentUrl ? 'Online document' : 'File'}</Badge>
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

      {p.draftReviewStatus === 'edits_requested' && (
        <div className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <p className="flex items-center gap-1.5 font-medium">
            <MessageSquareQuote className="size-4" /> You requested edits
          </p>
          {p.brandFeedback ? (
            <p className="mt-1 whitespace-pre-wrap" data-testid="brand-feedback">
              {p.brandFeedback}
            </p>
          ) : (
            <p className="mt-1 text-amber-800/80">No feedback was added. The editorial team is revising the draft.</p>
          )}
        </div>
      )}
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

      {reviewable && (
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button variant="outline" onClick={() => setEditing(true)} disabled={approve.isPending}>
            Request Edits
          </Button>
          <Button onClick={() => setConfirming(true)} disabled={approve.isPending}>
            {approve.isPending ? 'Approving...' : 'Approve Draft'}
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Approve this draft?"
        description={`"${article.title}" goes to publication as it is: you can no longer request edits. Your payment stays in escrow until the article is published.`}
        confirmLabel="Approve Draft"
        pendingLabel="Approving..."
        pending={approve.isPending}
        onConfirm={onApprove}
      />
      <RequestEditsDialog paymentId={p.id} open={editing} onOpenChange={setEditing} />
    </section>
  );
}
