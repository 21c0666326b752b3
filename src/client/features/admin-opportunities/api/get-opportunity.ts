import { useQuery } from '@tanstack/react-query';
import type { Opportunity } from '@shared/opportunity';
import { adminOpportunitiesKey } from './get-opportunities';

/** GET /api/admin/opportunities/{id}; a 404 (or any failure) leaves no data. */
export const useAdminOpportunity = (id: string) => useQuery<Opportunity>({ queryKey: [...adminOpportunitiesKey, id] });
