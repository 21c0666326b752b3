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
 * GET /api/admin/projects?tab=…&q=…&mine=true&sort=due&clock=late: one tab's projects (of the brands the search finds;
 * with "Mine", the signed-in admin's own) with their
 * opportunity, brand and submitted brief, page by page.
 */
export const useAdminProjectsTab = (tab: ProjectTab, q: string, mine: boolean, clocks: ClockView = {}) =>
  usePagedList<AdminPlacementItem>(
    [...key, 'tab', tab, q, mine, clocks.sort ?? 'newest', clocks.clock ?? 'any'],
    apiUrl('/api/admin/projects', {}, { tab, q, ...(mine ? { mine: 'true' } : {}), ...(clocks.sort ? { sort: clocks.sort } : {}), ...(clocks.clock ? { clock: clocks.clock } : {}) }),
  );

/** The stage clocks' order and filter (decision 048): soonest due first, at risk or late only. */
export interface ClockView {
  sort?: 'due';
  clock?: 'at_risk' | 'late';
}

/**
 * GET /api/admin/projects/counts?q=…: each tab's count over every project (of the brands the search
 * finds). A new search keeps the previous counts on screen until its own arrive.
 */
export const useProjectCounts = (q: string, mine: boolean) =>
  useQuery<ProjectTabCounts>({
    queryKey: [...key, 'counts', q, mine],
    queryFn: () => apiGet(apiUrl('/api/admin/projects/counts', {}, { q, ...(mine ? { mine: 'true' } : {}) })),
    placeholderData: keepPreviousData,
  });

/**
 * After any project change: the projects (and the placement's page), the payments screen (and its
 * totals), the catalogue and the timeline the change wrote to.
 */
export function invalidateProjects() {
  refreshAfter('project');
}
