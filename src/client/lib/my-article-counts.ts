import { useQuery } from '@tanstack/react-query';
import type { ArticleTabCounts } from '@shared/schemas/brief';
import { apiGet } from './api';
import { apiUrl } from '@shared/api-paths';

/** The My Articles list's key: invalidating it refreshes every tab, every loaded page and the counts. */
export const myArticlesKey = [apiUrl('/api/brand/my-articles')] as const;

/**
 * GET /api/brand/my-articles/counts: each tab's count over every purchase. Here rather than in the
 * placements feature: Payment History counts the brand's purchases with it too.
 */
export const useMyArticleCounts = (clientId?: string | null) =>
  useQuery<ArticleTabCounts>({
    queryKey: [...myArticlesKey, 'counts', ...(clientId ? [clientId] : [])],
    queryFn: () => apiGet(apiUrl('/api/brand/my-articles/counts', {}, { clientId })),
  });
