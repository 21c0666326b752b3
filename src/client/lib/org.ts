import { useQuery } from '@tanstack/react-query';
import { hidesAmounts } from '@shared/org';
import type { Org, OrgClient, Spend } from '@shared/schemas/org';
import { apiGet, apiRequestRaw } from './api';
import { queryClient } from './query-client';
import { apiUrl } from '@shared/api-paths';

/**
 * The signed-in member's organisation, role and budget, read by the org feature's screens, the
 * shell and the claim dialog alike (features do not import each other).
 */

/**
 * GET /api/org: the signed-in member's organisation and role, `approved: false` while it waits for
 * the editorial team (the pending page says so). A brand without a completed profile has none (403),
 * so the caller says when to ask.
 */
export const useOrg = (enabled = true) => useQuery({ queryKey: [apiUrl('/api/org')], queryFn: () => apiGet<Org>(apiUrl('/api/org')), enabled });

/**
 * Whether the signed-in member is a client reviewer (decision 035): a reviewer limited to clients,
 * who reviews its articles and never sees a price or an amount. Undefined while the organisation loads.
 */
export function useReviewOnly(enabled = true): boolean | undefined {
  const org = useOrg(enabled).data;
  return org ? hidesAmounts(org.role, org.clientIds) : undefined;
}

export const clientsKey = [apiUrl('/api/org/clients')];

/** GET /api/org/clients: the organisation's clients (a member limited to some: theirs), by name. */
export const useClients = (enabled = true) =>
  useQuery({ queryKey: clientsKey, queryFn: () => apiGet<OrgClient[]>(apiUrl('/api/org/clients')), enabled });

export const spendKey = [apiUrl('/api/org/spend')];
export const requestsKey = [apiUrl('/api/org/purchase-requests')];

/** GET /api/org/spend: this month's spend against the organisation's cap and the member's own. */
export const useSpend = (enabled = true) => useQuery({ queryKey: spendKey, queryFn: () => apiGet<Spend>(apiUrl('/api/org/spend')), enabled });

/** What POST /api/payments/checkout answers: where to pay (200), or the purchase request it became (202). */
type CheckoutAnswer =
  | { url: string }
  | { purchaseRequest: { id: string; status: 'pending'; opportunityId: string; amountUsd: string; expiresAt: string } };

/** POST /api/payments/checkout, for an opportunity (and a client), or (once approved) its purchase request. */
export async function startCheckout(opportunityId: string, opts: { purchaseRequestId?: string; clientId?: string } = {}): Promise<CheckoutAnswer> {
  const res = await apiRequestRaw('POST', apiUrl('/api/payments/checkout'), {
    opportunityId,
    ...(opts.purchaseRequestId ? { purchaseRequestId: opts.purchaseRequestId } : {}),
    ...(opts.clientId ? { clientId: opts.clientId } : {}),
  });
  const answer = (await res.json()) as CheckoutAnswer;
  if ('purchaseRequest' in answer) {
    void queryClient.invalidateQueries({ queryKey: requestsKey });
    void queryClient.invalidateQueries({ queryKey: [apiUrl('/api/org/audit')] });
  }
  return answer;
}
