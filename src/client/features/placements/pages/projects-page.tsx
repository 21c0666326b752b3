import * as React from 'react';
import { Link } from 'wouter';
import { FolderKanban } from 'lucide-react';
import { NoSearchResults, SearchBox } from '@/components/search-box';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadMore } from '@/components/ui/load-more';
import { PageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useUrlSearch, type UrlSearch } from '@/lib/use-url-search';
import { useAdminProjectsTab, useProjectCounts } from '../api/admin-projects';
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

/** One tab's projects, page by page, newest first (the server's order). */
function ProjectTabList({ tab, search }: { tab: (typeof TABS)[number]; search: UrlSearch }) {
  const list = useAdminProjectsTab(tab.value, search.q);
  if (list.isLoading) return <PageSpinner />;
  if (list.isError && !list.items) return <QueryError query={list} title="Couldn't load the projects" />;
  const items = list.items ?? [];
  if (items.length === 0) {
    return search.q ? (
      <NoSearchResults what="projects" search={search} />
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

export function ProjectsPage() {
  const search = useUrlSearch();
  const countsQuery = useProjectCounts(search.q);
  const { data: counts, isLoading } = countsQuery;
  const [tab, setTab] = React.useState<ProjectTab>('awaiting');

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Projects</h1>
        <p className="text-muted-foreground">Track all paid opportunities and their progress</p>
      </div>
      <OpenCancellations />
      <SearchBox search={search} id="projects-search" />
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
              <ProjectTabList tab={t} search={search} />
            </TabsContent>
          ))}
        </Tabs>
      )}
    </div>
  );
}
