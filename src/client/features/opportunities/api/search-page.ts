import { type InfiniteData } from '@tanstack/react-query';
import { SEARCH_LIMIT_DEFAULT, type BrandOpportunityItem } from '@shared/opportunity';
import { ApiError, apiRequestRaw } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { loadSearchReader } from '../search/reader';
import { readTotalCount, type SearchCount } from './search-count';
import { apiUrl } from '@shared/api-paths';

/*
 * The search's pages, without the search's parameters: the router imports this file into the
 * entry chunk to start the first page early, so it must not carry the shared zod schema (the URL
 * reader is imported when a URL has a search).
 */

/**
 * One page of the search: its items, the next page's URL (Link rel="next") and, on the first page
 * only, how many the filters find (X-Total-Count; the server does not count next pages).
 */
export interface SearchPage {
  items: BrandOpportunityItem[];
  next: string | null;
  count: SearchCount | null;
}
export type SearchData = InfiniteData<SearchPage, string>;

/**
 * Every search's key starts with the browse list's path, so invalidating [apiUrl('/api/opportunities')]
 * (a payment came back, see use-checkout-return) refreshes the search too.
 */
export const searchQueryPrefix = [apiUrl('/api/opportunities'), 'search'] as const;

function nextLink(header: string | null): string | null {
  for (const part of header?.split(',') ?? []) {
    const m = /^\s*<([^>]+)>\s*;\s*rel="?next"?\s*$/.exec(part);
    if (m) return m[1];
  }
  return null;
}

async function fetchPage(url: string): Promise<SearchPage> {
  const res = await apiRequestRaw('GET', url);
  const items = (await res.json()) as BrandOpportunityItem[];
  if (!Array.isArray(items)) throw new ApiError(500, 'Unexpected answer from the server');
  return { items, next: nextLink(res.headers.get('Link')), count: readTotalCount(res.headers.get('X-Total-Count')) };
}

/** The infinite query of the search whose first page is at `firstPage`. */
export const searchPageOptions = (firstPage: string) => ({
  queryKey: [...searchQueryPrefix, firstPage] as readonly unknown[],
  queryFn: ({ pageParam }: { pageParam: string }) => fetchPage(pageParam),
  initialPageParam: firstPage,
  // the server's next link is followed as given
  getNextPageParam: (last: SearchPage) => last.next ?? undefined,
});

/** The first page of the unfiltered list (newest first), as the page will ask for it (search-state.ts `searchApiUrl`). */
const DEFAULT_FIRST_PAGE = apiUrl('/api/opportunities', {}, { limit: SEARCH_LIMIT_DEFAULT });

/**
 * Called by the router on a first visit, before the page's code has arrived: the first page of the
 * list the URL shows. Unfiltered, at once; with a search, as soon as the URL reader (loaded apart,
 * it carries the shared zod schema) has read it, which the page then finds loaded too.
 */
export function prefetchOpportunities(search: string) {
  const params = new URLSearchParams(search);
  params.delete('checkout');
  const prefetch = (firstPage: string) =>
    void queryClient.prefetchInfiniteQuery<SearchPage, Error, SearchPage, readonly unknown[], string>(searchPageOptions(firstPage));
  if (params.size === 0) return prefetch(DEFAULT_FIRST_PAGE);
  void loadSearchReader().then((reader) => prefetch(reader.firstPageOf(search)));
}
