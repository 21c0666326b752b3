import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Cancellation, CancellationAnswer, openCancellationSchema } from '@shared/schemas/fair-terms';
import { apiGet, apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { invalidateProjects } from './admin-projects';
import { apiUrl } from '@shared/api-paths';

type OpenCancellation = z.infer<typeof openCancellationSchema>;

const cancellationsKey = [apiUrl('/api/admin/cancellations')] as const;

/** GET /api/admin/cancellations (issue 47): the brands' requests awaiting an answer, soonest due first. */
export const useOpenCancellations = () =>
  useQuery<OpenCancellation[]>({ queryKey: cancellationsKey, queryFn: () => apiGet(apiUrl('/api/admin/cancellations')) });

/**
 * POST /api/admin/cancellations/{id}/answer: a full or part refund, or a refusal. A refund moves
 * the money: every project and payment screen, and the open requests, are read again.
 */
export function useAnswerCancellation(cancellationId: string) {
  return useMutation({
    mutationFn: (answer: CancellationAnswer) =>
      apiRequest<Cancellation>('POST', apiUrl('/api/admin/cancellations/:id/answer', { id: cancellationId }), answer),
    onSettled: () => {
      invalidateProjects();
      void queryClient.invalidateQueries({ queryKey: cancellationsKey });
    },
  });
}
