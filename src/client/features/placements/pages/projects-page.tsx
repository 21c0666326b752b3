import * as React from 'react';
import { Link, useSearchParams } from 'wouter';
import { FolderKanban } from 'lucide-react';
import { NoSearchResults, SearchBox } from '@/components/search-box';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadMore } from '@/components/ui/load-more';
import { PageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useUrlSearch, type UrlSearch } from '@/lib/use-url-search';
import { useAdminProjectsTab, useProjectCounts, type ClockView } from '../api/admin-projects';
import { ProjectCard } from '../components/projects/project-card';
import { OpenCancellations } from '../components/projects/open-cancellations';
import type { ProjectTab } from '../components/projects/brief-text';
import { QueryError } from '@/components/query-error';

const TABS: { value: ProjectTab; label: string; empty: string }[] = [
  {
    value: 'awaiting',
    label: 'Awaiting Brief',
    empty: 'No paid projects are waiting for a brief or a draft. New purchases appear here until a draft is attached.',
  },
  {
    value: 'review',
    label: 'Pending Review',
    empty: 'No drafts are with brands for review. Attach a draft to a project to move it here.',
  },
  {
    value: 'approved',
    label: 'Approved',
    empty: 'No approved drafts are waiting for publication. Projects appear here once the brand approves the draft, until they are published.',
  },
  // issue 20: after the spec's three, so that every project is in a tab whatever its payment
  {
    value: 'published',
    label: 'Published',
    empty: 'Nothing has been published yet. Projects appear here once their content is published and the payment released.',
  },
  {
    value: 'refunded',
    label: 'Refunded',
    empty: 'No projects have been refunded.',
  },
];

/** One tab's projects, page by page, newest first or soonest due (the server's order). */
function ProjectTabList({ tab, search, mine, clocks }: { tab: (typeof TABS)[number]; search: UrlSearch; mine: boolean; clocks: ClockView }) {
  const list = useAdminProjectsTab(tab.value, search.q, mine, clocks);
  if (list.isLoading) return <PageSpinner />;
  if (list.isError && !list.items) return <QueryError query={list} title="Couldn't load the projects" />;
  const items = list.items ?? [];
  if (items.length === 0) {
    return search.q ? (
      <NoSearchResults what="projects" search={search} />
    ) : clocks.clock ? (
      <EmptyState
        icon={<FolderKanban />}
        title={clocks.clock === 'late' ? 'Nothing late here' : 'Nothing at risk here'}
        description="Placements whose stage is past due (late) or has a fifth of its time left (at risk) appear here."
      />
    ) : mine ? (
      <EmptyState icon={<FolderKanban />} title="None of yours here" description="Placements you are the editor of appear here: assign one to yourself, or act on it first." />
    ) : (
      <EmptyState icon={<FolderKanban />} title="Nothing here yet" description={tab.empty}>
        {/* the next step: projects come from brands buying what the catalogue offers */}
        <Button asChild size="sm" variant="outline">
          <Link href="/admin">Manage opportunities</Link>
        </Button>
      </EmptyState>
    );
  }
  return (
    <>
      {items.map((item) => (
        <ProjectCard key={item.payment.id} item={item} tab={tab.value} />
      ))}
      <LoadMore pager={list} />
    </>
  );
}

/**
 * The stage clocks' order and filter (decision 048) kept in the page's URL (`?sort=due`,
 * `?clock=at_risk|late`), as "Mine" is; the server sorts and filters.
 */
function useClockView(): [ClockView, (next: ClockView) => void] {
  const [params, setParams] = useSearchParams();
  const sort = params.get('sort') === 'due' ? 'due' : undefined;
  const clockParam = params.get('clock');
  const clock = clockParam === 'at_risk' || clockParam === 'late' ? clockParam : undefined;
  const set = React.useCallback(
    (view: ClockView) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [k, v] of [
            ['sort', view.sort],
            ['clock', view.clock],
          ] as const) {
            if (v) next.set(k, v);
            else next.delete(k);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [React.useMemo(() => ({ sort, clock }), [sort, clock]), set];
}

/** "Mine" (issue 59) kept in the page's URL (`?mine=1`), so a reload or a shared link keeps it. */
function useMineFilter(): [boolean, (on: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const mine = params.get('mine') === '1';
  const set = React.useCallback(
    (on: boolean) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (on) next.set('mine', '1');
          else next.delete('mine');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [mine, set];
}

export function ProjectsPage() {
  const search = useUrlSearch();
  const [mine, setMine] = useMineFilter();
  const [clocks, setClocks] = useClockView();
  const countsQuery = useProjectCounts(search.q, mine);
  const { data: counts, isLoading } = countsQuery;
  const [tab, setTab] = React.useState<ProjectTab>('awaiting');

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Projects</h1>
        <p className="text-muted-foreground">Track all paid opportunities and their progress</p>
      </div>
      <OpenCancellations />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="min-w-0 sm:w-full sm:max-w-md">
          <SearchBox search={search} id="projects-search" />
        </div>
        <div className="flex items-center gap-2">
          <Switch id="projects-mine" checked={mine} onCheckedChange={setMine} data-testid="projects-mine" />
          <Label htmlFor="projects-mine">Mine</Label>
        </div>
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <label className="flex items-center gap-2">
            <span className="text-muted-foreground">Sort</span>
            <select
              className="h-9 rounded-md border bg-background px-2"
              value={clocks.clock ? 'due' : (clocks.sort ?? 'newest')}
              onChange={(e) => setClocks({ ...clocks, sort: e.target.value === 'due' ? 'due' : undefined })}
              // late and at-risk placements are listed soonest due first (the most overdue at the top)
              disabled={Boolean(clocks.clock)}
              title={clocks.clock ? 'Late and at-risk placements are listed by due time, the most urgent first' : undefined}
              data-testid="projects-sort"
            >
              <option value="newest">Newest first</option>
              <option value="due">Due soonest</option>
            </select>
          </label>
          <label className="flex items-center gap-2">
            <span className="text-muted-foreground">Clock</span>
            <select
              className="h-9 rounded-md border bg-background px-2"
              value={clocks.clock ?? ''}
              onChange={(e) => setClocks({ ...clocks, clock: e.target.value === 'at_risk' || e.target.value === 'late' ? e.target.value : undefined })}
              data-testid="projects-clock"
            >
              <option value="">Any</option>
              <option value="at_risk">At risk</option>
              <option value="late">Late</option>
            </select>
          </label>
        </div>
      </div>
      {isLoading ? (
        <PageSpinner />
      ) : !counts ? (
        <QueryError query={countsQuery} title="Couldn't load the projects" />
      ) : (
        <Tabs value={tab} onValueChange={(v) => setTab(v as ProjectTab)}>
          {/* one line at any width: on a phone the list scrolls sideways instead of wrapping labels */}
          <TabsList className="w-full sm:w-auto" data-testid="project-tabs">
            {TABS.map((t) => (
              <TabsTrigger key={t.value} value={t.value} className="shrink-0 px-2.5 sm:px-3">
                <span>{t.label}</span>
                {counts[t.value] > 0 && (
                  <span className="rounded-full bg-primary px-1.5 text-[11px] font-semibold leading-5 text-primary-foreground tabular-nums" data-testid="tab-count">
                    {counts[t.value]}
                  </span>
                )}
              </TabsTrigger>
            ))}
          </TabsList>
          {TABS.map((t) => (
            <TabsContent key={t.value} value={t.value} className="space-y-4">
              <ProjectTabList tab={t} search={search} mine={mine} clocks={clocks} />
            </TabsContent>
          ))}
        </Tabs>
      )}
    </div>
  );
}
