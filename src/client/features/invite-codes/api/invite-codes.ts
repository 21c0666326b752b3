import { useMutation, useQuery } from '@tanstack/react-query';
import type { InviteCode } from '@shared/schemas/invite-code';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';

const key = ['/api/admin/invite-codes'];

export const useInviteCodes = () => useQuery<InviteCode[]>({ queryKey: key });

export function useCreateInviteCode() {
  return useMutation({
    mutationFn: (code: string) => apiRequest<InviteCode>('POST', '/api/admin/invite-codes', { code: code.trim().toUpperCase() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export function useDeactivateInviteCode() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<InviteCode>('POST', `/api/admin/invite-codes/${id}/deactivate`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
