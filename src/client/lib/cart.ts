import { useMutation, useQuery } from '@tanstack/react-query';
import { roleCan } from '@shared/org';
import type { Cart } from '@shared/schemas/cart';
import { toast } from '@/components/ui/use-toast';
import { apiGet, apiRequest, errorMessage } from './api';
import { useOrg } from './org';
import { queryClient } from './query-client';
import { apiUrl } from '@shared/api-paths';

/**
 * The member's cart (issue 46), read by the catalogue's "Add to cart" buttons, the shell's cart
 * link and the cart feature's page alike (features do not import each other). Every write answers
 * the whole cart, which replaces the cached one: no second request to see the change.
 */

export const cartKey = [apiUrl('/api/cart')] as const;

/**
 * Whether the signed-in member may buy (owner, admin, buyer): viewers and reviewers (client
 * reviewers among them) see no cart at all. Undefined while the organisation loads.
 */
export function useCanBuy(enabled = true): boolean | undefined {
  const org = useOrg(enabled).data;
  return org ? roleCan(org.role, 'buy') : undefined;
}

/**
 * GET /api/cart (members who can buy only: the server answers the others 403). `fresh`: read again
 * on mount (the cart's page), as availability and prices move while the cart waits.
 */
export const useCart = (enabled = true, { fresh = false } = {}) =>
  useQuery({
    queryKey: cartKey,
    queryFn: () => apiGet<Cart>(apiUrl('/api/cart')),
    enabled,
    ...(fresh ? { refetchOnMount: 'always' as const } : {}),
  });

export const setCart = (cart: Cart) => queryClient.setQueryData<Cart>(cartKey, cart);

/** PUT /api/cart/lines/{id}: the opportunity at its price of now (already there: unchanged). */
export const addToCart = (opportunityId: string) =>
  apiRequest<Cart>('PUT', apiUrl('/api/cart/lines/:opportunityId', { opportunityId }));

/** DELETE /api/cart/lines/{id}. */
export const removeFromCart = (opportunityId: string) =>
  apiRequest<Cart>('DELETE', apiUrl('/api/cart/lines/:opportunityId', { opportunityId }));

/** The words of a line in a toast: "Outlet: title". */
const lineName = (o: { outletName: string; title: string }) => `${o.outletName}: ${o.title}`;

/**
 * Adds one opportunity to the cart or takes it out ("Add to cart" / "In cart"). A refusal (the
 * cart full, the opportunity sold out meanwhile) is said in the server's words.
 */
export function useToggleCartLine() {
  return useMutation({
    mutationFn: ({
      opportunity,
      inCart,
    }: {
      opportunity: { id: string; outletName: string; title: string };
      inCart: boolean;
    }) => (inCart ? removeFromCart(opportunity.id) : addToCart(opportunity.id)),
    // the button itself says it ("In cart", pressed) and the cart's count moves: no toast, which
    // would also take the first Escape from the claim dialog around the button
    onSuccess: setCart,
    onError: (err, { opportunity, inCart }) => {
      toast({
        title: inCart ? 'Could not remove it from your cart' : 'Could not add it to your cart',
        description: `${lineName(opportunity)}: ${errorMessage(err, 'Please try again')}`,
        variant: 'destructive',
      });
      // what the server holds now (another tab may have changed it)
      void queryClient.invalidateQueries({ queryKey: cartKey });
    },
  });
}
