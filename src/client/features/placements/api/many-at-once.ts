import { useMutation, useQuery } from '@tanstack/react-query';
import type { BriefTemplate, BriefTemplateInput } from '@shared/schemas/brief';
import type { Order, SwapOption } from '@shared/schemas/cart';
import { apiGet, apiRequest } from '@/lib/api';
import { refreshUser } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';
import { myArticlesKey } from '@/lib/my-article-counts';
import { timelineKey } from './get-timeline';
import { invalidateProjects } from './admin-projects';
import { apiUrl } from '@shared/api-paths';

/**
 * Working on many placements at once, and declines (issue 46): the brief copied to the rest of an
 * order, brief templates, drafts approved together, the alternatives of a declined placement.
 */

type Skipped = { paymentId: string; reason: string };

function refreshArticles() {
  void queryClient.invalidateQueries({ queryKey: myArticlesKey });
  void queryClient.invalidateQueries({ queryKey: timelineKey });
  void queryClient.invalidateQueries({ queryKey: [apiUrl('/api/brand/payments')] });
  void refreshUser();
}

/** GET /api/brand/orders/{id}: the lines a brief can be copied to. */
export const useOrderLines = (orderId: string | null, enabled = true) =>
  useQuery({
    queryKey: [apiUrl('/api/brand/orders'), orderId],
    queryFn: () => apiGet<Order>(apiUrl('/api/brand/orders/:id', { id: orderId ?? '' })),
    enabled: Boolean(orderId) && enabled,
  });

/** POST /api/brand/brief/{paymentId}/copy: to the chosen placements, or every one of the order without a brief. */
export function useCopyBrief(paymentId: string) {
  return useMutation({
    mutationFn: (paymentIds?: string[]) =>
      apiRequest<{ copied: string[]; skipped: Skipped[] }>(
        'POST',
        apiUrl('/api/brand/placements/:placementId/brief/copy', { placementId: paymentId }),
        paymentIds ? { paymentIds } : {},
      ),
    onSuccess: refreshArticles,
  });
}

/** POST /api/brand/projects/approve */
export function useApproveMany() {
  return useMutation({
    mutationFn: (paymentIds: string[]) =>
      apiRequest<{ approved: string[]; skipped: Skipped[] }>('POST', apiUrl('/api/brand/projects/approve'), { paymentIds }),
    onSuccess: refreshArticles,
  });
}

const templatesKey = [apiUrl('/api/brand/brief-templates')];

/** The templates a placement's brief may start from: its client's, or the organisation's own (issue 57). */
export const useBriefTemplates = (paymentId: string) =>
  useQuery({
    queryKey: [...templatesKey, paymentId],
    queryFn: () => apiGet<BriefTemplate[]>(apiUrl('/api/brand/brief-templates', {}, { paymentId })),
  });

/** Saved from a placement's brief: the template is that placement's client's. */
export function useSaveBriefTemplate(paymentId: string) {
  return useMutation({
    mutationFn: (input: Omit<BriefTemplateInput, 'paymentId'>) =>
      apiRequest<BriefTemplate>('POST', apiUrl('/api/brand/brief-templates'), { ...input, paymentId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesKey }),
  });
}

export function useDeleteBriefTemplate() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>('DELETE', apiUrl('/api/brand/brief-templates/:id', { id })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesKey }),
  });
}

/** GET /api/brand/projects/{id}/swap-options (only while declined) */
export const useSwapOptions = (paymentId: string, enabled: boolean) =>
  useQuery({
    queryKey: [...myArticlesKey, 'swap-options', paymentId],
    queryFn: () => apiGet<SwapOption[]>(apiUrl('/api/brand/placements/:placementId/swap-options', { placementId: paymentId })),
    enabled,
  });

export function useSwap(paymentId: string) {
  return useMutation({
    mutationFn: (opportunityId: string) =>
      apiRequest<{ paymentId: string; opportunityId: string; refundedUsd: string; url?: string; payUsd?: string }>(
        'POST',
        apiUrl('/api/brand/placements/:placementId/swap', { placementId: paymentId }),
        { opportunityId },
      ),
    onSuccess: refreshArticles,
  });
}

/** POST /api/admin/payments/{id}/decline */
export function useDecline(paymentId: string) {
  return useMutation({
    mutationFn: (reason: string) =>
      apiRequest<{ paymentId: string; declined: { reason: string; swapBy: string } }>(
        'POST',
        apiUrl('/api/admin/placements/:placementId/decline', { placementId: paymentId }),
        { reason },
      ),
    onSuccess: () => {
      invalidateProjects();
      void queryClient.invalidateQueries({ queryKey: timelineKey });
    },
  });
}
