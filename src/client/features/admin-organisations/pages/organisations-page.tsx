import { format } from 'date-fns';
import { Link } from 'wouter';
import { Building2, CalendarDays, FileText, Mail, Users } from 'lucide-react';
import type { AdminOrganisationItem } from '@shared/schemas/org';
import { QueryError } from '@/components/query-error';
import { NoSearchResults, SearchBox } from '@/components/search-box';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadMore } from '@/components/ui/load-more';
import { PageSpinner } from '@/components/ui/spinner';
import { useUrlSearch } from '@/lib/use-url-search';
import { useAdminOrganisations } from '../api/organisation';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function OrganisationRow({ org }: { org: AdminOrganisationItem }) {
  return (
    <Card data-testid="organisation-row">
      <CardContent className="flex flex-col gap-2 p-5">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="min-w-0 font-semibold wrap-anywhere">
            <Link href={`/admin/organisations/${org.id}`} className="text-primary underline-offset-4 hover:underline">
              {org.name}
            </Link>
          </h2>
          {!org.approved && <Badge variant="warning">Pending Review</Badge>}
        </div>
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
          {org.owner && (
            <span className="inline-flex min-w-0 items-center gap-1 wrap-anywhere">
              <Mail className="size-3.5 shrink-0" aria-hidden /> Owner {org.owner.name ?? org.owner.email}
              {org.owner.name ? ` (${org.owner.email})` : ''}
            </span>
          )}
          <span className="inline-flex items-center gap-1">
            <Users className="size-3.5" aria-hidden /> {plural(org.memberCount, 'member', 'members')}
          </span>
          <span className="inline-flex items-center gap-1">
            <Building2 className="size-3.5" aria-hidden /> {plural(org.clientCount, 'client', 'clients')}
          </span>
          <span className="inline-flex items-center gap-1">
            <FileText className="size-3.5" aria-hidden /> {plural(org.placements, 'placement', 'placements')}
          </span>
          <span className="inline-flex items-center gap-1">
            <CalendarDays className="size-3.5" aria-hidden /> Since {format(new Date(org.createdAt), 'MMM d, yyyy')}
          </span>
        </div>
      </CardContent>
    </Card>
  );
}

/** /admin/organisations: every organisation, newest first, found by its name or a member's (issue 57). */
export function OrganisationsPage() {
  const search = useUrlSearch();
  const list = useAdminOrganisations(search.q);
  const data = list.items;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Organisations</h1>
        <p className="text-muted-foreground">Every brand's organisation: its owner, team, clients and placements</p>
      </div>
      <SearchBox search={search} id="organisations-search" />
      {list.isLoading ? (
        <PageSpinner />
      ) : list.isError && !data ? (
        <QueryError query={list} title="Couldn't load the organisations" />
      ) : !data?.length && search.q ? (
        <NoSearchResults what="organisations" search={search} />
      ) : !data?.length ? (
        <EmptyState icon={<Building2 />} title="No organisations yet" description="A brand's organisation appears here once it completes its profile." />
      ) : (
        <div className="space-y-3">
          {data.map((o) => (
            <OrganisationRow key={o.id} org={o} />
          ))}
          <LoadMore pager={list} />
        </div>
      )}
    </div>
  );
}
