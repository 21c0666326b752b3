import { useParams } from 'wouter';
import { useDispute } from '../api/disputes';
import { AdminDisputeActions } from '../components/disputes/admin-dispute-actions';
import { DisputeFrame } from '../components/disputes/dispute-view';

/**
 * /admin/disputes/{id} (issue 47): a dispute for the editorial team. The same facts as the brand
 * reads, with Accept, Offer and Reject while it is open and Decide once escalated, and the
 * placement's conversation with the brand.
 */
export function AdminDisputePage() {
  const { id = '' } = useParams<{ id: string }>();
  const query = useDispute('admin', id);
  return <DisputeFrame key={id} side="admin" query={query} actions={(d) => <AdminDisputeActions d={d} />} />;
}
