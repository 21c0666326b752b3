import { CalendarClock, Trash2 } from 'lucide-react';
import { formatDeadlineShort } from '@shared/opportunity';
import { formatUsd } from '@shared/money';
import type { Cart } from '@shared/schemas/cart';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { LiveBy } from '@/components/promise/live-by';

export type CartLine = Cart['lines'][number];

/**
 * One line of the cart: the outlet, the title, its deadline, its price now (and "was" the price it
 * had when added, which checkout charges until the new one is confirmed), and why it cannot be
 * bought now, greyed. `flagged`: the last checkout was refused because of this line.
 */
export function CartLineRow({
  line,
  flagged,
  removing,
  onRemove,
}: {
  line: CartLine;
  flagged: boolean;
  removing: boolean;
  onRemove: () => void;
}) {
  const changed = line.priceUsd !== line.currentPriceUsd;
  const name = `${line.outletName}: ${line.title}`;
  return (
    <li
      className={cn(
        'flex gap-3 px-4 py-4 sm:gap-4 sm:px-6',
        !line.available && 'bg-muted/60',
        flagged && 'shadow-[inset_3px_0_0_var(--destructive)]',
      )}
      data-testid="cart-line"
      data-available={line.available}
    >
      <div className="min-w-0 flex-1 space-y-1">
        <p className="text-xs font-medium text-muted-foreground wrap-anywhere">{line.outletName}</p>
        <p className={cn('font-medium leading-snug wrap-anywhere', !line.available && 'text-muted-foreground')}>
          {line.title}
        </p>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 pt-0.5 text-xs text-muted-foreground">
          {!line.available && line.reason && (
            <Badge variant="destructive" className="whitespace-normal" data-testid="cart-line-reason">
              {line.reason}
            </Badge>
          )}
          {line.available && changed && (
            <Badge variant="warning" data-testid="cart-line-price-changed">
              Price changed
            </Badge>
          )}
          {line.deadlineDate && (
            <span className="inline-flex items-center gap-1">
              <CalendarClock className="size-3.5" aria-hidden /> Buy by {formatDeadlineShort(line.deadlineDate)}
            </span>
          )}
          {line.available && line.promise && <LiveBy liveBy={line.promise.liveBy} usuallyBy={line.promise.usuallyBy} />}
        </div>
      </div>
      {/* a phone: the price over "Remove"; wider: side by side, the rows kept short */}
      <div className="flex shrink-0 flex-col items-end gap-1 text-right sm:flex-row sm:items-start sm:gap-3">
        <div>
          <p
            className={cn('font-semibold tabular-nums', !line.available && 'text-muted-foreground')}
            data-testid="cart-line-price"
          >
            {formatUsd(line.currentPriceUsd)}
          </p>
          {changed && (
            <p className="text-xs text-muted-foreground tabular-nums" data-testid="cart-line-was">
              was <s>{formatUsd(line.priceUsd)}</s>
            </p>
          )}
        </div>
        <Button
          variant="ghost"
          size="sm"
          className="-mr-2 text-muted-foreground hover:text-destructive sm:-my-1.5"
          onClick={onRemove}
          disabled={removing}
        >
          <Trash2 aria-hidden />
          {removing ? 'Removing...' : 'Remove'}
          <span className="sr-only"> {name}</span>
        </Button>
      </div>
    </li>
  );
}
