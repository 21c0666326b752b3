import { Download, ExternalLink, FileText, MessageSquareWarning } from 'lucide-react';
import type { DraftReviewStatus } from '@shared/payment';
import type { PlacementPayment } from '@shared/schemas/brief';
import type { Revisions } from '@shared/schemas/fair-terms';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { RevisionBadge } from './revisions';

const REVIEW_BADGE: Partial<Record<DraftReviewStatus, { label: string; variant: 'info' | 'warning' | 'secondary' }>> = {
  pending_brand_review: { label: 'Awaiting brand review', variant: 'info' },
  edits_requested: { label: 'Brand requested edits', variant: 'warning' },
  edits_complete: { label: 'Edits complete - awaiting brand re-review', variant: 'secondary' },
};

const EXTRA_PENDING = { label: 'Extra revision asked – your answer', variant: 'warning' } as const;

/** Open Document (a link, new tab) or Download File (the private draft, served as an attachment). */
export function DocumentLink({ payment }: { payment: PlacementPayment }) {
  if (payment.draftDocumentUrl) {
    return (
      <Button asChild variant="outline" size="sm">
        <a href={payment.draftDocumentUrl} target="_blank" rel="noopener noreferrer">
          <ExternalLink /> Open Document
        </a>
      </Button>
    );
  }
  if (payment.draftDocumentFile) {
    return (
      <Button asChild variant="outline" size="sm">
        <a href={payment.draftDocumentFile} download>
          <Download /> Download File
        </a>
      </Button>
    );
  }
  return null;
}

const draftKind = (p: PlacementPayment) => (p.draftDocumentUrl ? 'Google Docs link' : 'PDF/DOC file');

/** Pending Review: where the draft stands with the brand, the edit rounds, the document, and what the admin can do next. */
export function DraftPanel({ payment, revisions, actions }: { payment: PlacementPayment; revisions: Revisions; actions: React.ReactNode }) {
  // an extra revision the brand asked for waits on the team's answer, not on the brand (issue 57)
  const extraPending = revisions.request?.status === 'pending' && payment.draftReviewStatus !== 'edits_requested';
  const badge = extraPending ? EXTRA_PENDING : REVIEW_BADGE[payment.draftReviewStatus];
  const editsRequested = payment.draftReviewStatus === 'edits_requested';
  return (
    <div className="space-y-3 rounded-lg border border-sky-200 bg-sky-50/60 p-4" data-testid="draft-panel">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex items-center gap-2 text-sm font-semibold">
          <FileText className="size-4 text-sky-700" /> Draft Document Attached
        </p>
        <div className="flex flex-wrap gap-1.5">
          {badge && (
            <Badge variant={badge.variant} data-testid="draft-review-badge">
              {badge.label}
            </Badge>
          )}
          <RevisionBadge revisions={revisions} />
        </div>
      </div>
      <p className="text-sm text-muted-foreground">{draftKind(payment)}</p>
      {editsRequested && (
        <div className="rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-900" data-testid="brand-feedback">
          <p className="mb-1 flex items-center gap-1.5 font-medium">
            <MessageSquareWarning className="size-4" /> Brand feedback
          </p>
          <p className="whitespace-pre-wrap">{payment.brandFeedback || 'The brand asked for edits without a comment.'}</p>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <DocumentLink payment={payment} />
        {actions}
      </div>
    </div>
  );
}
