import { useMutation } from '@tanstack/react-query';
import type { RegisterInput } from '@shared/schemas/auth';
import type { PublicUser } from '@shared/user';
import { apiRequest, errorMessage } from '@/lib/api';
import { setCurrentUser } from '@/lib/auth';
import { showAuthFailure } from './failure-toast';
import { apiUrl } from '@shared/api-paths';

export function useRegister() {
  return useMutation({
    // the role is fixed to brand; the server enforces it whatever is sent
    mutationFn: (input: RegisterInput) => apiRequest<PublicUser>('POST', apiUrl('/api/register'), { ...input, role: 'brand' }),
    onSuccess: (user) => setCurrentUser(user),
    onError: (err) => showAuthFailure({ title: 'Registration failed', description: errorMessage(err, 'Failed to create account') }),
  });
}
