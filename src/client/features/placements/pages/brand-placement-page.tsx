import { useParams } from 'wouter';
import { useCheckoutReturn } from '@/lib/use-checkout-return';
import { OPPORTUNITY_TYPE_LABELS, isOpportunityType } from '@shared/opportunity';
import { Badge } from '@/components/ui/badge';
import { useReviewOnly } from '@/lib/org';
import { useBrandPlacement } from '../api/get-placement';
import { placementStatus } from '@shared/payment';
import { withAmounts } from '@shared/schemas/brief';
import { PartlyRefundedBadge, PlacementStatusBadge } from '@/components/placement-status';
import { BrandBriefSection, BrandDraftSection, BrandPublicationSection } from '../components/placement/brand-sections';
import { MoneySection } from '../components/placement/money-section';
import { BrandCancellationSection } from '../components/placement/cancellation-section';
import { BrandDisputeSection } from '../components/placement/dispute-section';
import { SwapSection } from '../components/placement/swap-section';
import { PlacementFrame, PlacementHeader } from '../components/placement/placement-frame';

/**
 * /brand/my-articles/{paymentId}: the placement's home for its brand. The brief, the draft to
 * approve or send back, the live article, the money, then the timeline and the conversation with
 * the editorial team.
 */
export function BrandPlacementPage() {
  const { paymentId = '' } = useParams<{ paymentId: string }>();
  // back from paying a swap's difference (?checkout=success): said, and the placement read again
  useCheckoutReturn();
  const query = useBrandPlacement(paymentId);
  // a client reviewer sees no money (decision 035)
  const reviewOnly = useReviewOnly() === true;
  return (
    <PlacementFrame key={paymentId} side="brand" paymentId={paymentId} query={query}>
      {(a) => {
        const status = placementStatus(a.payment);
        // the money, a cancellation and disputes: for those who see amounts (a client reviewer's answer has none)
        const bought = reviewOnly ? null : withAmounts(a);
        const firstType = a.type[0];
        return {
          header: (
            <PlacementHeader
              title={a.title}
              life={{ life: a.life, reader: 'brand' }}
              promise={a}
              outletName={a.outletName}
              amount={bought?.payment.amount}
              badges={
                <>
                  {firstType && isOpportunityType(firstType) && <Badge variant="secondary">{OPPORTUNITY_TYPE_LABELS[firstType]}</Badge>}
                  <PlacementStatusBadge status={status} testId="article-status" />
                  <PartlyRefundedBadge payment={a.payment} />
                </>
              }
            >
              {a.client && <p className="text-sm text-muted-foreground">For {a.client.name}</p>}
            </PlacementHeader>
          ),
          brief: <BrandBriefSection article={a} />,
          work: (
            <>
              <SwapSection article={a} />
              <BrandDraftSection article={a} />
              <BrandPublicationSection article={a} />
              {bought && <MoneySection side="brand" payment={bought.payment} title={a.title} />}
              {bought && <BrandCancellationSection article={bought} />}
              {/* a client reviewer reads no amounts: the API refuses it a dispute (decision 035) */}
              {bought && <BrandDisputeSection article={bought} />}
            </>
          ),
        };
      }}
    </PlacementFrame>
  );
}
