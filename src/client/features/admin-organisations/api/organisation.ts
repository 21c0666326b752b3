import { useQuery } from '@tanstack/react-query';
import type { AdminOrganisation } from '@shared/schemas/org';
import { apiGet } from '@/lib/api';

/** GET /api/admin/organisations/{id}: the organisation, its members, clients and spend. */
export const useAdminOrganisation = (id: string) =>
  useQuery<AdminOrganisation>({
    queryKey: ['/api/admin/organisations', id],
    queryFn: () => apiGet(`/api/admin/organisations/${encodeURIComponent(id)}`),
  });
