import { Bookmark, SlidersHorizontal } from 'lucide-react';
import { OPPORTUNITY_SORTS, OPPORTUNITY_SORT_LABELS, type OpportunitySort } from '@shared/catalogue';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { panelFilterCount, type SearchState } from '../search/search-state';
import { NativeSelect } from './filter-fields';
import { CatalogueSearch } from './catalogue-search';

export const FILTER_PANEL_ID = 'opportunity-filters';

/** The search box, the "Filters" disclosure, the "Saved" filter and the order. */
export function SearchToolbar({
  state,
  commit,
  filtersOpen,
  onToggleFilters,
}: {
  state: SearchState;
  commit: (change: Partial<SearchState>, opts?: { replace?: boolean }) => void;
  filtersOpen: boolean;
  onToggleFilters: () => void;
}) {
  const count = panelFilterCount(state);
  const saved = state.saved === 'true';
  return (
    <div className="flex flex-wrap items-center gap-2">
      <div className="flex basis-full sm:basis-0 sm:flex-1">
        <CatalogueSearch value={state.q ?? ''} onCommit={(q, replace) => commit({ q: q || undefined }, { replace })} />
      </div>
      {/* a phone: the three share one row under the search box, the order taking what is left */}
      <div className="flex w-full min-w-0 items-center gap-2 sm:w-auto">
        <Button
          variant="outline"
          className="h-10 px-3"
          aria-expanded={filtersOpen}
          aria-controls={FILTER_PANEL_ID}
          onClick={onToggleFilters}
        >
          <SlidersHorizontal aria-hidden />
          Filters
          {count > 0 && (
            <span className="rounded-full bg-primary px-1.5 text-xs font-semibold text-primary-foreground">
              {count}
              <span className="sr-only"> active</span>
            </span>
          )}
        </Button>
        <Button
          variant={saved ? 'secondary' : 'outline'}
          className="h-10 px-3"
          aria-pressed={saved}
          onClick={() => commit({ saved: saved ? undefined : 'true' })}
        >
          <Bookmark aria-hidden className={cn(saved && 'fill-current')} />
          Saved
        </Button>
        <label className="flex min-w-0 flex-1 items-center justify-end gap-2 text-sm">
          <span className="sr-only shrink-0 text-muted-foreground sm:not-sr-only">Sort by</span>
          <NativeSelect
            className="h-10 min-w-0 flex-1 sm:w-auto sm:flex-none"
            value={state.sort ?? 'newest'}
            onChange={(e) => commit({ sort: e.target.value as OpportunitySort })}
          >
            {OPPORTUNITY_SORTS.map((s) => (
              <option key={s} value={s}>
                {OPPORTUNITY_SORT_LABELS[s]}
              </option>
            ))}
          </NativeSelect>
        </label>
      </div>
    </div>
  );
}
