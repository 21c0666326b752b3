import { useMutation, useQuery } from '@tanstack/react-query';
import type {
  LivePlacementItem,
  PlacementCounts,
  PublicationCheck,
  PublicationHealth,
  PublishRequest,
} from '@shared/publication';
import { apiGet, apiRequest } from '@/lib/api';
import { usePagedList } from '@/lib/paged-query';
import { queryClient } from '@/lib/query-client';
import { projectsKey } from './admin-projects';
import { timelineKey } from './get-timeline';
import { apiUrl } from '@shared/api-paths';

const listKey = [apiUrl('/api/admin/placements')] as const;
const countsKey = [apiUrl('/api/admin/placements/counts')] as const;

/** A filter of Admin Placements: every published placement, or those of one health. */
export type PlacementFilter = 'all' | PublicationHealth;

/** GET /api/admin/placements[?health=…][&q=…]: published placements (of the brands `q` finds), newest publication first, page by page. */
export const useAdminPlacements = (filter: PlacementFilter, q: string) =>
  usePagedList<LivePlacementItem>(
    [...listKey, 'list', filter, q],
    apiUrl('/api/admin/placements', {}, { health: filter === 'all' ? undefined : filter, q }),
  );

/**
 * GET /api/admin/placements/counts: placements by health and the open cases. The sidebar asks too
 * (admins only, and a minute old is fresh enough there); the page's filters read the same entry.
 */
export const usePlacementCounts = ({ enabled = true, staleTime }: { enabled?: boolean; staleTime?: number } = {}) =>
  useQuery<PlacementCounts>({
    queryKey: countsKey,
    queryFn: () => apiGet(apiUrl('/api/admin/placements/counts')),
    enabled,
    ...(staleTime === undefined ? {} : { staleTime }),
  });

/** After a check was applied or a URL changed: the list (every filter), its counts, and the placement's page and timeline. */
function invalidatePlacements() {
  for (const key of [listKey, countsKey, projectsKey, timelineKey]) void queryClient.invalidateQueries({ queryKey: key });
}

/** POST /api/admin/payments/{id}/publication/check {}: checks the live article now and applies the result (may open or close a case). */
export function useRecheckPlacement() {
  return useMutation({
    mutationFn: (paymentId: string) =>
      apiRequest<PublicationCheck>('POST', apiUrl('/api/admin/placements/:placementId/publication/check', { placementId: paymentId }), {}),
    onSettled: invalidatePlacements,
  });
}

/** POST /api/admin/payments/{id}/publication/check {liveUrl}: what a check of this URL finds, nothing changes. */
export function usePreviewCheck() {
  return useMutation({
    mutationFn: ({ paymentId, liveUrl }: { paymentId: string; liveUrl: string }) =>
      apiRequest<PublicationCheck>('POST', apiUrl('/api/admin/placements/:placementId/publication/check', { placementId: paymentId }), { liveUrl }),
  });
}

/**
 * PUT /api/admin/payments/{id}/publication {liveUrl, overrideReason?}: moves the placement to a new
 * live URL, checked first. A 409 whose body has a `check` means problems that need a reason.
 */
export function useChangeLiveUrl() {
  return useMutation({
    mutationFn: ({
      paymentId,
      body,
    }: {
      paymentId: string;
      body: Required<Pick<PublishRequest, 'liveUrl'>> & PublishRequest;
    }) => apiRequest<{ ok: true }>('PUT', apiUrl('/api/admin/placements/:placementId/publication', { placementId: paymentId }), body),
    onSuccess: invalidatePlacements,
  });
}

