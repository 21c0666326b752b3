import { useMutation } from '@tanstack/react-query';
import { usePagedList } from '@/lib/paged-query';
import type { PendingBrand } from '@shared/schemas/invite-code';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { apiUrl } from '@shared/api-paths';

const key = [apiUrl('/api/admin/pending-brands')];

/** GET /api/admin/pending-brands?q=…, page by page, the longest-waiting brand first (of those the search finds). */
export const usePendingBrands = (q: string) =>
  usePagedList<PendingBrand>([...key, 'list', q], apiUrl('/api/admin/pending-brands', {}, { q }));

export function useApproveBrand() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<unknown>('POST', apiUrl('/api/admin/approve-brand/:id', { id })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
