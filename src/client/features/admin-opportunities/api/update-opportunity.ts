import { useMutation } from '@tanstack/react-query';
import type { Opportunity } from '@shared/opportunity';
import type { OpportunityRequest } from '@shared/schemas/opportunity';
import { apiRequest } from '@/lib/api';
import { invalidateOpportunities } from './get-opportunities';
import { toRequestBody } from './request-body';

export function useUpdateOpportunity(id: string) {
  return useMutation({
    mutationFn: (input: OpportunityRequest) => apiRequest<Opportunity>('PATCH', `/api/admin/opportunities/${id}`, toRequestBody(input)),
    onSuccess: () => invalidateOpportunities(id),
  });
}
