import { cn } from '@/lib/utils';

/** The outlet's logo, or the first two letters of its name in capitals. */
export function OutletLogo({ name, logoUrl, className }: { name: string; logoUrl: string | null; className?: string }) {
  if (logoUrl) {
    return <img src={logoUrl} alt={`${name} logo`} className={cn('size-12 shrink-0 rounded-lg border bg-white object-contain p-1', className)} />;
  }
  return (
    <div
      aria-hidden
      className={cn('flex size-12 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-base font-bold text-primary', className)}
    >
      {name.trim().slice(0, 2).toUpperCase()}
    </div>
  );
}
