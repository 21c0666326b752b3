import { AlertTriangle, CheckCircle2, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { SaveState } from './autosaver';

/** "Saving draft..." while a draft saves; says so when a save failed and is being retried. */
export function SaveIndicator({ state, onRetry }: { state: SaveState; onRetry: () => void }) {
  switch (state.kind) {
    case 'saving':
      return (
        <span className="inline-flex items-center gap-1.5 text-muted-foreground" role="status">
          <Loader2 className="size-3.5 animate-spin" /> Saving draft...
        </span>
      );
    case 'saved':
      return (
        <span className="inline-flex items-center gap-1.5 text-emerald-700" role="status">
          <CheckCircle2 className="size-3.5" /> Draft saved
        </span>
      );
    case 'retrying':
      return (
        <span className="inline-flex items-center gap-1.5 text-amber-700" role="status">
          <AlertTriangle className="size-3.5" /> Draft not saved - retrying...
        </span>
      );
    case 'failed':
      return (
        <span className="inline-flex flex-wrap items-center gap-1.5 text-destructive" role="alert">
          <AlertTriangle className="size-3.5" /> Draft not saved: {state.message}
          <Button type="button" variant="link" size="sm" className="h-auto p-0" onClick={onRetry}>
            Try again
          </Button>
        </span>
      );
    case 'conflict':
      // the merge dialog is open: retrying cannot help until the user has chosen
      return (
        <span className="inline-flex items-center gap-1.5 text-amber-700" role="status">
          <AlertTriangle className="size-3.5" /> Draft not saved: changed in another window
        </span>
      );
    default:
      return null;
  }
}
