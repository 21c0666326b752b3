import { useQuery } from '@tanstack/react-query';
import type { AdminPlacementItem, BrandPlacementItem } from '@shared/schemas/brief';
import { ApiError, apiGet } from '@/lib/api';
import { myArticlesKey } from '@/lib/my-article-counts';
import { projectsKey } from './admin-projects';
import { apiUrl } from '@shared/api-paths';

// a 404 (not this brand's placement, or none) is an answer, not a hiccup
const retryHiccups = (count: number, err: Error) => count < 2 && !(err instanceof ApiError && err.status < 500);

/**
 * GET /api/brand/my-articles/{paymentId}: the placement's page, the same item as its My Articles
 * card. Under the list's key, so whatever refreshes My Articles (a review, a brief) refreshes it.
 */
export const useBrandPlacement = (paymentId: string) =>
  useQuery<BrandPlacementItem>({
    queryKey: [...myArticlesKey, 'placement', paymentId],
    queryFn: () => apiGet(apiUrl('/api/brand/placements/:placementId', { placementId: paymentId })),
    retry: retryHiccups,
  });

/**
 * GET /api/admin/projects/{paymentId}: the placement's page, the same item as its Projects card.
 * Under the list's key, so every project change (invalidateProjects) refreshes it.
 */
export const useAdminPlacement = (paymentId: string) =>
  useQuery<AdminPlacementItem>({
    queryKey: [...projectsKey, 'placement', paymentId],
    queryFn: () => apiGet(apiUrl('/api/admin/placements/:placementId', { placementId: paymentId })),
    retry: retryHiccups,
  });
