import { useMutation, useQuery } from '@tanstack/react-query';
import type { CheckoutView } from '@shared/payment';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { apiUrl } from '@shared/api-paths';

export const useCheckout = (sessionId: string) =>
  useQuery<CheckoutView>({ queryKey: [apiUrl('/api/payments/checkout'), sessionId] });

/** After paying or cancelling, slots, balances and lists have changed (a paid order also empties the cart of its lines). */
function invalidateMoneyViews() {
  for (const key of [
    apiUrl('/api/opportunities'),
    apiUrl('/api/brand/wallet'),
    apiUrl('/api/brand/payments'),
    apiUrl('/api/brand/my-articles'),
    apiUrl('/api/cart'),
    apiUrl('/api/brand/orders'),
  ]) {
    void queryClient.invalidateQueries({ queryKey: [key] });
  }
}

export function usePayCheckout(sessionId: string) {
  return useMutation({
    mutationFn: () =>
      apiRequest<{ url: string; paymentId: string; status: 'paid' | 'refunded' }>(
        'POST',
        apiUrl('/api/payments/checkout/:sessionId/pay', { sessionId }),
      ),
    onSuccess: invalidateMoneyViews,
  });
}

export function useCancelCheckout(sessionId: string) {
  return useMutation({
    mutationFn: () => apiRequest<{ url: string }>('POST', apiUrl('/api/payments/checkout/:sessionId/cancel', { sessionId })),
    onSuccess: invalidateMoneyViews,
  });
}
