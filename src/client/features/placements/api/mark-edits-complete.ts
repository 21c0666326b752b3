import { useMutation } from '@tanstack/react-query';
import type { PlacementPayment } from '@shared/schemas/brief';
import { apiRequest } from '@/lib/api';
import { invalidateProjects } from './admin-projects';
import { apiUrl } from '@shared/api-paths';

/** POST /api/admin/projects/{paymentId}/mark-edits-complete: edits_requested → edits_complete. */
export function useMarkEditsComplete() {
  return useMutation({
    mutationFn: (paymentId: string) => apiRequest<PlacementPayment>('POST', apiUrl('/api/admin/projects/:id/mark-edits-complete', { id: paymentId })),
    onSettled: invalidateProjects,
  });
}
