import { SEARCH_LIMIT_DEFAULT, type OpportunityType } from '@shared/opportunity';
import { OPPORTUNITY_SEARCH_PARAMS, type LinkType, type OpportunitySort, type Topic } from '@shared/catalogue';
import { apiUrl } from '@shared/api-paths';

/**
 * The browse page's search as it lives in the URL (`?q=…&priceMax=…&sort=…`): what a brand can
 * bookmark, share and walk through with Back and Forward. Values are kept as the URL spells them
 * ("500", not "500.00"). Reading a URL goes through the shared schema (parse-search.ts, loaded
 * apart: zod is not part of the page's first visit); writing one needs only this file.
 */
export interface SearchState {
  q?: string;
  type: OpportunityType[];
  priceMin?: string;
  priceMax?: string;
  daMin?: string;
  daMax?: string;
  tatMax?: string;
  linkType: LinkType[];
  topic: Topic[];
  country?: string;
  language?: string;
  deadlineAfter?: string;
  multiSlot?: 'true' | 'false';
  /** '1': only outlets with a metric from an SEO tool of the last 180 days (the API's spelling) */
  fresh?: '1' | '0';
  saved?: 'true' | 'false';
  sort?: OpportunitySort;
}

/** The page's own parameters, in the schema's order: the API's paging ones (limit, cursor) never enter the page's URL. */
export type StateParam = Exclude<(typeof OPPORTUNITY_SEARCH_PARAMS)[number], 'limit' | 'cursor' | 'after'>;
export const STATE_PARAMS = OPPORTUNITY_SEARCH_PARAMS.filter(
  (p): p is StateParam => p !== 'limit' && p !== 'cursor' && p !== 'after',
);

export const EMPTY_SEARCH: SearchState = { type: [], linkType: [], topic: [] };

/** Whether the query string carries any of the page's parameters (anything else, e.g. ?checkout=, is not the search's). */
export const hasSearchParams = (search: string) => {
  const params = new URLSearchParams(search);
  return STATE_PARAMS.some((p) => params.has(p));
};

/** The parameters of a state in the schema's order; the default sort (newest) is left out. */
function toParams(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  for (const p of STATE_PARAMS) {
    const v = state[p];
    if (Array.isArray(v)) v.forEach((item) => params.append(p, item));
    else if (v !== undefined && v !== '' && !(p === 'sort' && v === 'newest')) params.set(p, v);
  }
  return params;
}

/** The page's query string ("" or "?q=…"). */
export function searchString(state: SearchState): string {
  const s = toParams(state).toString();
  return s ? `?${s}` : '';
}

/** The first page of the API's search for a state: always with `limit`, so the answer is paged. */
export function searchApiUrl(state: SearchState): string {
  const params = toParams(state);
  params.set('limit', String(SEARCH_LIMIT_DEFAULT));
  return apiUrl('/api/opportunities', {}, params);
}

const isSet = (v: unknown) => (Array.isArray(v) ? v.length > 0 : v !== undefined && v !== '');

/** How many of the filter panel's fields are set (the "Filters" button's badge). */
export function panelFilterCount(state: SearchState): number {
  const { type: _type, sort: _sort, q: _q, saved: _saved, ...panel } = state;
  return Object.values(panel).filter(isSet).length;
}

/** Whether the words, the panel or "Saved" narrow the list (not the type tabs or the order): what "Clear filters" clears. */
export const hasFilters = (state: SearchState) => panelFilterCount(state) > 0 || isSet(state.q) || isSet(state.saved);

/** The state without its filters: the type tab and the order stay. */
export const clearFilters = (state: SearchState): SearchState => ({
  ...EMPTY_SEARCH,
  type: state.type,
  sort: state.sort,
});
