import { CalendarCheck } from 'lucide-react';
import { cn } from '@/lib/utils';

/*
 * "Live by {date}" (issue 59): the date a placement's article is promised by, and "usually by" the
 * outlet's typical date beside it when its record gives one. Business days are counted in UTC, so
 * the date is printed in UTC too, in the app's form ("Jan 12, 2027").
 */
const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

export function LiveBy({
  liveBy,
  usuallyBy,
  moved,
  className,
}: {
  liveBy: string | null;
  usuallyBy: string | null;
  /** why the date moved (the brand's delays, decision 048): "moved 2 days: brief sent 2 days late" */
  moved?: string | null;
  className?: string;
}) {
  if (!liveBy) return null;
  return (
    <span className={cn('inline-flex flex-wrap items-center gap-x-1', className)} data-testid="live-by">
      <CalendarCheck className="size-3.5 shrink-0" aria-hidden />
      <span className="font-medium">Live by {day.format(new Date(liveBy))}</span>
      {usuallyBy && <span className="text-muted-foreground">· usually by {day.format(new Date(usuallyBy))}</span>}
      {moved && (
        <span className="text-muted-foreground" data-testid="live-by-moved">
          · {moved}
        </span>
      )}
    </span>
  );
}
