import * as React from 'react';
import { useLocation, useSearch } from 'wouter';
import { toast } from '@/components/ui/use-toast';
import { queryClient } from './query-client';
import { apiUrl } from '@shared/api-paths';

// a paid cart's order also takes its lines out of the cart and adds an order
const MONEY_VIEWS = [
  apiUrl('/api/opportunities'),
  apiUrl('/api/brand/wallet'),
  apiUrl('/api/brand/payments'),
  apiUrl('/api/brand/my-articles'),
  apiUrl('/api/org/spend'),
  apiUrl('/api/cart'),
  apiUrl('/api/brand/orders'),
];
const refresh = () => MONEY_VIEWS.forEach((key) => void queryClient.invalidateQueries({ queryKey: [key] }));

/**
 * The card provider sends the brand back with ?checkout=success or ?checkout=cancelled. Say what
 * happened, refresh what the payment changed, and drop the parameter so a reload says nothing.
 * The provider's confirmation may arrive a moment after the brand does: look once more shortly.
 */
export function useCheckoutReturn() {
  const search = useSearch();
  const [path, navigate] = useLocation();
  const outcome = new URLSearchParams(search).get('checkout');

  React.useEffect(() => {
    if (outcome !== 'success' && outcome !== 'cancelled') return;
    if (outcome === 'success') {
      toast({
        title: 'Payment received',
        description: 'Your payment is held in escrow until your article is published.',
      });
    } else {
      toast({ title: 'Checkout cancelled', description: 'No payment was taken and the spot is free again.' });
    }
    refresh();
    const again = setTimeout(refresh, 3000);
    navigate(path, { replace: true });
    return () => clearTimeout(again);
  }, [outcome, path, navigate]);
}
