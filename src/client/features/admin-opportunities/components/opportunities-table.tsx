import { Link } from 'wouter';
import { Pencil } from 'lucide-react';
import { formatUsd } from '@shared/money';
import {
  OPPORTUNITY_STATUS_LABELS,
  OPPORTUNITY_TYPE_LABELS,
  filledPercent,
  type AdminOpportunityItem,
  type Opportunity,
  type OpportunityStatus,
} from '@shared/opportunity';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { useIsMobile } from '@/lib/use-mobile';
import { cn } from '@/lib/utils';
import { MarkPublishedButton } from './mark-published-dialog';

const STATUS_VARIANT: Record<OpportunityStatus, 'success' | 'info' | 'warning' | 'secondary' | 'destructive'> = {
  available: 'success',
  claimed: 'info',
  in_progress: 'warning',
  published: 'secondary',
  full: 'destructive',
};

const COLUMNS = ['Outlet', 'Title', 'Type', 'Price', 'Status', 'Slots', 'Actions'];
const EMPTY = 'No opportunities found';

/**
 * How an outlet's name wraps in its column: between words (with `anywhere` everywhere, a squeezed
 * column cut "Business Weekly" mid-word, issue 43); only a name with a word too long for any column
 * may break inside it, or it would widen the table.
 */
const wrapOf = (name: string) => (/\S{20,}/.test(name) ? 'wrap-anywhere' : 'wrap-break-word');

/** The admin table shows only the first type (spec §3). */
const firstTypeLabel = (o: Opportunity) => (o.type[0] ? OPPORTUNITY_TYPE_LABELS[o.type[0]] : '');

const StatusBadge = ({ o }: { o: Opportunity }) => <Badge variant={STATUS_VARIANT[o.status]}>{OPPORTUNITY_STATUS_LABELS[o.status]}</Badge>;

function Slots({ o }: { o: Opportunity }) {
  return (
    <div className="w-20 space-y-1">
      <span className="tabular-nums">
        {o.filledSlots}/{o.maxSlots}
      </span>
      {o.type.includes('listicle') && <Progress value={filledPercent(o)} label={`${o.title} slots filled`} />}
    </div>
  );
}

function Actions({ o }: { o: AdminOpportunityItem }) {
  return (
    <div className="flex items-center gap-2">
      <Button asChild variant="outline" size="icon" aria-label={`Edit ${o.title}`} title="Edit">
        <Link href={`/admin/edit-opportunity/${o.id}`}>
          <Pencil />
        </Link>
      </Button>
      <MarkPublishedButton o={o} />
    </div>
  );
}

function Table({ items }: { items: AdminOpportunityItem[] }) {
  return (
    // scrolls sideways inside its card when the screen is narrow, so the page never widens
    <div className="overflow-x-auto">
      <table className="w-full min-w-[800px] text-sm">
        <thead>
          <tr className="border-b bg-muted/50 text-left text-muted-foreground">
            {COLUMNS.map((c) => (
              <th key={c} scope="col" className="px-3 py-3 font-medium whitespace-nowrap">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.length === 0 ? (
            <tr>
              <td colSpan={COLUMNS.length} className="px-3 py-12 text-center text-muted-foreground">
                {EMPTY}
              </td>
            </tr>
          ) : (
            items.map((o) => (
              <tr key={o.id} className="border-b last:border-0 hover:bg-muted/40" data-testid="opportunity-row">
                <td className="px-3 py-3 font-medium">
                  <span className={cn('block min-w-28 max-w-48', wrapOf(o.outletName))}>{o.outletName}</span>
                </td>
                <td className="min-w-48 px-3 py-3">
                  <span className="line-clamp-2 wrap-anywhere" title={o.title}>
                    {o.title}
                  </span>
                </td>
                <td className="max-w-36 px-3 py-3 text-muted-foreground">{firstTypeLabel(o)}</td>
                <td className="px-3 py-3 whitespace-nowrap tabular-nums">{formatUsd(o.priceUsd)}</td>
                <td className="px-3 py-3">
                  <StatusBadge o={o} />
                </td>
                <td className="px-3 py-3">
                  <Slots o={o} />
                </td>
                <td className="px-3 py-3">
                  <Actions o={o} />
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Phones: one stacked card per opportunity with the same fields as the table's columns. */
function CardList({ items }: { items: AdminOpportunityItem[] }) {
  if (items.length === 0) return <p className="px-4 py-12 text-center text-sm text-muted-foreground">{EMPTY}</p>;
  return (
    <ul className="divide-y">
      {items.map((o) => (
        <li key={o.id} className="space-y-3 p-4" data-testid="opportunity-row">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <p className="text-xs font-medium text-muted-foreground">{o.outletName}</p>
              <p className="font-medium">{o.title}</p>
            </div>
            <StatusBadge o={o} />
          </div>
          <dl className="grid grid-cols-3 gap-2 text-sm">
            <div>
              <dt className="text-xs text-muted-foreground">Type</dt>
              <dd>{firstTypeLabel(o)}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Price</dt>
              <dd className="tabular-nums">{formatUsd(o.priceUsd)}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Slots</dt>
              <dd>
                <Slots o={o} />
              </dd>
            </div>
          </dl>
          <Actions o={o} />
        </li>
      ))}
    </ul>
  );
}

export function OpportunitiesTable({ items }: { items: AdminOpportunityItem[] }) {
  return useIsMobile() ? <CardList items={items} /> : <Table items={items} />;
}
