import { useQuery } from '@tanstack/react-query';
import type { Opportunity } from '@shared/opportunity';
import { queryClient } from '@/lib/query-client';

export const adminOpportunitiesKey = ['/api/admin/opportunities'];

/** GET /api/admin/opportunities: every opportunity, whatever its status. */
export const useAdminOpportunities = () => useQuery<Opportunity[]>({ queryKey: adminOpportunitiesKey });

/** After a create or update: the admin list, the one opportunity, and the brands' catalogue. */
export function invalidateOpportunities(id?: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: adminOpportunitiesKey }),
    id ? queryClient.invalidateQueries({ queryKey: [...adminOpportunitiesKey, id] }) : undefined,
    queryClient.invalidateQueries({ queryKey: ['/api/opportunities'] }),
  ]);
}
