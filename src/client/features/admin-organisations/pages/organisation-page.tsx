import { format } from 'date-fns';
import { AlertTriangle, ArrowLeft, Building2, CalendarDays, FileText, Users, Wallet } from 'lucide-react';
import { Link, useParams } from 'wouter';
import { formatUsd } from '@shared/money';
import { ORG_ROLE_LABELS } from '@shared/org';
import type { AdminOrganisation, OrgMember } from '@shared/schemas/org';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api';
import { cn } from '@/lib/utils';
import { useAdminOrganisation } from '../api/organisation';

const H1 = 'text-2xl font-semibold tracking-tight wrap-anywhere';

/** "2026-05" → "May 2026" (the month is the server's, in UTC: read as a calendar month, not an instant). */
function monthLabel(month: string) {
  const [y, m] = month.split('-').map(Number);
  return y && m ? format(new Date(y, m - 1, 1), 'MMMM yyyy') : month;
}

function Stat({ title, value, hint, icon, testId }: { title: string; value: string; hint: string; icon: React.ReactNode; testId: string }) {
  return (
    <Card>
      <CardContent className="flex items-center justify-between gap-3 p-5">
        <div className="min-w-0">
          <p className="text-sm font-medium text-muted-foreground">{title}</p>
          <p className="text-2xl font-semibold tabular-nums wrap-anywhere" data-testid={testId}>
            {value}
          </p>
          <p className="text-xs text-muted-foreground">{hint}</p>
        </div>
        <div className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary [&_svg]:size-5">{icon}</div>
      </CardContent>
    </Card>
  );
}

/** "All clients", or the names of the clients the member is limited to. */
function clientsOf(member: OrgMember, clients: AdminOrganisation['clients']) {
  if (member.clientIds === null) return 'All clients';
  const names = member.clientIds.map((id) => clients.find((c) => c.id === id)?.name).filter((n): n is string => Boolean(n));
  return names.length ? names.join(', ') : 'No clients';
}

// below md a row is a card: each cell on its own line, named by its column (as the audit log)
const CELL =
  'px-4 py-2 align-top max-md:flex max-md:gap-3 max-md:py-0.5 max-md:before:w-16 max-md:before:shrink-0 max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)]';

function Members({ org }: { org: AdminOrganisation }) {
  const n = org.members.length;
  return (
    <Card className="overflow-hidden">
      <CardHeader className="pb-3">
        <CardTitle className="flex items-center gap-2 text-base">
          <Users className="size-4 text-muted-foreground" aria-hidden /> Members
          <span className="font-normal text-muted-foreground">({n})</span>
        </CardTitle>
      </CardHeader>
      <table className="w-full text-left text-sm max-md:block">
        <thead className="border-y bg-muted/40 text-xs text-muted-foreground max-md:sr-only">
          <tr>
            {['Name', 'E-mail', 'Role', 'Clients'].map((h) => (
              <th key={h} scope="col" className="px-4 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="max-md:block max-md:border-t">
          {org.members.map((m) => (
            <tr key={m.id} className="border-b last:border-0 max-md:block max-md:py-3" data-testid="org-member">
              <td data-label="Name" className={cn(CELL, 'font-medium wrap-anywhere')}>
                {m.name || <span className="font-normal text-muted-foreground">—</span>}
              </td>
              <td data-label="E-mail" className={cn(CELL, 'wrap-anywhere')}>
                {m.email}
              </td>
              <td data-label="Role" className={cn(CELL, 'md:whitespace-nowrap')}>
                {ORG_ROLE_LABELS[m.role]}
              </td>
              <td data-label="Clients" className={cn(CELL, 'wrap-anywhere')} data-testid="org-member-clients">
                {clientsOf(m, org.clients)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function Clients({ clients }: { clients: AdminOrganisation['clients'] }) {
  return (
    <Card>
      <CardHeader className="pb-3">
        <CardTitle className="flex items-center gap-2 text-base">
          <Building2 className="size-4 text-muted-foreground" aria-hidden /> Clients
          <span className="font-normal text-muted-foreground">({clients.length})</span>
        </CardTitle>
      </CardHeader>
      {clients.length === 0 ? (
        <CardContent>
          <p className="text-sm text-muted-foreground">No clients yet: every placement is bought for the organisation itself.</p>
        </CardContent>
      ) : (
        <ul className="divide-y border-t text-sm" data-testid="org-clients">
          {clients.map((c) => (
            <li key={c.id} className="px-4 py-2.5 wrap-anywhere">
              {c.name}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function Organisation({ org }: { org: AdminOrganisation }) {
  return (
    <>
      <div className="space-y-1.5">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
          <h1 className={H1}>{org.name}</h1>
          <Badge variant={org.approved ? 'success' : 'warning'} data-testid="org-approval">
            {org.approved ? 'Approved' : 'Awaiting approval'}
          </Badge>
        </div>
        <p className="flex items-center gap-1.5 text-sm text-muted-foreground" data-testid="org-created">
          <CalendarDays className="size-4 shrink-0" aria-hidden /> Created {format(new Date(org.createdAt), 'MMM d, yyyy')}
        </p>
      </div>
      <section aria-label="Spend" className="grid gap-4 sm:grid-cols-3">
        <Stat
          title={`Spent in ${monthLabel(org.month)}`}
          value={formatUsd(org.spentUsd)}
          hint="This month (UTC), minus refunds"
          icon={<CalendarDays />}
          testId="org-spent"
        />
        <Stat title="Paid in total" value={formatUsd(org.paidTotalUsd)} hint="All time, minus refunds" icon={<Wallet />} testId="org-paid-total" />
        <Stat
          title="Placements"
          value={String(org.placements)}
          hint="Bought, refunded ones included"
          icon={<FileText />}
          testId="org-placements"
        />
      </section>
      <Members org={org} />
      <Clients clients={org.clients} />
    </>
  );
}

/** /admin/organisations/{id}: an organisation as the editorial team sees it (decision 033, 035). */
export function OrganisationPage() {
  const { id = '' } = useParams<{ id: string }>();
  const query = useAdminOrganisation(id);
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  return (
    <div className="space-y-6">
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link href="/admin/organisations">
          <ArrowLeft /> All organisations
        </Link>
      </Button>
      {query.isLoading ? (
        <PageSpinner />
      ) : query.data ? (
        <Organisation org={query.data} />
      ) : notFound ? (
        <div role="alert" className="space-y-1 rounded-xl border border-destructive/40 bg-card px-6 py-10 text-center" data-testid="org-not-found">
          <AlertTriangle className="mx-auto mb-3 size-10 text-destructive" aria-hidden />
          <h1 className="text-xl font-semibold">Organisation not found</h1>
          <p className="text-sm text-muted-foreground">There is no organisation at this address. The link may be wrong or out of date.</p>
        </div>
      ) : (
        <>
          <h1 className={H1}>Organisation</h1>
          <QueryError query={query} title="Couldn't load the organisation" />
        </>
      )}
    </div>
  );
}
