import { useMutation } from '@tanstack/react-query';
import type { PlacementPayment } from '@shared/schemas/brief';
import { apiRequest } from '@/lib/api';
import { invalidateProjects } from './admin-projects';
import { apiUrl } from '@shared/api-paths';

/**
 * POST /api/admin/payments/{id}/revision-request/accept | decline (issue 47): the brand's extra
 * revision answered. Accepted, the round opens with its feedback; declined, the brand reads why.
 */
export function useAnswerExtraRevision(paymentId: string) {
  return useMutation({
    mutationFn: (answer: { accept: true } | { accept: false; reason: string }) =>
      apiRequest<PlacementPayment>(
        'POST',
        apiUrl(answer.accept ? '/api/admin/placements/:placementId/revision-request/accept' : '/api/admin/placements/:placementId/revision-request/decline', { placementId: paymentId }),
        answer.accept ? undefined : { reason: answer.reason.trim() },
      ),
    onSettled: invalidateProjects,
  });
}
