import * as React from 'react';
import { Link } from 'wouter';
import { format } from 'date-fns';
import { Lock } from 'lucide-react';
import { formatUsd, fromCents, toCents } from '@shared/money';
import type { Cart } from '@shared/schemas/cart';
import { TermsLink } from '@/components/terms-link';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { useClients, useOrg } from '@/lib/org';
import { refusalOf, useCheckoutCart, type CheckoutRefusal } from '../api/checkout-cart';
import { PriceChanges } from './price-changes';

const sum = (amounts: string[]) => amounts.reduce((s, a) => s + toCents(a), 0);

/** The total now (each line's current price) and as added, of the lines that can be bought. */
export function cartTotals(cart: Cart) {
  const available = cart.lines.filter((l) => l.available);
  return {
    count: available.length,
    unavailable: cart.lines.length - available.length,
    nowCents: sum(available.map((l) => l.currentPriceUsd)),
    addedCents: sum(available.map((l) => l.priceUsd)),
  };
}

function Row({
  label,
  children,
  strong,
  testId,
}: {
  label: string;
  children: React.ReactNode;
  strong?: boolean;
  testId?: string;
}) {
  return (
    <div
      className={
        strong
          ? 'flex items-baseline justify-between gap-4 border-t pt-3 text-base font-semibold'
          : 'flex items-baseline justify-between gap-4'
      }
    >
      <dt className={strong ? undefined : 'text-muted-foreground'}>{label}</dt>
      <dd className="text-right tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

const NOTE = 'rounded-lg border px-3 py-2 text-sm';

/**
 * The cart's summary and its checkout: the total, the budget left and the need for approval, for
 * which client, automatic swaps, the terms, and "Check out". A refusal is said here, on the page:
 * lines sold out meanwhile, prices that changed (confirmed with "Confirm new total"), a client to
 * choose, a budget or threshold exceeded.
 */
export function CheckoutPanel({
  cart,
  refusal,
  setRefusal,
  initial,
}: {
  cart: Cart;
  refusal: CheckoutRefusal | null;
  setRefusal: (r: CheckoutRefusal | null) => void;
  /** "Order again": the order's client and options, chosen to start with */
  initial?: { clientId: string | null; autoSwap: boolean } | null;
}) {
  const org = useOrg().data;
  const clients = useClients().data ?? [];
  const limited = Boolean(org?.clientIds);
  const [chosenClient, setChosenClient] = React.useState<string | null>(initial?.clientId ?? null);
  // a member limited to clients buys for one of them: the first until another is chosen; a client
  // no longer listed (removed, or out of the member's reach) is not kept
  const known = chosenClient === '' || clients.some((c) => c.id === chosenClient);
  const clientId = (known ? chosenClient : null) ?? (limited ? (clients[0]?.id ?? '') : '');
  const [autoSwap, setAutoSwap] = React.useState(initial?.autoSwap ?? false);
  const [agreed, setAgreed] = React.useState(false);
  const [redirecting, setRedirecting] = React.useState(false);
  // above the approval threshold: the cart was sent to an owner or admin
  // (the lines it was for: a cart changed since asks again)
  const [requested, setRequested] = React.useState<string | null>(null);
  const signature = cart.lines.map((l) => l.opportunityId).sort().join(',');
  const checkout = useCheckoutCart();
  const busy = checkout.isPending || redirecting;

  const totals = cartTotals(cart);
  const changed = totals.nowCents !== totals.addedCents;
  // the chosen client's cap counts too (issue 57): the lowest of what is left
  const budgetLeft = (clientId && cart.clientBudgetLeftUsd[clientId]) || cart.budgetLeftUsd;
  const asked = requested === signature || cart.approvalRequested !== null;
  const cappedClient = clientId && cart.clientBudgetLeftUsd[clientId] ? clients.find((c) => c.id === clientId) : undefined;
  const overBudget = budgetLeft !== null && totals.nowCents > toCents(budgetLeft);
  const prices = refusal?.kind === 'prices' ? refusal : null;

  const submit = (confirmTotalUsd?: string) => {
    setRefusal(null);
    checkout.mutate(
      { ...(confirmTotalUsd ? { confirmTotalUsd } : {}), ...(clientId ? { clientId } : {}), autoSwap },
      {
        onSuccess: (answer) => {
          if ('purchaseRequest' in answer) return setRequested(signature);
          setRedirecting(true);
          window.location.assign(answer.url);
        },
        onError: (err) => setRefusal(refusalOf(err)),
      },
    );
  };

  return (
    <Card id="checkout" className="scroll-mt-20 lg:sticky lg:top-20" data-testid="checkout-panel">
      <CardHeader className="pb-3">
        <CardTitle className="text-base">Order summary</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="space-y-2 text-sm">
          <Row label="Placements" testId="cart-count">
            {totals.unavailable > 0 ? `${totals.count} of ${totals.count + totals.unavailable}` : totals.count}
          </Row>
          {changed && (
            <Row label="At the prices added" testId="cart-total-added">
              <s>{formatUsd(fromCents(totals.addedCents))}</s>
            </Row>
          )}
          <Row label="Total" strong testId="cart-total">
            {formatUsd(fromCents(totals.nowCents))}
          </Row>
          {budgetLeft !== null && (
            <Row
              label={cappedClient ? `Budget left this month for ${cappedClient.name}` : 'Budget left this month'}
              testId="cart-budget-left"
            >
              {formatUsd(budgetLeft)}
            </Row>
          )}
        </dl>
        {changed && !prices && (
          <p className={`${NOTE} border-amber-300 bg-amber-50 text-amber-950`} data-testid="cart-prices-changed">
            Some prices changed since you added them: checking out accepts the new total shown here.
          </p>
        )}
        {overBudget && (
          <p className={`${NOTE} border-amber-300 bg-amber-50 text-amber-950`} data-testid="cart-over-budget">
            This total is more than what is left of your budget this month.
          </p>
        )}
        {cart.needsApproval && !asked && (
          <p className={`${NOTE} border-amber-300 bg-amber-50 text-amber-950`} data-testid="cart-needs-approval">
            This total is above your approval threshold: checking out sends the cart to an owner or admin of your
            organisation. Once approved, you pay it from Purchase requests.
          </p>
        )}
        {asked && (
          <p role="status" className={`${NOTE} border-emerald-200 bg-emerald-50 text-emerald-900`} data-testid="cart-requested">
            {cart.approvalRequested
              ? `Sent for approval on ${format(new Date(cart.approvalRequested.createdAt), 'MMM d, yyyy')}.`
              : 'Sent for approval.'}{' '}
            You will get an e-mail when it is decided; then pay it from{' '}
            <Link href="/brand/requests" className="font-medium underline">
              Purchase requests
            </Link>
            . Keep the cart as it is until then.
          </p>
        )}

        {clients.length > 0 && (
          <div className="grid gap-1.5 text-sm">
            <label htmlFor="cart-client" className="font-medium">
              For client
            </label>
            <select
              id="cart-client"
              className="h-9 rounded-md border bg-background px-2"
              value={clientId}
              onChange={(e) => {
                setChosenClient(e.target.value);
                if (refusal?.kind === 'client') setRefusal(null);
              }}
              aria-invalid={refusal?.kind === 'client'}
              aria-describedby={refusal?.kind === 'client' ? 'cart-client-error' : undefined}
              data-testid="cart-client"
            >
              {!limited && <option value="">No client</option>}
              {clients.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
            {refusal?.kind === 'client' && (
              <p id="cart-client-error" className="text-sm text-destructive">
                {refusal.message}
              </p>
            )}
          </div>
        )}

        <div className="flex items-start gap-3">
          <Checkbox
            id="cart-auto-swap"
            checked={autoSwap}
            onCheckedChange={(v) => setAutoSwap(v === true)}
            className="mt-0.5"
          />
          <Label htmlFor="cart-auto-swap" className="text-sm font-normal leading-snug">
            Swap automatically for the closest alternative if an outlet declines
          </Label>
        </div>
        <div className="space-y-1">
          <div className="flex items-start gap-3">
            <Checkbox
              id="cart-terms"
              checked={agreed}
              onCheckedChange={(v) => setAgreed(v === true)}
              className="mt-0.5"
            />
            <Label htmlFor="cart-terms" className="text-sm font-normal leading-snug">
              I agree to the terms of service and understand my payment is held in escrow until each article is
              published.
            </Label>
          </div>
          <p className="pl-7 text-xs text-muted-foreground">
            Read the <TermsLink>terms of service</TermsLink> before you pay.
          </p>
        </div>

        {prices && (
          <PriceChanges
            message={prices.message}
            changes={prices.changes}
            totalUsd={prices.totalUsd}
            lines={cart.lines}
          />
        )}
        {refusal && (refusal.kind === 'other' || refusal.kind === 'soldOut') && (
          <p role="alert" className={`${NOTE} border-red-200 bg-red-50 text-red-900`} data-testid="checkout-refusal">
            {refusal.message}
          </p>
        )}
        {refusal?.kind === 'client' && clients.length === 0 && (
          <p role="alert" className={`${NOTE} border-red-200 bg-red-50 text-red-900`} data-testid="checkout-refusal">
            {refusal.message}
          </p>
        )}

        {totals.unavailable > 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="checkout-blocked">
            Remove what can no longer be bought to check out the rest.
          </p>
        ) : null}
        {prices ? (
          <Button size="lg" className="w-full" onClick={() => submit(prices.totalUsd)} disabled={busy || !agreed}>
            <Lock aria-hidden /> {busy ? 'Processing...' : `Confirm new total ${formatUsd(prices.totalUsd)}`}
          </Button>
        ) : (
          <Button
            size="lg"
            className="w-full"
            // the new prices are on screen: pressing it is the confirmation, sent with the total
            // shown (one confirmation, not a second step; a price changed again since is still refused)
            onClick={() => submit(changed ? fromCents(totals.nowCents) : undefined)}
            disabled={busy || !agreed || totals.count === 0 || totals.unavailable > 0 || (cart.needsApproval && asked)}
            data-testid="cart-checkout"
          >
            <Lock aria-hidden />{' '}
            {busy
              ? 'Processing...'
              : cart.needsApproval
                ? asked
                  ? 'Approval requested'
                  : 'Ask for approval'
                : changed
                  ? `Check out at ${formatUsd(fromCents(totals.nowCents))}`
                  : 'Check out'}
          </Button>
        )}
        {!agreed && !(cart.needsApproval && asked) && (
          <p className="text-center text-xs text-muted-foreground">Tick the terms above to check out.</p>
        )}
        <p className="text-center text-xs text-muted-foreground">
          One payment and one invoice; each placement is held in escrow until it is published.
        </p>
      </CardContent>
    </Card>
  );
}
