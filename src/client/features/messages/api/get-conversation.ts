import { useQuery } from '@tanstack/react-query';
import type { MessageSide } from '@shared/messages';
import type { ConversationAbout } from '@shared/schemas/message';
import { ApiError, apiGet } from '@/lib/api';

export const conversationKey = (side: MessageSide, paymentId: string) =>
  ['/api/projects/conversation', side, paymentId] as const;

/** GET /api/{brand|admin}/projects/{paymentId}/conversation: the article the details page is about. */
export const useConversation = (side: MessageSide, paymentId: string) =>
  useQuery<ConversationAbout>({
    queryKey: conversationKey(side, paymentId),
    queryFn: () => apiGet(`/api/${side}/projects/${paymentId}/conversation`),
    // a 404 (not this brand's article) is an answer, not a hiccup
    retry: (count, err) => count < 2 && !(err instanceof ApiError && err.status < 500),
  });
