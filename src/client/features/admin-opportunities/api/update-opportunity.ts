import { useMutation } from '@tanstack/react-query';
import type { Opportunity } from '@shared/opportunity';
import type { OpportunityRequest } from '@shared/schemas/opportunity';
import type { Versioned } from '@shared/schemas/version';
import { apiRequest } from '@/lib/api';
import { invalidateOpportunities } from './get-opportunities';
import { toRequestBody } from './request-body';
import { apiUrl } from '@shared/api-paths';

/** PATCH with the version the form was opened on: a save on an older copy is refused (409, decision 019). */
export function useUpdateOpportunity(id: string) {
  return useMutation({
    mutationFn: ({ input, baseVersion }: { input: OpportunityRequest; baseVersion: string }) =>
      apiRequest<Versioned<Opportunity>>('PATCH', apiUrl('/api/admin/opportunities/:id', { id }), { ...toRequestBody(input), baseVersion }),
    onSuccess: () => invalidateOpportunities(id),
  });
}
