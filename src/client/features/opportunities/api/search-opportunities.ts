import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { searchApiUrl, type SearchState } from '../search/search-state';
import { searchPageOptions, type SearchData, type SearchPage } from './search-page';

/** The search a page at a time; while another search loads, the previous results stay on screen. */
export function useOpportunitySearch(state: SearchState, enabled = true) {
  return useInfiniteQuery<SearchPage, Error, SearchData, readonly unknown[], string>({
    ...searchPageOptions(searchApiUrl(state)),
    placeholderData: keepPreviousData,
    enabled,
  });
}
