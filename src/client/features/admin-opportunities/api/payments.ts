import { useMutation, useQuery } from '@tanstack/react-query';
import type { AdminPaymentItem } from '@shared/payment';
import { apiGet, apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';

/**
 * The payments of one opportunity held in escrow (the ones "Mark Published" may release), asked
 * for when the dialog opens. 200 is the most a page holds; an opportunity has at most that many open slots in practice.
 */
export function useHeldPayments(opportunityId: string, enabled: boolean) {
  return useQuery<AdminPaymentItem[]>({
    queryKey: ['/api/admin/payments', 'held', opportunityId],
    queryFn: () => apiGet(`/api/admin/payments?opportunityId=${opportunityId}&status=paid&limit=200`),
    enabled,
  });
}

export function useReleasePayment() {
  return useMutation({
    mutationFn: (paymentId: string) => apiRequest<unknown>('POST', `/api/admin/payments/${paymentId}/release`),
    onSuccess: () => {
      for (const k of ['/api/admin/payments', '/api/admin/payments/totals', '/api/admin/opportunities', '/api/admin/projects']) {
        void queryClient.invalidateQueries({ queryKey: [k] });
      }
    },
  });
}
