import * as React from 'react';
import { Link } from 'wouter';
import { ArrowDown, ShoppingCart, X } from 'lucide-react';
import { formatUsd, fromCents } from '@shared/money';
import { CAPABILITY_REFUSALS } from '@shared/org';
import type { Cart } from '@shared/schemas/cart';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useCanBuy, useCart } from '@/lib/cart';
import { useCheckoutReturn } from '@/lib/use-checkout-return';
import type { CheckoutRefusal } from '../api/checkout-cart';
import { useClearCart } from '../api/clear-cart';
import { useRemoveLine } from '../api/remove-line';
import { CartLineRow } from '../components/cart-line-row';
import { CheckoutPanel, cartTotals } from '../components/checkout-panel';

type Skipped = NonNullable<Cart['skipped']>;

/** What "Order again" could not put back (the order page passes it in the history entry's state). */
function readSkipped(): Skipped | null {
  const state: unknown = window.history.state;
  const skipped =
    state && typeof state === 'object' && 'skipped' in state ? (state as { skipped: unknown }).skipped : null;
  return Array.isArray(skipped) ? (skipped as Skipped) : null;
}

type Reordered = NonNullable<Cart['reorder']>;

/** The client and options of the order "Order again" put back (in the history entry's state too). */
function readReorder(): Reordered | null {
  const state: unknown = window.history.state;
  const r = state && typeof state === 'object' && 'reorder' in state ? (state as { reorder: unknown }).reorder : null;
  return r && typeof r === 'object' && 'autoSwap' in r ? (r as Reordered) : null;
}

function ReorderNotice({ skipped, onDismiss }: { skipped: Skipped; onDismiss: () => void }) {
  return (
    <div
      role="status"
      className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
      data-testid="reorder-skipped"
    >
      <div className="flex items-start gap-2">
        <p className="flex-1 font-medium">
          {skipped.length === 1
            ? 'One opportunity of the order was not put back in your cart:'
            : `${skipped.length} opportunities of the order were not put back in your cart:`}
        </p>
        <Button variant="ghost" size="icon" className="-my-2 -mr-2 size-8" aria-label="Dismiss" onClick={onDismiss}>
          <X aria-hidden />
        </Button>
      </div>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {skipped.map((s) => (
          <li key={s.opportunityId} className="wrap-anywhere">
            <span className="font-medium">{s.title || 'An opportunity'}</span>: {s.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A phone or a narrow window: the total and the way to the checkout, above a long list of lines. */
function TotalBar({ cart }: { cart: Cart }) {
  const totals = cartTotals(cart);
  return (
    <div className="flex items-center justify-between gap-3 rounded-xl border bg-card px-4 py-3 shadow-sm lg:hidden">
      <p className="text-sm">
        <span className="text-muted-foreground">Total </span>
        <span className="font-semibold tabular-nums">{formatUsd(fromCents(totals.nowCents))}</span>
      </p>
      <Button asChild size="sm">
        <a href="#checkout">
          Go to checkout <ArrowDown aria-hidden />
        </a>
      </Button>
    </div>
  );
}

function CartLines({ cart, flagged, onChanged }: { cart: Cart; flagged: ReadonlySet<string>; onChanged: () => void }) {
  const remove = useRemoveLine();
  const clear = useClearCart();
  const [confirmEmpty, setConfirmEmpty] = React.useState(false);
  const unavailable = cart.lines.filter((l) => !l.available).length;
  const failed = (title: string) => (err: unknown) =>
    toast({ title, description: errorMessage(err, 'Please try again'), variant: 'destructive' });
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2 space-y-0 pb-3">
        <CardTitle className="text-base">
          {cart.lines.length} {cart.lines.length === 1 ? 'opportunity' : 'opportunities'}
          <span className="ml-1.5 text-sm font-normal text-muted-foreground">(at most {cart.maxLines})</span>
        </CardTitle>
        <div className="flex flex-wrap gap-2">
          {unavailable > 0 && (
            <Button
              variant="outline"
              size="sm"
              disabled={clear.isPending}
              onClick={() =>
                clear.mutate({ unavailable: true }, { onSuccess: onChanged, onError: failed('Could not remove them') })
              }
            >
              Remove unavailable ({unavailable})
            </Button>
          )}
          <Button variant="ghost" size="sm" onClick={() => setConfirmEmpty(true)}>
            Empty cart
          </Button>
        </div>
      </CardHeader>
      {unavailable > 0 && (
        <p
          className="mx-4 mb-3 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900 sm:mx-6"
          data-testid="cart-unavailable-note"
        >
          {unavailable === 1 ? 'One opportunity' : `${unavailable} opportunities`} in your cart can no longer be bought.
          Remove {unavailable === 1 ? 'it' : 'them'} to check out the rest.
        </p>
      )}
      <ul className="divide-y border-t" aria-label="Cart">
        {cart.lines.map((line) => (
          <CartLineRow
            key={line.opportunityId}
            line={line}
            flagged={flagged.has(line.opportunityId)}
            removing={remove.isPending && remove.variables === line.opportunityId}
            onRemove={() =>
              remove.mutate(line.opportunityId, { onSuccess: onChanged, onError: failed('Could not remove it') })
            }
          />
        ))}
      </ul>
      <ConfirmDialog
        open={confirmEmpty}
        onOpenChange={setConfirmEmpty}
        title="Empty your cart?"
        description={`All ${cart.lines.length === 1 ? 'of it' : `${cart.lines.length} opportunities`} will be taken out of your cart. Nothing is bought or reserved yet.`}
        confirmLabel="Empty cart"
        pendingLabel="Emptying..."
        pending={clear.isPending}
        destructive
        onConfirm={() =>
          clear.mutate(
            { unavailable: false },
            {
              onSuccess: () => {
                setConfirmEmpty(false);
                onChanged();
              },
              onError: failed('Could not empty your cart'),
            },
          )
        }
      />
    </Card>
  );
}

/**
 * The member's cart (issue 46): up to 50 opportunities bought at once, with one payment and one
 * invoice. Lines that can no longer be bought are greyed with the reason; prices that changed show
 * what they were. Viewers and reviewers have no cart.
 */
export function CartPage() {
  // back from the card provider's page without paying (?checkout=cancelled): said, and the cart read again
  useCheckoutReturn();
  const canBuy = useCanBuy();
  const cart = useCart(canBuy === true, { fresh: true });
  const [refusal, setRefusal] = React.useState<CheckoutRefusal | null>(null);
  const [skipped, setSkipped] = React.useState(readSkipped);
  const [reorder] = React.useState(readReorder);
  const flagged = React.useMemo(() => new Set(refusal?.kind === 'soldOut' ? refusal.ids : []), [refusal]);
  const dismissSkipped = () => {
    setSkipped(null);
    // a reload does not say it again (the order's client and options stay)
    window.history.replaceState(reorder ? { reorder } : null, '');
  };

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Cart</h1>
        <p className="text-muted-foreground">Buy several placements at once: one payment and one invoice.</p>
      </div>
      {skipped && skipped.length > 0 && <ReorderNotice skipped={skipped} onDismiss={dismissSkipped} />}
      {canBuy === false ? (
        <EmptyState
          icon={<ShoppingCart />}
          title="No cart"
          description={`${CAPABILITY_REFUSALS.buy}: ask an owner, admin or buyer to buy placements.`}
        />
      ) : cart.isLoading || canBuy === undefined ? (
        <PageSpinner />
      ) : cart.isError ? (
        <QueryError query={cart} title="Couldn't load your cart" />
      ) : !cart.data || cart.data.lines.length === 0 ? (
        <EmptyState
          icon={<ShoppingCart />}
          title="Your cart is empty"
          description="Add opportunities from the catalogue, then buy them together with one payment."
        >
          <Button asChild>
            <Link href="/brand/opportunities">Browse opportunities</Link>
          </Button>
        </EmptyState>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
          <TotalBar cart={cart.data} />
          <CartLines cart={cart.data} flagged={flagged} onChanged={() => setRefusal(null)} />
          <CheckoutPanel cart={cart.data} refusal={refusal} setRefusal={setRefusal} initial={reorder} />
        </div>
      )}
    </div>
  );
}
