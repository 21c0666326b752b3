import { useMutation } from '@tanstack/react-query';
import type { CartCheckout } from '@shared/schemas/cart';
import { ApiError, apiRequest } from '@/lib/api';
import { cartKey } from '@/lib/cart';
import { queryClient } from '@/lib/query-client';
import { requestsKey } from '@/lib/org';
import { apiUrl } from '@shared/api-paths';

/** A price that changed since its line was added: what the checkout's 409 lists. */
export interface PriceChange {
  opportunityId: string;
  oldPriceUsd: string;
  newPriceUsd: string;
}

/** Why the cart was not checked out, as the page shows it. */
export type CheckoutRefusal =
  | { kind: 'soldOut'; message: string; ids: string[] }
  | { kind: 'prices'; message: string; changes: PriceChange[]; totalUsd: string }
  | { kind: 'client'; message: string }
  | { kind: 'other'; message: string; status: number };

/** Reads the server's refusal of a checkout (409 sold out or prices changed, 400 no client, 422 budget…). */
export function refusalOf(err: unknown): CheckoutRefusal {
  if (!(err instanceof ApiError)) return { kind: 'other', status: 0, message: 'Failed to create checkout session' };
  const body = err.body ?? {};
  if (err.code === 'cart_lines_unavailable' && Array.isArray(body.soldOut))
    return { kind: 'soldOut', message: err.message, ids: body.soldOut as string[] };
  if (err.code === 'cart_prices_changed' && Array.isArray(body.priceChanges) && typeof body.totalUsd === 'string')
    return {
      kind: 'prices',
      message: err.message,
      changes: body.priceChanges as PriceChange[],
      totalUsd: body.totalUsd,
    };
  if (err.status === 400 || err.code === 'client_not_found')
    return { kind: 'client', message: err.errors?.clientId ?? err.message };
  return { kind: 'other', status: err.status, message: err.message };
}

/**
 * POST /api/cart/checkout: a slot held on every line (or none) and one payment page, whose URL the
 * browser goes to. A refusal leaves the cart as it was; the cart is read again, as the refusal
 * may be about its lines (one sold out meanwhile, a price changed).
 */
export type CartCheckoutAnswer =
  | { url: string; orderId: string }
  // 202: above the member's approval threshold, the cart became a purchase request
  | { purchaseRequest: { id: string; status: 'pending'; amountUsd: string; expiresAt: string } };

export function useCheckoutCart() {
  return useMutation({
    mutationFn: (body: CartCheckout) => apiRequest<CartCheckoutAnswer>('POST', apiUrl('/api/cart/checkout'), body),
    onSuccess: (answer) => {
      if ('purchaseRequest' in answer) {
        void queryClient.invalidateQueries({ queryKey: requestsKey });
        // the cart now says its request waits for an answer (`approvalRequested`)
        void queryClient.invalidateQueries({ queryKey: cartKey });
      }
    },
    onError: () => queryClient.invalidateQueries({ queryKey: cartKey }),
  });
}
