import * as React from 'react';
import { MOBILE_BREAKPOINT } from '@shared/constants';

const query = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`;

/** True below the 768px phone breakpoint. */
export function useIsMobile(): boolean {
  return React.useSyncExternalStore(
    (cb) => {
      const mql = window.matchMedia(query);
      mql.addEventListener('change', cb);
      return () => mql.removeEventListener('change', cb);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}
