import { useMutation } from '@tanstack/react-query';
import type { ResetPasswordInput } from '@shared/schemas/password';
import { apiRequest } from '@/lib/api';
import { apiUrl } from '@shared/api-paths';

/** Errors are shown on the page (an expired link offers a new one), not in a toast. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (input: ResetPasswordInput) => apiRequest<{ message: string }>('POST', apiUrl('/api/password/reset'), input),
  });
}
