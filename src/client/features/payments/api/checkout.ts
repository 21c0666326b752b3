import { useMutation, useQuery } from '@tanstack/react-query';
import type { CheckoutView } from '@shared/payment';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';

export const useCheckout = (sessionId: string) =>
  useQuery<CheckoutView>({ queryKey: ['/api/payments/checkout', sessionId] });

/** After paying or cancelling, slots, balances and lists have changed (a paid order also empties the cart of its lines). */
function invalidateMoneyViews() {
  for (const key of [
    '/api/opportunities',
    '/api/brand/wallet',
    '/api/brand/payments',
    '/api/brand/my-articles',
    '/api/cart',
    '/api/brand/orders',
  ]) {
    void queryClient.invalidateQueries({ queryKey: [key] });
  }
}

export function usePayCheckout(sessionId: string) {
  return useMutation({
    mutationFn: () =>
      apiRequest<{ url: string; paymentId: string; status: 'paid' | 'refunded' }>(
        'POST',
        `/api/payments/checkout/${sessionId}/pay`,
      ),
    onSuccess: invalidateMoneyViews,
  });
}

export function useCancelCheckout(sessionId: string) {
  return useMutation({
    mutationFn: () => apiRequest<{ url: string }>('POST', `/api/payments/checkout/${sessionId}/cancel`),
    onSuccess: invalidateMoneyViews,
  });
}
