import { CalendarClock, Clock, Info, TrendingUp } from 'lucide-react';
import { OPPORTUNITY_TYPE_LABELS, formatDeadlineShort, type BrandOpportunity } from '@shared/opportunity';
import { formatUsd } from '@shared/money';
import { Badge } from '@/components/ui/badge';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { Availability } from './availability';
import { OutletLogo } from './outlet-logo';

export function OpportunityCard({ opportunity: o, onOpen }: { opportunity: BrandOpportunity; onOpen: () => void }) {
  const firstType = o.type[0];
  return (
    <div
      role="button"
      tabIndex={0}
      onClick={onOpen}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onOpen();
        }
      }}
      aria-label={`${o.outletName}: ${o.title}`}
      data-testid="opportunity-card"
      className="group flex cursor-pointer flex-col gap-4 rounded-xl border bg-card p-5 text-left shadow-sm transition hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <div className="flex items-start gap-3">
        <OutletLogo name={o.outletName} logoUrl={o.logoUrl} />
        <div className="min-w-0 flex-1 space-y-1">
          {firstType && <Badge variant="info">{OPPORTUNITY_TYPE_LABELS[firstType]}</Badge>}
          <p className="truncate font-semibold">{o.outletName}</p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2 text-xs">
        {o.deadlineDate && (
          <span className="inline-flex items-center gap-1 rounded-full bg-amber-50 px-2 py-1 font-medium text-amber-800">
            <CalendarClock className="size-3.5" /> Deadline {formatDeadlineShort(o.deadlineDate)}
          </span>
        )}
        {o.tat && (
          <span className="inline-flex items-center gap-1 rounded-full bg-muted px-2 py-1 font-medium text-muted-foreground">
            <Clock className="size-3.5" /> {o.tat}
          </span>
        )}
      </div>
      <h3 className="line-clamp-2 text-base font-semibold leading-snug group-hover:text-primary">{o.title}</h3>
      <div className="mt-auto space-y-4">
        <Availability opportunity={o} />
        <div className="flex items-end justify-between border-t pt-3">
          <div>
            <div className="flex items-center gap-1 text-xs text-muted-foreground">
              Price
              <Tooltip>
                <TooltipTrigger asChild>
                  <button type="button" className="cursor-help" aria-label="About the price" onClick={(e) => e.stopPropagation()}>
                    <Info className="size-3.5" />
                  </button>
                </TooltipTrigger>
                <TooltipContent>One-time fee, held in escrow until your content is published</TooltipContent>
              </Tooltip>
            </div>
            <p className="text-lg font-semibold tabular-nums">{formatUsd(o.priceUsd)}</p>
          </div>
          {o.domainAuthority !== null && (
            <div className="text-right">
              <p className="text-xs text-muted-foreground">Domain Authority</p>
              <p className="inline-flex items-center gap-1 font-semibold">
                <TrendingUp className="size-4 text-emerald-600" /> DA {o.domainAuthority}
              </p>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
