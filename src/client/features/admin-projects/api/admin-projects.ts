import { useQuery } from '@tanstack/react-query';
import type { AdminProjectItem } from '@shared/schemas/brief';
import { queryClient } from '@/lib/query-client';

const key = ['/api/admin/projects'];

/** GET /api/admin/projects: every held or released payment with its opportunity, brand and submitted brief. */
export const useAdminProjects = () => useQuery<AdminProjectItem[]>({ queryKey: key });

/** After any project change: the projects, the payments screen (and its totals) and the catalogue. */
export function invalidateProjects() {
  for (const k of ['/api/admin/projects', '/api/admin/payments', '/api/admin/payments/totals', '/api/admin/opportunities']) {
    void queryClient.invalidateQueries({ queryKey: [k] });
  }
}
