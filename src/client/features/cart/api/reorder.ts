import { useMutation } from '@tanstack/react-query';
import type { Cart } from '@shared/schemas/cart';
import { apiRequest } from '@/lib/api';
import { setCart } from '@/lib/cart';
import { apiUrl } from '@shared/api-paths';

/**
 * POST /api/brand/orders/{id}/reorder: the order's opportunities back in the cart; `skipped` says
 * which could not be, and why; `reorder` the order's client and options, which the cart page starts from.
 */
export function useReorder() {
  return useMutation({
    mutationFn: (orderId: string) =>
      apiRequest<Cart>('POST', apiUrl('/api/brand/orders/:id/reorder', { id: orderId })),
    onSuccess: ({ skipped: _skipped, reorder: _reorder, ...cart }) => setCart(cart),
  });
}
