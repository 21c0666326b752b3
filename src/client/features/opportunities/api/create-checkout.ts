import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** Creates the provider's hosted checkout for the opportunity; the browser then goes there. */
export function useCreateCheckout() {
  return useMutation({
    mutationFn: (opportunityId: string) => apiRequest<{ url: string }>('POST', '/api/payments/checkout', { opportunityId }),
  });
}
