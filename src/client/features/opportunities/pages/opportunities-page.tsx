import * as React from 'react';
import { Newspaper, SearchX } from 'lucide-react';
import { CATALOGUE_ROLE_NOTES, roleCan } from '@shared/org';
import {
  OPPORTUNITY_TYPES,
  OPPORTUNITY_TYPE_DESCRIPTIONS,
  OPPORTUNITY_TYPE_SHORT_LABELS,
  type BrandOpportunityItem,
  type OpportunityType,
} from '@shared/opportunity';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadMore } from '@/components/ui/load-more';
import { PageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api';
import { useUser } from '@/lib/auth';
import { useCanBuy, useCart } from '@/lib/cart';
import { useOrg } from '@/lib/org';
import { useCheckoutReturn } from '@/lib/use-checkout-return';
import { countText } from '../api/search-count';
import { useOpportunitySearch } from '../api/search-opportunities';
import { AddAllToCart } from '../components/add-all-to-cart';
import { OpportunityCard, OpportunityCardIcons } from '../components/opportunity-card';
import { FILTER_PANEL_ID, SearchToolbar } from '../components/search-toolbar';
import { EMPTY_SEARCH, clearFilters, hasFilters } from '../search/search-state';
import { preloadSearchReader, useSearchState } from '../search/use-search-state';

type Tab = 'all' | OpportunityType;

// the type tabs filter one list: every tab controls the same panel, the results below them
const RESULTS_ID = 'opportunity-results';
const tabId = (t: Tab) => `opportunity-tab-${t}`;
const TAB_CLASS = 'flex-1 px-2 sm:flex-none sm:px-3';

// the claim dialog (Radix Dialog, focus trap, checkout) is fetched when a card is first approached
const loadClaimDialog = () => import('../components/claim-dialog');
const ClaimDialog = React.lazy(() => loadClaimDialog().then((m) => ({ default: m.ClaimDialog })));
const preloadClaimDialog = () => void loadClaimDialog();
// the filters (their lists and the schema's checks) load when first opened
const FilterPanel = React.lazy(() => import('../components/filter-panel').then((m) => ({ default: m.FilterPanel })));

/**
 * The brand's catalogue: the spec's greeting, type tabs and cards, with a search, filters and an
 * order kept in the URL, loaded a page at a time as the brand scrolls (the server searches).
 */
export function OpportunitiesPage() {
  useCheckoutReturn();
  const { data: user } = useUser();
  const { state: read, commit } = useSearchState();
  // a URL with a search waits for its reader (a moment, once); nothing is fetched for it before
  const state = read ?? EMPTY_SEARCH;
  const search = useOpportunitySearch(state, read !== null);
  const [filtersOpen, setFiltersOpen] = React.useState(false);
  const [selected, setSelected] = React.useState<BrandOpportunityItem | null>(null);
  const [dialogUsed, setDialogUsed] = React.useState(false);
  if (selected && !dialogUsed) setDialogUsed(true);
  const close = React.useCallback(() => setSelected(null), []);
  const firstName = user?.name?.trim().split(/\s+/)[0] || 'there';

  const tab: Tab | '' = state.type.length === 0 ? 'all' : state.type.length === 1 ? state.type[0] : '';
  const filtered = hasFilters(state);
  const pages = search.data?.pages;
  // keyset pages do not overlap; a card is still shown once should the catalogue move between two pages
  const items = React.useMemo(() => {
    const seen = new Set<string>();
    return (pages ?? []).flatMap((p) => p.items).filter((o) => !seen.has(o.id) && (seen.add(o.id), true));
  }, [pages]);
  // the first page's count (later pages carry none); an answer without one counts what it listed
  const first = pages?.[0];
  const count = first ? (first.count ?? { total: first.items.length, atLeast: false }) : null;
  // the open dialog follows the list ("Save" pressed inside it), and keeps the last it saw once
  // the list no longer has it (unsaved under the "Saved" filter)
  const live = selected && items.find((o) => o.id === selected.id);
  if (live && live !== selected) setSelected(live);
  // the cart: its ids mark the cards ("In cart"); members who cannot buy have none
  const canBuy = useCanBuy() === true;
  const cart = useCart(canBuy).data;
  const inCart = React.useMemo(() => new Set(cart?.lines.map((l) => l.opportunityId)), [cart]);
  // the buttons show as soon as the role is known (the cards keep their size when the cart arrives)
  const cartShown = canBuy;
  // saving is not buying: reviewers save too; viewers only read (issue 57)
  const role = useOrg().data?.role;
  const canSave = role === undefined || roleCan(role, 'work');
  const roleNote = role ? CATALOGUE_ROLE_NOTES[role] : undefined;

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Welcome, {firstName}</h1>
        <p className="text-muted-foreground">Here's some opportunities that are currently available for you below</p>
      </div>
      {roleNote && (
        <p className="rounded-lg border bg-muted/40 px-4 py-3 text-sm" data-testid="catalogue-role-note">
          {roleNote}
        </p>
      )}
      <Tabs
        onPointerOver={preloadSearchReader}
        onFocus={preloadSearchReader}
        value={tab}
        onValueChange={(v) => commit({ type: v === 'all' ? [] : [v as OpportunityType] })}
      >
        {/* on a phone the five tabs share the width, every label whole (none scrolled out of view) */}
        <TabsList className="flex w-full sm:inline-flex sm:w-auto">
          <TabsTrigger value="all" id={tabId('all')} aria-controls={RESULTS_ID} className={TAB_CLASS}>
            All
          </TabsTrigger>
          {OPPORTUNITY_TYPES.map((t) => (
            <TabsTrigger key={t} value={t} id={tabId(t)} aria-controls={RESULTS_ID} className={TAB_CLASS}>
              {OPPORTUNITY_TYPE_SHORT_LABELS[t]}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      <div
        role="tabpanel"
        id={RESULTS_ID}
        {...(tab === '' ? { 'aria-label': 'Opportunities' } : { 'aria-labelledby': tabId(tab) })}
        className="space-y-6"
      >
        {tab !== 'all' && tab !== '' && (
          <p
            className="rounded-lg border-l-4 border-primary bg-primary/5 px-4 py-3 text-sm"
            data-testid="type-description"
          >
            {OPPORTUNITY_TYPE_DESCRIPTIONS[tab]}
          </p>
        )}
        <div className="space-y-3" onPointerOver={preloadSearchReader} onFocus={preloadSearchReader}>
          <SearchToolbar
            state={state}
            commit={commit}
            filtersOpen={filtersOpen}
            onToggleFilters={() => setFiltersOpen((v) => !v)}
          />
          <div id={FILTER_PANEL_ID} hidden={!filtersOpen}>
            {filtersOpen && (
              <React.Suspense fallback={<PageSpinner />}>
                <FilterPanel state={state} commit={commit} />
              </React.Suspense>
            )}
          </div>
          <div className="flex min-h-9 flex-wrap items-center gap-2">
            <p
              aria-live="polite"
              className="mr-auto text-sm font-medium text-muted-foreground"
              data-testid="result-count"
            >
              {count ? countText(count) : ''}
            </p>
            {filtered && items.length > 0 && (
              <Button variant="ghost" size="sm" onClick={() => commit(clearFilters)}>
                Clear filters
              </Button>
            )}
            {/* a search's results or the shortlist, all at once (not the whole catalogue) */}
            {cartShown && cart && filtered && items.length > 0 && !search.isPlaceholderData && (
              <AddAllToCart items={items} inCart={inCart} complete={!search.hasNextPage} />
            )}
          </div>
        </div>
        {search.isPending || read === null ? (
          <PageSpinner />
        ) : search.isError && !search.data ? (
          <EmptyState
            icon={<SearchX />}
            title="Could not load opportunities"
            description={errorMessage(search.error, 'Please try again')}
          >
            <Button variant="outline" onClick={() => void search.refetch()}>
              Try again
            </Button>
          </EmptyState>
        ) : items.length === 0 ? (
          filtered ? (
            <EmptyState
              icon={<SearchX />}
              title="No opportunities match these filters"
              description="Try fewer filters or other words."
            >
              <Button variant="outline" onClick={() => commit(clearFilters)}>
                Clear filters
              </Button>
            </EmptyState>
          ) : (
            <EmptyState
              icon={<Newspaper />}
              title="Nothing here yet"
              description={`No ${tab === 'all' || tab === '' ? '' : `${OPPORTUNITY_TYPE_SHORT_LABELS[tab]} `}opportunities available`}
            />
          )
        ) : (
          <>
            <div
              className="grid grid-cols-1 gap-4 transition-opacity data-[stale=true]:opacity-60 sm:grid-cols-2 xl:grid-cols-3"
              data-stale={search.isPlaceholderData}
              aria-busy={search.isPlaceholderData}
              onPointerOver={preloadClaimDialog}
              onFocus={preloadClaimDialog}
            >
              {items.map((o) => (
                <OpportunityCard
                  key={o.id}
                  opportunity={o}
                  onOpen={setSelected}
                  inCart={cartShown ? inCart.has(o.id) : undefined}
                  canSave={canSave}
                />
              ))}
            </div>
            <LoadMore pager={search} />
          </>
        )}
      </div>
      {dialogUsed && (
        <React.Suspense fallback={null}>
          <ClaimDialog
            opportunity={selected}
            onClose={close}
            inCart={cartShown && selected ? inCart.has(selected.id) : undefined}
          />
        </React.Suspense>
      )}
      <OpportunityCardIcons />
    </div>
  );
}
