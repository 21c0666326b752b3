import { useMutation, useQuery } from '@tanstack/react-query';
import type { BrandOpportunityItem } from '@shared/opportunity';
import { apiRequest } from '@/lib/api';
import { fetchAll } from '@/lib/paged-query';
import { queryClient } from '@/lib/query-client';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { searchQueryPrefix, type SearchData } from './search-page';
import { apiUrl } from '@shared/api-paths';

interface SaveInput {
  id: string;
  saved: boolean;
  /** the opportunity as shown: what the shortlist gains when it is saved */
  opportunity?: BrandOpportunityItem;
}

/**
 * GET /api/brand/saved: the brand's whole shortlist, most recently saved first, every page of it
 * (the server sends LIST_MAX at a time; an outlet's page marks what is saved by it).
 */
const savedListKey = [apiUrl('/api/brand/saved')] as const;
export const useSavedList = (enabled = true) =>
  useQuery<BrandOpportunityItem[]>({ queryKey: savedListKey, queryFn: () => fetchAll<BrandOpportunityItem>(apiUrl('/api/brand/saved')), enabled });

/** Sets `saved` on the opportunity wherever a loaded search shows it, and in the loaded shortlist. */
function markSaved({ id, saved, opportunity }: SaveInput) {
  queryClient.setQueryData<BrandOpportunityItem[]>(savedListKey, (list) => {
    if (!list) return list;
    const without = list.filter((o) => o.id !== id);
    return saved && opportunity ? [{ ...opportunity, saved: true }, ...without] : without;
  });
  queryClient.setQueriesData<SearchData>(
    { queryKey: searchQueryPrefix },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) =>
          page.items.some((o) => o.id === id)
            ? { ...page, items: page.items.map((o): BrandOpportunityItem => (o.id === id ? { ...o, saved } : o)) }
            : page,
        ),
      },
  );
}

/** Whether a cached search filters on the shortlist (its members change with every save). */
const filtersOnSaved = (key: readonly unknown[]) => typeof key[2] === 'string' && /[?&]saved=/.test(key[2]);

/**
 * Saves to or removes from the brand's shortlist (PUT / DELETE /api/brand/saved/{id}). The button
 * answers at once; a failure puts it back and says why.
 */
export function useSaveOpportunity() {
  return useMutation({
    mutationFn: ({ id, saved }: SaveInput) =>
      apiRequest<void>(saved ? 'PUT' : 'DELETE', apiUrl('/api/brand/saved/:id', { id })),
    onMutate: (input) => markSaved(input),
    onError: (err, input) => {
      markSaved({ ...input, saved: !input.saved });
      toast({
        title: input.saved ? 'Could not save' : 'Could not remove',
        description: errorMessage(err, 'Please try again'),
        variant: 'destructive',
      });
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: savedListKey });
      return queryClient.invalidateQueries({
        queryKey: searchQueryPrefix,
        predicate: (q) => filtersOnSaved(q.queryKey),
      });
    },
  });
}
