import * as React from 'react';
import { useLocation, useParams } from 'wouter';
import { SearchX } from 'lucide-react';
import { opportunityToFormValues, type OpportunityFormValues, type OpportunityRequest } from '@shared/schemas/opportunity';
import { deadlineDay, type Opportunity } from '@shared/opportunity';
import type { Versioned } from '@shared/schemas/version';
import { StaleCopyDialog } from '@/components/stale-copy-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { mergeValues, type ValuesMerge } from '@/lib/merge-values';
import { useAdminOpportunity } from '../api/get-opportunity';
import { useUpdateOpportunity } from '../api/update-opportunity';
import { OpportunityForm } from '../components/opportunity-form';
import { FormPageHeader } from '../components/page-header';
import { QueryError } from '@/components/query-error';

/** The form's fields by the names its labels show (the stale-copy dialog lists them). */
const FIELD_LABELS: Record<keyof OpportunityFormValues, string> = {
  outletName: 'Outlet Name',
  outletUrl: 'Outlet URL',
  logoUrl: 'Logo',
  title: 'Title',
  description: 'Description',
  type: 'Type',
  tat: 'Turnaround Time',
  tatDays: 'Turnaround days',
  linkType: 'Link type',
  topics: 'Topics',
  country: 'Country',
  language: 'Language',
  priceUsd: 'Price (USD)',
  maxSlots: 'Max Slots',
  domainAuthority: 'Domain Authority',
  deadlineDate: 'Deadline',
  exampleUrls: 'Examples',
};

/** What the form shows: the copy it saves on (its version), and the values it starts from. */
interface Copy {
  base: Versioned<Opportunity>;
  values: OpportunityFormValues;
}

/** A save refused for an older copy: the newer one and the merge offered (decision 019). */
interface Stale {
  current: Versioned<Opportunity>;
  theirs: OpportunityFormValues;
  merge: ValuesMerge<OpportunityFormValues>;
}

function EditForm({ opened, onSaved }: { opened: Versioned<Opportunity>; onSaved: () => void }) {
  const update = useUpdateOpportunity(opened.id);
  // the copy the form was opened on, kept while the query refetches: a save says which one it edited
  const [copy, setCopy] = React.useState<Copy>(() => ({ base: opened, values: opportunityToFormValues(opened) }));
  const [stale, setStale] = React.useState<Stale | null>(null);
  // what the form starts from; a new copy (combined or loaded) remounts the form with its values
  const [initial, setInitial] = React.useState<OpportunityFormValues>(copy.values);
  const [generation, setGeneration] = React.useState(0);

  const onSubmit = async (values: OpportunityRequest, typed: OpportunityFormValues) => {
    try {
      await update.mutateAsync({ input: values, baseVersion: copy.base.version });
    } catch (err) {
      const current = err instanceof ApiError && err.status === 409 ? (err.body?.current as Versioned<Opportunity> | undefined) : undefined;
      if (current) {
        const theirs = opportunityToFormValues(current);
        setStale({ current, theirs, merge: mergeValues(copy.values, typed, theirs) });
        return;
      }
      toast(
        err instanceof ApiError && err.message
          ? { title: 'Update failed', description: err.message, variant: 'destructive' }
          : { title: 'Error', description: 'Failed to update opportunity', variant: 'destructive' },
      );
      throw err;
    }
    toast({ title: 'Opportunity updated', description: 'The opportunity has been updated successfully' });
    onSaved();
  };

  const resolve = (values: OpportunityFormValues) => {
    if (!stale) return;
    // the base is now the newer copy: a field it holds that the form keeps is no longer "changed by you"
    setCopy({ base: stale.current, values: stale.theirs });
    setStale(null);
    setInitial(values);
    setGeneration((g) => g + 1);
  };

  return (
    <>
      <OpportunityForm
        key={generation}
        defaultValues={initial}
        keepDeadline={copy.base.deadlineDate ? deadlineDay(copy.base.deadlineDate) : null}
        submitLabel="Save Changes"
        pendingLabel="Saving..."
        onSubmit={onSubmit}
      />
      {stale && (
        <StaleCopyDialog
          title="This opportunity was changed by someone else"
          merge={stale.merge}
          theirs={stale.theirs}
          labels={FIELD_LABELS}
          onCombine={() => resolve(stale.merge.values)}
          onLoadNewer={() => resolve(stale.theirs)}
        />
      )}
    </>
  );
}

export function EditOpportunityPage() {
  const { id = '' } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const opportunity = useAdminOpportunity(id);
  const { data, isLoading } = opportunity;
  const missing = opportunity.error instanceof ApiError && opportunity.error.status === 404;

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
        <EditForm key={data.id} opened={data} onSaved={() => navigate('/admin')} />
      )}
    </div>
  );
}
