import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/api';
import { usePagedList } from '@/lib/paged-query';
import type { AdminPaymentItem, PaymentAttentionItem, PaymentTotals } from '@shared/payment';

/** `?q=…` of a search by brand ('' for none). */
const searchQuery = (q: string) => (q ? `?q=${encodeURIComponent(q)}` : '');

/** GET /api/admin/payments?q=…, page by page, newest first (those of the brands the search finds). */
export const useAdminPayments = (q: string) =>
  usePagedList<AdminPaymentItem>(['/api/admin/payments', 'list', q], `/api/admin/payments${searchQuery(q)}`);

/** GET /api/admin/payments/totals?q=…: held and released, of the payments the list shows. */
export const usePaymentTotals = (q: string) =>
  useQuery<PaymentTotals>({
    queryKey: ['/api/admin/payments/totals', q],
    queryFn: () => apiGet(`/api/admin/payments/totals${searchQuery(q)}`),
    placeholderData: keepPreviousData,
  });
/** GET /api/admin/payments/attention: charges that were not booked because they did not match. */
export const usePaymentsNeedingAttention = () => useQuery<PaymentAttentionItem[]>({ queryKey: ['/api/admin/payments/attention'] });

