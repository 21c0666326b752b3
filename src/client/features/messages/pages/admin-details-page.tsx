import { useParams } from 'wouter';
import { DetailsView } from '../components/details-view';

/** /admin/projects/{paymentId}: one project's timeline and its conversation with the brand. */
export function AdminDetailsPage() {
  const { paymentId = '' } = useParams<{ paymentId: string }>();
  return (
    <DetailsView
      key={paymentId}
      side="admin"
      paymentId={paymentId}
      back={{ href: '/admin/projects', label: 'Back to Projects' }}
    />
  );
}
