import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DisputeStatus } from '@shared/enums';
import type { MessageSide } from '@shared/messages';
import type {
  adminDisputesSchema,
  Dispute,
  DisputeAnswer,
  DisputeDecisionRequest,
  DisputeDetail,
  DisputeRequest,
} from '@shared/schemas/fair-terms';
import { ApiError, apiGet, apiRequest } from '@/lib/api';
import { refreshUser } from '@/lib/auth';
import { myArticlesKey } from '@/lib/my-article-counts';
import { queryClient } from '@/lib/query-client';
import { invalidateProjects } from './admin-projects';
import { messagesKey } from './get-messages';
import { timelineKey } from './get-timeline';
import { apiUrl } from '@shared/api-paths';

export type AdminDisputes = z.infer<typeof adminDisputesSchema>;
export type AdminDisputeItem = AdminDisputes['items'][number];

/** Every dispute query (the brand's and the admins' pages, the admins' list). */
const disputesKey = ['disputes'] as const;
const detailKey = (side: MessageSide, id: string) => [...disputesKey, side, id] as const;

// a 404 (not this brand's dispute, or none) is an answer, not a hiccup
const retryHiccups = (count: number, err: Error) => count < 2 && !(err instanceof ApiError && err.status < 500);

/** GET /api/{brand|admin}/disputes/{id}: the dispute, its placement, and Byline's checks since it opened. */
export const useDispute = (side: MessageSide, id: string) =>
  useQuery<DisputeDetail>({
    queryKey: detailKey(side, id),
    queryFn: () => apiGet(apiUrl(side === 'admin' ? '/api/admin/disputes/:id' : '/api/brand/disputes/:id', { id })),
    retry: retryHiccups,
  });

/** GET /api/admin/disputes?status=: the counts by status and one status's disputes (all without), soonest due first. */
export const useAdminDisputes = (status: DisputeStatus | undefined) =>
  useQuery<AdminDisputes>({
    queryKey: [...disputesKey, 'admin-list', status ?? 'all'],
    queryFn: () => apiGet(apiUrl('/api/admin/disputes', {}, { status })),
    // the counts stay on the tabs while another status loads
    placeholderData: keepPreviousData,
  });

/** After the brand's step: its placement (My Articles and the page), the money, the timeline, the dispute. */
function afterBrandChange(paymentId?: string) {
  void queryClient.invalidateQueries({ queryKey: disputesKey });
  void queryClient.invalidateQueries({ queryKey: myArticlesKey });
  void queryClient.invalidateQueries({ queryKey: timelineKey });
  void queryClient.invalidateQueries({ queryKey: [apiUrl('/api/brand/payments')] });
  void queryClient.invalidateQueries({ queryKey: [apiUrl('/api/brand/wallet')] });
  if (paymentId) void queryClient.invalidateQueries({ queryKey: messagesKey('brand', paymentId) });
  void refreshUser();
}

/** What the dialog sends: the request's fields, and a file as evidence when one is chosen. */
export type OpenDisputeInput = DisputeRequest & { file: File | null };

/**
 * POST /api/brand/projects/{paymentId}/disputes: JSON, or multipart with the file. The text (and
 * file) also lands in the placement's conversation.
 */
export function useOpenDispute(paymentId: string) {
  return useMutation({
    mutationFn: ({ file, ...input }: OpenDisputeInput) => {
      const url = apiUrl('/api/brand/placements/:placementId/disputes', { placementId: paymentId });
      if (!file) return apiRequest<Dispute>('POST', url, input);
      const form = new FormData();
      form.append('reason', input.reason);
      form.append('outcome', input.outcome);
      if (input.amountUsd) form.append('amountUsd', input.amountUsd);
      form.append('text', input.text);
      form.append('file', file);
      return apiRequest<Dispute>('POST', url, form);
    },
    onSettled: () => afterBrandChange(paymentId),
  });
}

/** POST /api/brand/disputes/{id}/accept-offer: the part refund (or correction) offered, taken. */
export function useAcceptOffer(dispute: Pick<Dispute, 'id' | 'paymentId'>) {
  return useMutation({
    mutationFn: () => apiRequest<Dispute>('POST', apiUrl('/api/brand/disputes/:id/accept-offer', { id: dispute.id })),
    onSettled: () => afterBrandChange(dispute.paymentId),
  });
}

/** POST /api/brand/disputes/{id}/escalate: to an admin who neither published the placement nor answered. */
export function useEscalateDispute(dispute: Pick<Dispute, 'id' | 'paymentId'>) {
  return useMutation({
    mutationFn: () => apiRequest<Dispute>('POST', apiUrl('/api/brand/disputes/:id/escalate', { id: dispute.id })),
    onSettled: () => afterBrandChange(dispute.paymentId),
  });
}

/** After the team's step: the disputes, the projects (and the placement's page), payments, attention. */
function afterAdminChange() {
  void queryClient.invalidateQueries({ queryKey: disputesKey });
  void queryClient.invalidateQueries({ queryKey: [apiUrl('/api/admin/attention')] });
  invalidateProjects();
}

/** POST /api/admin/disputes/{id}/answer: accept, offer (a part refund or a correction) or reject. */
export function useAnswerDispute(id: string) {
  return useMutation({
    mutationFn: (answer: DisputeAnswer) => apiRequest<Dispute>('POST', apiUrl('/api/admin/disputes/:id/answer', { id }), answer),
    onSettled: afterAdminChange,
  });
}

/** POST /api/admin/disputes/{id}/decide: an escalation decided (403 for the admin who answered or published). */
export function useDecideDispute(id: string) {
  return useMutation({
    mutationFn: (decision: DisputeDecisionRequest) =>
      apiRequest<Dispute>('POST', apiUrl('/api/admin/disputes/:id/decide', { id }), decision),
    onSettled: afterAdminChange,
  });
}
