import { useMutation } from '@tanstack/react-query';
import { usePagedList } from '@/lib/paged-query';
import type { InviteCode } from '@shared/schemas/invite-code';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { apiUrl } from '@shared/api-paths';

const key = [apiUrl('/api/admin/invite-codes')];

/** GET /api/admin/invite-codes, page by page, newest first. */
export const useInviteCodes = () => usePagedList<InviteCode>([...key, 'list'], apiUrl('/api/admin/invite-codes'));

export function useCreateInviteCode() {
  return useMutation({
    mutationFn: (code: string) => apiRequest<InviteCode>('POST', apiUrl('/api/admin/invite-codes'), { code: code.trim().toUpperCase() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export function useDeactivateInviteCode() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<InviteCode>('POST', apiUrl('/api/admin/invite-codes/:id/deactivate', { id })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/** Not in the spec (there a code is never reactivated): the way back from a mistaken Deactivate (issue 20). */
export function useActivateInviteCode() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<InviteCode>('POST', apiUrl('/api/admin/invite-codes/:id/activate', { id })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
