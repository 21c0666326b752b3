import * as React from 'react';
import { Link } from 'wouter';
import { format } from 'date-fns';
import { CheckCircle2, ClipboardList, Clock, Copy, FileText, Globe, Hourglass, PenLine, Share2 } from 'lucide-react';
import { roleCan } from '@shared/org';
import type { BrandPlacementItem } from '@shared/schemas/brief';
import { QueryError } from '@/components/query-error';
import { ShareLinkDialog } from '@/components/share-link-dialog';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useOrg } from '@/lib/org';
import { useBrief } from '../../api/get-brief';
import { DraftPanel } from '../my-articles/draft-panel';
import { PublicationPanel } from '../my-articles/publication-panel';
import { briefCanChange, hasDraft } from '../my-articles/article-status';
import { BriefDetails } from '../projects/brief-details';
import { copyBrief } from '../projects/project-actions';
import { Note, PageSection } from '@/components/page-section';
import { apiUrl } from '@shared/api-paths';

const day = (iso: string) => format(new Date(iso), 'MMM d, yyyy');

/**
 * The brief as the brand gave it, read-only, with Copy Brief and, while it can still change, the
 * link to its form ("Submit Brief" before it is submitted, "Edit Brief" after, as on the card).
 */
export function BrandBriefSection({ article: a }: { article: BrandPlacementItem }) {
  const paymentId = a.payment.id;
  const saved = Boolean(a.brief);
  const submittedAt = a.brief?.submittedAt ?? null;
  const brief = useBrief(paymentId, saved);
  const editable = briefCanChange(a);
  const loaded = brief.data?.source === 'saved' ? brief.data : undefined;
  const actions = (
    <>
      {loaded && (
        <Button
          variant="outline"
          size="sm"
          onClick={() => void copyBrief({ ...a, brief: { part1Json: loaded.part1Json, part2Json: loaded.part2Json, submittedAt } })}
        >
          <Copy /> Copy Brief
        </Button>
      )}
      {editable && (
        <Button asChild variant={submittedAt ? 'outline' : 'default'} size="sm">
          <Link href={`/brand/brief/${paymentId}`}>{submittedAt ? 'Edit Brief' : 'Submit Brief'}</Link>
        </Button>
      )}
    </>
  );

  return (
    <PageSection title="Brief" icon={<ClipboardList />} actions={actions} testId="brief-section">
      {submittedAt ? (
        <p className="flex items-center gap-1.5 text-sm">
          <CheckCircle2 className="size-4 shrink-0 text-emerald-600" aria-hidden />
          <span className="font-medium text-emerald-700">Brief submitted</span>
          <span className="text-muted-foreground">· {day(submittedAt)}</span>
        </p>
      ) : a.payment.status === 'refunded' ? (
        <Note>This placement was refunded before the brief was submitted.</Note>
      ) : (
        <p className="flex items-start gap-1.5 text-sm">
          <Clock className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden />
          <span>
            <span className="font-medium text-amber-700">Brief pending</span>
            <span className="text-muted-foreground">
              {saved
                ? ' · a draft, saved but not submitted: the editorial team sees it once you submit it.'
                : ' · tell the editorial team about you and the article: they start writing once it is in.'}
            </span>
          </span>
        </p>
      )}
      {saved &&
        (brief.isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading the brief" />
          </div>
        ) : brief.isError ? (
          <QueryError query={brief} title="Failed to load the brief" className="py-6" />
        ) : (
          loaded && <BriefDetails id={`brief-${paymentId}`} brief={loaded} />
        ))}
    </PageSection>
  );
}

/** The draft the editorial team attached, with Approve Draft and Request Edits (the My Articles card's panel). */
export function BrandDraftSection({ article: a }: { article: BrandPlacementItem }) {
  const submitted = Boolean(a.brief?.submittedAt);
  return (
    <PageSection title="Draft" icon={<FileText />} testId="draft-section">
      {hasDraft(a) ? (
        <DraftPanel article={a} />
      ) : a.payment.status === 'refunded' ? (
        <Note>No draft: this placement was refunded.</Note>
      ) : submitted ? (
        <div className="space-y-2">
          <p className="flex items-start gap-1.5 text-sm text-muted-foreground">
            <Hourglass className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span>
              <span className="font-medium text-foreground">Awaiting first draft</span> · the editorial team is writing it from
              your brief. It shows here, ready for your review, as soon as it is attached.
            </span>
          </p>
          {a.writingStartedAt && (
            <p className="flex items-center gap-1.5 text-sm text-muted-foreground" data-testid="writing-started">
              <PenLine className="size-4 shrink-0" aria-hidden /> Writing started {day(a.writingStartedAt)}
            </p>
          )}
        </div>
      ) : (
        <p className="flex items-start gap-1.5 text-sm text-muted-foreground">
          <PenLine className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>The editorial team writes the draft from your brief: submit it and the draft follows.</span>
        </p>
      )}
    </PageSection>
  );
}

/** The live article, its checks and the guarantee (the My Articles card's panel), once published. */
export function BrandPublicationSection({ article: a }: { article: BrandPlacementItem }) {
  const [sharing, setSharing] = React.useState(false);
  // a viewer reads; a link is made by those who work on placements
  const role = useOrg().data?.role;
  const canShare = Boolean(a.publication) && roleCan(role, 'work');
  const actions = canShare && (
    <Button variant="outline" size="sm" onClick={() => setSharing(true)}>
      <Share2 /> Share proof
    </Button>
  );
  return (
    <PageSection title="Publication" icon={<Globe />} actions={actions || undefined} testId="publication-section">
      {canShare && (
        <ShareLinkDialog
          open={sharing}
          onOpenChange={setSharing}
          endpoint={apiUrl('/api/brand/placements/:placementId/shares', { placementId: a.payment.id })}
          title="Share proof of publication"
          description="A link that shows the outlet, the article, its live link and Byline's checks of it, signed out: no price and no messages. It works until it expires or you revoke it on the Reports page."
        />
      )}
      {a.publication ? (
        <PublicationPanel publication={a.publication} />
      ) : a.payment.status === 'refunded' ? (
        <Note>Not published: this placement was refunded.</Note>
      ) : (
        <Note>Not published yet. Once the article is live, its link, Byline's checks of it and the guarantee show here.</Note>
      )}
    </PageSection>
  );
}
