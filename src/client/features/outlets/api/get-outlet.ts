import { useQuery } from '@tanstack/react-query';
import type { MessageSide } from '@shared/messages';
import type { OutletDetail } from '@shared/schemas/outlets';
import { ApiError, apiGet } from '@/lib/api';
import { apiUrl } from '@shared/api-paths';

/** Every outlet page's query (the brand's and the admins'): an import of metrics refreshes them all. */
export const outletsKey = ['outlets'] as const;

// a 404 (no such outlet) is an answer, not a hiccup
const retryHiccups = (count: number, err: Error) => count < 2 && !(err instanceof ApiError && err.status < 500);

/**
 * GET /api/outlets/{id} (brands) or /api/admin/outlets/{id}: the outlet, its metrics with their
 * sources and dates, Byline's record of it, and what can be bought from it now.
 */
export const useOutlet = (side: MessageSide, id: string) =>
  useQuery<OutletDetail>({
    queryKey: [...outletsKey, side, id],
    queryFn: () => apiGet(side === 'admin' ? apiUrl('/api/admin/outlets/:id', { id }) : apiUrl('/api/outlets/:id', { id })),
    retry: retryHiccups,
  });
