import { format } from 'date-fns';
import { FileText, ImageIcon } from 'lucide-react';
import type { Message, MessageSide } from '@shared/messages';
import { cn } from '@/lib/utils';
import { LinkedText } from './linked-text';
import { apiUrl } from '@shared/api-paths';

const KB = 1024;
const sizeOf = (bytes: number) =>
  bytes < KB ? `${bytes} B` : bytes < KB * KB ? `${Math.round(bytes / KB)} KB` : `${(bytes / KB / KB).toFixed(1)} MB`;

/** One message: the caller's side on the right, the other side on the left; an attachment downloads. */
export function MessageBubble({
  message: m,
  side,
  paymentId,
}: {
  message: Message;
  side: MessageSide;
  paymentId: string;
}) {
  const mine = m.side === side;
  const at = new Date(m.createdAt);
  return (
    <li className={cn('flex flex-col gap-1', mine ? 'items-end' : 'items-start')} data-testid="message">
      <div className="flex max-w-full items-baseline gap-2 px-1 text-xs text-muted-foreground">
        <span className="truncate font-medium text-foreground">{m.authorName}</span>
        <time dateTime={m.createdAt} title={format(at, 'PPpp')} className="shrink-0">
          {format(at, 'MMM d, h:mm a')}
        </time>
      </div>
      <div
        className={cn(
          'max-w-[85%] space-y-2 rounded-2xl px-3.5 py-2 text-sm shadow-sm',
          mine ? 'rounded-br-sm bg-primary text-primary-foreground' : 'rounded-bl-sm border bg-muted/60',
        )}
      >
        {m.text && (
          <p className="whitespace-pre-wrap break-words" data-testid="message-text">
            <LinkedText text={m.text} />
          </p>
        )}
        {m.attachment && (
          <a
            href={apiUrl(side === 'admin' ? '/api/admin/placements/:placementId/messages/:messageId/attachment' : '/api/brand/placements/:placementId/messages/:messageId/attachment', { placementId: paymentId, messageId: m.id })}
            download={m.attachment.name}
            className={cn(
              'flex min-w-0 items-center gap-2 rounded-lg border px-2.5 py-1.5 text-xs',
              mine ? 'border-primary-foreground/30 hover:bg-primary-foreground/10' : 'bg-card hover:bg-accent',
            )}
            data-testid="message-attachment"
          >
            {m.attachment.contentType.startsWith('image/') ? (
              <ImageIcon className="size-4 shrink-0" />
            ) : (
              <FileText className="size-4 shrink-0" />
            )}
            <span className="min-w-0 truncate font-medium">{m.attachment.name}</span>
            {/* quieter than the name, yet 4.5:1 on both bubbles (75% opacity on the own, blue one was 4.05:1) */}
            <span className={cn('shrink-0', mine ? 'text-primary-foreground/90' : 'text-muted-foreground')}>{sizeOf(m.attachment.size)}</span>
          </a>
        )}
      </div>
    </li>
  );
}
