import { Loader2 } from 'lucide-react';
import { cn } from '@/lib/utils';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return <Loader2 role="status" aria-label={label} className={cn('size-6 animate-spin text-muted-foreground', className)} />;
}

export function FullScreenSpinner() {
  return (
    <div className="flex min-h-page items-center justify-center" data-testid="full-screen-spinner">
      <Spinner className="size-8" />
    </div>
  );
}

export function PageSpinner() {
  return (
    <div className="flex justify-center py-16">
      <Spinner />
    </div>
  );
}
