import { format } from 'date-fns';
import { Download, ScrollText, ShieldAlert } from 'lucide-react';
import { Link, useSearchParams } from 'wouter';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, roleCan, type AuditAction } from '@shared/org';
import type { AuditActor, AuditEntry, AuditQuery } from '@shared/schemas/org';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { LoadMore } from '@/components/ui/load-more';
import { PageSpinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import { auditParams, useAuditActors, useAuditLog } from '../api/audit';
import { useOrg } from '@/lib/org';
import { apiUrl } from '@shared/api-paths';

const FILTERS = ['actor', 'action', 'from', 'to'] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The filters in the page's URL, so a reload or a shared link shows the same entries; anything malformed is left out. */
function useAuditFilters() {
  const [params, setParams] = useSearchParams();
  const action = params.get('action');
  const from = params.get('from');
  const to = params.get('to');
  const filters: AuditQuery = {
    actor: params.get('actor') || undefined,
    action: AUDIT_ACTIONS.includes(action as AuditAction) ? (action as AuditAction) : undefined,
    from: from && DATE.test(from) ? from : undefined,
    to: to && DATE.test(to) ? to : undefined,
  };
  const set = (name: (typeof FILTERS)[number], value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  return { filters, set, any: FILTERS.some((f) => filters[f]) };
}

// below md a row is a card: each cell on its own line, named by its column
const CELL = 'px-4 py-2 align-top max-md:flex max-md:gap-3 max-md:py-0.5 max-md:before:w-20 max-md:before:shrink-0 max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)]';

/** What the entry is about, in words; a placement or an order links to its page. */
function Subject({ entry }: { entry: AuditEntry }) {
  const href = entry.placementId ? `/brand/my-articles/${entry.placementId}` : entry.orderId ? `/brand/orders/${entry.orderId}` : null;
  return href ? (
    <Link href={href} className="text-primary underline underline-offset-2 hover:no-underline">
      {entry.title}
    </Link>
  ) : (
    <span>{entry.title}</span>
  );
}

function EntryRow({ entry }: { entry: AuditEntry }) {
  return (
    <tr className="border-b last:border-0 max-md:block max-md:py-3" data-testid="audit-entry">
      <td data-label="When" className={cn(CELL, 'whitespace-nowrap tabular-nums')}>
        {format(new Date(entry.at), 'MMM d, yyyy HH:mm')}
      </td>
      <td data-label="Member" className={cn(CELL, 'md:min-w-52')}>
        <div className="min-w-0">
          <p className="wrap-anywhere">{entry.actor.name || entry.actor.email}</p>
          {entry.actor.name && <p className="text-xs text-muted-foreground wrap-anywhere">{entry.actor.email}</p>}
        </div>
      </td>
      <td data-label="Action" className={cn(CELL, 'md:min-w-56')}>
        <div className="min-w-0">
          <p className="font-medium wrap-anywhere">{entry.actionText}</p>
          {entry.detailsText && <p className="text-xs text-muted-foreground wrap-anywhere">{entry.detailsText}</p>}
        </div>
      </td>
      <td data-label="Subject" className={cn(CELL, 'wrap-anywhere')}>
        <Subject entry={entry} />
      </td>
      <td data-label="Address" className={cn(CELL, 'md:whitespace-nowrap')}>
        <span className="font-mono text-xs wrap-anywhere">{entry.address ?? '—'}</span>
      </td>
    </tr>
  );
}

/** A person in the Member filter: one no longer a member, or of the editorial team, says so. */
function actorLabel(a: AuditActor): string {
  const name = a.name || a.email;
  return a.kind === 'former_member' ? `${name} (no longer a member)` : a.kind === 'editorial_team' ? `${name} (Byline editorial team)` : name;
}

const SELECT =
  'block h-9 w-full rounded-md border border-input bg-background px-3 text-base focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:text-sm';

function Filters({ filters, set }: ReturnType<typeof useAuditFilters>) {
  const actors = useAuditActors();
  const backwards = Boolean(filters.from && filters.to && filters.from > filters.to);
  return (
    <div className="grid gap-3 rounded-lg border bg-card p-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_auto_auto_auto] lg:items-end" data-testid="audit-filters">
      <div className="min-w-0 space-y-1.5">
        <Label htmlFor="audit-actor">Member</Label>
        <select id="audit-actor" value={filters.actor ?? ''} onChange={(e) => set('actor', e.target.value)} className={SELECT}>
          <option value="">All members</option>
          {actors.data?.map((a) => (
            <option key={a.id} value={a.id}>
              {actorLabel(a)}
            </option>
          ))}
        </select>
      </div>
      <div className="min-w-0 space-y-1.5">
        <Label htmlFor="audit-action">Action</Label>
        <select id="audit-action" value={filters.action ?? ''} onChange={(e) => set('action', e.target.value)} className={SELECT}>
          <option value="">All actions</option>
          {AUDIT_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {AUDIT_ACTION_LABELS[a]}
            </option>
          ))}
        </select>
      </div>
      <div className="min-w-0 space-y-1.5">
        <Label htmlFor="audit-from">From</Label>
        <Input id="audit-from" type="date" value={filters.from ?? ''} max={filters.to} onChange={(e) => set('from', e.target.value)} className="lg:w-40" />
      </div>
      <div className="min-w-0 space-y-1.5">
        <Label htmlFor="audit-to">To</Label>
        <Input id="audit-to" type="date" value={filters.to ?? ''} min={filters.from} onChange={(e) => set('to', e.target.value)} className="lg:w-40" />
      </div>
      <div className="sm:col-span-2 lg:col-span-1">
        {backwards ? (
          <p role="alert" className="text-sm font-medium text-destructive">
            “From” must not be after “To”
          </p>
        ) : (
          <Button asChild variant="outline" className="w-full lg:w-auto">
            <a href={apiUrl('/api/org/audit.csv', {}, auditParams(filters))} download>
              <Download className="size-4" aria-hidden="true" />
              Export CSV
            </a>
          </Button>
        )}
      </div>
    </div>
  );
}

function AuditLog() {
  const state = useAuditFilters();
  const list = useAuditLog(state.filters);
  const items = list.items ?? [];
  return (
    <>
      <Filters {...state} />
      {list.isLoading ? (
        <PageSpinner />
      ) : list.isError && !list.items ? (
        <QueryError query={list} title="Couldn't load the audit log" />
      ) : items.length === 0 ? (
        <EmptyState
          icon={<ScrollText />}
          title={state.any ? 'No entries match these filters' : 'Nothing recorded yet'}
          description={state.any ? 'Change or clear the filters to see more.' : 'Changes to the team, purchases and reviews appear here.'}
        />
      ) : (
        <Card className="overflow-hidden">
          <table className="w-full text-left text-sm max-md:block">
            <thead className="border-b bg-muted/40 text-xs text-muted-foreground max-md:sr-only">
              <tr>
                {['When', 'Member', 'Action', 'Subject', 'Address'].map((h) => (
                  <th key={h} scope="col" className="px-4 py-2 font-medium">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="max-md:block">
              {items.map((e) => (
                <EntryRow key={e.id} entry={e} />
              ))}
            </tbody>
          </table>
          <LoadMore pager={list} />
        </Card>
      )}
    </>
  );
}

/** Who changed what in the organisation, when and from where (decision 033): the owner and admins only. */
export function AuditLogPage() {
  const org = useOrg();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Audit log</h1>
        <p className="text-muted-foreground">Who changed what in your organisation, when, and from which address</p>
      </div>
      {org.isLoading ? (
        <PageSpinner />
      ) : org.isError ? (
        <QueryError query={org} title="Couldn't load your organisation" />
      ) : roleCan(org.data?.role, 'manage') ? (
        <AuditLog />
      ) : (
        <EmptyState icon={<ShieldAlert />} title="Only the owner or an admin can see the audit log" description="Ask them if you need to know who changed what." />
      )}
    </div>
  );
}
