import { useMutation } from '@tanstack/react-query';
import type { Cancellation } from '@shared/schemas/fair-terms';
import { apiRequest } from '@/lib/api';
import { refreshUser } from '@/lib/auth';
import { myArticlesKey } from '@/lib/my-article-counts';
import { queryClient } from '@/lib/query-client';
import { timelineKey } from './get-timeline';
import { apiUrl } from '@shared/api-paths';

/** What the brand's cancel answers: refunded at once (before writing), or a request awaiting the team. */
type CancelAnswer =
  { refundedUsd: string; cancellation: Cancellation | null } | { cancellation: Cancellation; refundedUsd?: undefined };

/**
 * POST /api/brand/projects/{paymentId}/cancel (issue 47). Afterwards My Articles (the placement's
 * page with it), the payments (a refund and its credit note), the escrow balance (the wallet), the
 * timeline and the user.
 */
export function useCancelPlacement(paymentId: string) {
  return useMutation({
    mutationFn: (reason: string) => {
      const text = reason.trim();
      return apiRequest<CancelAnswer>('POST', apiUrl('/api/brand/placements/:placementId/cancel', { placementId: paymentId }), text ? { reason: text } : {});
    },
    onSettled: refreshAfterCancel,
  });
}

/** What a cancel (either kind) makes stale: the placement's lists and timeline, payments, wallet, user. */
function refreshAfterCancel() {
  void queryClient.invalidateQueries({ queryKey: myArticlesKey });
  void queryClient.invalidateQueries({ queryKey: timelineKey });
  void queryClient.invalidateQueries({ queryKey: [apiUrl('/api/brand/payments')] });
  void queryClient.invalidateQueries({ queryKey: [apiUrl('/api/brand/wallet')] });
  void refreshUser();
}

/**
 * POST /api/brand/placements/{id}/cancel-late (issue 59): LATE_CANCEL_DAYS business days late, the
 * placement is cancelled in one click and all that is left refunded. Refreshes what the cancel does.
 */
export function useCancelLate(paymentId: string) {
  return useMutation({
    mutationFn: () => apiRequest<{ refundedUsd: string }>('POST', apiUrl('/api/brand/placements/:placementId/cancel-late', { placementId: paymentId })),
    onSettled: refreshAfterCancel,
  });
}
