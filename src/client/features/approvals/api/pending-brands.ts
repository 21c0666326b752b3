import { useMutation } from '@tanstack/react-query';
import { usePagedList } from '@/lib/paged-query';
import type { PendingBrand } from '@shared/schemas/invite-code';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';

const key = ['/api/admin/pending-brands'];

/** GET /api/admin/pending-brands?q=…, page by page, the longest-waiting brand first (of those the search finds). */
export const usePendingBrands = (q: string) =>
  usePagedList<PendingBrand>([...key, 'list', q], `/api/admin/pending-brands${q ? `?q=${encodeURIComponent(q)}` : ''}`);

export function useApproveBrand() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<unknown>('POST', `/api/admin/approve-brand/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
