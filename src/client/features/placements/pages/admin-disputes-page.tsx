import { Link, useSearchParams } from 'wouter';
import { Scale } from 'lucide-react';
import { DISPUTE_STATUSES, type DisputeStatus } from '@shared/enums';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { cn } from '@/lib/utils';
import { useAdminDisputes, type AdminDisputeItem, type AdminDisputes } from '../api/disputes';
import { disputeBadge, disputeDay, dueLine, reasonLabel } from '../components/disputes/dispute-text';

type Filter = DisputeStatus | 'all';

const FILTERS: { value: Filter; label: string; empty: string }[] = [
  { value: 'open', label: 'Open', empty: 'No dispute waits for an answer.' },
  { value: 'offered', label: 'Offered', empty: 'No answered dispute waits for its brand.' },
  { value: 'escalated', label: 'Escalated', empty: 'No escalated dispute waits for a decision.' },
  { value: 'resolved', label: 'Resolved', empty: 'No dispute has been resolved yet.' },
  { value: 'all', label: 'All', empty: 'No brand has opened a dispute.' },
];

const isFilter = (v: string | null): v is Filter => v === 'all' || DISPUTE_STATUSES.includes(v as DisputeStatus);

function countOf(counts: AdminDisputes['counts'] | undefined, filter: Filter) {
  if (!counts) return undefined;
  return filter === 'all' ? counts.open + counts.offered + counts.escalated + counts.resolved : counts[filter];
}

/** One dispute: its placement, brand and reason, where it stands, and its next deadline. */
function DisputeRow({ d }: { d: AdminDisputeItem }) {
  const badge = disputeBadge({ ...d, answered: d.answer?.action ?? null }, 'admin');
  const due = dueLine(d, 'admin');
  return (
    <li
      className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4"
      data-testid="dispute-row"
    >
      <div className="min-w-0 space-y-1">
        <Link
          href={`/admin/disputes/${d.id}`}
          className="font-medium break-words text-primary underline-offset-4 hover:underline"
        >
          {d.title}
        </Link>
        <p className="text-sm text-muted-foreground break-words">
          <span data-testid="dispute-row-brand">{d.brandName}</span> · {d.outletName}
        </p>
        <p className="text-sm break-words">{reasonLabel(d.reason)}</p>
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-x-3 gap-y-1 text-sm sm:flex-col sm:items-end">
        <Badge variant={badge.variant} data-testid="dispute-row-status">
          {badge.label}
        </Badge>
        <span className="text-muted-foreground" data-testid="dispute-row-due">
          {due ?? (d.resolvedAt ? `Resolved ${disputeDay(d.resolvedAt)}` : `Opened ${disputeDay(d.createdAt)}`)}
        </span>
      </div>
    </li>
  );
}

/** One status's disputes, soonest due first (the server's order). */
function DisputeList({ filter }: { filter: (typeof FILTERS)[number] }) {
  const list = useAdminDisputes(filter.value === 'all' ? undefined : filter.value);
  if (list.isLoading || list.isPlaceholderData) return <PageSpinner />;
  if (list.isError && !list.data) return <QueryError query={list} title="Couldn't load the disputes" />;
  const items = list.data?.items ?? [];
  if (items.length === 0) return <EmptyState icon={<Scale />} title="Nothing here" description={filter.empty} />;
  return (
    <Card>
      <ul className="divide-y" aria-label={`${filter.label} disputes`}>
        {items.map((d) => (
          <DisputeRow key={d.id} d={d} />
        ))}
      </ul>
    </Card>
  );
}

/**
 * /admin/disputes (issue 47): the brands' disputes by status (Open, Offered, Escalated, Resolved,
 * All) with their counts, each row linked to the dispute's page. The status is in the URL.
 */
export function AdminDisputesPage() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('status');
  const filter: Filter = isFilter(asked) ? asked : 'open';
  // the counts come with every list: the current tab's answer, or the last one while it loads
  const counts = useAdminDisputes(filter === 'all' ? undefined : filter).data?.counts;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Disputes</h1>
        <p className="text-muted-foreground">What brands dispute, the answers, and the decisions</p>
      </div>
      <Tabs value={filter} onValueChange={(v) => setParams(v === 'open' ? {} : { status: v }, { replace: true })}>
        <TabsList
          aria-label="Filter by status"
          className="grid h-auto w-full grid-cols-3 gap-1 sm:inline-flex sm:h-10 sm:w-auto sm:gap-0"
        >
          {FILTERS.map((f) => {
            const n = countOf(counts, f.value);
            return (
              <TabsTrigger key={f.value} value={f.value} className="h-full px-1.5 sm:px-3">
                <span>{f.label}</span>
                {n !== undefined && (
                  <span
                    className={cn(
                      'rounded-full px-1.5 text-[11px] font-semibold leading-5 tabular-nums',
                      (f.value === 'open' || f.value === 'escalated') && n > 0
                        ? 'bg-amber-700 text-white'
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
            {f.value === filter && <DisputeList filter={f} />}
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}
