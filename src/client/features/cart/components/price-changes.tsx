import { ArrowRight } from 'lucide-react';
import { formatUsd } from '@shared/money';
import type { PriceChange } from '../api/checkout-cart';
import type { CartLine } from './cart-line-row';

/**
 * The prices that changed since their lines were added (the checkout's 409): each line old → new,
 * and the new total the brand confirms with the button below it.
 */
export function PriceChanges({
  message,
  changes,
  totalUsd,
  lines,
}: {
  message: string;
  changes: PriceChange[];
  totalUsd: string;
  lines: CartLine[];
}) {
  const byId = new Map(lines.map((l) => [l.opportunityId, l]));
  return (
    <div
      role="alert"
      className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
      data-testid="price-changes"
    >
      <p className="font-medium">{message}</p>
      <ul className="space-y-2">
        {changes.map((c) => {
          const line = byId.get(c.opportunityId);
          return (
            <li
              key={c.opportunityId}
              className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5"
              data-testid="price-change"
            >
              <span className="min-w-0 wrap-anywhere">
                {line ? `${line.outletName}: ${line.title}` : 'An opportunity'}
              </span>
              <span className="inline-flex items-center gap-1 tabular-nums">
                <span className="sr-only">was </span>
                <s>{formatUsd(c.oldPriceUsd)}</s>
                <ArrowRight className="size-3.5" aria-hidden />
                <span className="font-semibold">
                  <span className="sr-only">now </span>
                  {formatUsd(c.newPriceUsd)}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
      <p className="flex justify-between gap-3 border-t border-amber-300 pt-2 font-semibold">
        <span>New total</span>
        <span className="tabular-nums" data-testid="price-changes-total">
          {formatUsd(totalUsd)}
        </span>
      </p>
    </div>
  );
}
