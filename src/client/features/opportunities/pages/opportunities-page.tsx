import * as React from 'react';
import { Newspaper } from 'lucide-react';
import {
  OPPORTUNITY_TYPES,
  OPPORTUNITY_TYPE_DESCRIPTIONS,
  OPPORTUNITY_TYPE_SHORT_LABELS,
  type BrandOpportunity,
  type OpportunityType,
} from '@shared/opportunity';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useUser } from '@/lib/auth';
import { useCheckoutReturn } from '@/lib/use-checkout-return';
import { useOpportunities } from '../api/get-opportunities';
import { OpportunityCard, OpportunityCardIcons } from '../components/opportunity-card';

type Tab = 'all' | OpportunityType;

// the claim dialog (Radix Dialog, focus trap, checkout) is fetched when a card is first approached
const loadClaimDialog = () => import('../components/claim-dialog');
const ClaimDialog = React.lazy(() => loadClaimDialog().then((m) => ({ default: m.ClaimDialog })));
const preloadClaimDialog = () => void loadClaimDialog();

/**
 * A long list is drawn in steps: the first screenful with the page, then the rest appended a few
 * dozen cards at a time in background renders, so no single task holds the main thread for long.
 * It stays one list (no paging); memoised cards are not redrawn by later steps.
 */
const FIRST_CARDS = 12;
const MORE_CARDS = 48;

export function OpportunitiesPage() {
  useCheckoutReturn();
  const { data: user } = useUser();
  const { data, isLoading } = useOpportunities();
  const [tab, setTab] = React.useState<Tab>('all');
  const [selected, setSelected] = React.useState<BrandOpportunity | null>(null);
  const [dialogUsed, setDialogUsed] = React.useState(false);
  if (selected && !dialogUsed) setDialogUsed(true);
  const close = React.useCallback(() => setSelected(null), []);
  const firstName = user?.name?.trim().split(/\s+/)[0] || 'there';

  // the tab strip answers at once; a long list is redrawn for the new tab in the background
  const listTab = React.useDeferredValue(tab);
  const visible = React.useMemo(
    () => (data ?? []).filter((o) => listTab === 'all' || o.type.includes(listTab)),
    [data, listTab],
  );
  const [shown, setShown] = React.useState({ tab: listTab, count: FIRST_CARDS });
  if (shown.tab !== listTab) setShown({ tab: listTab, count: FIRST_CARDS });
  React.useEffect(() => {
    if (shown.count >= visible.length) return;
    const timer = setTimeout(() => React.startTransition(() => setShown((s) => ({ ...s, count: s.count + MORE_CARDS }))));
    return () => clearTimeout(timer);
  }, [shown.count, visible.length]);
  const cards = visible.length > shown.count ? visible.slice(0, shown.count) : visible;

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Welcome, {firstName}</h1>
        <p className="text-muted-foreground">Here's some opportunities that are currently available for you below</p>
      </div>
      <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)}>
        <TabsList>
          <TabsTrigger value="all">All</TabsTrigger>
          {OPPORTUNITY_TYPES.map((t) => (
            <TabsTrigger key={t} value={t}>
              {OPPORTUNITY_TYPE_SHORT_LABELS[t]}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      {tab !== 'all' && (
        <p className="rounded-lg border-l-4 border-primary bg-primary/5 px-4 py-3 text-sm" data-testid="type-description">
          {OPPORTUNITY_TYPE_DESCRIPTIONS[tab]}
        </p>
      )}
      {isLoading ? (
        <PageSpinner />
      ) : visible.length === 0 ? (
        <EmptyState
          icon={<Newspaper />}
          title="Nothing here yet"
          description={`No ${tab === 'all' ? '' : `${OPPORTUNITY_TYPE_SHORT_LABELS[tab]} `}opportunities available`}
        />
      ) : (
        // one list, however long: cards are memoised and skipped by layout and paint while off screen
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" onPointerOver={preloadClaimDialog} onFocus={preloadClaimDialog}>
          {cards.map((o) => (
            <OpportunityCard key={o.id} opportunity={o} onOpen={setSelected} />
          ))}
        </div>
      )}
      {dialogUsed && (
        <React.Suspense fallback={null}>
          <ClaimDialog opportunity={selected} onClose={close} />
        </React.Suspense>
      )}
      <OpportunityCardIcons />
    </div>
  );
}
