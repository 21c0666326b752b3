import { useQuery } from '@tanstack/react-query';
import type { BriefResponse } from '@shared/schemas/brief';
import { useMyArticle } from '@/features/placements/api/get-my-articles';
import { apiGet } from '@/lib/api';
import { apiUrl } from '@shared/api-paths';

const briefKey = (paymentId: string) => [apiUrl('/api/brand/brief/:paymentId', { paymentId })] as const;

/**
 * GET /api/brand/brief/{paymentId}. Always read afresh when the form (or the placement's page) opens
 * (gcTime 0): the form starts from what the server holds, never from a copy cached before the last
 * autosave. `enabled` false: not asked (a placement with no brief saved has nothing to show).
 */
export const useBrief = (paymentId: string, enabled = true) =>
  useQuery<BriefResponse>({
    queryKey: briefKey(paymentId),
    queryFn: () => apiGet(apiUrl('/api/brand/brief/:paymentId', { paymentId })),
    gcTime: 0,
    enabled,
  });

/** The purchase the brief belongs to (title, outlet, whether it can still change). */
export const useArticle = (paymentId: string) => useMyArticle({ paymentId });
