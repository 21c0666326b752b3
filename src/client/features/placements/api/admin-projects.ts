import { useQuery } from '@tanstack/react-query';
import type { AdminProjectItem, ProjectTab, ProjectTabCounts } from '@shared/schemas/brief';
import { apiGet } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { usePagedList } from '@/lib/paged-query';

const key = ['/api/admin/projects'] as const;

/** GET /api/admin/projects?tab=…: one tab's projects with their opportunity, brand and submitted brief, page by page. */
export const useAdminProjectsTab = (tab: ProjectTab) => usePagedList<AdminProjectItem>([...key, 'tab', tab], `/api/admin/projects?tab=${tab}`);

/** GET /api/admin/projects/counts: each tab's count over every project. */
export const useProjectCounts = () => useQuery<ProjectTabCounts>({ queryKey: [...key, 'counts'], queryFn: () => apiGet('/api/admin/projects/counts') });

/** After any project change: the projects, the payments screen (and its totals) and the catalogue. */
export function invalidateProjects() {
  for (const k of ['/api/admin/projects', '/api/admin/payments', '/api/admin/payments/totals', '/api/admin/opportunities', '/api/admin/placements']) {
    void queryClient.invalidateQueries({ queryKey: [k] });
  }
}
