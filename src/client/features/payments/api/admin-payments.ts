import { useMutation, useQuery } from '@tanstack/react-query';
import { usePagedList } from '@/lib/paged-query';
import type { AdminPaymentItem, PaymentAttentionItem, PaymentTotals } from '@shared/payment';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';

/** GET /api/admin/payments, page by page, newest first. */
export const useAdminPayments = () => usePagedList<AdminPaymentItem>(['/api/admin/payments', 'list'], '/api/admin/payments');
export const usePaymentTotals = () => useQuery<PaymentTotals>({ queryKey: ['/api/admin/payments/totals'] });
/** GET /api/admin/payments/attention: charges that were not booked because they did not match. */
export const usePaymentsNeedingAttention = () => useQuery<PaymentAttentionItem[]>({ queryKey: ['/api/admin/payments/attention'] });

export function useRefundPayment() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<unknown>('POST', `/api/admin/payments/${id}/refund`),
    onSuccess: () => {
      for (const key of ['/api/admin/payments', '/api/admin/payments/totals', '/api/admin/opportunities', '/api/admin/projects']) {
        void queryClient.invalidateQueries({ queryKey: [key] });
      }
    },
  });
}
