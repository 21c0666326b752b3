import * as React from 'react';
import { LiveBy } from '@/components/promise/live-by';
import { StageClock } from '@/components/promise/stage-clock';
import { waitingWords } from '@shared/placement-machine';
import { format } from 'date-fns';
import {
  Building2,
  CheckCircle2,
  ChevronDown,
  ChevronUp,
  Clock,
  Copy,
  FilePlus2,
  Mail,
  Pencil,
  Store,
  UserRound,
} from 'lucide-react';
import { Link } from 'wouter';
import { formatUsd } from '@shared/money';
import { PARTLY_REFUNDED, isPartlyRefunded } from '@shared/payment';
import type { AdminPlacementItem } from '@shared/schemas/brief';
import { PartlyRefundedBadge } from '@/components/placement-status';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { MessagesLink } from '@/components/messages-link';
import { brandOf, typeLabel, type ProjectTab } from './brief-text';
import { AttachDraftDialog } from './attach-draft-dialog';
import { BriefDetails } from './brief-details';
import { DocumentLink, DraftPanel } from './draft-panel';
import { ExtraRevisionRequest } from './extra-revision';
import { MarkEditsCompleteButton, PublishButton, WritingStarted, copyBrief } from './project-actions';
import { may } from '../../life';
import { CancellationNote } from './cancellation-note';
import { EditorPicker } from './editor-picker';

function Meta({ icon, label, children }: { icon: React.ReactNode; label: string; children: React.ReactNode }) {
  return (
    <div className="flex min-w-0 items-center gap-2">
      <span className="text-muted-foreground [&_svg]:size-4" aria-hidden>
        {icon}
      </span>
      <dt className="sr-only">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

export function ProjectCard({ item, tab }: { item: AdminPlacementItem; tab: ProjectTab }) {
  const { payment, brief } = item;
  const [expanded, setExpanded] = React.useState(false);
  const [dialogOpen, setDialogOpen] = React.useState(false);
  const briefId = `brief-${payment.id}`;
  const released = payment.status === 'released';
  // whose turn it is, in the team's words (issue 58): "Waiting on you" or "Waiting on the brand"
  const waiting = waitingWords(item.life.waitingOn, 'admin');

  return (
    <Card className="p-4 sm:p-5" data-testid="project-card">
      <div className="flex flex-col gap-4">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0 space-y-1.5">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant="info">{typeLabel(item.type)}</Badge>
              {/* the spec's Awaiting Brief also holds projects whose brief is in: say which wait is which (issue 43) */}
              {tab === 'awaiting' && (
                <Badge variant={brief ? 'warning' : 'secondary'} data-testid="project-state">
                  {brief ? 'Brief in – draft to write' : "Waiting for the brand's brief"}
                </Badge>
              )}
              {tab === 'approved' && <Badge variant="success">Brand approved</Badge>}
              {released && <Badge variant="secondary">Published</Badge>}
              {payment.status === 'refunded' && (
                <Badge variant="destructive">{isPartlyRefunded(payment) ? PARTLY_REFUNDED : 'Refunded'}</Badge>
              )}
              <PartlyRefundedBadge payment={payment} />
              {item.overdue && (
                <Badge variant="destructive" title="The brief is in and no draft came within the turnaround">
                  Overdue
                </Badge>
              )}
            </div>
            <h2 className="text-base font-semibold leading-snug">{item.title}</h2>
            <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
              <Store className="size-4 shrink-0" /> <span className="truncate">{item.outletName}</span>
            </p>
            {/* whose it is (decision 033) and for which of its clients (decision 035) */}
            <p className="flex flex-wrap items-center gap-x-1.5 text-sm">
              <Link
                href={`/admin/organisations/${item.organisation.id}`}
                className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline"
                data-testid="project-organisation"
              >
                <Building2 className="size-3.5 shrink-0" aria-hidden="true" />
                <span className="min-w-0 wrap-anywhere">{item.organisation.name}</span>
              </Link>
              {item.client && <span data-testid="project-client">for {item.client.name}</span>}
            </p>
            {item.payment.status !== 'refunded' && (
              <LiveBy liveBy={item.life.clock.liveBy ?? item.promisedBy} usuallyBy={null} moved={item.life.clock.promiseMoved} className="text-sm" />
            )}
            {/* the stage clock (decision 048) and whose turn it is */}
            {item.life.clock.stage && (
              <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="project-clock">
                <StageClock clock={item.life.clock} withStage />
                {waiting && (
                  <span className="text-muted-foreground" data-testid="life-waiting">
                    {waiting}
                  </span>
                )}
              </p>
            )}
          </div>
          <p className="shrink-0 text-lg font-semibold tabular-nums" data-testid="project-price">
            {formatUsd(item.payment.amount)}
          </p>
        </div>

        <dl className="grid gap-2 text-sm sm:grid-cols-3">
          <Meta icon={<UserRound />} label="Brand">
            {brandOf(item.user)}
          </Meta>
          <Meta icon={<Mail />} label="E-mail">
            <a href={`mailto:${item.user.email}`} className="hover:underline">
              {item.user.email}
            </a>
          </Meta>
          <Meta icon={brief ? <CheckCircle2 className="text-emerald-600" /> : <Clock />} label="Brief">
            {brief ? (
              <>
                <span className="font-medium text-emerald-700">Brief submitted</span>
                <span className="text-muted-foreground"> · {format(new Date(brief.submittedAt), 'MMM d, yyyy')}</span>
              </>
            ) : item.payment.status === 'refunded' ? (
              // nothing is due on a refunded purchase: "Brief pending" read as if the brand still owed one
              <span className="text-muted-foreground">None – refunded before a brief</span>
            ) : (
              <span className="font-medium text-amber-700">Brief pending</span>
            )}
          </Meta>
        </dl>

        <EditorPicker item={item} />

        <CancellationNote item={item} />

        {tab === 'review' && (
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
        )}
        {tab === 'review' && (
          <ExtraRevisionRequest
            paymentId={payment.id}
            revisions={item.revisions}
            canAnswer={may(item, 'accept_extra_revision')}
          />
        )}

        <div className="flex flex-wrap gap-2">
          <MessagesLink side="admin" paymentId={payment.id} />
          {/* with the brief in (the draft to write): "Mark writing started" or since when; the page offers it always */}
          {tab === 'awaiting' && brief && <WritingStarted item={item} />}
          {tab === 'awaiting' && may(item, 'attach_draft') && (
            <Button size="sm" onClick={() => setDialogOpen(true)}>
              <FilePlus2 /> Attach Draft
            </Button>
          )}
          {tab === 'approved' && !released && <PublishButton item={item} />}
          {(tab === 'approved' || tab === 'published') && <DocumentLink payment={payment} />}
          {brief && (
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
          )}
        </div>

        {brief && expanded && <BriefDetails id={briefId} brief={brief} />}
      </div>
      {(tab === 'awaiting' || tab === 'review') && (
        <AttachDraftDialog item={item} open={dialogOpen} onOpenChange={setDialogOpen} />
      )}
    </Card>
  );
}
