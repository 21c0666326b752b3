import * as React from 'react';
import { useToasts } from './use-toast';

// Radix Toast (with its layer and swipe code) is fetched with the first toast, or when F8 asks
// for the notification region; until then there is nothing to show
const Toaster = React.lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

export function ToasterLoader() {
  const toasts = useToasts();
  const [wanted, setWanted] = React.useState<{ focusRegion: boolean } | null>(null);
  if (toasts.length > 0 && !wanted) setWanted({ focusRegion: false });

  React.useEffect(() => {
    if (wanted) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.code === 'F8') setWanted({ focusRegion: true });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [wanted]);

  if (!wanted) return null;
  return (
    <React.Suspense fallback={null}>
      <Toaster focusRegion={wanted.focusRegion} />
    </React.Suspense>
  );
}
