import type { Message, MessageSide } from '@shared/messages';
import { usePagedList } from '@/lib/paged-query';

export const messagesKey = (side: MessageSide, paymentId: string) =>
  ['/api/projects/messages', side, paymentId] as const;

export const messagesUrl = (side: MessageSide, paymentId: string) => `/api/${side}/projects/${paymentId}/messages`;

/**
 * GET …/messages: the server sends the newest page first, newest first; the next page (Link
 * rel="next") is older history. Returned here oldest first, as the conversation is read.
 */
export function useMessages(side: MessageSide, paymentId: string) {
  const list = usePagedList<Message>(messagesKey(side, paymentId), `${messagesUrl(side, paymentId)}?limit=30`);
  const messages = list.items ? [...list.items].reverse() : undefined;
  return { ...list, messages };
}
