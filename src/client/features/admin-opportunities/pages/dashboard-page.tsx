import * as React from 'react';
import { Link } from 'wouter';
import { Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { useAdminOpportunities } from '../api/get-opportunities';
import { OpportunitiesTable } from '../components/opportunities-table';
import { OpportunityFilters, noFilters, toListFilters, type Filters } from '../components/opportunity-filters';
import { LoadMore } from '@/components/ui/load-more';
import { useUrlSearch } from '@/lib/use-url-search';
import { QueryError } from '@/components/query-error';
import { TestClockPanel } from '../components/test-clock-panel';
import { ClockCounts } from '@/components/promise/clock-counts';

export function DashboardPage() {
  const [filters, setFilters] = React.useState<Filters>(noFilters);
  const search = useUrlSearch();
  const list = useAdminOpportunities({ ...toListFilters(filters), q: search.q });
  const { isLoading, error } = list;

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Dashboard</h1>
          <p className="text-muted-foreground">Manage opportunities and payments</p>
        </div>
        <Button asChild>
          <Link href="/admin/new-opportunity">
            <Plus /> New Opportunity
          </Link>
        </Button>
      </div>
      <TestClockPanel />
      {/* the stage clocks at risk and late (decision 048) */}
      <ClockCounts />
      <OpportunityFilters value={filters} onChange={setFilters} search={search} />
      <Card className="overflow-hidden">
        {isLoading ? (
          <PageSpinner />
        ) : error && !list.items ? (
          <QueryError query={list} title="Couldn't load the opportunities" className="rounded-none border-0" />
        ) : (
          <OpportunitiesTable items={list.items ?? []} />
        )}
      </Card>
      <LoadMore pager={list} />
    </div>
  );
}
