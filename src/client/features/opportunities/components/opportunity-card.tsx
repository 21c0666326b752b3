import * as React from 'react';
import { LiveBy } from '@/components/promise/live-by';
import { navigate } from 'wouter/use-browser-location';
import { CalendarClock, Clock, Info, TrendingUp } from 'lucide-react';
import { OPPORTUNITY_TYPE_LABELS, formatDeadlineShort, type BrandOpportunityItem } from '@shared/opportunity';
import { formatUsd } from '@shared/money';
import { ON_TIME_MIN_PLACEMENTS, SOURCE_LABELS } from '@shared/outlets';
import { Badge } from '@/components/ui/badge';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { TopicChips, outletFacts } from '@/components/outlet/catalogue-facts';
import { OutletLogo } from '@/components/outlet/outlet-logo';
import { formatMetricDay, formatShare } from '@/components/outlet/outlet-text';
import { Availability } from './availability';
import { CartButton } from './cart-button';
import { SaveButton } from './save-button';

/** One card of the browse list; memoised, so the list's other state changes leave 1,000 cards alone. */
/*
 * The card's icons, drawn once per page as SVG symbols and referenced with <use>: a thousand cards
 * then create two elements per icon instead of a full lucide component each.
 */
const ICONS = { deadline: CalendarClock, tat: Clock, info: Info, da: TrendingUp } as const;
type IconName = keyof typeof ICONS;

export function OpportunityCardIcons() {
  return (
    <svg aria-hidden width="0" height="0" className="absolute">
      <defs>
        {Object.entries(ICONS).map(([name, Icon]) => (
          <symbol key={name} id={`opportunity-icon-${name}`} viewBox="0 0 24 24">
            <Icon width={24} height={24} />
          </symbol>
        ))}
      </defs>
    </svg>
  );
}

function CardIcon({ name, className }: { name: IconName; className: string }) {
  return (
    <svg aria-hidden className={className}>
      <use href={`#opportunity-icon-${name}`} />
    </svg>
  );
}

/**
 * The outlet's name opens the outlet's page. A plain link with one handler for every card, not a
 * router Link (a thousand of those would each follow the location): a plain click navigates in
 * the app, a modified one (new tab, new window) is left to the browser.
 */
function openOutlet(e: React.MouseEvent<HTMLAnchorElement>) {
  // the card's own button lies under the name: the click is the link's alone
  e.stopPropagation();
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(e.currentTarget.pathname);
}

/**
 * Byline's record of the outlet in a line ("Delivered 3 · 75% on time"), and its newest domain
 * rating or authority from an SEO tool with its date; nothing for an outlet with neither.
 */
function OutletRecordLines({ outlet }: { outlet: BrandOpportunityItem['outlet'] }) {
  if (!outlet) return null;
  let score: (typeof outlet.metrics)[number] | undefined;
  for (const m of outlet.metrics) {
    if ((m.name === 'dr' || m.name === 'da') && (!score || m.asOf > score.asOf)) score = m;
  }
  if (outlet.delivered === 0 && !score) return null;
  return (
    <div className="space-y-0.5 text-xs text-muted-foreground">
      {outlet.delivered > 0 && (
        <p className="font-medium text-foreground" data-testid="card-outlet-record">
          Delivered {outlet.delivered}
          {/* a share of a handful is no record: below the minimum the outlet's page gives the count */}
          {outlet.onTimeRate !== null &&
            outlet.delivered >= ON_TIME_MIN_PLACEMENTS &&
            ` · ${formatShare(outlet.onTimeRate)} on time`}
        </p>
      )}
      {score && (
        <p className="flex items-center gap-0.5" data-testid="card-outlet-score">
          <span>
            {score.name === 'dr' ? 'DR' : 'DA'} {score.value} ({SOURCE_LABELS[score.source]},{' '}
            {formatMetricDay(score.asOf)})
          </span>
          <ScoreHint />
        </p>
      )}
    </div>
  );
}

/** What DR and DA are, beside a card's score (issue 57: the two sat side by side unexplained). */
const SCORE_HINT =
  'DR (Domain Rating, by Ahrefs) and DA (Domain Authority, by Moz; the one the listing states) both rate a website from 1 to 100, each on its own scale: compare DR with DR and DA with DA.';

function ScoreHint() {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          className="relative z-10 -my-1 inline-flex size-6 cursor-help items-center justify-center rounded-full hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-label="About DR and DA"
          onClick={(e) => e.stopPropagation()}
          data-testid="score-hint"
        >
          <CardIcon name="info" className="size-3.5" />
        </button>
      </TooltipTrigger>
      <TooltipContent>{SCORE_HINT}</TooltipContent>
    </Tooltip>
  );
}

export const OpportunityCard = React.memo(function OpportunityCard({
  opportunity: o,
  onOpen,
  inCart,
  canSave = true,
}: {
  opportunity: BrandOpportunityItem;
  onOpen: (o: BrandOpportunityItem) => void;
  /** the member's role may save to the shortlist (not a viewer's) */
  canSave?: boolean;
  /** whether it is in the member's cart; undefined: no cart (the member cannot buy, or it loads) */
  inCart?: boolean;
}) {
  const firstType = o.type[0];
  const facts = outletFacts(o);
  const name = `${o.outletName}: ${o.title}${o.soldOut ? ' (sold out)' : ''}`;
  return (
    <div
      data-testid="opportunity-card"
      // off-screen cards skip layout and paint until scrolled near (sized by their last render)
      className="group relative flex cursor-pointer flex-col gap-4 rounded-xl border bg-card p-5 text-left shadow-sm transition [contain-intrinsic-size:auto_300px] [content-visibility:auto] hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-md has-[[data-card-open]:focus-visible]:ring-2 has-[[data-card-open]:focus-visible]:ring-ring"
    >
      {/*
        The card opens through this one button, laid over the whole card: a click anywhere on it
        lands here, while Save, the price's explanation and "Add to cart" sit above it (z-10). A card
        that were a button itself could not hold those buttons (nested interactive controls).
      */}
      <button
        type="button"
        data-card-open
        aria-label={name}
        onClick={() => onOpen(o)}
        className="absolute inset-0 cursor-pointer rounded-xl focus-visible:outline-none"
      />
      <div className="flex items-start gap-3">
        <OutletLogo name={o.outletName} logoUrl={o.logoUrl} />
        <div className="min-w-0 flex-1 space-y-1">
          {/* room on the right for the Save button, which sits in the card's corner */}
          <div className="flex min-h-5 flex-wrap gap-1 pr-20">
            {/* badges and facts wrap rather than end in "…" mid-word (issue 43) */}
            {firstType && (
              <Badge variant="info" className="max-w-full whitespace-normal">
                {OPPORTUNITY_TYPE_LABELS[firstType]}
              </Badge>
            )}
            {o.soldOut && <Badge variant="destructive">Sold out</Badge>}
          </div>
          <p className="truncate font-semibold">
            {o.outletId ? (
              <a
                href={`/brand/outlets/${o.outletId}`}
                onClick={openOutlet}
                // a whole line high (24 px: WCAG 2.2 target-size), ending in "…" when the name is long
                className="relative z-10 block w-fit max-w-full truncate rounded-sm leading-6 underline-offset-4 hover:text-primary hover:underline focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
                data-testid="card-outlet-link"
              >
                {o.outletName}
              </a>
            ) : (
              o.outletName
            )}
          </p>
          {facts.length > 0 && <p className="break-words text-xs text-muted-foreground">{facts.join(' · ')}</p>}
          <OutletRecordLines outlet={o.outlet} />
        </div>
        {canSave && <SaveButton opportunity={o} className="absolute right-4 top-4 h-7 px-2.5" />}
      </div>
      <div className="flex flex-wrap gap-2 text-xs">
        {o.deadlineDate && (
          <span className="inline-flex items-center gap-1 rounded-full bg-amber-50 px-2 py-1 font-medium text-amber-800">
            <CardIcon name="deadline" className="size-3.5" /> Deadline {formatDeadlineShort(o.deadlineDate)}
          </span>
        )}
        {o.tat && (
          <span className="inline-flex items-center gap-1 rounded-full bg-muted px-2 py-1 font-medium text-muted-foreground">
            <CardIcon name="tat" className="size-3.5" /> {o.tat}
          </span>
        )}
      </div>
      {o.promise && <LiveBy liveBy={o.promise.liveBy} usuallyBy={o.promise.usuallyBy} className="-mt-2 text-xs" />}
      <h2 className="line-clamp-2 text-base font-semibold leading-snug group-hover:text-primary">{o.title}</h2>
      <TopicChips topics={o.topics} max={3} className="-mt-2" />
      <div className="mt-auto space-y-4">
        {/* a sold out one says so in its badge; the bar would only repeat it */}
        {!o.soldOut && <Availability opportunity={o} />}
        <div className="flex items-end justify-between border-t pt-3">
          <div>
            <div className="flex items-center gap-1 text-xs text-muted-foreground">
              Price
              {/* a 24 px target (WCAG 2.2 target-size) around the 14 px icon; the negative margins keep the row as it was */}
              <Tooltip>
                <TooltipTrigger asChild>
                  <button
                    type="button"
                    className="relative z-10 -my-1 -ml-1 inline-flex size-6 cursor-help items-center justify-center rounded-full hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    aria-label="About the price"
                    onClick={(e) => e.stopPropagation()}
                  >
                    <CardIcon name="info" className="size-3.5" />
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
                <CardIcon name="da" className="size-4 text-emerald-600" /> DA {o.domainAuthority}
              </p>
            </div>
          )}
        </div>
        {inCart !== undefined && <CartButton opportunity={o} inCart={inCart} className="w-full" />}
      </div>
    </div>
  );
});
