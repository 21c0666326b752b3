import { useMutation, useQuery } from '@tanstack/react-query';
import type { AdminPaymentItem } from '@shared/payment';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';

const key = ['/api/admin/payments'];

/** Every payment of one opportunity, from the one cached admin payments list. */
export function useOpportunityPayments(opportunityId: string) {
  return useQuery<AdminPaymentItem[], Error, AdminPaymentItem[]>({
    queryKey: key,
    select: (all) => all.filter((p) => p.opportunityId === opportunityId),
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
