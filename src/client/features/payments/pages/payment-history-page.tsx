import { format } from 'date-fns';
import { Receipt } from 'lucide-react';
import { formatUsd, toCents } from '@shared/money';
import { PLACEMENT_STATUS_GUIDE, placementStatus, shortPaymentId, type BrandPaymentItem } from '@shared/payment';
import { PartlyRefundedBadge, PlacementStatusBadge } from '@/components/placement-status';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { useBrandPaymentCount, useBrandPayments } from '../api/get-payments';
import { LoadMore } from '@/components/ui/load-more';
import { QueryError } from '@/components/query-error';
import { ClientFilter, useClientParam } from '@/components/client-filter';
import { DocumentLinks } from '@/components/document-links';

function PaymentRow({ p }: { p: BrandPaymentItem }) {
  const badge = placementStatus(p);
  return (
    <li className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between" data-testid="payment-row">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="min-w-0 font-medium wrap-anywhere">{p.opportunity.title}</p>
          <PlacementStatusBadge status={badge} />
          <PartlyRefundedBadge payment={p} />
        </div>
        <p className="text-sm text-muted-foreground">
          {p.opportunity.outletName}
          {p.client && <span data-testid="payment-client"> · for {p.client.name}</span>}
        </p>
        <p className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
          <span>{format(new Date(p.createdAt), 'MMM dd, yyyy')}</span>
          <span className="font-mono" title={p.stripePaymentId}>
            {shortPaymentId(p.stripePaymentId)}
          </span>
        </p>
        <DocumentLinks
          side="brand"
          paymentId={p.id}
          status={p.status}
          refundedAmount={p.refundedAmount}
          pageHref={`/brand/my-articles/${p.id}`}
        />
      </div>
      <div className="shrink-0 sm:text-right">
        <p className="text-lg font-semibold tabular-nums">{formatUsd(p.amount)}</p>
        {toCents(p.refundedAmount) > 0 && (
          <p className="text-sm text-muted-foreground tabular-nums" data-testid="refunded-amount">
            {formatUsd(p.refundedAmount)} refunded
          </p>
        )}
      </div>
    </li>
  );
}

export function PaymentHistoryPage() {
  // one client's payments (decision 035)
  const [clientId, setClientId] = useClientParam();
  const list = useBrandPayments(clientId);
  const { isLoading } = list;
  const items = list.items ?? [];
  // the count is of every payment, not of the pages loaded so far
  const n = useBrandPaymentCount(clientId) ?? items.length;
  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Payment History</h1>
          <p className="text-muted-foreground">View all your transactions and payment statuses</p>
        </div>
        <ClientFilter value={clientId} onChange={setClientId} />
      </div>
      {isLoading ? (
        <PageSpinner />
      ) : list.isError && !list.items ? (
        <QueryError query={list} title="Couldn't load your payments" />
      ) : items.length === 0 ? (
        <EmptyState icon={<Receipt />} title="No payments yet" description="Your payment history will appear here once you claim your first opportunity." />
      ) : (
        <Card>
          <CardHeader className="pb-2">
            <CardTitle className="text-base">
              {n} {n === 1 ? 'transaction' : 'transactions'}
            </CardTitle>
          </CardHeader>
          <ul className="divide-y">
            {items.map((p) => (
              <PaymentRow key={p.id} p={p} />
            ))}
          </ul>
          <LoadMore pager={list} />
        </Card>
      )}
      <Card>
        <CardHeader className="pb-2">
          <CardTitle className="text-base">Status guide</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 sm:grid-cols-2">
            {PLACEMENT_STATUS_GUIDE.map(([label, text]) => (
              // a definition list holds only term and definition pairs (each pair may be wrapped in a div)
              <div key={label} className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
                <dt>
                  <PlacementStatusBadge status={label} />
                </dt>
                <dd className="text-muted-foreground">{text}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}
