import { useMutation, useQuery } from '@tanstack/react-query';
import type { PendingBrand } from '@shared/schemas/invite-code';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';

const key = ['/api/admin/pending-brands'];

export const usePendingBrands = () => useQuery<PendingBrand[]>({ queryKey: key });

export function useApproveBrand() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<unknown>('POST', `/api/admin/approve-brand/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
