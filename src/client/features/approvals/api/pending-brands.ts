import { useMutation } from '@tanstack/react-query';
import { usePagedList } from '@/lib/paged-query';
import type { PendingBrand } from '@shared/schemas/invite-code';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';

const key = ['/api/admin/pending-brands'];

/** GET /api/admin/pending-brands, page by page, the longest-waiting brand first. */
export const usePendingBrands = () => usePagedList<PendingBrand>([...key, 'list'], '/api/admin/pending-brands');

export function useApproveBrand() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<unknown>('POST', `/api/admin/approve-brand/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
