import * as React from 'react';
import { formatUsd } from '@shared/money';
import {
  OPPORTUNITY_TYPE_LABELS,
  formatDeadlineLong,
  remainingSlots,
  type BrandOpportunity,
} from '@shared/opportunity';

/**
 * One opportunity on an outlet's page: its title, kinds, turnaround, deadline and slots, its price,
 * and what the reader can do with it (a brand opens it to buy, an admin edits it).
 */
export function OutletOpportunityRow({ o, action }: { o: BrandOpportunity; action: React.ReactNode }) {
  const left = remainingSlots(o);
  const details = [
    o.type.map((t) => OPPORTUNITY_TYPE_LABELS[t]).join(', '),
    o.tat ? `Turnaround: ${o.tat}` : null,
    o.deadlineDate ? `Deadline ${formatDeadlineLong(o.deadlineDate)}` : null,
    o.maxSlots > 1 ? `${left} of ${o.maxSlots} ${left === 1 ? 'spot' : 'spots'} left` : null,
  ].filter((v): v is string => Boolean(v));
  return (
    <li
      className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4"
      data-testid="outlet-opportunity"
    >
      <div className="min-w-0 space-y-1">
        <p className="font-medium break-words" data-testid="outlet-opportunity-title">
          {o.title}
        </p>
        <p className="text-sm break-words text-muted-foreground">{details.join(' · ')}</p>
      </div>
      <div className="flex shrink-0 items-center justify-between gap-3 sm:justify-end">
        <span className="text-base font-semibold tabular-nums" data-testid="outlet-opportunity-price">
          {formatUsd(o.priceUsd)}
        </span>
        {action}
      </div>
    </li>
  );
}

/** The outlet's opportunities as one bordered list, or the sentence that there are none. */
export function OutletOpportunityList({ count, children }: { count: number; children: React.ReactNode }) {
  if (count === 0) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="no-outlet-opportunities">
        Nothing can be bought from this outlet right now.
      </p>
    );
  }
  return (
    <ul className="divide-y rounded-lg border" aria-label="Opportunities at this outlet">
      {children}
    </ul>
  );
}
