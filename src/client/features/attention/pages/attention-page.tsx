import { ClockCounts } from '@/components/promise/clock-counts';
import { CheckCircle2 } from 'lucide-react';
import { ATTENTION_LIMIT } from '@shared/attention';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api';
import { useAttention } from '../api/get-attention';
import { AttentionRow } from '../components/attention-row';

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
      <ClockCounts />
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
