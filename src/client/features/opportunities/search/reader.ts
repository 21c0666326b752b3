import type { SearchState } from './search-state';

/*
 * The URL reader (parse-search.ts, with the shared zod schema), loaded apart from the page: once for
 * the page and for the router's early request of a search's first page, whichever asks first.
 */

interface Reader {
  /** the search state a URL query stands for */
  parseSearch: (search: string) => SearchState;
  /** the API address of the first page of the search in a URL query */
  firstPageOf: (search: string) => string;
}
let reader: Reader | undefined;
let loading: Promise<Reader> | undefined;

/** The reader, fetched on the first call. */
export const loadSearchReader = (): Promise<Reader> =>
  (loading ??= import('./parse-search').then(({ parseSearch, firstPageOf }) => (reader = { parseSearch, firstPageOf })));

/** The reader's parse, when it has arrived. */
export const loadedParse = (): ((search: string) => SearchState) | undefined => reader?.parseSearch;
