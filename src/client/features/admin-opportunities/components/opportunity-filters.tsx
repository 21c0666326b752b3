import {
  OPPORTUNITY_STATUSES,
  OPPORTUNITY_STATUS_LABELS,
  OPPORTUNITY_TYPES,
  OPPORTUNITY_TYPE_LABELS,
  type OpportunityStatus,
  type OpportunityType,
} from '@shared/opportunity';
import { Card, CardContent } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { SearchField } from '@/components/search-field';
import { Label } from '@/components/ui/label';
import type { UrlSearch } from '@/lib/use-url-search';
import { NativeSelect } from './native-select';

export interface Filters {
  status: OpportunityStatus | 'all';
  type: OpportunityType | 'all';
  fullOnly: boolean;
}

export const noFilters: Filters = { status: 'all', type: 'all', fullOnly: false };

/** The dashboard's filters as the list's query (the server filters: an opportunity of several types matches each). */
export const toListFilters = (f: Filters) => ({
  status: f.status === 'all' ? undefined : f.status,
  type: f.type === 'all' ? undefined : f.type,
  full: f.fullOnly,
});

/**
 * The dashboard's filter card: the search (kept in the URL as `?q=`, applied a moment after the last
 * key, as the other admin lists' searches) and the filters.
 */
export function OpportunityFilters({ value, onChange, search }: { value: Filters; onChange: (f: Filters) => void; search: UrlSearch }) {
  return (
    <Card>
      <CardContent className="grid grid-cols-2 gap-4 p-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto] lg:items-end">
        <SearchField
          id="filter-search"
          label="Search"
          showLabel
          placeholder="Outlet, title or description"
          value={search.text}
          onChange={search.setText}
          onSubmit={search.submit}
          onClear={search.clear}
          className="col-span-2 lg:col-span-1"
        />
        <div className="min-w-0 space-y-1.5">
          <Label htmlFor="filter-status">Status</Label>
          <NativeSelect id="filter-status" value={value.status} onChange={(e) => onChange({ ...value, status: e.target.value as Filters['status'] })}>
            <option value="all">All</option>
            {OPPORTUNITY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {OPPORTUNITY_STATUS_LABELS[s]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="min-w-0 space-y-1.5">
          <Label htmlFor="filter-type">Type</Label>
          <NativeSelect id="filter-type" value={value.type} onChange={(e) => onChange({ ...value, type: e.target.value as Filters['type'] })}>
            <option value="all">All</option>
            {OPPORTUNITY_TYPES.map((t) => (
              <option key={t} value={t}>
                {OPPORTUNITY_TYPE_LABELS[t]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="col-span-2 flex h-9 items-center gap-2 lg:col-span-1">
          <Checkbox id="filter-full" checked={value.fullOnly} onCheckedChange={(c) => onChange({ ...value, fullOnly: c === true })} />
          <Label htmlFor="filter-full">Show Full Only</Label>
        </div>
      </CardContent>
    </Card>
  );
}
