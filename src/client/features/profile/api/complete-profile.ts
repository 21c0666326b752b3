import { useMutation } from '@tanstack/react-query';
import type { CompleteProfileInput } from '@shared/schemas/profile';
import type { PublicUser } from '@shared/user';
import { apiRequest } from '@/lib/api';
import { refreshUser } from '@/lib/auth';
import { apiUrl } from '@shared/api-paths';

export type CompleteProfileResult = PublicUser & { autoApproved: boolean };

export function useCompleteProfile() {
  return useMutation({
    mutationFn: (input: CompleteProfileInput) => apiRequest<CompleteProfileResult>('PATCH', apiUrl('/api/user/profile'), input),
    onSuccess: () => refreshUser(),
  });
}
