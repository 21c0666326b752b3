import { useQuery } from '@tanstack/react-query';
import type { MessageSide } from '@shared/messages';
import type { CreditNoteItem } from '@shared/schemas/fair-terms';
import { apiGet } from '@/lib/api';
import { apiUrl } from '@shared/api-paths';

/**
 * GET /api/{brand|admin}/payments/{paymentId}/credit-notes: one per part refunded and one for a
 * refund of the rest, oldest first (issue 47). Under the payments' key, so whatever refreshes the
 * payments after a refund (the refund itself, a cancellation) refreshes it.
 */
export const useCreditNotes = (side: MessageSide, paymentId: string) =>
  useQuery<CreditNoteItem[]>({
    queryKey: [side === 'admin' ? apiUrl('/api/admin/payments') : apiUrl('/api/brand/payments'), paymentId, 'credit-notes'],
    queryFn: () => apiGet(apiUrl(side === 'admin' ? '/api/admin/payments/:paymentId/credit-notes' : '/api/brand/payments/:paymentId/credit-notes', { paymentId })),
  });
