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
import { Label } from '@/components/ui/label';

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

const selectClass =
  'h-9 w-full rounded-md border border-input bg-card px-3 text-base shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:text-sm';

export function OpportunityFilters({ value, onChange }: { value: Filters; onChange: (f: Filters) => void }) {
  return (
    <Card>
      <CardContent className="grid gap-4 p-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <div className="space-y-1.5">
          <Label htmlFor="filter-status">Status</Label>
          <select
            id="filter-status"
            className={selectClass}
            value={value.status}
            onChange={(e) => onChange({ ...value, status: e.target.value as Filters['status'] })}
          >
            <option value="all">All</option>
            {OPPORTUNITY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {OPPORTUNITY_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="filter-type">Type</Label>
          <select
            id="filter-type"
            className={selectClass}
            value={value.type}
            onChange={(e) => onChange({ ...value, type: e.target.value as Filters['type'] })}
          >
            <option value="all">All</option>
            {OPPORTUNITY_TYPES.map((t) => (
              <option key={t} value={t}>
                {OPPORTUNITY_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex h-9 items-center gap-2">
          <Checkbox id="filter-full" checked={value.fullOnly} onCheckedChange={(c) => onChange({ ...value, fullOnly: c === true })} />
          <Label htmlFor="filter-full">Show Full Only</Label>
        </div>
      </CardContent>
    </Card>
  );
}
