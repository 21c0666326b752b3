import { format } from 'date-fns';
import { History } from 'lucide-react';
import type { MessageSide } from '@shared/messages';
import type { TimelineEntry } from '@shared/timeline';
import { QueryError } from '@/components/query-error';
import { ShowMore } from '@/components/ui/load-more';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import { useTimeline } from '../../api/get-timeline';
import { timelineLine } from './timeline-sentence';

const who = (e: TimelineEntry) => (e.actor.type === 'system' ? 'Byline' : e.actor.name);

function TimelineItem({ entry, last }: { entry: TimelineEntry; last: boolean }) {
  const line = timelineLine(entry);
  const at = new Date(entry.at);
  return (
    <li className="relative flex gap-3 pb-5 last:pb-0" data-testid="timeline-entry">
      {/* the line joining the dots */}
      {!last && <span aria-hidden className="absolute left-[5px] top-3 h-full w-px bg-border" />}
      <span
        aria-hidden
        className={cn(
          'relative mt-1.5 size-[11px] shrink-0 rounded-full border-2 bg-card',
          entry.actor.type === 'system' ? 'border-muted-foreground' : 'border-primary',
        )}
      />
      <div className="min-w-0 flex-1 space-y-1">
        <p className="text-sm font-medium leading-snug">{line.sentence}</p>
        {line.quote && (
          <p className="whitespace-pre-wrap break-words rounded-md border-l-2 bg-muted/50 px-2.5 py-1.5 text-sm text-muted-foreground">
            {line.quote}
          </p>
        )}
        {line.link && (
          <a
            href={line.link}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="block break-all text-sm text-primary underline underline-offset-2"
          >
            {line.link}
          </a>
        )}
        <p className="text-xs text-muted-foreground">
          {who(entry)} · <time dateTime={entry.at}>{format(at, 'MMM d, yyyy, h:mm a')}</time>
        </p>
      </div>
    </li>
  );
}

/** What happened to the article, oldest first, one line per step: what, who and when. */
export function TimelinePanel({ side, paymentId }: { side: MessageSide; paymentId: string }) {
  const list = useTimeline(side, paymentId);
  const items = list.items;
  return (
    <Card className="p-4" data-testid="timeline">
      <div className="mb-4 flex items-center gap-2">
        <History className="size-4 text-muted-foreground" aria-hidden />
        <h2 className="text-sm font-semibold">Timeline</h2>
      </div>
      {list.isLoading ? (
        <div className="flex justify-center py-6">
          <Spinner label="Loading the timeline" />
        </div>
      ) : list.isError && !items ? (
        <QueryError query={list} title="Failed to load the timeline" className="py-6" />
      ) : items && items.length > 0 ? (
        <>
          <ol aria-label="Timeline">
            {items.map((e, i) => (
              <TimelineItem key={e.id} entry={e} last={i === items.length - 1 && !list.hasNextPage} />
            ))}
          </ol>
          <ShowMore pager={list} label="Show later steps" failed="Failed to load more" className="mt-3" />
        </>
      ) : (
        <p className="text-sm text-muted-foreground">Nothing has happened yet.</p>
      )}
    </Card>
  );
}
