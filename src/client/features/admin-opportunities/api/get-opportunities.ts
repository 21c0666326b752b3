import type { AdminOpportunityItem } from '@shared/opportunity';
import { queryClient } from '@/lib/query-client';
import { usePagedList } from '@/lib/paged-query';
import { apiUrl } from '@shared/api-paths';

export const adminOpportunitiesKey = [apiUrl('/api/admin/opportunities')];

export interface OpportunityListFilters {
  status?: string;
  type?: string;
  full?: boolean;
  /** the search text ('' for none) */
  q?: string;
}

/** GET /api/admin/opportunities: every opportunity, whatever its status, filtered by the server, page by page. */
export function useAdminOpportunities(filters: OpportunityListFilters) {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.type) params.set('type', filters.type);
  if (filters.full) params.set('full', 'true');
  if (filters.q) params.set('q', filters.q);
  const query = params.toString();
  return usePagedList<AdminOpportunityItem>([...adminOpportunitiesKey, 'list', query], apiUrl('/api/admin/opportunities', {}, new URLSearchParams(query)));
}

/** After a create or update: the admin list, the one opportunity, and the brands' catalogue. */
export function invalidateOpportunities(id?: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: adminOpportunitiesKey }),
    id ? queryClient.invalidateQueries({ queryKey: [...adminOpportunitiesKey, id] }) : undefined,
    queryClient.invalidateQueries({ queryKey: [apiUrl('/api/opportunities')] }),
  ]);
}
