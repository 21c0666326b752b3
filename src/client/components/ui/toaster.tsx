import * as React from 'react';
import { Toast as T } from 'radix-ui';
import { X } from 'lucide-react';
import { cn } from '@/lib/utils';
import { dismissToast, useToasts } from './use-toast';

// spec §9: shown 5000 ms, swipe right past 50 px, F8 focuses the region labelled "Notification"
// (loaded by ./toaster-loader with the first toast or the first F8, which then focuses the region)
export function Toaster({ focusRegion = false }: { focusRegion?: boolean }) {
  const toasts = useToasts();
  const viewportRef = React.useRef<HTMLOListElement>(null);
  React.useEffect(() => {
    if (focusRegion) viewportRef.current?.focus();
  }, [focusRegion]);
  return (
    <T.Provider duration={5000} swipeDirection="right" swipeThreshold={50} label="Notification">
      {toasts.map((t) => (
        <T.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => !open && dismissToast(t.id)}
          className={cn(
            'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-8 shadow-lg transition-all data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)]',
            // red-700, not the buttons' red: white text on it reads at 6.5:1 (4.5:1 is the minimum)
            t.variant === 'destructive' ? 'border-red-700 bg-red-700 text-white' : 'bg-card text-card-foreground',
          )}
          data-testid="toast"
        >
          <div className="grid gap-1">
            {t.title && <T.Title className="text-sm font-semibold">{t.title}</T.Title>}
            {t.description && <T.Description className="text-sm opacity-90">{t.description}</T.Description>}
          </div>
          <T.Close className="absolute right-2 top-2 rounded-md p-1 opacity-70 hover:opacity-100" aria-label="Close">
            <X className="size-4" />
          </T.Close>
        </T.Root>
      ))}
      <T.Viewport
        ref={viewportRef}
        hotkey={['F8']}
        label="Notification"
        className="fixed top-0 z-[100] flex max-h-screen w-full flex-col-reverse p-4 sm:bottom-0 sm:right-0 sm:top-auto sm:flex-col md:max-w-[420px]"
      />
    </T.Provider>
  );
}
