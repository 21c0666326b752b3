import { LiveBy } from '@/components/promise/live-by';
import { Link, useLocation, useParams } from 'wouter';
import { format } from 'date-fns';
import { ArrowLeft, FileText, PackageX, PenLine, RotateCcw } from 'lucide-react';
import { formatUsd, toCents } from '@shared/money';
import { roleCan } from '@shared/org';
import type { Order } from '@shared/schemas/cart';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useCanBuy } from '@/lib/cart';
import { useOrg } from '@/lib/org';
import { useCheckoutReturn } from '@/lib/use-checkout-return';
import { useOrder } from '../api/get-order';
import { useReorder } from '../api/reorder';
import { LineStatusBadge, OrderStatusBadge } from '../components/order-status';
import { apiUrl } from '@shared/api-paths';

const DOC_LINK =
  'inline-flex min-h-6 items-center gap-1 rounded-sm text-xs font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

function Money({ label, amount, testId }: { label: string; amount: string; testId: string }) {
  return (
    <div className="rounded-lg border bg-muted/30 p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums" data-testid={testId}>
        {formatUsd(amount)}
      </dd>
    </div>
  );
}

/** The order's next step (issue 57): the briefs its placements wait for, each a link to write it. */
function NextStep({ order, canWork }: { order: Order; canWork: boolean }) {
  const due = order.lines.filter((l) => l.status === 'paid' && !l.briefSubmitted);
  if (due.length === 0) return null;
  const n = due.length;
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-xl border border-sky-200 bg-sky-50 px-4 py-3 text-sky-950 sm:flex-row sm:items-center sm:justify-between"
      data-testid="order-next-step"
    >
      <div className="space-y-0.5">
        <p className="flex items-center gap-2 font-semibold">
          <PenLine className="size-4 shrink-0" aria-hidden /> {n === 1 ? '1 brief to write' : `${n} briefs to write`}
        </p>
        <p className="text-sm">
          {canWork
            ? 'The editorial team starts writing once a placement’s brief is in.'
            : 'The editorial team starts writing once a placement’s brief is in: a member who works on briefs writes them.'}
        </p>
      </div>
      {canWork && (
        <Button asChild size="sm" className="shrink-0">
          <Link href={`/brand/brief/${due[0].paymentId}`} data-testid="order-next-brief">
            {n === 1 ? 'Write the brief' : 'Write the first brief'}
          </Link>
        </Button>
      )}
    </div>
  );
}

function OrderLine({ line, paid, canWork }: { line: Order['lines'][number]; paid: boolean; canWork: boolean }) {
  return (
    <li className="flex gap-3 px-4 py-4 sm:px-6" data-testid="order-line">
      <div className="min-w-0 flex-1 space-y-1">
        <p className="text-xs font-medium text-muted-foreground wrap-anywhere">{line.outletName}</p>
        {/* before it is paid a line has no placement yet */}
        {paid ? (
          <Link
            href={`/brand/my-articles/${line.paymentId}`}
            className="font-medium leading-snug text-primary wrap-anywhere underline-offset-4 hover:underline"
          >
            {line.title}
          </Link>
        ) : (
          <p className="font-medium leading-snug wrap-anywhere">{line.title}</p>
        )}
        {/* issue 59: the promise of a line not published or refunded */}
        {line.status === 'paid' && <LiveBy liveBy={line.liveBy} usuallyBy={line.usuallyBy} className="text-xs" />}
        {paid && (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <LineStatusBadge status={line.status} />
            {line.disputeOpen && (
              <Badge variant="warning" data-testid="order-line-dispute">
                Dispute open
              </Badge>
            )}
            {line.status === 'paid' && !line.briefSubmitted && (
              canWork ? (
                <Link href={`/brand/brief/${line.paymentId}`} className={DOC_LINK} data-testid="order-line-brief">
                  <PenLine className="size-3.5" aria-hidden /> Write the brief<span className="sr-only">: {line.title}</span>
                </Link>
              ) : (
                <span className="text-xs text-muted-foreground" data-testid="order-line-brief">
                  Brief to write
                </span>
              )
            )}
            {line.status === 'refunded' && (
              <a
                href={apiUrl('/api/brand/payments/:paymentId/credit-note', { paymentId: line.paymentId })}
                download
                className={DOC_LINK}
                data-testid="order-line-credit-note"
              >
                <FileText className="size-3.5" aria-hidden /> Credit note
              </a>
            )}
          </div>
        )}
      </div>
      <div className="shrink-0 text-right">
        <p className="font-semibold tabular-nums">{formatUsd(line.amountUsd)}</p>
        {toCents(line.refundedUsd) > 0 && (
          <p className="text-xs text-red-800 tabular-nums">{formatUsd(line.refundedUsd)} refunded</p>
        )}
      </div>
    </li>
  );
}

function ReorderButton({ orderId }: { orderId: string }) {
  const reorder = useReorder();
  const [, navigate] = useLocation();
  return (
    <Button
      variant="outline"
      disabled={reorder.isPending}
      onClick={() =>
        reorder.mutate(orderId, {
          onSuccess: (cart) => {
            const skipped = cart.skipped ?? [];
            const added = cart.lines.length;
            toast({
              title: 'Back in your cart',
              description: skipped.length
                ? `${skipped.length} could not be put back: see why in your cart.`
                : `Your cart holds ${added} ${added === 1 ? 'opportunity' : 'opportunities'}.`,
            });
            // the order's client and options go with it: the cart's checkout starts from them
            navigate('/brand/cart', { state: { skipped, reorder: cart.reorder ?? null } });
          },
          onError: (err) =>
            toast({
              title: 'Could not order again',
              description: errorMessage(err, 'Please try again'),
              variant: 'destructive',
            }),
        })
      }
    >
      <RotateCcw aria-hidden /> {reorder.isPending ? 'Adding to your cart...' : 'Order again'}
    </Button>
  );
}

/**
 * One order: its lines (each its own placement, with its status and amount, linked to its page),
 * what was paid and where the money stands, its invoice and the credit notes of refunded lines,
 * and "Order again". The test checkout comes back here (?checkout=success) after paying an order.
 */
export function OrderPage() {
  useCheckoutReturn();
  const { id = '' } = useParams<{ id: string }>();
  const order = useOrder(id);
  const canBuy = useCanBuy() === true;
  const role = useOrg().data?.role;
  const canWork = roleCan(role, 'work');
  const missing = order.error instanceof ApiError && order.error.status === 404;
  const o = order.data;
  const paid = o?.status === 'completed';
  // the order's one invoice answers from any of its lines' invoice route
  const invoiceLine = o?.invoiceId ? o.lines[0] : undefined;

  return (
    <div className="space-y-6">
      <Link
        href="/brand/orders"
        className="inline-flex items-center gap-1 text-sm font-medium text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft className="size-4" aria-hidden /> All orders
      </Link>
      {order.isLoading ? (
        <PageSpinner />
      ) : missing || order.isError || !o ? (
        <>
          <h1 className="sr-only">Order</h1>
          {missing ? (
            <EmptyState
              icon={<PackageX />}
              title="Order not found"
              description="It does not exist, or it belongs to another organisation."
            />
          ) : (
            <QueryError query={order} title="Couldn't load the order" />
          )}
        </>
      ) : (
        <>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
            <div className="space-y-1">
              <div className="flex flex-wrap items-center gap-2">
                <h1 className="text-2xl font-semibold tracking-tight">
                  Order of {format(new Date(o.paidAt ?? o.createdAt), 'MMMM d, yyyy')}
                </h1>
                <OrderStatusBadge order={o} />
              </div>
              <p className="text-muted-foreground">
                {o.lines.length} {o.lines.length === 1 ? 'placement' : 'placements'}
                {o.client && ` for ${o.client.name}`}
                {o.autoSwap && ' · swapped automatically if an outlet declines'}
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              {invoiceLine && (
                <Button asChild variant="outline">
                  <a href={apiUrl('/api/brand/payments/:paymentId/invoice', { paymentId: invoiceLine.paymentId })} download data-testid="order-invoice">
                    <FileText aria-hidden /> Invoice {o.invoiceNumber}
                  </a>
                </Button>
              )}
              {canBuy && paid && <ReorderButton orderId={o.id} />}
            </div>
          </div>
          {paid && <NextStep order={o} canWork={canWork} />}
          {paid && (
            <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
              <Money label="Paid" amount={o.paidUsd} testId="order-paid" />
              <Money label="In escrow" amount={o.heldUsd} testId="order-held" />
              <Money label="Released" amount={o.releasedUsd} testId="order-released" />
              <Money label="Refunded" amount={o.refundedUsd} testId="order-refunded" />
            </dl>
          )}
          <Card>
            <CardHeader className="pb-3">
              <CardTitle className="text-base">{paid ? 'Placements' : 'Lines'}</CardTitle>
            </CardHeader>
            <ul className="divide-y border-t">
              {o.lines.map((line) => (
                <OrderLine key={line.paymentId} line={line} paid={paid} canWork={canWork} />
              ))}
            </ul>
            <CardContent className="flex justify-between gap-4 border-t pt-4 font-semibold">
              <span>Total</span>
              <span className="tabular-nums" data-testid="order-total">
                {formatUsd(o.totalUsd)}
              </span>
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}
