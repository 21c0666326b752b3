import { useMutation } from '@tanstack/react-query';
import type { Message, MessageSide } from '@shared/messages';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { messagesKey, messagesUrl } from './get-messages';

/** POST …/messages: JSON `{text}`, or multipart (`text`, `file`) when a file is attached. */
export function usePostMessage(side: MessageSide, paymentId: string) {
  return useMutation({
    mutationFn: ({ text, file }: { text: string; file: File | null }) => {
      if (!file) return apiRequest<Message>('POST', messagesUrl(side, paymentId), { text });
      const form = new FormData();
      form.append('text', text);
      form.append('file', file);
      return apiRequest<Message>('POST', messagesUrl(side, paymentId), form);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messagesKey(side, paymentId) }),
  });
}
