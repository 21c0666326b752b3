import * as React from 'react';
import { LiveBy } from '@/components/promise/live-by';
import { StageClockLine } from '@/components/promise/stage-clock';
import { Link } from 'wouter';
import type { UseQueryResult } from '@tanstack/react-query';
import { ArrowLeft, Store } from 'lucide-react';
import { formatUsd } from '@shared/money';
import type { MessageSide } from '@shared/messages';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { ApiError, errorMessage } from '@/lib/api';
import { waitingWords } from '@shared/placement-machine';
import type { Life } from '@shared/schemas/brief';
import { ConversationPanel } from '../conversation/conversation-panel';
import { TimelinePanel } from '../timeline/timeline-panel';

const BACK: Record<MessageSide, { href: string; label: string }> = {
  brand: { href: '/brand/my-articles', label: 'Back to My Articles' },
  admin: { href: '/admin/projects', label: 'Back to Projects' },
};

/**
 * Where the placement stands and whose turn it is, as the server says (its `life`, issue 58): the
 * state's words, then "Waiting on you" or on the other side, and since when.
 */
function LifeLine({ life, reader }: { life: Life; reader: MessageSide }) {
  const waiting = waitingWords(life.waitingOn, reader);
  return (
    <p className="text-sm text-muted-foreground" data-testid="placement-life">
      <span className="font-medium text-foreground" data-testid="life-label">
        {life.label}
      </span>
      {waiting && (
        <>
          {' · '}
          <span data-testid="life-waiting">{waiting}</span>
        </>
      )}
      {' · since '}
      <time dateTime={life.since}>{sinceDay.format(new Date(life.since))}</time>
    </p>
  );
}
const sinceDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** The page's heading: what was bought at which outlet, its state, and (for admins) whose it is. */
export function PlacementHeader({
  title,
  outletName,
  amount,
  badges,
  life,
  promise,
  children,
}: {
  title: string;
  outletName: string;
  /** undefined: not shown (a client reviewer, decision 035) */
  amount: string | undefined;
  badges: React.ReactNode;
  /** its life as the server answers it, in the words of the side reading it */
  life?: { life: Life; reader: MessageSide };
  /** its promise, fixed when it was bought (issue 59) */
  promise?: { promisedBy: string | null; usuallyBy: string | null };
  children?: React.ReactNode;
}) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 space-y-1.5">
        <div className="flex flex-wrap items-center gap-2">{badges}</div>
        <h1 className="text-xl font-semibold leading-snug tracking-tight break-words sm:text-2xl" data-testid="details-title">
          {title}
        </h1>
        <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
          <Store className="size-4 shrink-0" aria-hidden /> <span className="min-w-0 break-words">{outletName}</span>
        </p>
        {life && <LifeLine life={life.life} reader={life.reader} />}
        {life && <StageClockLine clock={life.life.clock} reader={life.reader} />}
        {promise && (
          <LiveBy
            liveBy={life?.life.clock.liveBy ?? promise.promisedBy}
            usuallyBy={promise.usuallyBy}
            moved={life?.life.clock.promiseMoved}
            className="text-sm"
          />
        )}
        {children}
      </div>
      {amount !== undefined && (
        <p className="shrink-0 text-lg font-semibold tabular-nums sm:text-right" data-testid="placement-price">
          {formatUsd(amount)}
        </p>
      )}
    </div>
  );
}

/**
 * The placement's page, for its brand or the editorial team: the header, then the brief beside the
 * draft, the publication and the money (one column on a phone, in that order), then the timeline
 * beside the conversation (on a phone the conversation first), as the details page had them.
 */
export function PlacementFrame<T>({
  side,
  paymentId,
  query,
  children,
}: {
  side: MessageSide;
  paymentId: string;
  query: UseQueryResult<T>;
  children: (item: T) => { header: React.ReactNode; brief: React.ReactNode; work: React.ReactNode };
}) {
  const back = BACK[side];
  const item = query.data;
  const parts = item === undefined ? null : children(item);
  return (
    <div className="space-y-5">
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link href={back.href}>
          <ArrowLeft /> {back.label}
        </Link>
      </Button>
      {query.isLoading ? (
        <PageSpinner />
      ) : !parts && !(query.error instanceof ApiError && query.error.status === 404) ? (
        <QueryError query={query} title="Failed to load this article" />
      ) : !parts ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          <p className="font-medium">Article not found</p>
          <p>{errorMessage(query.error, 'Please try again.')}</p>
        </div>
      ) : (
        <>
          {parts.header}
          <div className="grid grid-cols-1 items-start gap-5 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
            <div className="min-w-0 space-y-5">{parts.brief}</div>
            <div className="min-w-0 space-y-5">{parts.work}</div>
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
