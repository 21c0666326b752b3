import * as React from 'react';
import { SearchField } from '@/components/search-field';

const TYPING_PAUSE_MS = 300;

/**
 * The brands' catalogue search (the box itself is the portal's `SearchField`). The URL follows the
 * words ~300 ms after the brand stops typing: the first pause of a search adds a history entry, the
 * next pauses of the same search replace it (Back goes to the search before, not to every word
 * typed). The box takes the URL's words when they change from elsewhere (Back, Forward, "Clear
 * filters").
 */
export function CatalogueSearch({ value, onCommit }: { value: string; onCommit: (q: string, replace: boolean) => void }) {
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
    <SearchField
      id="opportunity-search"
      label="Search opportunities"
      placeholder="Search outlets and articles"
      value={text}
      onChange={(next) => {
        setText(next);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => commit(next), TYPING_PAUSE_MS);
      }}
      onSubmit={endOfSearch}
      onBlur={endOfSearch}
      onClear={() => {
        setText('');
        commit('');
        typing.current = false;
      }}
      className="min-w-0 flex-1"
      inputClassName="h-10"
    />
  );
}
