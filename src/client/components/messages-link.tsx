import { Link } from 'wouter';
import { MessageSquare } from 'lucide-react';
import type { MessageSide } from '@shared/messages';
import { Button } from '@/components/ui/button';
import { useUnreadMessages } from '@/lib/unread-messages';

/** The unread count of a conversation as a small pill (screen readers read the words beside it instead). */
function UnreadPill({ count }: { count: number }) {
  return (
    <span
      aria-hidden
      data-testid="unread-count"
      className="rounded-full bg-primary px-1.5 text-[11px] font-semibold leading-5 text-primary-foreground tabular-nums"
    >
      {count}
    </span>
  );
}

/**
 * "Messages" on a purchased article's card (My Articles, Projects): opens its details page (the
 * timeline and the conversation) and shows how many messages the caller's side has not read.
 */
export function MessagesLink({
  side,
  paymentId,
  className,
}: {
  side: MessageSide;
  paymentId: string;
  className?: string;
}) {
  const unread = useUnreadMessages(side).data?.byPayment[paymentId] ?? 0;
  const href = side === 'brand' ? `/brand/my-articles/${paymentId}` : `/admin/projects/${paymentId}`;
  return (
    <Button asChild variant="outline" size="sm" className={className}>
      {/* named by what it shows, then the words for its number: "Messages (1 unread)" (an
          aria-label there did not start with the visible "Messages 1": label-content-name-mismatch) */}
      <Link href={href} data-testid="messages-link">
        <MessageSquare /> Messages
        {unread > 0 && (
          <>
            <span className="sr-only"> ({unread} unread)</span>
            <UnreadPill count={unread} />
          </>
        )}
      </Link>
    </Button>
  );
}
