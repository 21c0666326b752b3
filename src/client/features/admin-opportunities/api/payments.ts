import { useMutation, useQuery } from '@tanstack/react-query';
import type { AdminPaymentItem, PaymentDto } from '@shared/payment';
import type { PublishRequest } from '@shared/publication';
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
    // without a body: the spec's call; with {liveUrl, overrideReason?}: the live article is checked first
    mutationFn: ({ paymentId, body }: { paymentId: string; body?: PublishRequest }) =>
      apiRequest<PaymentDto>('POST', `/api/admin/payments/${paymentId}/release`, body),
    onSuccess: () => {
      for (const k of ['/api/admin/payments', '/api/admin/payments/totals', '/api/admin/opportunities', '/api/admin/projects', '/api/admin/placements']) {
        void queryClient.invalidateQueries({ queryKey: [k] });
      }
    },
  });
}
