import { format } from 'date-fns';
import { AlertTriangle } from 'lucide-react';
import { formatUsd } from '@shared/money';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { usePaymentsNeedingAttention } from '../api/admin-payments';
import { QueryError } from '@/components/query-error';

/**
 * Charges the provider reported that were not booked as placements because their amount or
 * currency was not the checkout's: the money may have moved, so an admin looks at each one in the
 * provider's dashboard (by its payment reference).
 */
export function NeedsAttention() {
  const query = usePaymentsNeedingAttention();
  const { data } = query;
  if (query.isError && !data) return <QueryError query={query} title="Couldn't check for charges that need attention" className="py-6" />;
  if (!data?.length) return null;
  return (
    <Card className="border-amber-300" data-testid="needs-attention">
      <CardContent className="space-y-3 p-5">
        <h2 className="flex items-center gap-2 font-semibold">
          <AlertTriangle className="size-4 text-amber-600" /> Needs attention
        </h2>
        <ul className="divide-y">
          {data.map((item) => (
            <li key={item.id} className="flex flex-col gap-2 py-3 md:flex-row md:items-center md:justify-between" data-testid="attention-row">
              <div className="min-w-0 space-y-1">
                <p className="font-medium">{item.opportunity.title}</p>
                <p className="text-sm">
                  {item.user.brandName || item.user.name || '—'} <span className="text-muted-foreground">· {item.user.email}</span>
                </p>
                <p className="text-sm text-amber-900">{item.reason}. Not booked: check this charge with the card provider.</p>
                <p className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
                  {item.providerRef && <span className="break-all font-mono">{item.providerRef}</span>}
                  <span>{format(new Date(item.createdAt), 'MMM d, yyyy')}</span>
                </p>
              </div>
              <div className="flex items-center gap-3 md:justify-end">
                <Badge variant="warning">Needs attention</Badge>
                <p className="w-28 text-right font-semibold tabular-nums">{formatUsd(item.expectedAmount)}</p>
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
