import { useMutation } from '@tanstack/react-query';
import type { BriefDraftInput, BriefSubmitInput, SavedBrief } from '@shared/schemas/brief';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { apiUrl } from '@shared/api-paths';

const draftUrl = (paymentId: string) => apiUrl('/api/brand/brief/:paymentId', { paymentId });

/** POST /api/brand/brief/{paymentId}: an autosaved draft. */
export const saveBriefDraft = (paymentId: string, draft: BriefDraftInput) => apiRequest<SavedBrief>('POST', draftUrl(paymentId), draft);

// browsers refuse keepalive requests whose bodies add up to more than 64 KiB
const KEEPALIVE_MAX_BYTES = 60_000;

/**
 * The same save while the page is being left (beforeunload): a keepalive fetch outlives the page.
 * sendBeacon cannot be used: the call needs a JSON body and the same-origin check. Returns false
 * when the draft is too large for a keepalive request, so the caller can ask the user to stay.
 */
export function saveBriefDraftOnExit(paymentId: string, draft: BriefDraftInput): boolean {
  const body = JSON.stringify(draft);
  if (new Blob([body]).size > KEEPALIVE_MAX_BYTES) return false;
  void fetch(draftUrl(paymentId), {
    method: 'POST',
    credentials: 'include',
    keepalive: true,
    headers: { 'Content-Type': 'application/json' },
    body,
  }).catch(() => undefined);
  return true;
}

/** POST /api/brand/brief/{paymentId}/submit; then my-articles is refreshed. */
export function useSubmitBrief(paymentId: string) {
  return useMutation({
    mutationFn: (brief: BriefSubmitInput) => apiRequest<SavedBrief>('POST', `${draftUrl(paymentId)}/submit`, brief),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [apiUrl('/api/brand/my-articles')] }),
  });
}
