import * as React from 'react';
import type { BrandOpportunity, BrandOpportunityItem } from '@shared/opportunity';
import { OutletOpportunityList, OutletOpportunityRow } from '@/components/outlet/outlet-opportunity-row';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useCanBuy, useCart } from '@/lib/cart';
import { useSavedList } from '../api/save-opportunity';

// the claim dialog (Radix Dialog, checkout) loads when the first opportunity is opened
const loadClaimDialog = () => import('./claim-dialog');
const ClaimDialog = React.lazy(() => loadClaimDialog().then((m) => ({ default: m.ClaimDialog })));
const preloadClaimDialog = () => void loadClaimDialog();

/**
 * An outlet's opportunities on its page (/brand/outlets/{id}), each opening the catalogue's claim
 * dialog: review, Save, Add to cart, and pay. Whether one is saved comes from the brand's
 * shortlist; the outlet's page lists only what can be bought now, so none is sold out.
 */
export function OutletOpportunities({ opportunities }: { opportunities: BrandOpportunity[] }) {
  const saved = useSavedList(opportunities.length > 0);
  const canBuy = useCanBuy() === true;
  const cart = useCart(canBuy).data;
  const inCart = React.useMemo(() => new Set(cart?.lines.map((l) => l.opportunityId)), [cart]);
  const [selectedId, setSelectedId] = React.useState<string | null>(null);
  const [dialogUsed, setDialogUsed] = React.useState(false);
  if (selectedId && !dialogUsed) setDialogUsed(true);
  const items = React.useMemo((): BrandOpportunityItem[] | null => {
    if (!saved.data) return null;
    const savedIds = new Set(saved.data.map((o) => o.id));
    // the outlet's page says more of the outlet than an item's short `outlet` would
    return opportunities.map((o) => ({ ...o, saved: savedIds.has(o.id), soldOut: false, outlet: null }));
  }, [opportunities, saved.data]);
  // the dialog follows the list: "Save" pressed inside it shows at once
  const selected = (selectedId && items?.find((o) => o.id === selectedId)) || null;
  const close = React.useCallback(() => setSelectedId(null), []);

  if (opportunities.length === 0) return <OutletOpportunityList count={0}>{null}</OutletOpportunityList>;
  if (saved.isError && !items) return <QueryError query={saved} title="Couldn't load your saved opportunities" />;
  if (!items) return <Spinner className="mx-auto block" />;
  return (
    <>
      <div onPointerOver={preloadClaimDialog} onFocus={preloadClaimDialog}>
        <OutletOpportunityList count={items.length}>
          {items.map((o) => (
            <OutletOpportunityRow
              key={o.id}
              o={o}
              action={
                <Button variant="outline" size="sm" onClick={() => setSelectedId(o.id)}>
                  View details<span className="sr-only">: {o.title}</span>
                </Button>
              }
            />
          ))}
        </OutletOpportunityList>
      </div>
      {dialogUsed && (
        <React.Suspense fallback={null}>
          <ClaimDialog
            opportunity={selected}
            onClose={close}
            inCart={canBuy && selected ? inCart.has(selected.id) : undefined}
            outletLink={false}
          />
        </React.Suspense>
      )}
    </>
  );
}
