import { AlertTriangle, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';

/** What QueryError needs of a query (useQuery's and usePagedList's results fit as they are). */
interface FailedQuery {
  error: Error | null;
  refetch: () => unknown;
  isFetching: boolean;
}

/**
 * A list or page that could not be loaded: says so, with the reason (the offline sentence when no
 * answer came) and "Try again", so a failure never looks like an empty list.
 */
export function QueryError({ query, title, className }: { query: FailedQuery; title: string; className?: string }) {
  const retrying = query.isFetching;
  return (
    <div
      role="alert"
      data-testid="query-error"
      className={cn(
        'flex flex-col items-center justify-center rounded-xl border border-destructive/40 bg-card px-6 py-12 text-center',
        className,
      )}
    >
      <AlertTriangle className="mb-3 size-10 text-destructive" aria-hidden />
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="mt-1 max-w-md text-sm text-muted-foreground">
        {errorMessage(query.error, 'Something went wrong. Please try again.')}
      </p>
      <Button variant="outline" className="mt-4" onClick={() => void query.refetch()} disabled={retrying}>
        <RotateCw className={cn(retrying && 'animate-spin')} /> {retrying ? 'Trying again...' : 'Try again'}
      </Button>
    </div>
  );
}
