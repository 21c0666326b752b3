import { Link } from 'wouter';
import { ShoppingCart } from 'lucide-react';
import { useCanBuy, useCart } from '@/lib/cart';

/**
 * The cart in the header, with its count: in view on a phone, where the sidebar is folded away.
 * Only for members who can buy. The drawn number is hidden from screen readers, which read it in
 * words after the link's name ("Cart (3 opportunities)"), as the sidebar's counts do.
 */
export function CartLink() {
  const canBuy = useCanBuy() === true;
  const count = useCart(canBuy).data?.lines.length ?? 0;
  if (!canBuy) return null;
  return (
    <Link
      href="/brand/cart"
      className="relative ml-auto inline-flex h-9 items-center gap-2 rounded-md px-2.5 text-sm font-medium hover:bg-accent hover:text-accent-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      data-testid="header-cart"
    >
      <ShoppingCart className="size-4" aria-hidden />
      <span>Cart</span>
      {count > 0 && (
        <>
          <span className="sr-only"> ({`${count} ${count === 1 ? 'opportunity' : 'opportunities'}`})</span>
          <span
            aria-hidden
            className="rounded-full bg-primary px-1.5 text-[11px] font-semibold leading-5 text-primary-foreground tabular-nums"
            data-testid="header-cart-count"
          >
            {count}
          </span>
        </>
      )}
    </Link>
  );
}
