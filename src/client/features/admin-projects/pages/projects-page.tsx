import * as React from 'react';
import { FolderKanban } from 'lucide-react';
import type { AdminProjectItem } from '@shared/schemas/brief';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api';
import { useAdminProjects } from '../api/admin-projects';
import { ProjectCard } from '../components/project-card';
import { projectTab, type ProjectTab } from '../lib/brief-text';

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
    empty: 'No drafts have been approved yet. Projects appear here once the brand approves the draft, ready to publish.',
  },
];

function group(items: AdminProjectItem[]): Record<ProjectTab, AdminProjectItem[]> {
  const out: Record<ProjectTab, AdminProjectItem[]> = { awaiting: [], review: [], approved: [] };
  for (const item of items) {
    const tab = projectTab(item);
    if (tab) out[tab].push(item);
  }
  // what still needs publishing comes before what is already published
  out.approved.sort((a, b) => Number(a.payment.status === 'released') - Number(b.payment.status === 'released'));
  return out;
}

export function ProjectsPage() {
  const { data, isLoading, error } = useAdminProjects();
  const [tab, setTab] = React.useState<ProjectTab>('awaiting');
  const groups = React.useMemo(() => group(data ?? []), [data]);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Projects</h1>
        <p className="text-muted-foreground">Track all paid opportunities and their progress</p>
      </div>
      {isLoading ? (
        <PageSpinner />
      ) : error ? (
        <p role="alert" className="py-12 text-center text-sm text-destructive">
          {errorMessage(error, 'Failed to load projects')}
        </p>
      ) : (
        <Tabs value={tab} onValueChange={(v) => setTab(v as ProjectTab)}>
          <TabsList className="grid h-auto w-full grid-cols-3 sm:inline-flex sm:h-10 sm:w-auto">
            {TABS.map((t) => (
              <TabsTrigger key={t.value} value={t.value} className="h-full whitespace-normal px-1.5 leading-tight sm:whitespace-nowrap sm:px-3">
                <span>{t.label}</span>
                {groups[t.value].length > 0 && (
                  <span className="rounded-full bg-primary px-1.5 text-[11px] font-semibold leading-5 text-primary-foreground tabular-nums" data-testid="tab-count">
                    {groups[t.value].length}
                  </span>
                )}
              </TabsTrigger>
            ))}
          </TabsList>
          {TABS.map((t) => (
            <TabsContent key={t.value} value={t.value} className="space-y-4">
              {groups[t.value].length === 0 ? (
                <EmptyState icon={<FolderKanban />} title="Nothing here yet" description={t.empty} />
              ) : (
                groups[t.value].map((item) => <ProjectCard key={item.payment.id} item={item} tab={t.value} />)
              )}
            </TabsContent>
          ))}
        </Tabs>
      )}
    </div>
  );
}
