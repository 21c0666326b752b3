import * as React from 'react';
import { format } from 'date-fns';
import { Link } from 'wouter';
import { AlertTriangle, CalendarDays, CheckCircle2, ExternalLink, Mail } from 'lucide-react';
import type { PendingBrand } from '@shared/schemas/invite-code';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useApproveBrand, usePendingBrands } from '../api/pending-brands';
import { LoadMore } from '@/components/ui/load-more';
import { NoSearchResults, SearchBox } from '@/components/search-box';
import { useUrlSearch } from '@/lib/use-url-search';
import { QueryError } from '@/components/query-error';

/**
 * Another organisation has a member at this brand's e-mail domain (issue 57): perhaps a second
 * organisation of one company, whose person should have been invited to the first instead.
 */
function SameDomainWarning({ brand }: { brand: PendingBrand }) {
  const domain = brand.email.split('@')[1] ?? '';
  const many = brand.sameDomain.length > 1;
  return (
    <div className="flex gap-2 rounded-md border border-amber-200 bg-amber-50 p-2.5 text-sm text-amber-900" role="note" data-testid="same-domain-warning">
      <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
      <p className="min-w-0 wrap-anywhere">
        {many ? 'Organisations' : 'An organisation'} with members at @{domain} already {many ? 'exist' : 'exists'}:{' '}
        {brand.sameDomain.map((o, i) => (
          <React.Fragment key={o.id}>
            {i > 0 && ', '}
            <Link href={`/admin/organisations/${o.id}`} className="font-medium underline underline-offset-2">
              {o.name}
            </Link>
          </React.Fragment>
        ))}
        . If this person works there, they should be invited to it rather than start a second organisation.
      </p>
    </div>
  );
}

function BrandRow({ brand }: { brand: PendingBrand }) {
  const approve = useApproveBrand();
  const onApprove = () =>
    approve.mutate(brand.id, {
      onSuccess: () => toast({ title: 'Brand approved', description: 'The brand account has been approved successfully.' }),
      onError: () => toast({ title: 'Error', description: 'Failed to approve brand. Please try again.', variant: 'destructive' }),
    });
  return (
    <Card data-testid="pending-brand">
      <CardContent className="flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0 space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="min-w-0 font-semibold wrap-anywhere">{brand.name}</h2>
            <Badge variant="warning">Pending Review</Badge>
          </div>
          <p className="text-sm font-medium">{brand.brandName}</p>
          <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
            <span className="inline-flex min-w-0 items-center gap-1 wrap-anywhere">
              <Mail className="size-3.5 shrink-0" /> {brand.email}
            </span>
            {brand.website && (
              <a href={brand.website} target="_blank" rel="noopener noreferrer" className="inline-flex min-w-0 items-center gap-1 text-primary wrap-anywhere hover:underline">
                <ExternalLink className="size-3.5 shrink-0" /> {brand.website.replace(/^https?:\/\//, '')}
              </a>
            )}
            <span className="inline-flex items-center gap-1">
              <CalendarDays className="size-3.5" /> Joined {format(new Date(brand.createdAt), 'MMM d, yyyy')}
            </span>
          </div>
          {brand.sameDomain.length > 0 && <SameDomainWarning brand={brand} />}
        </div>
        <Button onClick={onApprove} disabled={approve.isPending} className="shrink-0">
          {approve.isPending ? 'Approving...' : 'Approve'}
        </Button>
      </CardContent>
    </Card>
  );
}

export function ApprovalsPage() {
  const search = useUrlSearch();
  const list = usePendingBrands(search.q);
  const { isLoading } = list;
  const data = list.items;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Brand Approvals</h1>
        <p className="text-muted-foreground">Review and approve brands that have completed their profile</p>
      </div>
      <SearchBox search={search} id="approvals-search" />
      {isLoading ? (
        <PageSpinner />
      ) : list.isError && !data ? (
        <QueryError query={list} title="Couldn't load the pending brands" />
      ) : !data?.length && search.q ? (
        <NoSearchResults what="pending brands" search={search} />
      ) : !data?.length ? (
        <EmptyState icon={<CheckCircle2 />} title="All caught up!" description="No pending brand approvals at the moment" />
      ) : (
        <div className="space-y-3">
          {data.map((b) => (
            <BrandRow key={b.id} brand={b} />
          ))}
          <LoadMore pager={list} />
        </div>
      )}
    </div>
  );
}
