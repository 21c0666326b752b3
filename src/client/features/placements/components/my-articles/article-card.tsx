import { Link } from 'wouter';
import { LiveBy } from '@/components/promise/live-by';
import { AlertTriangle, CheckCircle2, Clock, Hourglass, Scale, Undo2 } from 'lucide-react';
import { OPPORTUNITY_TYPE_LABELS, isOpportunityType } from '@shared/opportunity';
import { formatUsd } from '@shared/money';
import { withAmounts, type BrandPlacementItem } from '@shared/schemas/brief';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { MessagesLink } from '@/components/messages-link';
import { DraftPanel } from './draft-panel';
import { PublicationPanel } from './publication-panel';
import { isPartlyRefunded, placementStatus } from '@shared/payment';
import { PartlyRefundedBadge, PlacementStatusBadge } from '@/components/placement-status';
import { briefCanChange, hasDraft } from './article-status';
import { useReviewOnly } from '@/lib/org';
import { waitingWords } from '@shared/placement-machine';
import { StageClock } from '@/components/promise/stage-clock';
import { disputeBadge, dueLine } from '../disputes/dispute-text';

/** An unresolved dispute (issue 47): where it stands and its next deadline, linked to its page. */
function DisputeNote({ dispute: d, linked }: { dispute: NonNullable<BrandPlacementItem['dispute']>; linked: boolean }) {
  const due = dueLine(d, 'brand');
  const text = `Dispute: ${disputeBadge(d, 'brand').label}`;
  return (
    <span className="flex min-w-0 items-start gap-1.5" data-testid="dispute-note">
      <Scale className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden />
      <span className="min-w-0">
        {linked ? (
          <Link href={`/brand/disputes/${d.id}`} className="font-medium text-amber-800 underline underline-offset-4">
            {text}
          </Link>
        ) : (
          <span className="font-medium text-amber-800">{text}</span>
        )}
        {due && <span className="text-muted-foreground"> · {due}</span>}
      </span>
    </span>
  );
}

const swapDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** Ticked for an action on several placements at once (My Articles' bulk bar). */
export interface ArticleSelection {
  checked: boolean;
  onChange: (checked: boolean) => void;
}

export function ArticleCard({ article: a, selection }: { article: BrandPlacementItem; selection?: ArticleSelection }) {
  // a client reviewer's answer carries no amount (decision 035): nothing of money is shown without them
  const reviewOnly = useReviewOnly() === true;
  const money = reviewOnly ? null : withAmounts(a);
  const status = placementStatus(a.payment);
  const firstType = a.type[0];
  const submitted = Boolean(a.brief?.submittedAt);
  // a brief can change only while the money is held and the draft is not approved (the server refuses
  // after either); once approved it stays readable until publication, when the spec hides the button
  const briefEditable = briefCanChange(a);
  const briefReadable = submitted && a.payment.status === 'paid' && !briefEditable;
  // a refunded purchase has nothing pending: "Brief pending" (or "Awaiting first draft") there read as if work were still due
  const refunded = a.payment.status === 'refunded';
  const awaitingDraft = a.life.state === 'awaiting_first_draft';
  // whose turn it is, as the server says (issue 58)
  const waiting = waitingWords(a.life.waitingOn, 'brand');

  return (
    <Card data-testid="article-card">
      <CardContent className="space-y-4 p-5">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="flex min-w-0 items-start gap-3">
            {selection && (
              <Checkbox
                className="mt-1"
                checked={selection.checked}
                onCheckedChange={(v) => selection.onChange(v === true)}
                aria-label={`Select ${a.title} at ${a.outletName}`}
                data-testid="article-select"
              />
            )}
            <div className="min-w-0 space-y-1.5">
              <div className="flex flex-wrap items-center gap-2">
                {firstType && isOpportunityType(firstType) && (
                  <Badge variant="secondary">{OPPORTUNITY_TYPE_LABELS[firstType]}</Badge>
                )}
                <PlacementStatusBadge status={status} testId="article-status" />
                <PartlyRefundedBadge payment={a.payment} />
              </div>
              <h2 className="text-base font-semibold leading-snug">{a.title}</h2>
              <p className="text-sm text-muted-foreground">{a.outletName}</p>
              {a.client && (
                <p className="text-sm text-muted-foreground" data-testid="article-client">
                  For {a.client.name}
                </p>
              )}
            </div>
          </div>
          {money && <p className="text-lg font-semibold tabular-nums sm:text-right">{formatUsd(money.payment.amount)}</p>}
        </div>

        <div className="flex flex-col gap-3 border-t pt-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
            {refunded ? (
              <span
                className="inline-flex items-center gap-1.5 font-medium text-muted-foreground"
                data-testid="refunded-note"
              >
                <Undo2 className="size-4" />{' '}
                {!money
                  ? status
                  : isPartlyRefunded(money.payment)
                    ? `Partially refunded – ${formatUsd(money.payment.refundedAmount)} of ${formatUsd(money.payment.amount)} returned`
                    : `Refunded – ${formatUsd(money.payment.amount)} returned`}
              </span>
            ) : submitted ? (
              <span className="inline-flex items-center gap-1.5 font-medium text-emerald-700">
                <CheckCircle2 className="size-4" /> Brief submitted
              </span>
            ) : (
              <span className="inline-flex items-center gap-1.5 font-medium text-amber-700">
                <Clock className="size-4" /> Brief pending
              </span>
            )}
            {a.payment.status !== 'refunded' && (
              <LiveBy liveBy={a.life.clock.liveBy ?? a.promisedBy} usuallyBy={null} moved={a.life.clock.promiseMoved} />
            )}
            <StageClock clock={a.life.clock} />
            {awaitingDraft && (
              <span className="inline-flex items-center gap-1.5 text-muted-foreground">
                <Hourglass className="size-4" /> Awaiting first draft
              </span>
            )}
            {a.dispute && a.dispute.status !== 'resolved' && <DisputeNote dispute={a.dispute} linked={!reviewOnly} />}
            {waiting && (
              <span className="text-muted-foreground" data-testid="life-waiting" title={a.life.label}>
                {waiting}
              </span>
            )}
          </div>
          <div className="flex flex-col gap-2 sm:flex-row">
            <MessagesLink side="brand" paymentId={a.payment.id} className="w-full sm:w-auto" />
            {briefEditable ? (
              <Button asChild variant={submitted ? 'outline' : 'default'} size="sm" className="w-full sm:w-auto">
                <Link href={`/brand/brief/${a.payment.id}`}>{submitted ? 'Edit Brief' : 'Submit Brief'}</Link>
              </Button>
            ) : (
              briefReadable && (
                <Button asChild variant="outline" size="sm" className="w-full sm:w-auto">
                  <Link href={`/brand/brief/${a.payment.id}`}>View Brief</Link>
                </Button>
              )
            )}
          </div>
        </div>

        {a.declined && !refunded && (
          <div
            role="status"
            data-testid="declined-note"
            className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 sm:flex-row sm:items-center sm:justify-between"
          >
            <span className="flex items-start gap-2">
              <AlertTriangle className="mt-0.5 size-4 shrink-0" />
              <span>
                The outlet declined this placement: {a.declined.reason}. Choose an alternative by{' '}
                {swapDay.format(new Date(a.declined.swapBy))}, or you are refunded in full then.
              </span>
            </span>
            <Button asChild size="sm" className="shrink-0">
              <Link href={`/brand/my-articles/${a.payment.id}#swap`}>Choose an alternative</Link>
            </Button>
          </div>
        )}
        {hasDraft(a) && <DraftPanel article={a} />}
        {a.publication && <PublicationPanel publication={a.publication} />}
      </CardContent>
    </Card>
  );
}
