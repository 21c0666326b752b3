import { useQuery } from '@tanstack/react-query';
import type { AttentionList } from '@shared/attention';
import { apiGet } from '@/lib/api';
import { apiUrl } from '@shared/api-paths';

/**
 * GET /api/admin/attention: what waits on the editorial team. The sidebar's count and the page
 * share this query; asked again every minute while the portal is open.
 */
export const useAttention = (enabled = true) =>
  useQuery<AttentionList>({
    queryKey: [apiUrl('/api/admin/attention')],
    queryFn: () => apiGet(apiUrl('/api/admin/attention')),
    staleTime: 30_000,
    refetchInterval: 60_000,
    enabled,
  });
