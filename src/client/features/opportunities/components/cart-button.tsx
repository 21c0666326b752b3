import { Check, ShoppingCart } from 'lucide-react';
import type { BrandOpportunityItem } from '@shared/opportunity';
import { Button } from '@/components/ui/button';
import { useToggleCartLine } from '@/lib/cart';
import { cn } from '@/lib/utils';

/**
 * "Add to cart" / "In cart": a toggle button (aria-pressed) like Save, whose name carries the
 * outlet so a list of cards does not read as twenty identical buttons. Pressed again, it takes the
 * opportunity out of the cart. A sold out one cannot be added (one already in the cart can still
 * be taken out).
 */
export function CartButton({
  opportunity: o,
  inCart,
  className,
}: {
  opportunity: BrandOpportunityItem;
  inCart: boolean;
  className?: string;
}) {
  const toggle = useToggleCartLine();
  if (o.soldOut && !inCart) return null;
  return (
    <Button
      type="button"
      variant={inCart ? 'secondary' : 'outline'}
      size="sm"
      aria-pressed={inCart}
      // not `disabled` while it works: a disabled button drops the keyboard's focus
      aria-busy={toggle.isPending}
      data-testid="cart-button"
      className={cn('relative z-10 shrink-0', className)}
      onClick={(e) => {
        e.stopPropagation();
        if (!toggle.isPending) toggle.mutate({ opportunity: o, inCart });
      }}
      // Escape goes on to the dialog around it (the claim dialog closes)
      onKeyDown={(e) => {
        if (e.key !== 'Escape') e.stopPropagation();
      }}
    >
      {inCart ? <Check aria-hidden /> : <ShoppingCart aria-hidden />}
      {toggle.isPending ? (inCart ? 'Removing...' : 'Adding...') : inCart ? 'In cart' : 'Add to cart'}
      <span className="sr-only"> {o.outletName}</span>
    </Button>
  );
}
