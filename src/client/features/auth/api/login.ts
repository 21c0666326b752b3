import { useMutation } from '@tanstack/react-query';
import type { LoginInput } from '@shared/schemas/auth';
import type { PublicUser } from '@shared/user';
import { apiRequest, errorMessage } from '@/lib/api';
import { setCurrentUser } from '@/lib/auth';
import { showAuthFailure } from './failure-toast';
import { apiUrl } from '@shared/api-paths';

export function useLogin() {
  return useMutation({
    mutationFn: (input: LoginInput) => apiRequest<PublicUser>('POST', apiUrl('/api/login'), input),
    onSuccess: (user) => setCurrentUser(user),
    onError: (err) => showAuthFailure({ title: 'Login failed', description: errorMessage(err, 'Login failed') }),
  });
}
