import { useMutation, useQuery } from '@tanstack/react-query';
import type { OlderBriefSubmitInput, SavedBrief } from '@shared/schemas/brief';
import { apiGet, apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { apiUrl } from '@shared/api-paths';

/** GET /api/brand/brief-access?opportunityId=… — false means the earlier flow goes back to /brand. */
export const useBriefAccess = (opportunityId: string | null) =>
  useQuery<boolean>({
    queryKey: [apiUrl('/api/brand/brief-access'), opportunityId],
    queryFn: () => apiGet(apiUrl('/api/brand/brief-access', {}, new URLSearchParams({ opportunityId: opportunityId ?? '' }))),
    enabled: Boolean(opportunityId),
    gcTime: 0,
  });

/** POST /api/briefs (the earlier flow, older field names). */
export function useSubmitOlderBrief() {
  return useMutation({
    mutationFn: (brief: OlderBriefSubmitInput) => apiRequest<SavedBrief>('POST', apiUrl('/api/briefs'), brief),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [apiUrl('/api/brand/my-articles')] }),
  });
}
