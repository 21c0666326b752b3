import { useLocation, useParams } from 'wouter';
import { CreditCard, FlaskConical, Lock } from 'lucide-react';
import { formatUsd } from '@shared/money';
import { TEST_MODE_NOTICE, type CheckoutView } from '@shared/payment';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Logo } from '@/components/ui/logo';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useCancelCheckout, useCheckout, usePayCheckout } from '../api/checkout';
import { QueryError } from '@/components/query-error';

type OrderLine = NonNullable<CheckoutView['lines']>[number];

/** A cart's order: each placement with its outlet and amount. */
function OrderLines({ lines }: { lines: OrderLine[] }) {
  return (
    <div className="space-y-2">
      <h2 className="text-sm font-semibold">
        {lines.length} {lines.length === 1 ? 'placement' : 'placements'}
      </h2>
      <ul className="divide-y rounded-lg border text-sm">
        {lines.map((l) => (
          <li key={l.opportunityId} className="flex justify-between gap-4 px-3 py-2" data-testid="checkout-line">
            <div className="min-w-0">
              <p className="text-xs text-muted-foreground wrap-anywhere">{l.outletName}</p>
              <p className="font-medium leading-snug wrap-anywhere">{l.title}</p>
            </div>
            <p className="shrink-0 font-medium tabular-nums">{formatUsd(l.amount)}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The built-in test checkout: used when no card provider is configured. Paying runs the same
 * fulfilment as a provider's webhook; no card is charged.
 */
export function CheckoutPage() {
  const { sessionId = '' } = useParams<{ sessionId: string }>();
  const [, navigate] = useLocation();
  const checkout = useCheckout(sessionId);
  const { data, isLoading, isError, error } = checkout;
  // a missing checkout is final; any other failure (offline, a 500) can be tried again
  const missing = error instanceof ApiError && error.status === 404;
  const pay = usePayCheckout(sessionId);
  const cancel = useCancelCheckout(sessionId);
  const busy = pay.isPending || cancel.isPending;

  if (isLoading) return <FullScreenSpinner />;

  // a cart's order (issue 46): its lines are listed, and paying it leads to the order's page
  const lines = data?.lines;
  const onPay = () =>
    pay.mutate(undefined, {
      onSuccess: ({ url, status, paymentId }) => {
        if (lines) {
          if (status === 'refunded')
            toast({
              title: 'Sold out',
              description: 'Every placement sold out while you paid; your payment has been refunded in full.',
              variant: 'destructive',
            });
          // the order's page says "Payment received" (?checkout=success), with its invoice and placements
          navigate(
            status === 'refunded' ? `/brand/orders/${paymentId}` : `/brand/orders/${paymentId}?checkout=success`,
          );
        } else if (status === 'refunded') {
          toast({
            title: 'Sold out',
            description: 'The last slot was taken while you paid; your payment has been refunded in full.',
            variant: 'destructive',
          });
          navigate('/brand/payments');
        } else {
          // the page it returns to (as from a card provider) says "Payment received"
          navigate(url);
        }
      },
      onError: (err) =>
        toast({
          title: 'Payment failed',
          description: errorMessage(err, 'The payment could not be completed'),
          variant: 'destructive',
        }),
    });
  const onCancel = () =>
    cancel.mutate(undefined, {
      onSuccess: ({ url }) => {
        if (!lines) return navigate(url);
        // an order's lines stay in the cart: back to it
        toast({ title: 'Checkout cancelled', description: 'No payment was taken; your cart is as you left it.' });
        navigate('/brand/cart');
      },
      onError: (err) =>
        toast({
          title: 'Error',
          description: errorMessage(err, 'The checkout could not be cancelled'),
          variant: 'destructive',
        }),
    });

  return (
    <main className="flex min-h-page flex-col items-center justify-center gap-6 bg-muted/40 p-4">
      <div className="flex items-center gap-2 text-lg font-semibold">
        <Logo /> Byline
      </div>
      <Card className={`w-full ${lines ? 'max-w-lg' : 'max-w-md'}`}>
        <CardHeader className="space-y-3">
          <div
            className="flex items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
            role="note"
          >
            <FlaskConical className="size-4 shrink-0" />
            <span>
              <span className="font-semibold">{TEST_MODE_NOTICE}.</span> This built-in checkout charges no card;
              configure a card provider to take real payments.
            </span>
          </div>
          <CardTitle as="h1" className="flex items-center gap-2 text-xl">
            <CreditCard className="size-5 text-primary" /> Checkout
          </CardTitle>
        </CardHeader>
        <CardContent className="space-y-5">
          {isError && !data && !missing ? (
            <QueryError query={checkout} title="Couldn't load the checkout" />
          ) : isError || !data ? (
            <p className="text-sm text-destructive">{errorMessage(error, 'This checkout could not be found.')}</p>
          ) : data.status !== 'open' ? (
            <div className="space-y-3 text-sm">
              <p>
                This checkout is <span className="font-semibold">{data.status}</span>.
              </p>
              <Button variant="outline" onClick={() => navigate(lines ? '/brand/cart' : '/brand/opportunities')}>
                {lines ? 'Back to your cart' : 'Back to opportunities'}
              </Button>
            </div>
          ) : (
            <>
              {lines && <OrderLines lines={lines} />}
              <dl className="space-y-3 text-sm">
                {!lines && (
                  <>
                    <div className="flex justify-between gap-4">
                      <dt className="text-muted-foreground">Outlet</dt>
                      <dd className="text-right font-medium">{data.outletName}</dd>
                    </div>
                    <div className="flex justify-between gap-4">
                      <dt className="text-muted-foreground">Placement</dt>
                      <dd className="text-right font-medium">{data.title}</dd>
                    </div>
                  </>
                )}
                <div className="flex justify-between gap-4 border-t pt-3 text-base">
                  <dt className="font-semibold">Total</dt>
                  <dd className="font-semibold tabular-nums" data-testid="checkout-amount">
                    {formatUsd(data.amount)}
                  </dd>
                </div>
              </dl>
              <div className="flex flex-col gap-2">
                <Button size="lg" onClick={onPay} disabled={busy}>
                  <Lock /> {pay.isPending ? 'Processing...' : `Pay ${formatUsd(data.amount)}`}
                </Button>
                <Button variant="ghost" onClick={onCancel} disabled={busy}>
                  Cancel
                </Button>
              </div>
              <p className="text-center text-xs text-muted-foreground">
                {lines
                  ? 'Each placement is held in escrow until its article is published.'
                  : 'Held in escrow until your article is published.'}
              </p>
            </>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
