import { useParams } from 'wouter';
import { DetailsView } from '../components/details-view';

/** /brand/my-articles/{paymentId}: one purchased article's timeline and its conversation with the editorial team. */
export function BrandDetailsPage() {
  const { paymentId = '' } = useParams<{ paymentId: string }>();
  return (
    <DetailsView
      key={paymentId}
      side="brand"
      paymentId={paymentId}
      back={{ href: '/brand/my-articles', label: 'Back to My Articles' }}
    />
  );
}
