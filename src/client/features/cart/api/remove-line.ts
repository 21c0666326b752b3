import { useMutation } from '@tanstack/react-query';
import { removeFromCart, setCart } from '@/lib/cart';

/** DELETE /api/cart/lines/{opportunityId}: the cart's "Remove". */
export function useRemoveLine() {
  return useMutation({ mutationFn: (opportunityId: string) => removeFromCart(opportunityId), onSuccess: setCart });
}
