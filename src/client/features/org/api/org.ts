import { useMutation, useQuery } from '@tanstack/react-query';
import type { BillingDetails, BillingDetailsInput } from '@shared/billing';
import type { InvitationInput, OrgClient, OrgInvitation, OrgMember } from '@shared/schemas/org';
import { apiGet, apiRequest } from '@/lib/api';
import { clientsKey } from '@/lib/org';
import { queryClient } from '@/lib/query-client';
import { apiUrl } from '@shared/api-paths';

const orgKey = [apiUrl('/api/org')]; // useOrg lives in lib/org
const membersKey = [apiUrl('/api/org/members')];
const invitationsKey = [apiUrl('/api/org/invitations')];

/*
 * The team changes in other people's browsers too (an invitation accepted, a member removed by
 * another admin): the Team page reads both lists again each time it opens, rather than showing the
 * copy cached when it was first opened (issue 57: a stale Team list). Changes made here invalidate them.
 */

/** GET /api/org/members: the owner first. */
export const useMembers = () =>
  useQuery({ queryKey: membersKey, queryFn: () => apiGet<OrgMember[]>(apiUrl('/api/org/members')), refetchOnMount: 'always' });

/** GET /api/org/invitations (owner and admins only): the open ones, newest first. */
export const useInvitations = () =>
  useQuery({ queryKey: invitationsKey, queryFn: () => apiGet<OrgInvitation[]>(apiUrl('/api/org/invitations')), refetchOnMount: 'always' });

// the member count (useOrg) and the audit log follow every change of the team
const refreshTeam = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: membersKey }),
    queryClient.invalidateQueries({ queryKey: orgKey }),
    queryClient.invalidateQueries({ queryKey: [apiUrl('/api/org/audit')] }),
  ]);
const refreshInvitations = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: invitationsKey }),
    queryClient.invalidateQueries({ queryKey: [apiUrl('/api/org/audit')] }),
  ]);

export function useChangeRole() {
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: InvitationInput['role'] }) =>
      apiRequest<OrgMember>('PATCH', apiUrl('/api/org/members/:userId', { userId }), { role }),
    onSuccess: refreshTeam,
  });
}

export function useRemoveMember() {
  return useMutation({
    mutationFn: (userId: string) => apiRequest<void>('DELETE', apiUrl('/api/org/members/:userId', { userId })),
    onSuccess: refreshTeam,
  });
}

export function useTransferOwnership() {
  return useMutation({
    mutationFn: (userId: string) => apiRequest<OrgMember[]>('POST', apiUrl('/api/org/transfer-ownership'), { userId }),
    onSuccess: (members) => {
      queryClient.setQueryData(membersKey, members);
      return refreshTeam();
    },
  });
}

export function useInvite() {
  return useMutation({
    mutationFn: (input: InvitationInput) => apiRequest<OrgInvitation>('POST', apiUrl('/api/org/invitations'), input),
    onSuccess: refreshInvitations,
  });
}

export function useRevokeInvitation() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>('DELETE', apiUrl('/api/org/invitations/:id', { id })),
    onSuccess: refreshInvitations,
  });
}

export function useResendInvitation() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<OrgInvitation>('POST', apiUrl('/api/org/invitations/:id/resend', { id })),
    onSuccess: refreshInvitations,
  });
}

// ---- clients (decision 035) ----

const refreshClients = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: clientsKey }),
    queryClient.invalidateQueries({ queryKey: [apiUrl('/api/org/audit')] }),
  ]);

export function useAddClient() {
  return useMutation({
    mutationFn: (name: string) => apiRequest<OrgClient>('POST', apiUrl('/api/org/clients'), { name }),
    onSuccess: refreshClients,
  });
}

export function useChangeClient() {
  return useMutation({
    mutationFn: ({ id, ...change }: { id: string; name?: string; monthlyCapUsd?: string | null; websites?: string[] }) =>
      apiRequest<OrgClient>('PATCH', apiUrl('/api/org/clients/:id', { id }), change),
    onSuccess: refreshClients,
  });
}

/** GET /api/org/clients/{id}/billing, asked when its dialog opens. */
export const useClientBilling = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: [apiUrl('/api/org/clients'), id, 'billing'],
    queryFn: () => apiGet<BillingDetails>(apiUrl('/api/org/clients/:id/billing', { id })),
    enabled,
  });

export function useSaveClientBilling(id: string) {
  return useMutation({
    mutationFn: (input: BillingDetailsInput) =>
      apiRequest<BillingDetails>('PUT', apiUrl('/api/org/clients/:id/billing', { id }), input),
    onSuccess: (saved) => {
      queryClient.setQueryData([apiUrl('/api/org/clients'), id, 'billing'], saved);
      return refreshClients();
    },
  });
}

/** A member's clients (null: all), changed by an owner or admin. */
export function useChangeMemberClients() {
  return useMutation({
    mutationFn: ({ userId, clientIds }: { userId: string; clientIds: string[] | null }) =>
      apiRequest<OrgMember>('PATCH', apiUrl('/api/org/members/:userId', { userId }), { clientIds }),
    onSuccess: refreshTeam,
  });
}
