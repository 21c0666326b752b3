import { useQuery } from '@tanstack/react-query';
import { usePagedList } from '@/lib/paged-query';
import type { AdminPaymentItem, PaymentAttentionItem, PaymentTotals } from '@shared/payment';

/** GET /api/admin/payments, page by page, newest first. */
export const useAdminPayments = () => usePagedList<AdminPaymentItem>(['/api/admin/payments', 'list'], '/api/admin/payments');
export const usePaymentTotals = () => useQuery<PaymentTotals>({ queryKey: ['/api/admin/payments/totals'] });
/** GET /api/admin/payments/attention: charges that were not booked because they did not match. */
export const usePaymentsNeedingAttention = () => useQuery<PaymentAttentionItem[]>({ queryKey: ['/api/admin/payments/attention'] });

