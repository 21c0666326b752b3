import { useMutation } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { setCurrentUser } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';
import { apiUrl } from '@shared/api-paths';

export function useLogout() {
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: () => apiRequest<unknown>('POST', apiUrl('/api/logout')),
    onSuccess: () => {
      // nothing of the previous user may linger in the cache
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== apiUrl('/api/user') });
      setCurrentUser(null);
      navigate('/auth', { replace: true });
    },
    onError: (err) => toast({ title: 'Logout failed', description: errorMessage(err, 'Logout failed'), variant: 'destructive' }),
  });
}
