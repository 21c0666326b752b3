import { useQuery } from '@tanstack/react-query';
import type { AdminOrganisation, AdminOrganisationItem } from '@shared/schemas/org';
import { apiGet } from '@/lib/api';
import { usePagedList } from '@/lib/paged-query';
import { apiUrl } from '@shared/api-paths';

/** GET /api/admin/organisations/{id}: the organisation, its members, clients and spend. */
export const useAdminOrganisation = (id: string) =>
  useQuery<AdminOrganisation>({
    queryKey: [apiUrl('/api/admin/organisations'), id],
    queryFn: () => apiGet(apiUrl('/api/admin/organisations/:id', { id })),
  });

/** GET /api/admin/organisations?q=…, page by page, the newest first (of those the search finds). */
export const useAdminOrganisations = (q: string) =>
  usePagedList<AdminOrganisationItem>(
    [apiUrl('/api/admin/organisations'), 'list', q],
    apiUrl('/api/admin/organisations', {}, { q }),
  );
