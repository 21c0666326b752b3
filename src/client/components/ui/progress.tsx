import { Progress as ProgressPrimitive } from 'radix-ui';
import { cn } from '@/lib/utils';

/** value is clamped to 0-100. */
export function Progress({ value, className, label }: { value: number; className?: string; label?: string }) {
  const v = Math.min(100, Math.max(0, Number.isFinite(value) ? value : 0));
  return (
    <ProgressPrimitive.Root value={v} aria-label={label} className={cn('relative h-2 w-full overflow-hidden rounded-full bg-muted', className)}>
      <ProgressPrimitive.Indicator className="h-full bg-primary transition-all" style={{ width: `${v}%` }} />
    </ProgressPrimitive.Root>
  );
}
