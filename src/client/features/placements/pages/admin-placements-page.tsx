import * as React from 'react';
import { ShieldCheck } from 'lucide-react';
import type { PlacementCounts } from '@shared/publication';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadMore } from '@/components/ui/load-more';
import { PageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { cn } from '@/lib/utils';
import { useAdminPlacements, usePlacementCounts, type PlacementFilter } from '../api/admin-placements';
import { PlacementRow } from '../components/placements/placement-row';
import { QueryError } from '@/components/query-error';
import { NoSearchResults, SearchBox } from '@/components/search-box';
import { useUrlSearch, type UrlSearch } from '@/lib/use-url-search';

const FILTERS: { value: PlacementFilter; label: string; empty: string }[] = [
  { value: 'all', label: 'All', empty: 'Nothing has been published yet.' },
  { value: 'issue', label: 'Issues', empty: 'No open cases: every watched article passed its last confirmed check.' },
  { value: 'warning', label: 'Warnings', empty: 'No live articles with warnings.' },
  { value: 'unverified', label: 'Unverified', empty: 'Every published placement has a checked live link.' },
  { value: 'ok', label: 'Healthy', empty: 'No articles have passed their checks yet.' },
  { value: 'refunded', label: 'Refunded', empty: 'No published placements have been refunded.' },
];

/** One filter's placements, page by page, newest publication first. */
function PlacementList({ filter, search }: { filter: (typeof FILTERS)[number]; search: UrlSearch }) {
  const list = useAdminPlacements(filter.value, search.q);
  if (list.isLoading) return <PageSpinner />;
  if (list.isError && !list.items) return <QueryError query={list} title="Couldn't load the placements" />;
  const items = list.items ?? [];
  if (items.length === 0) {
    if (search.q) return <NoSearchResults what="placements" search={search} />;
    return filter.value === 'all' ? (
      <EmptyState
        icon={<ShieldCheck />}
        title="No published placements yet"
        description="When a placement is released with the URL of its live article, it appears here and is watched through its guarantee."
      />
    ) : (
      <EmptyState icon={<ShieldCheck />} title="Nothing here" description={filter.empty} />
    );
  }
  return (
    <Card>
      <ul className="divide-y">
        {items.map((p) => (
          <PlacementRow key={p.paymentId} placement={p} />
        ))}
      </ul>
      <LoadMore pager={list} />
    </Card>
  );
}

function countOf(counts: PlacementCounts | undefined, filter: PlacementFilter) {
  return counts ? counts[filter] : undefined;
}

export function AdminPlacementsPage() {
  const counts = usePlacementCounts();
  const [filter, setFilter] = React.useState<PlacementFilter>('all');
  const search = useUrlSearch();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Placements</h1>
        <p className="text-muted-foreground">Live articles and their guarantee</p>
      </div>
      <SearchBox search={search} id="placements-search" />
      {counts.isError && !counts.data && <QueryError query={counts} title="Couldn't load the counts" className="py-6" />}
      <Tabs value={filter} onValueChange={(v) => setFilter(v as PlacementFilter)}>
        <TabsList
          aria-label="Filter by health"
          className="grid h-auto w-full grid-cols-3 gap-1 sm:inline-flex sm:h-10 sm:w-auto sm:gap-0"
        >
          {FILTERS.map((f) => {
            const n = countOf(counts.data, f.value);
            return (
              <TabsTrigger key={f.value} value={f.value} className="h-full px-1.5 sm:px-3">
                <span>{f.label}</span>
                {n !== undefined && (
                  <span
                    className={cn(
                      'rounded-full px-1.5 text-[11px] font-semibold leading-5 tabular-nums',
                      f.value === 'issue' && n > 0
                        ? 'bg-destructive text-destructive-foreground'
                        : 'bg-background/80 text-foreground',
                    )}
                    data-testid="tab-count"
                  >
                    {n}
                  </span>
                )}
              </TabsTrigger>
            );
          })}
        </TabsList>
        {FILTERS.map((f) => (
          <TabsContent key={f.value} value={f.value}>
            <PlacementList filter={f} search={search} />
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}
