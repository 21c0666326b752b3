import { useMutation } from '@tanstack/react-query';
import type { PlacementPayment } from '@shared/schemas/brief';
import { apiRequest, apiRequestRaw } from '@/lib/api';
import { refreshUser } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';
import { myArticlesKey } from '@/lib/my-article-counts';
import { timelineKey } from './get-timeline';
import { apiUrl } from '@shared/api-paths';

/**
 * Spec §7: after a review move, my-articles (the placement's page with it) and the current user are
 * refreshed; the payment history badge changes too, and the timeline has a new entry.
 */
function refreshAfterReview() {
  void queryClient.invalidateQueries({ queryKey: myArticlesKey });
  void queryClient.invalidateQueries({ queryKey: timelineKey });
  void queryClient.invalidateQueries({ queryKey: [apiUrl('/api/brand/payments')] });
  void refreshUser();
}

/** POST /api/brand/projects/{paymentId}/approve */
export function useApproveDraft() {
  return useMutation({
    mutationFn: (paymentId: string) => apiRequest<PlacementPayment>('POST', apiUrl('/api/brand/projects/:paymentId/approve', { paymentId })),
    onSuccess: refreshAfterReview,
  });
}

/**
 * POST /api/brand/projects/{paymentId}/request-edits — feedback trimmed; empty sends none. Beyond the
 * included rounds (issue 47) a `reason` goes with it and the server answers 202: an extra revision
 * awaiting the editorial team (`extra`), not a round opened.
 */
export function useRequestEdits() {
  return useMutation({
    mutationFn: async ({ paymentId, feedback, reason }: { paymentId: string; feedback: string; reason?: string }) => {
      const text = feedback.trim();
      const body = { ...(text ? { feedback: text } : {}), ...(reason !== undefined ? { reason: reason.trim() } : {}) };
      const res = await apiRequestRaw('POST', apiUrl('/api/brand/projects/:paymentId/request-edits', { paymentId }), body);
      return { extra: res.status === 202 };
    },
    onSuccess: refreshAfterReview,
  });
}
