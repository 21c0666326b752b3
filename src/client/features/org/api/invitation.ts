import { useMutation, useQuery } from '@tanstack/react-query';
import type { OrgRole } from '@shared/org';
import type { InvitationPreview } from '@shared/schemas/org';
import { apiGet, apiRequest } from '@/lib/api';
import { apiUrl } from '@shared/api-paths';

/** GET /api/invitations/{token} (public): what the link offers, or a 410 when it is used, expired or revoked. */
export const useInvitationPreview = (token: string) =>
  useQuery({
    queryKey: [apiUrl('/api/invitations/:token', { token })],
    queryFn: () => apiGet<InvitationPreview>(apiUrl('/api/invitations/:token', { token })),
  });

/** POST /api/invitations/{token}/accept: the signed-in account joins (with its name, when it has none yet). */
export function useAcceptInvitation(token: string) {
  return useMutation({
    mutationFn: (name: string | undefined) =>
      apiRequest<{ organisationId: string; role: OrgRole }>('POST', apiUrl('/api/invitations/:token/accept', { token }), name ? { name } : {}),
  });
}
