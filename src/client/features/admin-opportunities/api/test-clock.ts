import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TestClock } from '@shared/schemas/test-clock';
import { apiGet, apiRequest } from '@/lib/api';
import { apiUrl } from '@shared/api-paths';

const testClockKey = [apiUrl('/api/admin/test-clock')];

/**
 * GET /api/admin/test-clock (issue 59): Byline's time while the portal runs in test mode. Outside
 * it the route answers 404, and the query leaves no data (the panel is not drawn).
 */
export const useTestClock = () =>
  useQuery<TestClock>({ queryKey: testClockKey, queryFn: () => apiGet<TestClock>(apiUrl('/api/admin/test-clock')), retry: false });

/** POST /api/admin/test-clock: moves Byline's time forward; every query is fetched again (the sweeps ran). */
export function useAdvanceTestClock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (advanceHours: number) => apiRequest<TestClock>('POST', apiUrl('/api/admin/test-clock'), { advanceHours }),
    onSuccess: (clock) => {
      queryClient.setQueryData(testClockKey, clock);
      return queryClient.invalidateQueries();
    },
  });
}
