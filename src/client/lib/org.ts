import { useQuery } from '@tanstack/react-query';
import type { Org, Spend } from '@shared/schemas/org';
import { apiGet, apiRequestRaw } from './api';
import { queryClient } from './query-client';

/**
 * The signed-in member's organisation, role and budget, read by the org feature's screens, the
 * shell and the claim dialog alike (features do not import each other).
 */

/**
 * GET /api/org: the signed-in member's organisation and role. Only an approved brand is a member
 * (the server answers 403 to the others), so the caller says when to ask.
 */
export const useOrg = (enabled = true) => useQuery({ queryKey: ['/api/org'], queryFn: () => apiGet<Org>('/api/org'), enabled });

export const spendKey = ['/api/org/spend'];
export const requestsKey = ['/api/org/purchase-requests'];

/** GET /api/org/spend: this month's spend against the organisation's cap and the member's own. */
export const useSpend = (enabled = true) => useQuery({ queryKey: spendKey, queryFn: () => apiGet<Spend>('/api/org/spend'), enabled });

/** What POST /api/payments/checkout answers: where to pay (200), or the purchase request it became (202). */
type CheckoutAnswer =
  | { url: string }
  | { purchaseRequest: { id: string; status: 'pending'; opportunityId: string; amountUsd: string; expiresAt: string } };

/** POST /api/payments/checkout, for an opportunity or (once approved) its purchase request. */
export async function startCheckout(opportunityId: string, purchaseRequestId?: string): Promise<CheckoutAnswer> {
  const res = await apiRequestRaw('POST', '/api/payments/checkout', purchaseRequestId ? { opportunityId, purchaseRequestId } : { opportunityId });
  const answer = (await res.json()) as CheckoutAnswer;
  if ('purchaseRequest' in answer) {
    void queryClient.invalidateQueries({ queryKey: requestsKey });
    void queryClient.invalidateQueries({ queryKey: ['/api/org/audit'] });
  }
  return answer;
}
