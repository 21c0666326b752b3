import { useQuery } from '@tanstack/react-query';
import type { MessageSide } from '@shared/messages';
import type { UnreadSummary } from '@shared/schemas/message';
import { apiGet } from './api';
import { apiUrl } from '@shared/api-paths';
import { UNREAD_MESSAGES_KEY } from './changes';

/** Every unread summary's key: invalidating it refreshes the sidebar badge and the cards' counts. */
export const unreadMessagesKey = UNREAD_MESSAGES_KEY;

/**
 * GET /api/{brand|admin}/messages/unread: the caller's side's unread messages per placement. Here
 * rather than in the messages feature: the shell's sidebar and the placements cards show it too.
 * Asked again every minute while the portal is open, so a reply shows up without a reload.
 */
export const useUnreadMessages = (side: MessageSide, enabled = true) =>
  useQuery<UnreadSummary>({
    queryKey: [...unreadMessagesKey, side],
    queryFn: () => apiGet(side === 'admin' ? apiUrl('/api/admin/messages/unread') : apiUrl('/api/brand/messages/unread')),
    staleTime: 30_000,
    refetchInterval: 60_000,
    enabled,
  });
