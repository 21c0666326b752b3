import { useMutation } from '@tanstack/react-query';
import type { Opportunity } from '@shared/opportunity';
import type { OpportunityRequest } from '@shared/schemas/opportunity';
import { apiRequest } from '@/lib/api';
import { invalidateOpportunities } from './get-opportunities';
import { toRequestBody } from './request-body';
import { apiUrl } from '@shared/api-paths';

export function useCreateOpportunity() {
  return useMutation({
    mutationFn: (input: OpportunityRequest) => apiRequest<Opportunity>('POST', apiUrl('/api/admin/opportunities'), toRequestBody(input)),
    onSuccess: (created) => invalidateOpportunities(created.id),
  });
}
