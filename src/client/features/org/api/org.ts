import { useMutation, useQuery } from '@tanstack/react-query';
import type { InvitationInput, OrgInvitation, OrgMember } from '@shared/schemas/org';
import { apiGet, apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';

const orgKey = ['/api/org']; // useOrg lives in lib/org
const membersKey = ['/api/org/members'];
const invitationsKey = ['/api/org/invitations'];

/** GET /api/org/members: the owner first. */
export const useMembers = () => useQuery({ queryKey: membersKey, queryFn: () => apiGet<OrgMember[]>('/api/org/members') });

/** GET /api/org/invitations (owner and admins only): the open ones, newest first. */
export const useInvitations = () => useQuery({ queryKey: invitationsKey, queryFn: () => apiGet<OrgInvitation[]>('/api/org/invitations') });

// the member count (useOrg) and the audit log follow every change of the team
const refreshTeam = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: membersKey }),
    queryClient.invalidateQueries({ queryKey: orgKey }),
    queryClient.invalidateQueries({ queryKey: ['/api/org/audit'] }),
  ]);
const refreshInvitations = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: invitationsKey }),
    queryClient.invalidateQueries({ queryKey: ['/api/org/audit'] }),
  ]);

export function useChangeRole() {
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: InvitationInput['role'] }) =>
      apiRequest<OrgMember>('PATCH', `/api/org/members/${userId}`, { role }),
    onSuccess: refreshTeam,
  });
}

export function useRemoveMember() {
  return useMutation({
    mutationFn: (userId: string) => apiRequest<void>('DELETE', `/api/org/members/${userId}`),
    onSuccess: refreshTeam,
  });
}

export function useTransferOwnership() {
  return useMutation({
    mutationFn: (userId: string) => apiRequest<OrgMember[]>('POST', '/api/org/transfer-ownership', { userId }),
    onSuccess: (members) => {
      queryClient.setQueryData(membersKey, members);
      return refreshTeam();
    },
  });
}

export function useInvite() {
  return useMutation({
    mutationFn: (input: InvitationInput) => apiRequest<OrgInvitation>('POST', '/api/org/invitations', input),
    onSuccess: refreshInvitations,
  });
}

export function useRevokeInvitation() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>('DELETE', `/api/org/invitations/${id}`),
    onSuccess: refreshInvitations,
  });
}

export function useResendInvitation() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<OrgInvitation>('POST', `/api/org/invitations/${id}/resend`),
    onSuccess: refreshInvitations,
  });
}
