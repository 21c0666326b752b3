import { SearchX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import type { UrlSearch } from '@/lib/use-url-search';
import { SearchField } from '@/components/search-field';

const LABEL = 'Search by brand or e-mail';

/** The admin lists' search box (Projects, Payments, Placements, Approvals), by brand. */
export function SearchBox({ search, id }: { search: UrlSearch; id: string }) {
  return (
    <SearchField
      id={id}
      label={LABEL}
      placeholder={LABEL}
      value={search.text}
      onChange={search.setText}
      onSubmit={search.submit}
      onClear={search.clear}
      className="w-full sm:max-w-sm"
    />
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
