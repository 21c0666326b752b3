import { useMutation, useQuery } from '@tanstack/react-query';
import type { Editor } from '@shared/schemas/brief';
import { apiGet, apiRequest } from '@/lib/api';
import { apiUrl } from '@shared/api-paths';
import { invalidateProjects } from './admin-projects';

/** GET /api/admin/team: the admins a placement may be given to (issue 59). */
export const useEditorialTeam = () =>
  useQuery<Editor[]>({ queryKey: [apiUrl('/api/admin/team')], queryFn: () => apiGet(apiUrl('/api/admin/team')), staleTime: 60_000 });

/** PUT /api/admin/placements/{placementId}/assignee: its editor, or nobody (`null`). */
export function useAssignEditor(placementId: string) {
  return useMutation({
    mutationFn: (adminId: string | null) =>
      apiRequest<{ assignee: Editor | null }>('PUT', apiUrl('/api/admin/placements/:placementId/assignee', { placementId }), { adminId }),
    onSettled: invalidateProjects,
  });
}
