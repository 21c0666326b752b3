import { Link } from 'wouter';
import { CheckCircle2, Clock, Hourglass, Undo2 } from 'lucide-react';
import { OPPORTUNITY_TYPE_LABELS, isOpportunityType } from '@shared/opportunity';
import { formatUsd } from '@shared/money';
import type { BrandPlacementItem } from '@shared/schemas/brief';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { MessagesLink } from '@/components/messages-link';
import { DraftPanel } from './draft-panel';
import { PublicationPanel } from './publication-panel';
import { placementStatus } from '@shared/payment';
import { PlacementStatusBadge } from '@/components/placement-status';
import { briefCanChange, hasDraft } from './article-status';
import { useReviewOnly } from '@/lib/org';

export function ArticleCard({ article: a }: { article: BrandPlacementItem }) {
  // a client reviewer's answer carries no amount (decision 035)
  const reviewOnly = useReviewOnly() === true;
  const status = placementStatus(a.payment);
  const firstType = a.type[0];
  const submitted = Boolean(a.brief?.submittedAt);
  // a brief can change only while the money is held and the draft is not approved (the server refuses
  // after either); once approved it stays readable until publication, when the spec hides the button
  const briefEditable = briefCanChange(a);
  const briefReadable = submitted && a.payment.status === 'paid' && !briefEditable;
  const awaitingDraft = submitted && a.payment.draftReviewStatus === 'awaiting_brand_brief' && !hasDraft(a);
  // a refunded purchase has nothing pending: "Brief pending" there read as if work were still due
  const refunded = a.payment.status === 'refunded';

  return (
    <Card data-testid="article-card">
      <CardContent className="space-y-4 p-5">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0 space-y-1.5">
            <div className="flex flex-wrap items-center gap-2">
              {firstType && isOpportunityType(firstType) && <Badge variant="secondary">{OPPORTUNITY_TYPE_LABELS[firstType]}</Badge>}
              <PlacementStatusBadge status={status} testId="article-status" />
            </div>
            <h2 className="text-base font-semibold leading-snug">{a.title}</h2>
            <p className="text-sm text-muted-foreground">{a.outletName}</p>
            {a.client && (
              <p className="text-sm text-muted-foreground" data-testid="article-client">
                For {a.client.name}
              </p>
            )}
          </div>
          {!reviewOnly && (
            <p className="text-lg font-semibold tabular-nums sm:text-right">{formatUsd(a.payment.amount)}</p>
          )}
        </div>

        <div className="flex flex-col gap-3 border-t pt-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
            {refunded ? (
              <span
                className="inline-flex items-center gap-1.5 font-medium text-muted-foreground"
                data-testid="refunded-note"
              >
                <Undo2 className="size-4" />{' '}
                {reviewOnly ? 'Refunded' : `Refunded – ${formatUsd(a.payment.amount)} returned`}
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
            {awaitingDraft && (
              <span className="inline-flex items-center gap-1.5 text-muted-foreground">
                <Hourglass className="size-4" /> Awaiting first draft
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

        {hasDraft(a) && <DraftPanel article={a} />}
        {a.publication && <PublicationPanel publication={a.publication} />}
      </CardContent>
    </Card>
  );
}
