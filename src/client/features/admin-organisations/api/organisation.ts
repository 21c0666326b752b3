import { useQuery } from '@tanstack/react-query';
import type { AdminOrganisation, AdminOrganisationItem } from '@shared/schemas/org';
import { apiGet } from '@/lib/api';
import { usePagedList } from '@/lib/paged-query';

/** GET /api/admin/organisations/{id}: the organisation, its members, clients and spend. */
export const useAdminOrganisation = (id: string) =>
  useQuery<AdminOrganisation>({
    queryKey: ['/api/admin/organisations', id],
    queryFn: () => apiGet(`/api/admin/organisations/${encodeURIComponent(id)}`),
  });

/** GET /api/admin/organisations?q=…, page by page, the newest first (of those the search finds). */
export const useAdminOrganisations = (q: string) =>
  usePagedList<AdminOrganisationItem>(
    ['/api/admin/organisations', 'list', q],
    `/api/admin/organisations${q ? `?q=${encodeURIComponent(q)}` : ''}`,
  );
