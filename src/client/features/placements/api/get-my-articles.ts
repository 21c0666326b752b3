import { useQuery } from '@tanstack/react-query';
import type { ArticleTab, BrandPlacementItem } from '@shared/schemas/brief';
import { apiGet } from '@/lib/api';
import { myArticlesKey } from '@/lib/my-article-counts';
import { usePagedList } from '@/lib/paged-query';
import { apiUrl } from '@shared/api-paths';

/** GET /api/brand/my-articles?tab=…: one tab, page by page (the server filters and orders it). */
export const useMyArticlesTab = (tab: ArticleTab, clientId: string | null) =>
  usePagedList<BrandPlacementItem>(
    [...myArticlesKey, 'tab', tab, ...(clientId ? [clientId] : [])],
    apiUrl('/api/brand/my-articles', {}, { tab, clientId }),
  );

/** One purchase of the brand (by payment or by opportunity), or undefined when it is not the brand's. */
export function useMyArticle(filter: { paymentId: string } | { opportunityId: string | null }) {
  const [name, value] = 'paymentId' in filter ? ['paymentId', filter.paymentId] : ['opportunityId', filter.opportunityId];
  const q = useQuery<BrandPlacementItem[]>({
    queryKey: [...myArticlesKey, name, value],
    queryFn: () => apiGet(apiUrl('/api/brand/my-articles', {}, new URLSearchParams({ [name]: value ?? '', limit: '1' }))),
    enabled: Boolean(value),
  });
  return { ...q, article: q.data?.[0] };
}
