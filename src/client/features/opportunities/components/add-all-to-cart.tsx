import * as React from 'react';
import { Link } from 'wouter';
import { ShoppingCart, X } from 'lucide-react';
import type { BrandOpportunityItem } from '@shared/opportunity';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useAddAllToCart, type AddAllResult } from '../api/add-all-to-cart';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "12 added to your cart; 2 were already in it." */
function summary(r: AddAllResult): string {
  const parts = [
    r.added > 0
      ? `${plural(r.added, 'opportunity', 'opportunities')} added to your cart`
      : 'Nothing was added to your cart',
    r.already > 0 ? `${plural(r.already, 'was', 'were')} already in it` : '',
    r.skipped.length > 0 ? `${r.skipped.length} skipped` : '',
  ].filter(Boolean);
  return `${parts.join('; ')}.`;
}

/**
 * "Add all to cart" for the list on screen (a search, or the shortlist under "Saved"): what it
 * shows and can be bought, up to the cart's room. Afterwards it says, on the page, how many were
 * added and which were skipped and why.
 */
export function AddAllToCart({
  items,
  inCart,
  complete,
}: {
  items: BrandOpportunityItem[];
  inCart: ReadonlySet<string>;
  complete: boolean;
}) {
  const [progress, setProgress] = React.useState<{ done: number; of: number } | null>(null);
  const [result, setResult] = React.useState<AddAllResult | null>(null);
  const addAll = useAddAllToCart((done, of) => setProgress({ done, of }));
  const addable = items.filter((o) => !o.soldOut && !inCart.has(o.id)).length;
  const run = () => {
    setResult(null);
    addAll.mutate(items, {
      // said on the page, beside the button (a status region), rather than in a passing toast
      onSuccess: setResult,
      onError: (err) =>
        toast({
          title: 'Could not add them to your cart',
          description: errorMessage(err, 'Please try again'),
          variant: 'destructive',
        }),
      onSettled: () => setProgress(null),
    });
  };
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={run}
        disabled={addable === 0 || addAll.isPending}
        data-testid="add-all-to-cart"
      >
        <ShoppingCart aria-hidden />
        {addAll.isPending
          ? `Adding ${Math.min((progress?.done ?? 0) + 1, progress?.of ?? 1)} of ${progress?.of ?? addable}...`
          : addable === 0
            ? 'All in your cart'
            : // the loaded pages only, when more are still to come: said, not hidden
              `Add ${complete ? 'all' : 'the'} ${addable}${complete ? '' : ' shown'} to cart`}
      </Button>
      {/* the status region is there before its words, so that screen readers read them when they come */}
      <div
        role="status"
        className={result ? 'basis-full rounded-lg border bg-muted/30 px-4 py-3 text-sm' : 'sr-only'}
        data-testid="add-all-result"
      >
        {result && (
          <>
            <div className="flex items-start gap-2">
              <p className="flex-1 font-medium">
                {summary(result)}{' '}
                {result.added + result.already > 0 && (
                  <Link href="/brand/cart" className="text-primary underline-offset-4 hover:underline">
                    View cart
                  </Link>
                )}
              </p>
              <Button
                variant="ghost"
                size="icon"
                className="-my-2 -mr-2 size-8"
                aria-label="Dismiss"
                onClick={() => setResult(null)}
              >
                <X aria-hidden />
              </Button>
            </div>
            {result.skipped.length > 0 && (
              <ul className="mt-2 space-y-1 text-muted-foreground" data-testid="add-all-skipped">
                {result.skipped.map((s) => (
                  <li key={s.id} className="wrap-anywhere">
                    <span className="font-medium text-foreground">{s.name}</span>: {s.reason}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </>
  );
}
