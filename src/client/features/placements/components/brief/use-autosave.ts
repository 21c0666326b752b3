import * as React from 'react';
import { Autosaver, type SaveState } from './autosaver';

/**
 * The form's Autosaver, wired to the page's life: a pending change is saved when the page
 * unmounts (route change) and, through `onExit`, when the tab closes or reloads.
 */
export function useAutosave<T>({
  save,
  snapshot,
  onExit,
}: {
  save: (snapshot: T) => Promise<unknown>;
  snapshot: () => T;
  /** a last save as the page unloads; false when it could not be sent (the browser then asks the user to stay) */
  onExit: (snapshot: T) => boolean;
}) {
  const [state, setState] = React.useState<SaveState>({ kind: 'idle' });
  const [saver] = React.useState(() => new Autosaver<T>(save, snapshot, setState));
  const exitRef = React.useRef(onExit);
  React.useEffect(() => {
    exitRef.current = onExit;
  });

  React.useEffect(() => {
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (!saver.dirty || saver.locked) return;
      const sent = exitRef.current(saver.current());
      // a save that has been failing, or one too large to send now, would lose changes: ask to stay
      if (!sent || saver.failing) e.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      saver.dispose();
      // leaving within the app: the page's fetch outlives the component
      if (saver.dirty && !saver.locked) void saver.flush();
    };
  }, [saver]);

  return { saver, state };
}
