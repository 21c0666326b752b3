import { QueryClient } from '@tanstack/react-query';
import { apiGet } from './api';

// spec §7: reads are cached with no retries, no refetch on focus, no polling, never stale
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: ({ queryKey }) => apiGet(queryKey.join('/')),
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
      // offline, ask anyway and fail with the offline sentence (lib/api): the default pauses the
      // query, which renders as neither loading nor failed, i.e. as an empty list
      networkMode: 'always',
    },
    mutations: { retry: false, networkMode: 'always' },
  },
});
