import * as React from 'react';
import { useSearchParams } from 'wouter';

/**
 * A list's search kept in the page's URL (`?q=`), so a reload or a shared link shows the same
 * results. The box shows what is typed at once; the URL, and so the list's query, follows
 * `delayMs` after the last key (a name typed asks the server once, not per letter). The URL is
 * replaced, not pushed: Back leaves the page rather than replaying each search.
 */
export function useUrlSearch(delayMs = 300) {
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const [text, setText] = React.useState(q);
  const written = React.useRef(q);

  // the URL changed by other means (a link, Back, Forward): the box follows it
  React.useEffect(() => {
    if (q === written.current) return;
    written.current = q;
    setText(q);
  }, [q]);

  const apply = React.useCallback(
    (value: string) => {
      const next = value.trim();
      written.current = next;
      setParams(
        (current) => {
          const params = new URLSearchParams(current);
          if (next) params.set('q', next);
          else params.delete('q');
          return params;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  React.useEffect(() => {
    if (text.trim() === q) return;
    const timer = setTimeout(() => apply(text), delayMs);
    return () => clearTimeout(timer);
  }, [text, q, apply, delayMs]);

  return {
    /** what the box shows */
    text,
    setText,
    /** the search the list shows (trimmed; '' for none) */
    q,
    /** applies what is typed now (Enter) */
    submit: React.useCallback(() => apply(text), [apply, text]),
    clear: React.useCallback(() => {
      setText('');
      apply('');
    }, [apply]),
  };
}

export type UrlSearch = ReturnType<typeof useUrlSearch>;
