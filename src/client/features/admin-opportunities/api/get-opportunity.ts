import { useQuery } from '@tanstack/react-query';
import type { Opportunity } from '@shared/opportunity';
import type { Versioned } from '@shared/schemas/version';
import { adminOpportunitiesKey } from './get-opportunities';

/** GET /api/admin/opportunities/{id}, with the version a save sends back; a 404 (or any failure) leaves no data. */
export const useAdminOpportunity = (id: string) => useQuery<Versioned<Opportunity>>({ queryKey: [...adminOpportunitiesKey, id] });
