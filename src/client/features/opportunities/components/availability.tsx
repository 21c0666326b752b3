import type { BrandOpportunity } from '@shared/opportunity';
import { filledPercent, remainingSlots } from '@shared/opportunity';
import { Progress } from '@/components/ui/progress';

/** "{n} of {max} spot(s) left" with a bar, or "Sold out"; shown only when there is more than one slot. */
export function Availability({ opportunity }: { opportunity: BrandOpportunity }) {
  if (opportunity.maxSlots <= 1) return null;
  const left = remainingSlots(opportunity);
  return (
    // only drawn: a click on it goes through to the card under it (its bar is positioned, so would catch it)
    <div className="pointer-events-none space-y-1.5">
      <Progress value={filledPercent(opportunity)} label="Slots filled" />
      <p className="text-xs font-medium text-muted-foreground">
        {left === 0 ? 'Sold out' : `${left} of ${opportunity.maxSlots} ${left === 1 ? 'spot' : 'spots'} left`}
      </p>
    </div>
  );
}
