import { Link } from 'wouter';
import { CheckCircle2 } from 'lucide-react';
import { ATTENTION_LIMIT } from '@shared/attention';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api';
import { useAttention } from '../api/get-attention';
import { AttentionRow } from '../components/attention-row';

/**
 * The stage clocks at risk and late over every placement (decision 048), each a link to Projects
 * filtered so, soonest due first.
 */
function ClockCounts({ atRisk, late }: { atRisk: number; late: number }) {
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
      {tile('Stages at risk', atRisk, 'at_risk', 'text-amber-700')}
      {tile('Stages late', late, 'late', 'text-red-700')}
    </div>
  );
}

/** Needs attention (issue 19): every placement that waits on the editorial team, the most urgent first. */
export function AttentionPage() {
  const attention = useAttention();
  const data = attention.data;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Needs attention</h1>
        <p className="text-muted-foreground">What waits on the team: yours first, then the most urgent</p>
      </div>
      {data && <ClockCounts atRisk={data.clocks.atRisk} late={data.clocks.late} />}
      {attention.isLoading ? (
        <PageSpinner />
      ) : attention.isError && !data ? (
        <div role="alert" className="flex flex-col items-center gap-3 py-12 text-center">
          <p className="text-sm text-destructive">{errorMessage(attention.error, 'Failed to load the list')}</p>
          <Button variant="outline" onClick={() => void attention.refetch()} disabled={attention.isFetching}>
            Try again
          </Button>
        </div>
      ) : !data || data.items.length === 0 ? (
        <EmptyState
          icon={<CheckCircle2 />}
          title="Nothing needs attention"
          description="No unread messages, late drafts, pending edits or deadlines."
        />
      ) : (
        <>
          <Card>
            <ul className="divide-y">
              {data.items.map((item) => (
                <AttentionRow key={item.paymentId} item={item} />
              ))}
            </ul>
          </Card>
          {data.total > data.items.length && (
            <p className="text-center text-sm text-muted-foreground">
              The {ATTENTION_LIMIT} most urgent of {data.total} placements
            </p>
          )}
        </>
      )}
    </div>
  );
}
