import { useMutation } from '@tanstack/react-query';
import type { PlacementPayment } from '@shared/schemas/brief';
import { apiRequest } from '@/lib/api';
import { invalidateProjects } from './admin-projects';

/** POST /api/admin/projects/{paymentId}/mark-edits-complete: edits_requested → edits_complete. */
export function useMarkEditsComplete() {
  return useMutation({
    mutationFn: (paymentId: string) => apiRequest<PlacementPayment>('POST', `/api/admin/projects/${paymentId}/mark-edits-complete`),
    onSettled: invalidateProjects,
  });
}
