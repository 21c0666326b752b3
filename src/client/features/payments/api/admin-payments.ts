import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/api';
import { usePagedList } from '@/lib/paged-query';
import type { AdminPaymentItem, PaymentAttentionItem, PaymentTotals } from '@shared/payment';
import { apiUrl } from '@shared/api-paths';

/** GET /api/admin/payments?q=…, page by page, newest first (those of the brands the search finds). */
export const useAdminPayments = (q: string) =>
  usePagedList<AdminPaymentItem>([apiUrl('/api/admin/payments'), 'list', q], apiUrl('/api/admin/payments', {}, { q }));

/** GET /api/admin/payments/totals?q=…: held and released, of the payments the list shows. */
export const usePaymentTotals = (q: string) =>
  useQuery<PaymentTotals>({
    queryKey: [apiUrl('/api/admin/payments/totals'), q],
    queryFn: () => apiGet(apiUrl('/api/admin/payments/totals', {}, { q })),
    placeholderData: keepPreviousData,
  });
/** GET /api/admin/payments/attention: charges that were not booked because they did not match. */
export const usePaymentsNeedingAttention = () => useQuery<PaymentAttentionItem[]>({ queryKey: [apiUrl('/api/admin/payments/attention')] });

