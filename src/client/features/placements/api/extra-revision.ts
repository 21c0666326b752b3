import { useMutation } from '@tanstack/react-query';
import type { PlacementPayment } from '@shared/schemas/brief';
import { apiRequest } from '@/lib/api';
import { invalidateProjects } from './admin-projects';

/**
 * POST /api/admin/payments/{id}/revision-request/accept | decline (issue 47): the brand's extra
 * revision answered. Accepted, the round opens with its feedback; declined, the brand reads why.
 */
export function useAnswerExtraRevision(paymentId: string) {
  return useMutation({
    mutationFn: (answer: { accept: true } | { accept: false; reason: string }) =>
      apiRequest<PlacementPayment>(
        'POST',
        `/api/admin/payments/${paymentId}/revision-request/${answer.accept ? 'accept' : 'decline'}`,
        answer.accept ? undefined : { reason: answer.reason.trim() },
      ),
    onSettled: invalidateProjects,
  });
}
