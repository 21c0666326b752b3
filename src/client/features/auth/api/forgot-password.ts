import { useMutation } from '@tanstack/react-query';
import type { ForgotPasswordInput } from '@shared/schemas/password';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { apiUrl } from '@shared/api-paths';

export function useForgotPassword() {
  return useMutation({
    mutationFn: (input: ForgotPasswordInput) => apiRequest<{ message: string }>('POST', apiUrl('/api/password/forgot'), input),
    onError: (err) => toast({ title: 'Request failed', description: errorMessage(err, 'Could not send the link'), variant: 'destructive' }),
  });
}
