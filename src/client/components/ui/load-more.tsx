import * as React from 'react';
import { Button } from './button';
import { Spinner } from './spinner';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';

interface Pager {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: Error | null;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * The end of a paged list: loads the next page when it scrolls into view, and offers a
 * "Load more" button (keyboard users, and browsers without IntersectionObserver). Nothing on the last page.
 */
export function LoadMore({ pager, label = 'Load more' }: { pager: Pager; label?: string }) {
  const ref = React.useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = pager;

  React.useEffect(() => {
    const el = ref.current;
    // after a failed page, wait for the user to press the button rather than retrying in a loop
    if (!el || !hasNextPage || isFetchNextPageError || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  if (!hasNextPage) return null;
  return (
    <div ref={ref} className="flex flex-col items-center gap-2 py-4" data-testid="load-more">
      {isFetchNextPageError && (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(pager.error, 'Failed to load more')}
        </p>
      )}
      <Button variant="outline" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
        {isFetchingNextPage ? <Spinner className="size-4" label="Loading more" /> : null}
        {isFetchingNextPage ? 'Loading...' : label}
      </Button>
    </div>
  );
}

/**
 * A small "more" button for a list that loads further pages only when asked (older messages above
 * a conversation, later steps of a timeline), with the failure of the last try above it.
 */
export function ShowMore({ pager, label, failed, className }: { pager: Pager; label: string; failed: string; className?: string }) {
  if (!pager.hasNextPage) return null;
  return (
    <div className={cn('flex flex-col items-center gap-1', className)}>
      {pager.isFetchNextPageError && (
        <p role="alert" className="text-xs text-destructive">
          {errorMessage(pager.error, failed)}
        </p>
      )}
      <Button variant="ghost" size="sm" onClick={() => void pager.fetchNextPage()} disabled={pager.isFetchingNextPage}>
        {pager.isFetchingNextPage ? 'Loading...' : label}
      </Button>
    </div>
  );
}
