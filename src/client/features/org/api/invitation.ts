import { useMutation, useQuery } from '@tanstack/react-query';
import type { OrgRole } from '@shared/org';
import type { InvitationPreview } from '@shared/schemas/org';
import { apiGet, apiRequest } from '@/lib/api';

/** GET /api/invitations/{token} (public): what the link offers, or a 410 when it is used, expired or revoked. */
export const useInvitationPreview = (token: string) =>
  useQuery({
    queryKey: ['/api/invitations', token],
    queryFn: () => apiGet<InvitationPreview>(`/api/invitations/${encodeURIComponent(token)}`),
  });

/** POST /api/invitations/{token}/accept: the signed-in account joins (with its name, when it has none yet). */
export function useAcceptInvitation(token: string) {
  return useMutation({
    mutationFn: (name: string | undefined) =>
      apiRequest<{ organisationId: string; role: OrgRole }>('POST', `/api/invitations/${encodeURIComponent(token)}/accept`, name ? { name } : {}),
  });
}
