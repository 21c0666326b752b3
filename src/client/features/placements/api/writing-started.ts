import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { invalidateProjects } from './admin-projects';

/** POST /api/admin/payments/{id}/writing-started (issue 47): from now the brand's cancellation is a request. */
export function useMarkWritingStarted(paymentId: string) {
  return useMutation({
    mutationFn: () =>
      apiRequest<{ writingStartedAt: string }>('POST', `/api/admin/payments/${paymentId}/writing-started`),
    onSettled: invalidateProjects,
  });
}
