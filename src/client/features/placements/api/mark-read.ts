import { useMutation } from '@tanstack/react-query';
import type { MessageSide } from '@shared/messages';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { unreadMessagesKey } from '@/lib/unread-messages';
import { apiUrl } from '@shared/api-paths';

/** POST …/messages/read: the caller's side has read the conversation; the badges are asked again. */
export function useMarkRead(side: MessageSide, paymentId: string) {
  return useMutation({
    mutationFn: () => apiRequest<void>('POST', apiUrl(side === 'admin' ? '/api/admin/placements/:placementId/messages/read' : '/api/brand/placements/:placementId/messages/read', { placementId: paymentId })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: unreadMessagesKey }),
  });
}
