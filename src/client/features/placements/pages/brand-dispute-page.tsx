import { useParams } from 'wouter';
import { useReviewOnly } from '@/lib/org';
import { useDispute } from '../api/disputes';
import { BrandDisputeActions } from '../components/disputes/brand-dispute-actions';
import { DisputeFrame } from '../components/disputes/dispute-view';

/**
 * /brand/disputes/{id} (issue 47): the brand's dispute. What is wrong and what was asked, its
 * deadlines, the editorial team's answer with Accept offer and Escalate, the decision and what was
 * refunded, Byline's checks of the live article, and the placement's conversation.
 */
export function BrandDisputePage() {
  const { id = '' } = useParams<{ id: string }>();
  const query = useDispute('brand', id);
  const reviewOnly = useReviewOnly() === true;
  return (
    <DisputeFrame
      key={id}
      side="brand"
      query={query}
      showAmount={!reviewOnly}
      actions={(d) => <BrandDisputeActions d={d} />}
    />
  );
}
