import { Link } from 'wouter';
import { format } from 'date-fns';
import { ChevronRight, Package } from 'lucide-react';
import { formatUsd, toCents } from '@shared/money';
import { QueryError } from '@/components/query-error';
import { ClientFilter, useClientParam } from '@/components/client-filter';
import { Button } from '@/components/ui/button';
import { Card, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { LoadMore } from '@/components/ui/load-more';
import { useCanBuy } from '@/lib/cart';
import { useOrders, type OrderSummary } from '../api/get-orders';
import { OrderStatusBadge } from '../components/order-status';

const placements = (n: number) => `${n} ${n === 1 ? 'placement' : 'placements'}`;

function OrderRow({ o }: { o: OrderSummary }) {
  const refunded = toCents(o.refundedUsd) > 0;
  const date = format(new Date(o.paidAt ?? o.createdAt), 'MMM d, yyyy');
  return (
    <li className="relative flex items-center gap-3 px-4 py-4 hover:bg-muted/40 sm:px-6" data-testid="order-row">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          {/* the row's one link, stretched over the row (::after): a click anywhere opens the order */}
          <Link
            href={`/brand/orders/${o.id}`}
            className="font-medium after:absolute after:inset-0 after:content-[''] hover:underline focus-visible:outline-none focus-visible:after:rounded-md focus-visible:after:ring-2 focus-visible:after:ring-ring"
          >
            Order of <span className="whitespace-nowrap">{date}</span>
          </Link>
          <OrderStatusBadge order={o} />
        </div>
        <p className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
          <span data-testid="order-line-count">{placements(o.lineCount)}</span>
          {o.invoiceNumber && <span data-testid="order-invoice-number">Invoice {o.invoiceNumber}</span>}
          {o.client && <span>For {o.client.name}</span>}
          {o.autoSwap && <span>Automatic swaps</span>}
        </p>
      </div>
      <div className="shrink-0 text-right">
        <p className="font-semibold tabular-nums" data-testid="order-total">
          {formatUsd(o.totalUsd)}
        </p>
        {refunded && <p className="text-xs text-red-800 tabular-nums">{formatUsd(o.refundedUsd)} refunded</p>}
      </div>
      <ChevronRight className="size-4 shrink-0 text-muted-foreground" aria-hidden />
    </li>
  );
}

/** The organisation's orders (carts checked out at once), newest first; one client's with ?client=. */
export function OrdersPage() {
  const [clientId, setClientId] = useClientParam();
  const orders = useOrders(clientId);
  const canBuy = useCanBuy() === true;
  const list = orders.items ?? [];
  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Orders</h1>
          <p className="text-muted-foreground">
            Placements bought together from the cart, with one payment and one invoice.
          </p>
        </div>
        <ClientFilter value={clientId} onChange={setClientId} />
      </div>
      {orders.isLoading ? (
        <PageSpinner />
      ) : orders.isError ? (
        <QueryError query={orders} title="Couldn't load your orders" />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<Package />}
          title="No orders yet"
          description="Add opportunities to your cart and check them out together: the order appears here, with its invoice."
        >
          {canBuy && (
            <Button asChild variant="outline">
              <Link href="/brand/opportunities">Browse opportunities</Link>
            </Button>
          )}
        </EmptyState>
      ) : (
        <Card>
          <CardHeader className="pb-3">
            <CardTitle className="text-base">
              {list.length}
              {orders.hasNextPage ? '+' : ''} {list.length === 1 && !orders.hasNextPage ? 'order' : 'orders'}
            </CardTitle>
          </CardHeader>
          <ul className="divide-y border-t">
            {list.map((o) => (
              <OrderRow key={o.id} o={o} />
            ))}
          </ul>
          <LoadMore pager={orders} label="More orders" />
        </Card>
      )}
    </div>
  );
}
