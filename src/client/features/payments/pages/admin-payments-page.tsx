import { format } from 'date-fns';
import { Building2, CheckCircle2, CreditCard, Lock } from 'lucide-react';
import { Link } from 'wouter';
import { formatUsd, toCents } from '@shared/money';
import { PARTLY_REFUNDED, isPartlyRefunded, type AdminPaymentItem, type PaymentStatus } from '@shared/payment';
import { PartlyRefundedBadge } from '@/components/placement-status';
import { ReleasedWithout } from '@/components/publication/released-without';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { useAdminPayments, usePaymentTotals } from '../api/admin-payments';
import { NeedsAttention } from '../components/needs-attention';
import { RefundButton } from '@/components/refund-button';
import { LoadMore } from '@/components/ui/load-more';
import { useUrlSearch } from '@/lib/use-url-search';
import { NoSearchResults, SearchBox } from '@/components/search-box';
import { QueryError } from '@/components/query-error';
import { DocumentLinks } from '@/components/document-links';
import { ExportCsv } from '../components/export-csv';

const STATUS: Record<PaymentStatus, { label: string; variant: 'warning' | 'success' | 'destructive' }> = {
  paid: { label: 'Paid - Held', variant: 'warning' },
  released: { label: 'Released', variant: 'success' },
  refunded: { label: 'Refunded', variant: 'destructive' },
};

function Total({ title, hint, amount, icon }: { title: string; hint: string; amount?: string; icon: React.ReactNode }) {
  return (
    <Card>
      <CardContent className="flex items-center justify-between p-5">
        <div>
          <p className="text-sm font-medium text-muted-foreground">{title}</p>
          <p className="text-2xl font-semibold tabular-nums">{amount === undefined ? '…' : formatUsd(amount)}</p>
          <p className="text-xs text-muted-foreground">{hint}</p>
        </div>
        <div className="flex size-10 items-center justify-center rounded-full bg-primary/10 text-primary [&_svg]:size-5">
          {icon}
        </div>
      </CardContent>
    </Card>
  );
}

const ORG_LINK =
  'inline-flex min-h-6 max-w-full items-center gap-1 rounded-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

function Row({ p }: { p: AdminPaymentItem }) {
  const s = STATUS[p.status];
  // a cancellation granted with a part refund: refunded, the rest kept (issue 47)
  const label = p.status === 'refunded' && isPartlyRefunded(p) ? PARTLY_REFUNDED : s.label;
  return (
    <li
      className="flex flex-col gap-3 p-4 md:flex-row md:items-center md:justify-between"
      data-testid="admin-payment-row"
    >
      <div className="min-w-0 space-y-1">
        <p className="font-medium">{p.opportunity.title}</p>
        <p className="text-sm">
          <Link href={`/admin/organisations/${p.organisation.id}`} className={ORG_LINK} data-testid="organisation-link">
            <Building2 className="size-3.5 shrink-0" aria-hidden="true" />
            <span className="min-w-0 wrap-anywhere">{p.organisation.name}</span>
          </Link>
        </p>
        <p className="text-sm">
          {p.user.brandName || p.user.name || '—'}
          {p.client && (
            <>
              {' '}
              <span data-testid="payment-client">for {p.client.name}</span>
            </>
          )}{' '}
          <span className="text-muted-foreground">· {p.user.email}</span>
        </p>
        <p className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
          <span className="break-all font-mono">{p.stripePaymentId}</span>
          <span>{format(new Date(p.createdAt), 'MMM d, yyyy')}</span>
        </p>
        <ReleasedWithout without={p.releasedWithout} />
        <DocumentLinks
          side="admin"
          paymentId={p.id}
          status={p.status}
          refundedAmount={p.refundedAmount}
          pageHref={`/admin/projects/${p.id}`}
        />
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2 md:flex-nowrap md:justify-end">
        <div className="flex flex-wrap items-center gap-1.5 md:justify-end">
          <Badge variant={s.variant} data-testid="payment-status">
            {label}
          </Badge>
          <PartlyRefundedBadge payment={p} />
        </div>
        <div className="w-28 text-right">
          <p className="font-semibold tabular-nums">{formatUsd(p.amount)}</p>
          {toCents(p.refundedAmount) > 0 && (
            <p className="text-xs text-muted-foreground tabular-nums" data-testid="refunded-amount">
              {formatUsd(p.refundedAmount)} refunded
            </p>
          )}
        </div>
        {p.status !== 'refunded' && (
          <RefundButton
            paymentId={p.id}
            amount={p.amount}
            refundedAmount={p.refundedAmount}
            title={p.opportunity.title}
            brand={p.user.brandName || p.user.name || p.user.email}
            question="Refund this payment?"
            consequence={
              p.status === 'released' ? 'the article is no longer watched' : 'the slot becomes available again'
            }
          />
        )}
      </div>
    </li>
  );
}

export function AdminPaymentsPage() {
  const search = useUrlSearch();
  const list = useAdminPayments(search.q);
  const { isLoading } = list;
  const data = list.items;
  const totals = usePaymentTotals(search.q);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Payments</h1>
        <p className="text-muted-foreground">Track all payments and escrow status</p>
      </div>
      <SearchBox search={search} id="payments-search" />
      <ExportCsv q={search.q} />
      <div className="space-y-2">
        {search.q && (
          // the totals follow the search: a brand's money held and released
          <p className="text-sm text-muted-foreground" data-testid="totals-scope">
            Totals of the payments matching “{search.q}”
          </p>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <Total title="Held in Escrow" hint="Pending publication" amount={totals.data?.held} icon={<Lock />} />
          <Total title="Released" hint="Content published" amount={totals.data?.released} icon={<CheckCircle2 />} />
        </div>
        {/* the spec's two totals stay; what went back is a line under them (issue 47) */}
        {totals.data && (
          <p className="text-sm text-muted-foreground" data-testid="totals-refunded">
            Refunded, in full or in part:{' '}
            <span className="font-medium text-foreground tabular-nums">{formatUsd(totals.data.refunded)}</span>
          </p>
        )}
      </div>
      {totals.isError && !totals.data && (
        <QueryError query={totals} title="Couldn't load the totals" className="py-6" />
      )}
      <NeedsAttention />
      {isLoading ? (
        <PageSpinner />
      ) : list.isError && !data ? (
        <QueryError query={list} title="Couldn't load the payments" />
      ) : !data?.length && search.q ? (
        <NoSearchResults what="payments" search={search} />
      ) : !data?.length ? (
        <EmptyState
          icon={<CreditCard />}
          title="No payments yet"
          description="Payments appear here as soon as a brand pays for a placement."
        />
      ) : (
        <Card>
          <ul className="divide-y">
            {data.map((p) => (
              <Row key={p.id} p={p} />
            ))}
          </ul>
          <LoadMore pager={list} />
        </Card>
      )}
    </div>
  );
}
