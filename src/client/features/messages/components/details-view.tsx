import { Link } from 'wouter';
import { ArrowLeft, Store } from 'lucide-react';
import type { MessageSide } from '@shared/messages';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { ApiError, errorMessage } from '@/lib/api';
import { useConversation } from '../api/get-conversation';
import { ConversationPanel } from './conversation-panel';
import { TimelinePanel } from './timeline-panel';
import { QueryError } from '@/components/query-error';

const STATUS: Record<string, { label: string; variant: 'info' | 'success' | 'secondary' }> = {
  paid: { label: 'In progress', variant: 'info' },
  released: { label: 'Published', variant: 'success' },
  refunded: { label: 'Refunded', variant: 'secondary' },
};

/**
 * The details of one purchased article, for its brand or the editorial team: the timeline beside
 * the conversation (stacked on a phone, the conversation first).
 */
export function DetailsView({
  side,
  paymentId,
  back,
}: {
  side: MessageSide;
  paymentId: string;
  back: { href: string; label: string };
}) {
  const about = useConversation(side, paymentId);
  const header = about.data;

  return (
    <div className="space-y-5">
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link href={back.href}>
          <ArrowLeft /> {back.label}
        </Link>
      </Button>
      {about.isLoading ? (
        <PageSpinner />
      ) : !header && !(about.error instanceof ApiError && about.error.status === 404) ? (
        <QueryError query={about} title="Failed to load this article" />
      ) : !header ? (
        <div role="alert" className="rounded-lg border border-destructive/30 bg-red-50 p-4 text-sm text-destructive">
          <p className="font-medium">Article not found</p>
          <p>{errorMessage(about.error, 'Please try again.')}</p>
        </div>
      ) : (
        <>
          <div className="space-y-1.5">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={STATUS[header.status]?.variant ?? 'secondary'}>
                {STATUS[header.status]?.label ?? header.status}
              </Badge>
              {side === 'admin' && <span className="text-sm text-muted-foreground">{header.brandName}</span>}
            </div>
            <h1
              className="text-xl font-semibold leading-snug tracking-tight break-words sm:text-2xl"
              data-testid="details-title"
            >
              {header.title}
            </h1>
            <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
              <Store className="size-4 shrink-0" aria-hidden /> {header.outletName}
            </p>
          </div>
          <div className="grid grid-cols-1 items-start gap-5 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
            <div className="min-w-0 lg:col-start-2 lg:row-start-1">
              <ConversationPanel side={side} paymentId={paymentId} />
            </div>
            <div className="min-w-0 lg:col-start-1 lg:row-start-1">
              <TimelinePanel side={side} paymentId={paymentId} />
            </div>
          </div>
        </>
      )}
    </div>
  );
}
