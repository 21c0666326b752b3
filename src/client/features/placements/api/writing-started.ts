import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { invalidateProjects } from './admin-projects';
import { apiUrl } from '@shared/api-paths';

/** POST /api/admin/payments/{id}/writing-started (issue 47): from now the brand's cancellation is a request. */
export function useMarkWritingStarted(paymentId: string) {
  return useMutation({
    mutationFn: () =>
      apiRequest<{ writingStartedAt: string }>('POST', apiUrl('/api/admin/placements/:placementId/writing-started', { placementId: paymentId })),
    onSettled: invalidateProjects,
  });
}
