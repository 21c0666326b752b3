import * as React from 'react';
import { Search, SearchX, X } from 'lucide-react';
import { ADMIN_SEARCH_MAX } from '@shared/schemas/admin-search';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { UrlSearch } from '@/lib/use-url-search';

const LABEL = 'Search by brand or e-mail';

/**
 * The admin lists' search box (Projects, Payments, Approvals): a labelled `type="search"` input
 * with its own clear button (the browser's differs between engines and is hidden), Enter applying
 * at once and Escape clearing.
 */
export function SearchBox({ search, id }: { search: UrlSearch; id: string }) {
  const input = React.useRef<HTMLInputElement>(null);
  const { text, setText, submit, clear } = search;
  return (
    <form
      role="search"
      className="relative w-full sm:max-w-sm"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Label htmlFor={id} className="sr-only">
        {LABEL}
      </Label>
      <Search
        className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
        aria-hidden
      />
      <Input
        ref={input}
        id={id}
        type="search"
        value={text}
        placeholder={LABEL}
        maxLength={ADMIN_SEARCH_MAX}
        autoComplete="off"
        spellCheck={false}
        className="pl-8 pr-9 [&::-webkit-search-cancel-button]:appearance-none"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && text) {
            e.preventDefault();
            clear();
          }
        }}
      />
      {text && (
        <button
          type="button"
          aria-label="Clear search"
          className="absolute right-1 top-1/2 inline-flex size-7 -translate-y-1/2 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          onClick={() => {
            clear();
            input.current?.focus();
          }}
        >
          <X className="size-4" aria-hidden />
        </button>
      )}
    </form>
  );
}

/** A list that the search emptied: says which search, and offers to clear it (the list's own empty text is for no rows at all). */
export function NoSearchResults({ what, search }: { what: string; search: UrlSearch }) {
  return (
    <EmptyState
      icon={<SearchX />}
      title={`No ${what} match “${search.q}”`}
      description="Try another brand name, person or e-mail address."
    >
      <Button variant="outline" size="sm" onClick={search.clear}>
        Clear search
      </Button>
    </EmptyState>
  );
}
