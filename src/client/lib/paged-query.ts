import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { ApiError, apiRequestRaw } from './api';

/** One page of a paged list: its rows and the URL of the next page (from `Link: <…>; rel="next"`). */
export interface Page<T> {
  items: T[];
  next: string | null;
}

/** The `rel="next"` target of a Link header, or null. */
function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const m = /^\s*<([^>]+)>\s*;\s*rel="?next"?\s*$/.exec(part);
    if (m) return m[1];
  }
  return null;
}

async function fetchPage<T>(url: string): Promise<Page<T>> {
  const res = await apiRequestRaw('GET', url);
  const items = (await res.json()) as T[];
  if (!Array.isArray(items)) throw new ApiError(500, 'Unexpected answer from the server');
  return { items, next: nextLink(res.headers.get('Link')) };
}

/**
 * Every item of a list the server sends at most LIST_MAX at a time (decision 039): the pages
 * followed by their `Link: rel="next"` until the last, for a screen that needs the whole list at
 * once (the shortlist's marks on every card).
 */
export async function fetchAll<T>(url: string): Promise<T[]> {
  const items: T[] = [];
  for (let next: string | null = url; next;) {
    const page: Page<T> = await fetchPage<T>(next);
    items.push(...page.items);
    next = page.next;
  }
  return items;
}

/**
 * A list the server sends page by page. The query key is [list path, filters]: invalidating the
 * list path refreshes every loaded page of every filter. `url` carries the filters.
 */
export function usePagedList<T>(key: readonly unknown[], url: string, enabled = true, refetchOnMount?: 'always') {
  const query = useInfiniteQuery<Page<T>, Error, InfiniteData<Page<T>, string>, readonly unknown[], string>({
    queryKey: key,
    queryFn: ({ pageParam }) => fetchPage<T>(pageParam),
    initialPageParam: url,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled,
    ...(refetchOnMount ? { refetchOnMount } : {}),
  });
  const items = query.data?.pages.flatMap((p) => p.items);
  return { ...query, items };
}
