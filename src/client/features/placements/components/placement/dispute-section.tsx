import * as React from 'react';
import { Link } from 'wouter';
import { Scale } from 'lucide-react';
import type { MessageSide } from '@shared/messages';
import type { AdminPlacementItem, BuyersPlacementItem } from '@shared/schemas/brief';
import type { DisputeRef } from '@shared/schemas/fair-terms';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { may } from '../../life';
import { useTerms } from '@/lib/terms';
import { disputeBadge, disputeDay, dueLine, reasonLabel } from '../disputes/dispute-text';
import { OpenDisputeDialog } from '../disputes/open-dispute-dialog';
import { PageSection } from '@/components/page-section';

/** The latest dispute in one line: its reason, where it stands, its next deadline, and its page. */
function DisputeLine({ d, side }: { d: DisputeRef; side: MessageSide }) {
  const badge = disputeBadge(d, side);
  const due = dueLine(d, side);
  const href = side === 'brand' ? `/brand/disputes/${d.id}` : `/admin/disputes/${d.id}`;
  const open = d.status !== 'resolved';
  return (
    <div
      className="flex flex-col gap-2 rounded-md border bg-muted/40 p-3 text-sm sm:flex-row sm:items-center sm:justify-between"
      data-testid="dispute-line"
    >
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{reasonLabel(d.reason)}</span>
          <Badge variant={badge.variant} data-testid="dispute-line-status">
            {badge.label}
          </Badge>
        </p>
        {due && (
          <p className="text-muted-foreground" data-testid="dispute-line-due">
            {due}
          </p>
        )}
      </div>
      <Button asChild variant={open ? 'default' : 'outline'} size="sm" className="shrink-0">
        <Link href={href}>View dispute</Link>
      </Button>
    </div>
  );
}

/**
 * "Problem with this order?" (issue 47) on the brand's page: a dispute about the content or the live
 * link, offered exactly as the placement's life says this member may open one now (`open_dispute`,
 * `open_link_dispute`: the table's windows, who may work on it, no request open). An unresolved
 * dispute is shown, with its page, instead of a new one.
 */
export function BrandDisputeSection({ article: a }: { article: BuyersPlacementItem }) {
  const [open, setOpen] = React.useState(false);
  const rules = useTerms().data?.rules;
  const d = a.dispute;
  const windows = { content: may(a, 'open_dispute'), link: may(a, 'open_link_dispute') };
  const canOpen = windows.content || windows.link;
  if (!d && !canOpen) return null;
  const until = rules ? ` until ${rules.disputeDays} ${rules.disputeDays === 1 ? 'day' : 'days'} after publication` : '';
  const guaranteed = a.publication ? ` until ${disputeDay(a.publication.guaranteeEndsAt)}` : '';
  return (
    <PageSection
      title="Problem with this order?"
      icon={<Scale />}
      testId="dispute-section"
      actions={
        canOpen && (
          <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
            Open a dispute
          </Button>
        )
      }
    >
      {d && <DisputeLine d={d} side="brand" />}
      {canOpen && (
        <p className="text-sm text-muted-foreground" data-testid="dispute-rule">
          {[
            windows.content &&
              `Not as briefed, or something else wrong? Dispute the content${until}: the editorial team answers${rules ? ` within ${rules.responseDays} ${rules.responseDays === 1 ? 'day' : 'days'}` : ''}, or you get what you ask for.`,
            windows.link &&
              `The page or its link to you gone? Byline’s checks decide a dispute about the live link${guaranteed}.`,
          ]
            .filter(Boolean)
            .join(' ')}
        </p>
      )}
      {canOpen && <OpenDisputeDialog article={a} windows={windows} open={open} onOpenChange={setOpen} />}
    </PageSection>
  );
}

/** The editorial team's side: the placement's latest dispute in a line, linked to its page. */
export function AdminDisputeSection({ item }: { item: AdminPlacementItem }) {
  const d = item.dispute;
  if (!d) return null;
  return (
    <PageSection
      title="Dispute"
      icon={<Scale />}
      testId="dispute-section"
      className={d.status === 'open' || d.status === 'escalated' ? 'border-amber-300' : undefined}
    >
      <DisputeLine d={d} side="admin" />
    </PageSection>
  );
}
