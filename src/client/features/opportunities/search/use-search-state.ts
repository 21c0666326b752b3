import * as React from 'react';
import { useLocation, useSearch } from 'wouter';
import { loadSearchReader, loadedParse } from './reader';
import { EMPTY_SEARCH, hasSearchParams, searchString, type SearchState } from './search-state';

/**
 * Called on the first sign of use (a pointer or focus on the controls): most searches the page
 * makes it reads from its own changes, but Back and Forward need the reader. Not loaded with the
 * page, where its download and start-up would compete with the first cards (a first visit to a URL
 * with a search loads it at once: app/router.tsx).
 */
export const preloadSearchReader = () => void loadSearchReader();

/**
 * The search state read from the URL (null while the reader loads), and `commit` to change it: a
 * new history entry per change (Back and Forward walk through earlier searches), or `replace`
 * for the steps of one change (the search box while the brand types).
 */
export function useSearchState() {
  const search = useSearch();
  const [path, navigate] = useLocation();
  const [parse, setParse] = React.useState(loadedParse);
  // the page's own last change: its URL needs no reading
  const [known, setKnown] = React.useState<{ search: string; state: SearchState } | null>(null);
  const state = React.useMemo(() => {
    if (!hasSearchParams(search)) return EMPTY_SEARCH;
    if (known?.search === search) return known.state;
    return parse ? parse(search) : null;
  }, [search, parse, known]);
  const needsReader = state === null;
  React.useEffect(() => {
    if (needsReader) void loadSearchReader().then((m) => setParse(() => m.parseSearch));
  }, [needsReader]);

  const current = React.useRef(state);
  React.useEffect(() => {
    current.current = state;
  }, [state]);
  const commit = React.useCallback(
    (change: Partial<SearchState> | ((s: SearchState) => SearchState), opts: { replace?: boolean } = {}) => {
      const from = current.current ?? EMPTY_SEARCH;
      const next = typeof change === 'function' ? change(from) : { ...from, ...change };
      const to = searchString(next);
      if (to === searchString(from)) return;
      setKnown({ search: to.slice(1), state: next });
      navigate(`${path}${to}`, { replace: opts.replace ?? false });
      // a second change before the next render builds on this one
      current.current = next;
    },
    [navigate, path],
  );
  return { state, commit };
}
