import * as React from 'react';
import { format } from 'date-fns';
import {
  CheckCircle2,
  ChevronDown,
  ChevronUp,
  ClipboardList,
  Clock,
  Copy,
  FilePlus2,
  FileText,
  Globe,
  Pencil,
  ShieldCheck,
} from 'lucide-react';
import type { AdminPlacementItem } from '@shared/schemas/brief';
import { CheckResult, HealthBadge } from '@/components/publication/check-result';
import { ReleasedWithout } from '@/components/publication/released-without';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ChangeUrlDialog } from '../placements/change-url-dialog';
import { LiveUrl, OpenCase, RecheckButton } from '../placements/placement-row';
import { AttachDraftDialog } from '../projects/attach-draft-dialog';
import { BriefDetails } from '../projects/brief-details';
import { projectTabOf } from '../projects/brief-text';
import { DraftPanel } from '../projects/draft-panel';
import { ExtraRevisionRequest } from '../projects/extra-revision';
import { MarkEditsCompleteButton, PublishButton, WritingStarted, copyBrief } from '../projects/project-actions';
import { may } from '../../life';
import { Note, PageSection } from '@/components/page-section';

const day = (iso: string) => format(new Date(iso), 'MMM d, yyyy');
const moment = (iso: string) => format(new Date(iso), 'MMM d, yyyy, h:mm a');

/** The submitted brief with Copy Brief and View/Hide Brief (open here: reading it is what the page is for). */
export function AdminBriefSection({ item }: { item: AdminPlacementItem }) {
  const [expanded, setExpanded] = React.useState(true);
  const { brief } = item;
  const briefId = `brief-${item.payment.id}`;
  const actions = brief && (
    <>
      <Button variant="outline" size="sm" onClick={() => void copyBrief(item)}>
        <Copy /> Copy Brief
      </Button>
      <Button
        variant="ghost"
        size="sm"
        aria-expanded={expanded}
        aria-controls={briefId}
        onClick={() => setExpanded((v) => !v)}
      >
        {expanded ? <ChevronUp /> : <ChevronDown />} {expanded ? 'Hide Brief' : 'View Brief'}
      </Button>
    </>
  );
  return (
    <PageSection title="Brief" icon={<ClipboardList />} actions={actions} testId="brief-section">
      {brief ? (
        <p className="flex items-center gap-1.5 text-sm">
          <CheckCircle2 className="size-4 shrink-0 text-emerald-600" aria-hidden />
          <span className="font-medium text-emerald-700">Brief submitted</span>
          <span className="text-muted-foreground">· {day(brief.submittedAt)}</span>
        </p>
      ) : item.payment.status === 'refunded' ? (
        <Note>None – refunded before a brief.</Note>
      ) : (
        <p className="flex items-center gap-1.5 text-sm">
          <Clock className="size-4 shrink-0 text-amber-700" aria-hidden />
          <span className="font-medium text-amber-700">Brief pending</span>
          <span className="text-muted-foreground">· waiting for the brand's brief</span>
        </p>
      )}
      {brief && expanded && <BriefDetails id={briefId} brief={brief} />}
    </PageSection>
  );
}

/**
 * The draft, as the Projects card has it for the placement's tab: Attach Draft once the brief is
 * in; under review the document with Edit Draft and Mark Edits Complete; approved, Publish Content.
 */
export function AdminDraftSection({ item }: { item: AdminPlacementItem }) {
  const { payment, brief } = item;
  const [dialogOpen, setDialogOpen] = React.useState(false);
  const tab = projectTabOf(payment);
  const drafted = Boolean(payment.draftDocumentUrl || payment.draftDocumentFile);

  let body: React.ReactNode;
  if (tab === 'awaiting') {
    body = (
      <div className="space-y-3">
        {brief ? (
          <>
            <Note>The brief is in: write the draft and attach it for the brand's review.</Note>
            <div className="flex flex-wrap items-center gap-2">
              {may(item, 'attach_draft') && (
                <Button size="sm" onClick={() => setDialogOpen(true)}>
                  <FilePlus2 /> Attach Draft
                </Button>
              )}
              <WritingStarted item={item} />
            </div>
          </>
        ) : (
          <>
            <Note>The draft is written once the brand's brief is in.</Note>
            <WritingStarted item={item} />
          </>
        )}
      </div>
    );
  } else if (tab === 'review') {
    body = (
      <div className="space-y-3">
        <DraftPanel
          payment={payment}
          revisions={item.revisions}
          actions={
            <>
              {may(item, 'attach_draft') && (
                <Button variant="outline" size="sm" onClick={() => setDialogOpen(true)}>
                  <Pencil /> Edit Draft
                </Button>
              )}
              {may(item, 'mark_edits_complete') && <MarkEditsCompleteButton paymentId={payment.id} />}
            </>
          }
        />
        <ExtraRevisionRequest
          paymentId={payment.id}
          revisions={item.revisions}
          canAnswer={may(item, 'accept_extra_revision')}
        />
      </div>
    );
  } else if (drafted) {
    body = (
      <div className="space-y-3">
        {tab === 'approved' && <Badge variant="success">Brand approved</Badge>}
        <DraftPanel
          payment={payment}
          revisions={item.revisions}
          actions={tab === 'approved' && <PublishButton item={item} />}
        />
      </div>
    );
  } else if (tab === 'approved') {
    body = <PublishButton item={item} />;
  } else {
    body = (
      <Note>
        {tab === 'refunded' ? 'No draft: refunded before one was attached.' : 'Published without a draft on record.'}
      </Note>
    );
  }

  return (
    <PageSection title="Draft" icon={<FileText />} testId="draft-section">
      {body}
      {(tab === 'awaiting' || tab === 'review') && (
        <AttachDraftDialog item={item} open={dialogOpen} onOpenChange={setDialogOpen} />
      )}
    </PageSection>
  );
}

/** The live article as Admin Placements shows it: its link, health, last check, guarantee; Recheck now and Change URL. */
export function AdminPublicationSection({ item }: { item: AdminPlacementItem }) {
  const [changing, setChanging] = React.useState(false);
  const pub = item.publication;
  if (!pub) {
    return (
      <PageSection title="Publication" icon={<Globe />} testId="publication-section">
        <Note>
          {item.payment.status === 'refunded'
            ? 'Not published: this placement was refunded.'
            : 'Not published yet. Publish Content (once the brand approves the draft) checks the live article and releases the payment.'}
        </Note>
      </PageSection>
    );
  }
  const refunded = pub.health === 'refunded';
  const actions = !refunded && (
    <>
      {pub.url && <RecheckButton paymentId={item.payment.id} />}
      <Button variant="outline" size="sm" onClick={() => setChanging(true)}>
        {pub.url ? 'Change URL' : 'Add URL'}
      </Button>
    </>
  );
  return (
    <PageSection title="Publication" icon={<Globe />} actions={actions} testId="publication-section">
      <div className="flex flex-wrap items-center gap-2">
        <HealthBadge health={pub.health} />
        <ReleasedWithout without={pub.releasedWithout} />
        {pub.verifiedAt && !refunded && (
          <span className="text-sm text-muted-foreground">Verified {day(pub.verifiedAt)}</span>
        )}
        {pub.restoredAt && !pub.issue && !refunded && (
          <span className="text-sm text-emerald-700">Restored {day(pub.restoredAt)}</span>
        )}
      </div>
      <LiveUrl url={pub.url} />
      {pub.issue && <OpenCase issue={pub.issue} />}
      {pub.lastCheck && (
        <div className="min-w-0 space-y-2 rounded-lg border bg-muted/30 px-3 py-2.5" data-testid="placement-last-check">
          <p className="text-xs font-medium text-muted-foreground">Last check · {moment(pub.lastCheck.checkedAt)}</p>
          <CheckResult check={pub.lastCheck} />
        </div>
      )}
      {refunded ? (
        <Note>This placement was refunded in full; its article is no longer watched.</Note>
      ) : (
        pub.url && (
          <p className="inline-flex items-center gap-1.5 text-sm text-muted-foreground">
            <ShieldCheck className="size-4" /> Guaranteed until {day(pub.guaranteeEndsAt)}
          </p>
        )
      )}
      {pub.overrideReason && (
        <p className="text-xs break-words text-muted-foreground">
          <span className="font-medium text-foreground">Admin's reason:</span> {pub.overrideReason}
        </p>
      )}
      {!refunded && (
        <ChangeUrlDialog
          placement={{ paymentId: item.payment.id, title: item.title, outletName: item.outletName, publication: pub }}
          open={changing}
          onOpenChange={setChanging}
        />
      )}
    </PageSection>
  );
}
