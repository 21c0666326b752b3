import * as React from 'react';
import { Search, X } from 'lucide-react';
import { Input } from '@/components/ui/input';

const TYPING_PAUSE_MS = 300;

/**
 * The search box. The URL follows the words ~300 ms after the brand stops typing: the first pause
 * of a search adds a history entry, the next pauses of the same search replace it (Back goes to
 * the search before, not to every word typed). The box takes the URL's words when they change
 * from elsewhere (Back, Forward, "Clear filters").
 */
export function SearchBox({ value, onCommit }: { value: string; onCommit: (q: string, replace: boolean) => void }) {
  const [text, setText] = React.useState(value);
  // the words the box last took from the URL or gave to it
  const [shown, setShown] = React.useState(value);
  const [external, setExternal] = React.useState(0);
  const typing = React.useRef(false);
  const timer = React.useRef<ReturnType<typeof setTimeout>>(undefined);

  if (value !== shown) {
    // the URL changed without the box: show its words
    setShown(value);
    setText(value);
    setExternal((n) => n + 1);
  }
  React.useEffect(() => {
    clearTimeout(timer.current);
    typing.current = false;
  }, [external]);
  React.useEffect(() => () => clearTimeout(timer.current), []);

  const commit = (next: string) => {
    clearTimeout(timer.current);
    const q = next.trim();
    if (q === shown) return;
    setShown(q);
    onCommit(q, typing.current);
    typing.current = true;
  };
  const endOfSearch = () => {
    commit(text);
    typing.current = false;
  };

  return (
    <form
      role="search"
      className="relative min-w-0 flex-1"
      onSubmit={(e) => {
        e.preventDefault();
        endOfSearch();
      }}
    >
      <Search
        aria-hidden
        className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        type="search"
        aria-label="Search opportunities"
        placeholder="Search outlets and articles"
        value={text}
        maxLength={200}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => commit(next), TYPING_PAUSE_MS);
        }}
        onBlur={endOfSearch}
        className="h-10 pl-9 pr-9 [&::-webkit-search-cancel-button]:hidden"
      />
      {text && (
        <button
          type="button"
          aria-label="Clear search"
          className="absolute right-2 top-1/2 flex size-6 -translate-y-1/2 cursor-pointer items-center justify-center rounded text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          onClick={() => {
            setText('');
            commit('');
            typing.current = false;
          }}
        >
          <X className="size-4" />
        </button>
      )}
    </form>
  );
}
