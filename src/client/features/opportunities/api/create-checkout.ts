import { useMutation } from '@tanstack/react-query';
import { startCheckout } from '@/lib/org';

/**
 * Creates the provider's hosted checkout for the opportunity; the browser then goes there. Above
 * the member's approval threshold the server answers with a purchase request instead (202).
 */
export function useCreateCheckout() {
  return useMutation({
    mutationFn: ({ opportunityId, clientId }: { opportunityId: string; clientId?: string }) => startCheckout(opportunityId, { clientId }),
  });
}
