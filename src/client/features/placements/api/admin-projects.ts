import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminPlacementItem, ProjectTab, ProjectTabCounts } from '@shared/schemas/brief';
import { apiGet } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { usePagedList } from '@/lib/paged-query';
import { timelineKey } from './get-timeline';

/** The Projects list's key: every tab, page and count, and each placement's page. */
export const projectsKey = ['/api/admin/projects'] as const;
const key = projectsKey;

/** `&q=…` of a search by brand ('' for none). */
const searchParam = (q: string) => (q ? `&q=${encodeURIComponent(q)}` : '');

/**
 * GET /api/admin/projects?tab=…&q=…: one tab's projects (of the brands the search finds) with their
 * opportunity, brand and submitted brief, page by page.
 */
export const useAdminProjectsTab = (tab: ProjectTab, q: string) =>
  usePagedList<AdminPlacementItem>([...key, 'tab', tab, q], `/api/admin/projects?tab=${tab}${searchParam(q)}`);

/**
 * GET /api/admin/projects/counts?q=…: each tab's count over every project (of the brands the search
 * finds). A new search keeps the previous counts on screen until its own arrive.
 */
export const useProjectCounts = (q: string) =>
  useQuery<ProjectTabCounts>({
    queryKey: [...key, 'counts', q],
    queryFn: () => apiGet(q ? `/api/admin/projects/counts?q=${encodeURIComponent(q)}` : '/api/admin/projects/counts'),
    placeholderData: keepPreviousData,
  });

/**
 * After any project change: the projects (and the placement's page), the payments screen (and its
 * totals), the catalogue and the timeline the change wrote to.
 */
export function invalidateProjects() {
  for (const k of ['/api/admin/projects', '/api/admin/payments', '/api/admin/payments/totals', '/api/admin/opportunities', '/api/admin/placements']) {
    void queryClient.invalidateQueries({ queryKey: [k] });
  }
  void queryClient.invalidateQueries({ queryKey: timelineKey });
}
