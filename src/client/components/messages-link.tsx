import { Link } from 'wouter';
import { MessageSquare } from 'lucide-react';
import type { MessageSide } from '@shared/messages';
import { Button } from '@/components/ui/button';
import { useUnreadMessages } from '@/lib/unread-messages';

/** The unread count of a conversation as a small pill (the number is also in the link's label). */
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
      <Link
        href={href}
        aria-label={unread > 0 ? `Messages (${unread} unread)` : 'Messages'}
        data-testid="messages-link"
      >
        <MessageSquare /> Messages
        {unread > 0 && <UnreadPill count={unread} />}
      </Link>
    </Button>
  );
}
