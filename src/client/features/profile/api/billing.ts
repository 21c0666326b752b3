import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BillingDetails, BillingDetailsInput } from '@shared/billing';
import { apiRequest } from '@/lib/api';
import { apiUrl } from '@shared/api-paths';

const KEY = [apiUrl('/api/brand/billing')];

export function useBilling() {
  return useQuery<BillingDetails>({ queryKey: KEY });
}

export function useSaveBilling() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: BillingDetailsInput) => apiRequest<BillingDetails>('PUT', apiUrl('/api/brand/billing'), input),
    onSuccess: (saved) => client.setQueryData(KEY, saved),
  });
}
