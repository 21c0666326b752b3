import { useQuery } from '@tanstack/react-query';
import type { AdminPaymentItem } from '@shared/payment';
import { apiGet } from '@/lib/api';
import { apiUrl } from '@shared/api-paths';

/**
 * The payments of one opportunity held in escrow (the ones "Mark Published" may release), asked
 * for when the dialog opens. 200 is the most a page holds; an opportunity has at most that many open slots in practice.
 */
export function useHeldPayments(opportunityId: string, enabled: boolean) {
  return useQuery<AdminPaymentItem[]>({
    queryKey: [apiUrl('/api/admin/payments'), 'held', opportunityId],
    queryFn: () => apiGet(apiUrl('/api/admin/payments', {}, { opportunityId, status: 'paid', limit: 200 })),
    enabled,
  });
}
