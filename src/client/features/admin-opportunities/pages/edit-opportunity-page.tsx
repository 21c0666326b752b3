import { useLocation, useParams } from 'wouter';
import { SearchX } from 'lucide-react';
import { opportunityToFormValues, type OpportunityRequest } from '@shared/schemas/opportunity';
import { deadlineDay } from '@shared/opportunity';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { useAdminOpportunity } from '../api/get-opportunity';
import { useUpdateOpportunity } from '../api/update-opportunity';
import { OpportunityForm } from '../components/opportunity-form';
import { FormPageHeader } from '../components/page-header';
import { QueryError } from '@/components/query-error';

export function EditOpportunityPage() {
  const { id = '' } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const opportunity = useAdminOpportunity(id);
  const { data, isLoading } = opportunity;
  const missing = opportunity.error instanceof ApiError && opportunity.error.status === 404;
  const update = useUpdateOpportunity(id);

  const onSubmit = async (values: OpportunityRequest) => {
    try {
      await update.mutateAsync(values);
    } catch (err) {
      toast(
        err instanceof ApiError && err.message
          ? { title: 'Update failed', description: err.message, variant: 'destructive' }
          : { title: 'Error', description: 'Failed to update opportunity', variant: 'destructive' },
      );
      throw err;
    }
    toast({ title: 'Opportunity updated', description: 'The opportunity has been updated successfully' });
    navigate('/admin');
  };

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <FormPageHeader title="Edit Opportunity" description={data ? `${data.outletName}: ${data.title}` : 'Change a placement in the catalogue'} />
      {isLoading ? (
        <PageSpinner />
      ) : !data && !missing ? (
        <QueryError query={opportunity} title="Couldn't load the opportunity" />
      ) : !data ? (
        <EmptyState icon={<SearchX />} title="Opportunity not found" description="It may have been removed, or the link is wrong." />
      ) : (
        // keyed by id: another opportunity starts a fresh form
        <OpportunityForm
          key={data.id}
          defaultValues={opportunityToFormValues(data)}
          keepDeadline={data.deadlineDate ? deadlineDay(data.deadlineDate) : null}
          submitLabel="Save Changes"
          pendingLabel="Saving..."
          onSubmit={onSubmit}
        />
      )}
    </div>
  );
}
