import { useMutation } from '@tanstack/react-query';
import type { MessageSide } from '@shared/messages';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { unreadMessagesKey } from '@/lib/unread-messages';

/** POST …/messages/read: the caller's side has read the conversation; the badges are asked again. */
export function useMarkRead(side: MessageSide, paymentId: string) {
  return useMutation({
    mutationFn: () => apiRequest<void>('POST', `/api/${side}/projects/${paymentId}/messages/read`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: unreadMessagesKey }),
  });
}
