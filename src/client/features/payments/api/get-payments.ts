import type { BrandPaymentItem } from '@shared/payment';
import { usePagedList } from '@/lib/paged-query';
import { useMyArticleCounts } from '@/lib/my-article-counts';
import { apiUrl } from '@shared/api-paths';

/** GET /api/brand/payments, page by page, newest first. */
export const useBrandPayments = (clientId: string | null = null) =>
  usePagedList<BrandPaymentItem>(
    [apiUrl('/api/brand/payments'), ...(clientId ? [clientId] : [])],
    apiUrl('/api/brand/payments', {}, { clientId }),
  );

/** How many payments the brand has in all: every purchase is in exactly one My Articles tab. */
export function useBrandPaymentCount(clientId: string | null = null): number | undefined {
  const { data } = useMyArticleCounts(clientId);
  return data ? data.pending + data['needs-review'] + data.approved + data.completed + data.refunded : undefined;
}
