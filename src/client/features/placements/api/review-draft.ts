import { useMutation } from '@tanstack/react-query';
import type { PlacementPayment } from '@shared/schemas/brief';
import { apiRequest } from '@/lib/api';
import { refreshUser } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';
import { myArticlesKey } from '@/lib/my-article-counts';
import { timelineKey } from './get-timeline';

/**
 * Spec §7: after a review move, my-articles (the placement's page with it) and the current user are
 * refreshed; the payment history badge changes too, and the timeline has a new entry.
 */
function refreshAfterReview() {
  void queryClient.invalidateQueries({ queryKey: myArticlesKey });
  void queryClient.invalidateQueries({ queryKey: timelineKey });
  void queryClient.invalidateQueries({ queryKey: ['/api/brand/payments'] });
  void refreshUser();
}

/** POST /api/brand/projects/{paymentId}/approve */
export function useApproveDraft() {
  return useMutation({
    mutationFn: (paymentId: string) => apiRequest<PlacementPayment>('POST', `/api/brand/projects/${paymentId}/approve`),
    onSuccess: refreshAfterReview,
  });
}

/** POST /api/brand/projects/{paymentId}/request-edits — feedback trimmed; empty sends none. */
export function useRequestEdits() {
  return useMutation({
    mutationFn: ({ paymentId, feedback }: { paymentId: string; feedback: string }) => {
      const text = feedback.trim();
      return apiRequest<PlacementPayment>('POST', `/api/brand/projects/${paymentId}/request-edits`, text ? { feedback: text } : {});
    },
    onSuccess: refreshAfterReview,
  });
}
