import { useLocation } from 'wouter';
import type { OpportunityRequest } from '@shared/schemas/opportunity';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { useCreateOpportunity } from '../api/create-opportunity';
import { OpportunityForm } from '../components/opportunity-form';
import { FormPageHeader } from '../components/page-header';

export function NewOpportunityPage() {
  const [, navigate] = useLocation();
  const create = useCreateOpportunity();

  const onSubmit = async (values: OpportunityRequest) => {
    try {
      await create.mutateAsync(values);
    } catch (err) {
      toast(
        err instanceof ApiError && err.message
          ? { title: 'Creation failed', description: err.message, variant: 'destructive' }
          : { title: 'Error', description: 'Failed to create opportunity', variant: 'destructive' },
      );
      throw err;
    }
    toast({ title: 'Opportunity created', description: 'The opportunity has been created successfully' });
    navigate('/admin');
  };

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <FormPageHeader title="New Opportunity" description="Add a placement to the catalogue" />
      <OpportunityForm submitLabel="Create Opportunity" pendingLabel="Creating..." onSubmit={onSubmit} />
    </div>
  );
}
