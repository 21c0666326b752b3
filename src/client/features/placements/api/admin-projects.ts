import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminPlacementItem, ProjectTab, ProjectTabCounts } from '@shared/schemas/brief';
import { apiGet } from '@/lib/api';
import { refreshAfter } from '@/lib/changes';
import { usePagedList } from '@/lib/paged-query';
import { apiUrl } from '@shared/api-paths';

/** The Projects list's key: every tab, page and count, and each placement's page. */
export const projectsKey = [apiUrl('/api/admin/projects')] as const;
const key = projectsKey;

/**
 * GET /api/admin/projects?tab=…&q=…: one tab's projects (of the brands the search finds) with their
 * opportunity, brand and submitted brief, page by page.
 */
export const useAdminProjectsTab = (tab: ProjectTab, q: string) =>
  usePagedList<AdminPlacementItem>([...key, 'tab', tab, q], apiUrl('/api/admin/projects', {}, { tab, q }));

/**
 * GET /api/admin/projects/counts?q=…: each tab's count over every project (of the brands the search
 * finds). A new search keeps the previous counts on screen until its own arrive.
 */
export const useProjectCounts = (q: string) =>
  useQuery<ProjectTabCounts>({
    queryKey: [...key, 'counts', q],
    queryFn: () => apiGet(apiUrl('/api/admin/projects/counts', {}, { q })),
    placeholderData: keepPreviousData,
  });

/**
 * After any project change: the projects (and the placement's page), the payments screen (and its
 * totals), the catalogue and the timeline the change wrote to.
 */
export function invalidateProjects() {
  refreshAfter('project');
}
