import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { AttentionList } from '@shared/attention';
import { apiUrl } from '@shared/api-paths';
import { apiGet } from '@/lib/api';

/*
 * The stage clocks at risk and late over every placement (decision 048), for the admin's dashboard
 * and the Needs attention page, each a link to Projects filtered so, soonest due first. Read from
 * GET /api/admin/attention, the query the sidebar's count already keeps (same key, same cache).
 */
export function ClockCounts() {
  const { data } = useQuery<AttentionList>({
    queryKey: [apiUrl('/api/admin/attention')],
    queryFn: () => apiGet(apiUrl('/api/admin/attention')),
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
  if (!data) return null;
  const tile = (label: string, n: number, clock: 'at_risk' | 'late', tone: string) => (
    <Link
      href={`/admin/projects?clock=${clock}&sort=due`}
      className="flex flex-1 items-center justify-between gap-3 rounded-lg border bg-card px-4 py-3 transition-colors hover:bg-muted/50"
      data-testid={`clock-count-${clock}`}
    >
      <span className="text-sm text-muted-foreground">{label}</span>
      <span className={`text-xl font-semibold tabular-nums ${n > 0 ? tone : ''}`}>{n}</span>
    </Link>
  );
  return (
    <div className="flex flex-col gap-3 sm:flex-row" data-testid="clock-counts">
      {tile('Stages at risk', data.clocks.atRisk, 'at_risk', 'text-amber-700')}
      {tile('Stages late', data.clocks.late, 'late', 'text-red-700')}
    </div>
  );
}
