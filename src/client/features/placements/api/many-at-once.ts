import { useMutation, useQuery } from '@tanstack/react-query';
import type { BriefTemplate, BriefTemplateInput } from '@shared/schemas/brief';
import type { Order, SwapOption } from '@shared/schemas/cart';
import { apiGet, apiRequest } from '@/lib/api';
import { refreshUser } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';
import { myArticlesKey } from '@/lib/my-article-counts';
import { timelineKey } from './get-timeline';
import { invalidateProjects } from './admin-projects';

/**
 * Working on many placements at once, and declines (issue 46): the brief copied to the rest of an
 * order, brief templates, drafts approved together, the alternatives of a declined placement.
 */

type Skipped = { paymentId: string; reason: string };

function refreshArticles() {
  void queryClient.invalidateQueries({ queryKey: myArticlesKey });
  void queryClient.invalidateQueries({ queryKey: timelineKey });
  void queryClient.invalidateQueries({ queryKey: ['/api/brand/payments'] });
  void refreshUser();
}

/** GET /api/brand/orders/{id}: the lines a brief can be copied to. */
export const useOrderLines = (orderId: string | null, enabled = true) =>
  useQuery({
    queryKey: ['/api/brand/orders', orderId],
    queryFn: () => apiGet<Order>(`/api/brand/orders/${orderId}`),
    enabled: Boolean(orderId) && enabled,
  });

/** POST /api/brand/brief/{paymentId}/copy: to the chosen placements, or every one of the order without a brief. */
export function useCopyBrief(paymentId: string) {
  return useMutation({
    mutationFn: (paymentIds?: string[]) =>
      apiRequest<{ copied: string[]; skipped: Skipped[] }>(
        'POST',
        `/api/brand/brief/${paymentId}/copy`,
        paymentIds ? { paymentIds } : {},
      ),
    onSuccess: refreshArticles,
  });
}

/** POST /api/brand/projects/approve */
export function useApproveMany() {
  return useMutation({
    mutationFn: (paymentIds: string[]) =>
      apiRequest<{ approved: string[]; skipped: Skipped[] }>('POST', '/api/brand/projects/approve', { paymentIds }),
    onSuccess: refreshArticles,
  });
}

const templatesKey = ['/api/brand/brief-templates'];

/** The templates a placement's brief may start from: its client's, or the organisation's own (issue 57). */
export const useBriefTemplates = (paymentId: string) =>
  useQuery({
    queryKey: [...templatesKey, paymentId],
    queryFn: () => apiGet<BriefTemplate[]>(`/api/brand/brief-templates?paymentId=${encodeURIComponent(paymentId)}`),
  });

/** Saved from a placement's brief: the template is that placement's client's. */
export function useSaveBriefTemplate(paymentId: string) {
  return useMutation({
    mutationFn: (input: Omit<BriefTemplateInput, 'paymentId'>) =>
      apiRequest<BriefTemplate>('POST', '/api/brand/brief-templates', { ...input, paymentId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesKey }),
  });
}

export function useDeleteBriefTemplate() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>('DELETE', `/api/brand/brief-templates/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesKey }),
  });
}

/** GET /api/brand/projects/{id}/swap-options (only while declined) */
export const useSwapOptions = (paymentId: string, enabled: boolean) =>
  useQuery({
    queryKey: [...myArticlesKey, 'swap-options', paymentId],
    queryFn: () => apiGet<SwapOption[]>(`/api/brand/projects/${paymentId}/swap-options`),
    enabled,
  });

export function useSwap(paymentId: string) {
  return useMutation({
    mutationFn: (opportunityId: string) =>
      apiRequest<{ paymentId: string; opportunityId: string; refundedUsd: string; url?: string; payUsd?: string }>(
        'POST',
        `/api/brand/projects/${paymentId}/swap`,
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
        `/api/admin/payments/${paymentId}/decline`,
        { reason },
      ),
    onSuccess: () => {
      invalidateProjects();
      void queryClient.invalidateQueries({ queryKey: timelineKey });
    },
  });
}
