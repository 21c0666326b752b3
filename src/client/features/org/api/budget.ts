import { useMutation, useQuery } from '@tanstack/react-query';
import type { PurchaseRequestStatus } from '@shared/org';
import type { PurchaseRequest, Spend } from '@shared/schemas/org';
import { apiGet, apiRequest } from '@/lib/api';
import { requestsKey, spendKey, startCheckout } from '@/lib/org';
import { queryClient } from '@/lib/query-client';
import { apiUrl } from '@shared/api-paths';

/** GET /api/org/purchase-requests?status=: every request for owners and admins, one's own for the others. */
export const usePurchaseRequests = (status: PurchaseRequestStatus, options: { enabled?: boolean; refetchInterval?: number } = {}) =>
  useQuery({
    queryKey: [...requestsKey, status],
    queryFn: () => apiGet<PurchaseRequest[]>(apiUrl('/api/org/purchase-requests', {}, { status })),
    ...options,
  });

const refreshBudget = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: spendKey }),
    queryClient.invalidateQueries({ queryKey: [apiUrl('/api/org/members')] }),
    queryClient.invalidateQueries({ queryKey: [apiUrl('/api/org/audit')] }),
  ]);
const refreshRequests = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: requestsKey }),
    queryClient.invalidateQueries({ queryKey: [apiUrl('/api/org/audit')] }),
  ]);

/** PUT /api/org/budget: the organisation's monthly cap (null: none). */
export function useSetBudget() {
  return useMutation({
    mutationFn: (monthlyCapUsd: string | null) => apiRequest<Spend>('PUT', apiUrl('/api/org/budget'), { monthlyCapUsd }),
    onSuccess: (spend) => {
      queryClient.setQueryData(spendKey, spend);
      return refreshBudget();
    },
  });
}

export type MemberLimits = { monthlyCapUsd: string | null; approvalThresholdUsd: string | null };

/** PUT /api/org/members/{userId}/limits */
export function useSetMemberLimits() {
  return useMutation({
    mutationFn: ({ userId, ...limits }: MemberLimits & { userId: string }) => apiRequest<void>('PUT', apiUrl('/api/org/members/:userId/limits', { userId }), limits),
    onSuccess: refreshBudget,
  });
}

export function useApprovePurchase() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<PurchaseRequest>('POST', apiUrl('/api/org/purchase-requests/:id/approve', { id })),
    onSuccess: refreshRequests,
  });
}

export function useDeclinePurchase() {
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      apiRequest<PurchaseRequest>('POST', apiUrl('/api/org/purchase-requests/:id/decline', { id }), { reason }),
    onSuccess: refreshRequests,
  });
}

/** Pays an approved purchase request: a checkout naming it; the browser then goes to its url. */
export function usePayRequest() {
  return useMutation({
    mutationFn: async (request: Pick<PurchaseRequest, 'id' | 'opportunityId' | 'lines'>) => {
      // a cart's request (issue 46) is paid by checking out the cart it was approved for
      if (request.lines) return apiRequest<{ url: string }>('POST', apiUrl('/api/cart/checkout'), { purchaseRequestId: request.id });
      const answer = await startCheckout(request.opportunityId, { purchaseRequestId: request.id });
      if (!('url' in answer)) throw new Error('This purchase is waiting for approval again');
      return answer;
    },
  });
}
