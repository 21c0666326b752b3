import type { Message, MessageSide } from '@shared/messages';
import { CONVERSATIONS_KEY } from '@/lib/changes';
import { usePagedList } from '@/lib/paged-query';
import { apiUrl, type ApiQuery } from '@shared/api-paths';

export const messagesKey = (side: MessageSide, paymentId: string) => [...CONVERSATIONS_KEY, side, paymentId] as const;

export const messagesUrl = (side: MessageSide, paymentId: string, query?: ApiQuery) =>
  apiUrl(side === 'admin' ? '/api/admin/placements/:placementId/messages' : '/api/brand/placements/:placementId/messages', { placementId: paymentId }, query);

/**
 * GET …/messages: the server sends the newest page first, newest first; the next page (Link
 * rel="next") is older history. Returned here oldest first, as the conversation is read.
 */
export function useMessages(side: MessageSide, paymentId: string) {
  const list = usePagedList<Message>(messagesKey(side, paymentId), messagesUrl(side, paymentId, { limit: 30 }));
  const messages = list.items ? [...list.items].reverse() : undefined;
  return { ...list, messages };
}
