import { useMutation, useQuery } from '@tanstack/react-query';
import type { AdminPaymentItem, PaymentTotals } from '@shared/payment';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';

export const useAdminPayments = () => useQuery<AdminPaymentItem[]>({ queryKey: ['/api/admin/payments'] });
export const usePaymentTotals = () => useQuery<PaymentTotals>({ queryKey: ['/api/admin/payments/totals'] });

export function useRefundPayment() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<unknown>('POST', `/api/admin/payments/${id}/refund`),
    onSuccess: () => {
      for (const key of ['/api/admin/payments', '/api/admin/opportunities', '/api/admin/projects']) {
        void queryClient.invalidateQueries({ queryKey: [key] });
      }
    },
  });
}
