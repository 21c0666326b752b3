import { OPPORTUNITY_TYPES, type OpportunityType } from '@shared/opportunity';
import { LINK_TYPES, TOPICS, type LinkType, type Topic } from '@shared/catalogue';
import { opportunitySearchQuerySchema } from '@shared/schemas/opportunity-search';
import { EMPTY_SEARCH, STATE_PARAMS, searchApiUrl, type SearchState, type StateParam } from './search-state';

const LISTS = { type: OPPORTUNITY_TYPES, linkType: LINK_TYPES, topic: TOPICS } as const;
type ListParam = keyof typeof LISTS;
const isList = (p: string): p is ListParam => p in LISTS;

/**
 * Reads the page's URL query with the shared schema: a value it refuses is dropped (with the
 * other of a pair, such as priceMax below priceMin, only the one it names), never the page.
 */
export function parseSearch(search: string): SearchState {
  const params = new URLSearchParams(search);
  const raw: Partial<Record<StateParam, string | string[]>> = {};
  for (const p of STATE_PARAMS) {
    const values = params.getAll(p).filter((v) => v !== '');
    if (values.length === 0) continue;
    if (isList(p)) {
      const known = values.filter((v) => (LISTS[p] as readonly string[]).includes(v));
      if (known.length) raw[p] = [...new Set(known)];
    } else {
      const v = p === 'q' ? values[0].trim() : values[0];
      if (v !== '') raw[p] = v;
    }
    // the API also takes fresh=true/false: the page writes it as 1/0
    if (p === 'fresh' && (raw.fresh === 'true' || raw.fresh === 'false')) raw.fresh = raw.fresh === 'true' ? '1' : '0';
  }
  for (let tries = 0; tries <= STATE_PARAMS.length; tries++) {
    const result = opportunitySearchQuerySchema.safeParse(raw);
    if (result.success) break;
    const refused = [...new Set(result.error.issues.map((i) => String(i.path[0] ?? '')))].filter((k) => k in raw);
    if (refused.length === 0) return { ...EMPTY_SEARCH };
    for (const k of refused) delete raw[k as StateParam];
  }
  return {
    ...EMPTY_SEARCH,
    ...(raw as Omit<SearchState, ListParam>),
    type: (raw.type as OpportunityType[] | undefined) ?? [],
    linkType: (raw.linkType as LinkType[] | undefined) ?? [],
    topic: (raw.topic as Topic[] | undefined) ?? [],
  };
}

/** The API address of the first page of the search in a URL query, as the page will ask for it. */
export const firstPageOf = (search: string) => searchApiUrl(parseSearch(search));
