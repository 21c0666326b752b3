import { useMutation } from '@tanstack/react-query';
import type { BrandOpportunityItem } from '@shared/opportunity';
import type { Cart } from '@shared/schemas/cart';
import { addToCart, cartKey, setCart } from '@/lib/cart';
import { apiGet, errorMessage } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { apiUrl } from '@shared/api-paths';

export interface AddAllResult {
  added: number;
  /** already in the cart before: left as they were */
  already: number;
  skipped: { id: string; name: string; reason: string }[];
}

const nameOf = (o: BrandOpportunityItem) => `${o.outletName}: ${o.title}`;

/**
 * "Add all": every opportunity the list shows that can be bought goes into the cart, one PUT each
 * (in the list's order), up to the cart's room; what could not be added is said with its reason.
 * `onProgress` tells how many are done, for the button's label.
 */
export function useAddAllToCart(onProgress: (done: number, of: number) => void) {
  return useMutation({
    mutationFn: async (items: BrandOpportunityItem[]): Promise<AddAllResult> => {
      // (not the shared schema's constant: zod stays out of the catalogue's first visit)
      const cart = await queryClient.fetchQuery({ queryKey: cartKey, queryFn: () => apiGet<Cart>(apiUrl('/api/cart')) });
      const inCart = new Set(cart.lines.map((l) => l.opportunityId));
      let room = cart.maxLines - cart.lines.length;
      const full = `Your cart is full: it holds at most ${cart.maxLines} opportunities`;
      const result: AddAllResult = { added: 0, already: 0, skipped: [] };
      const todo: BrandOpportunityItem[] = [];
      for (const o of items) {
        if (inCart.has(o.id)) result.already++;
        else if (o.soldOut) result.skipped.push({ id: o.id, name: nameOf(o), reason: 'Sold out' });
        else if (room <= 0) result.skipped.push({ id: o.id, name: nameOf(o), reason: full });
        else {
          todo.push(o);
          room--;
        }
      }
      let last: Cart | undefined;
      for (const [i, o] of todo.entries()) {
        onProgress(i, todo.length);
        try {
          last = await addToCart(o.id);
          result.added++;
        } catch (err) {
          result.skipped.push({ id: o.id, name: nameOf(o), reason: errorMessage(err, 'Not added') });
        }
      }
      if (last) setCart(last);
      return result;
    },
    // whatever happened, the cart shown is the server's
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartKey }),
  });
}
