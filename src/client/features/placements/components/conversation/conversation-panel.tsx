import * as React from 'react';
import { MessagesSquare } from 'lucide-react';
import type { MessageSide } from '@shared/messages';
import { QueryError } from '@/components/query-error';
import { ShowMore } from '@/components/ui/load-more';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useMessages } from '../../api/get-messages';
import { useMarkRead } from '../../api/mark-read';
import { Composer } from './composer';
import { MessageBubble } from './message-bubble';

/** New messages are asked for this often while the page is open (the sidebar badge polls once a minute). */
const POLL_MS = 20_000;

/**
 * The conversation of one placement: the newest messages at the bottom, older ones on demand at
 * the top, and the composer. Opening it (and every new message from the other side while it is
 * open) marks it read for the caller's side.
 */
export function ConversationPanel({ side, paymentId }: { side: MessageSide; paymentId: string }) {
  const list = useMessages(side, paymentId);
  const markRead = useMarkRead(side, paymentId);
  const scroller = React.useRef<HTMLDivElement>(null);
  const messages = list.messages;
  const newest = messages?.[messages.length - 1];
  const { refetch } = list;
  const { mutate: markAsRead } = markRead;

  // asked again every POLL_MS while the page is seen, and at once when it is seen again (a reply
  // that came while the tab was in the background shows when the reader comes back)
  React.useEffect(() => {
    const refresh = () => {
      if (document.visibilityState === 'visible') void refetch();
    };
    const timer = window.setInterval(refresh, POLL_MS);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [refetch]);

  // read once loaded, and again when the other side writes while the page is open
  const newestFromOther = newest && newest.side !== side ? newest.id : null;
  const loaded = messages !== undefined;
  React.useEffect(() => {
    if (loaded) markAsRead();
  }, [loaded, newestFromOther, markAsRead]);

  // keep the newest message in view when it changes (not when older history is loaded above)
  React.useEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [newest?.id]);

  return (
    <Card className="flex min-h-0 flex-col overflow-hidden" data-testid="conversation">
      <div className="flex items-center gap-2 border-b px-4 py-3">
        <MessagesSquare className="size-4 text-muted-foreground" aria-hidden />
        <h2 className="text-sm font-semibold">Messages</h2>
        <span className="text-xs text-muted-foreground">
          {side === 'brand' ? 'with the editorial team' : 'with the brand'}
        </span>
      </div>
      <div
        ref={scroller}
        className="max-h-[60vh] min-h-48 overflow-y-auto px-3 py-4 lg:max-h-[65vh]"
        aria-live="polite"
        aria-relevant="additions"
      >
        {list.isLoading ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading messages" />
          </div>
        ) : list.isError && !messages ? (
          <QueryError query={list} title="Failed to load the messages" className="py-6" />
        ) : (
          <>
            <ShowMore pager={list} label="Load older messages" failed="Failed to load older messages" className="mb-3" />
            {messages && messages.length > 0 ? (
              <ol className="space-y-4" aria-label="Messages">
                {messages.map((m) => (
                  <MessageBubble key={m.id} message={m} side={side} paymentId={paymentId} />
                ))}
              </ol>
            ) : (
              <p className="py-8 text-center text-sm text-muted-foreground">
                No messages yet.{' '}
                {side === 'brand'
                  ? 'Ask the editorial team anything about this article.'
                  : 'Write to the brand about this article.'}
              </p>
            )}
          </>
        )}
      </div>
      <Composer side={side} paymentId={paymentId} />
    </Card>
  );
}
