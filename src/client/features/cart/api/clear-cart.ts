import { useMutation } from '@tanstack/react-query';
import type { Cart } from '@shared/schemas/cart';
import { apiRequest } from '@/lib/api';
import { setCart } from '@/lib/cart';
import { apiUrl } from '@shared/api-paths';

/** DELETE /api/cart ("Empty cart"), or with `unavailable`, only the lines that cannot be bought now. */
export function useClearCart() {
  return useMutation({
    mutationFn: ({ unavailable }: { unavailable: boolean }) =>
      apiRequest<Cart>('DELETE', apiUrl('/api/cart', {}, { unavailable: unavailable ? 1 : undefined })),
    onSuccess: setCart,
  });
}
